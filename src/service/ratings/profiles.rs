//! What players see of each other: profiles (ratings, counts, current games), the history of
//! finished games, and leaderboards.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::Variant;
use crate::ratings::RatingParameters;
use crate::service::accounts::{Caller, Scope};
use crate::service::play::games::{summary, GameSummary};
use crate::service::ratings::GameOutcome;
use crate::service::{bad_cursor, cursor_number, parse_cursor, ServiceError, ServiceResult};
use crate::storage::games as game_store;
use crate::storage::ratings::{self as store, HistoryFilter, OutcomeFilter, RatingRow, ResultRow};
use crate::storage::Database;

/// Rating changes shown in a profile per variant (the history lists them all).
const PROFILE_CHANGES: i64 = 50;

/// A player's rating in one variant.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantRating {
    pub variant: Variant,
    /// Glicko-2 rating (1500 to begin with).
    pub rating: f64,
    /// Rating deviation: the smaller, the surer (350 to begin with).
    pub deviation: f64,
    pub volatility: f64,
    /// The deviation is still above the server's threshold: a provisional rating, not on the
    /// leaderboard.
    pub provisional: bool,
    pub rated_games: i32,
    /// When the last rated game ended (milliseconds since the Unix epoch).
    #[schema(required = true)]
    pub last_rated_at: Option<i64>,
    /// The latest changes (up to 50), newest first.
    pub changes: Vec<RatingChange>,
}

/// A rating after one rated game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    pub game_id: i64,
    /// When the game ended (milliseconds since the Unix epoch).
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
    /// The rating after minus the rating before.
    pub change: f64,
}

/// Finished games of one variant (rated and casual).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantRecord {
    pub variant: Variant,
    pub played: i64,
    pub won: i64,
    pub drawn: i64,
    pub lost: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayerProfile {
    pub name: String,
    /// A bot: one of the server's, or an outside bot.
    pub is_bot: bool,
    /// A bot its owner runs outside the server, through the API.
    pub outside_bot: bool,
    /// Games the player abandoned by letting the clock run out (finished or not).
    pub timed_out_games: i32,
    /// When the account was made (milliseconds since the Unix epoch).
    pub member_since: i64,
    /// One per variant played rated.
    pub ratings: Vec<VariantRating>,
    /// One per variant played.
    pub records: Vec<VariantRecord>,
    /// Games being played now.
    pub current_games: Vec<GameSummary>,
    /// Mean accuracy per variant over the player's reviewed games (`GET /games/{id}/review`).
    pub accuracy: Vec<crate::service::review::VariantAccuracy>,
}

fn variant_of(name: &str) -> ServiceResult<Variant> {
    Variant::parse(name).ok_or_else(|| ServiceError::Internal(format!("stored variant {name:?}")))
}

fn change_of(r: &ResultRow) -> Option<RatingChange> {
    Some(RatingChange {
        game_id: r.game_id,
        at: r.ended_at,
        rating: r.rating_after?,
        deviation: r.deviation_after?,
        change: r.rating_after? - r.rating_before?,
    })
}

pub fn profile(
    db: &Database,
    caller: &Caller,
    name: &str,
    params: &RatingParameters,
) -> ServiceResult<PlayerProfile> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let user = crate::storage::accounts::user_by_name(conn, name)?
            .ok_or(ServiceError::NotFound("player"))?;
        let ratings = store::ratings_of(conn, user.id)?
            .into_iter()
            .map(|r: RatingRow| {
                let changes = store::rating_changes(conn, user.id, &r.variant, PROFILE_CHANGES)?
                    .iter()
                    .filter_map(change_of)
                    .collect();
                Ok(VariantRating {
                    variant: variant_of(&r.variant)?,
                    rating: r.rating,
                    deviation: r.deviation,
                    volatility: r.volatility,
                    provisional: params.is_provisional(r.deviation),
                    rated_games: r.games,
                    last_rated_at: r.last_rated_at,
                    changes,
                })
            })
            .collect::<ServiceResult<_>>()?;
        let mut records: Vec<VariantRecord> = Vec::new();
        for (variant, outcome, count) in store::outcome_counts(conn, user.id)? {
            let variant = variant_of(&variant)?;
            let at = match records.iter().position(|r| r.variant == variant) {
                Some(i) => i,
                None => {
                    records.push(VariantRecord {
                        variant,
                        played: 0,
                        won: 0,
                        drawn: 0,
                        lost: 0,
                    });
                    records.len() - 1
                }
            };
            let record = &mut records[at];
            record.played += count;
            match GameOutcome::parse(&outcome) {
                GameOutcome::Won => record.won += count,
                GameOutcome::Drawn => record.drawn += count,
                GameOutcome::Lost => record.lost += count,
            }
        }
        records.sort_by_key(|r| r.variant.name());
        let current_games = game_store::active_seats_of(conn, user.id)?
            .iter()
            .map(|(row, _)| summary(row, &game_store::seats(conn, row.id)?))
            .collect::<ServiceResult<_>>()?;
        Ok(PlayerProfile {
            name: user.name,
            is_bot: user.is_bot,
            outside_bot: user.outside_bot,
            timed_out_games: user.timeouts,
            member_since: user.created_at,
            ratings,
            records,
            current_games,
            accuracy: crate::service::review::accuracy_of(conn, user.id)?,
        })
    })
}

/// Which finished games to list.
#[derive(Clone, Debug, Default)]
pub struct HistoryQuery {
    /// Games of this player; `None`: everyone's.
    pub player: Option<String>,
    pub variant: Option<Variant>,
    pub players: Option<u8>,
    /// The player's result; without `player`, `drawn` lists drawn games and `won` or `lost`
    /// the games someone won.
    pub result: Option<GameOutcome>,
    pub rated: Option<bool>,
    /// Ended at or after (milliseconds since the Unix epoch).
    pub since: Option<i64>,
    /// Ended before (milliseconds since the Unix epoch).
    pub until: Option<i64>,
}

/// One seat of a finished game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatResult {
    pub seat: u8,
    pub user: String,
    pub is_bot: bool,
    /// Final score.
    pub total: i32,
    /// 1 for the best; equal standings share a place (a seat that resigned or timed out ranks
    /// below those still in the game).
    pub place: i32,
    pub outcome: GameOutcome,
    /// Rated games: the rating before and after the game.
    #[schema(required = true)]
    pub rating_before: Option<f64>,
    #[schema(required = true)]
    pub rating_after: Option<f64>,
}

/// A finished game as history lists it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct FinishedGame {
    pub id: i64,
    pub variant: Variant,
    pub players: u8,
    pub rated: bool,
    /// When the game ended (milliseconds since the Unix epoch).
    pub ended_at: i64,
    pub seats: Vec<SeatResult>,
    /// The game's record (`GET`): every decision, to step through.
    pub record: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct HistoryPage {
    pub games: Vec<FinishedGame>,
    /// Pass as `cursor` to get the next page; `null` when there is none.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Finished games, most recent end first, one page after `cursor`.
pub fn history(
    db: &Database,
    caller: &Caller,
    query: &HistoryQuery,
    cursor: Option<&str>,
    limit: i64,
) -> ServiceResult<HistoryPage> {
    caller.require(Scope::Read)?;
    let before = cursor.map(parse_cursor).transpose()?;
    db.read(|conn| {
        let user_id = match &query.player {
            Some(name) => Some(
                crate::storage::accounts::user_by_name(conn, name)?
                    .ok_or(ServiceError::NotFound("player"))?
                    .id,
            ),
            None => None,
        };
        let filter = HistoryFilter {
            user_id,
            variant: query.variant.map(|v| v.name()),
            players: query.players.map(i32::from),
            outcome: query.result.map(|r| match (r, user_id) {
                // Everyone's games: drawn ones, or the ones someone won.
                (GameOutcome::Drawn, None) => OutcomeFilter::Is(GameOutcome::Drawn.name()),
                (_, None) => OutcomeFilter::IsNot(GameOutcome::Drawn.name()),
                (r, Some(_)) => OutcomeFilter::Is(r.name()),
            }),
            rated: query.rated,
            since: query.since,
            until: query.until,
        };
        // One row more than asked tells whether another page exists.
        let rows = store::history(conn, &filter, before, limit + 1)?;
        let more = rows.len() as i64 > limit;
        let page = &rows[..rows.len().min(limit as usize)];
        let ids: Vec<i64> = page.iter().map(|r| r.game_id).collect();
        let seats = store::results_of_games(conn, &ids)?;
        let games = page
            .iter()
            .map(|r| {
                Ok(FinishedGame {
                    id: r.game_id,
                    variant: variant_of(&r.variant)?,
                    players: r.players as u8,
                    rated: r.rated,
                    ended_at: r.ended_at,
                    seats: seats
                        .iter()
                        .filter(|(s, _, _)| s.game_id == r.game_id)
                        .map(|(s, user, is_bot)| SeatResult {
                            seat: s.seat as u8,
                            user: user.clone(),
                            is_bot: *is_bot,
                            total: s.total,
                            place: s.place,
                            outcome: GameOutcome::parse(&s.outcome),
                            rating_before: s.rating_before,
                            rating_after: s.rating_after,
                        })
                        .collect(),
                    record: crate::service::play::games::GameLinks::of(r.game_id).record,
                })
            })
            .collect::<ServiceResult<_>>()?;
        Ok(HistoryPage {
            games,
            next_cursor: page
                .last()
                .filter(|_| more)
                .map(|r| format!("{}.{}", r.ended_at, r.game_id)),
        })
    })
}

/// One place on a leaderboard.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best rating.
    pub rank: i64,
    pub user: String,
    pub is_bot: bool,
    pub rating: f64,
    pub deviation: f64,
    pub rated_games: i32,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardPage {
    pub variant: Variant,
    /// Established ratings only (deviation at most this).
    pub max_deviation: f64,
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `cursor` to get the next page; `null` when there is none.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// A leaderboard cursor, `<rank>.<rating's bits in 16 hex digits>.<user id>` (the document's
/// pattern): the rating must be a finite number, as every rating is.
fn parse_leaderboard_cursor(cursor: &str) -> ServiceResult<(i64, f64, i64)> {
    let mut parts = cursor.split('.');
    let (Some(rank), Some(bits), Some(user), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad_cursor());
    };
    let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    if bits.len() != 16 || !bits.bytes().all(hex) {
        return Err(bad_cursor());
    }
    let rating = u64::from_str_radix(bits, 16)
        .map(f64::from_bits)
        .map_err(|_| bad_cursor())?;
    if !rating.is_finite() {
        return Err(bad_cursor());
    }
    Ok((cursor_number(rank)?, rating, cursor_number(user)?))
}

/// The established ratings of a variant, best first, one page after `cursor`.
pub fn leaderboard(
    db: &Database,
    caller: &Caller,
    variant: Variant,
    params: &RatingParameters,
    cursor: Option<&str>,
    limit: i64,
) -> ServiceResult<LeaderboardPage> {
    caller.require(Scope::Read)?;
    // `<rank>.<rating's bits in hex>.<user id>` of the page's last entry: exact, whatever the
    // rating.
    let after = cursor.map(parse_leaderboard_cursor).transpose()?;
    db.read(|conn| {
        let rows = store::leaderboard(
            conn,
            variant.name(),
            params.provisional_deviation,
            after.map(|(_, rating, user)| (rating, user)),
            limit + 1,
        )?;
        let more = rows.len() as i64 > limit;
        let first_rank = after.map_or(1, |(rank, _, _)| rank.saturating_add(1));
        let page = &rows[..rows.len().min(limit as usize)];
        let next_cursor = page.last().filter(|_| more).map(|(r, _, _)| {
            let rank = first_rank.saturating_add(page.len() as i64 - 1);
            format!("{rank}.{:016x}.{}", r.rating.to_bits(), r.user_id)
        });
        let entries = page
            .iter()
            .enumerate()
            .map(|(i, (r, user, is_bot))| LeaderboardEntry {
                rank: first_rank.saturating_add(i as i64),
                user: user.clone(),
                is_bot: *is_bot,
                rating: r.rating,
                deviation: r.deviation,
                rated_games: r.games,
            })
            .collect();
        Ok(LeaderboardPage {
            variant,
            max_deviation: params.provisional_deviation,
            entries,
            next_cursor,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::parse_cursor;
    use super::parse_leaderboard_cursor;

    /// Cursors outside the document's patterns are refused (they answered an empty page).
    #[test]
    fn cursors_outside_the_documented_patterns_are_refused() {
        for bad in [
            "-1.-1",
            "1.-1",
            "+1.2",
            " 1.2",
            "1.2.3",
            "1234567890123456789.1",
            ".1",
            "1.",
        ] {
            assert!(parse_cursor(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_cursor("12.34").unwrap(), (12, 34));
        let nan = format!("1.{:016x}.3", f64::NAN.to_bits());
        let inf = format!("1.{:016x}.3", f64::NEG_INFINITY.to_bits());
        for bad in [
            "1.2.3",
            "-1.4097000000000000.3",
            "1.4097000000000000.3.4",
            "1.4097000000000000",
            "1.4097000000000000.-3",
            "1.4097A00000000000.3",
            &nan,
            &inf,
        ] {
            assert!(parse_leaderboard_cursor(bad).is_err(), "{bad}");
        }
        let ok = format!("2.{:016x}.7", 1500.5f64.to_bits());
        assert_eq!(parse_leaderboard_cursor(&ok).unwrap(), (2, 1500.5, 7));
    }
}
