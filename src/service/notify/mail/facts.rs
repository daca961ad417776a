//! What a game email may say of its game: the facts every seat may see (players, whose turn,
//! the reader's own deadline, the others' moves since the reader's last one in words, the
//! result), read for one reader.

use super::messages::{GameFacts, Outcome};
use crate::service::play::games::{load_state, parse_event, GameEvent, GameStatus};
use crate::service::ServiceResult;
use crate::storage::games as game_store;
use crate::storage::DbConnection;

/// Moves listed in a "your turn" email, at most.
const LAST_MOVES: usize = 12;

/// What every seat may know of a game, for `user_id`'s email.
pub(super) fn game_facts(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
    now: i64,
) -> ServiceResult<Option<GameFacts>> {
    let Some(row) = game_store::game(conn, game_id)? else {
        return Ok(None);
    };
    let seats = game_store::seats(conn, game_id)?;
    let name = |seat: u8| {
        seats
            .iter()
            .find(|s| s.seat == seat as i32)
            .map(|s| s.user_name.clone())
            .unwrap_or_default()
    };
    let me = seats
        .iter()
        .find(|s| s.user_id == user_id)
        .map(|s| s.seat as u8);
    let status = GameStatus::parse(&row.status);
    let mut facts = GameFacts {
        id: game_id,
        variant: crate::engine::Variant::parse(&row.variant),
        players: seats.iter().map(|s| s.user_name.clone()).collect(),
        aborted: status == GameStatus::Aborted,
        ..GameFacts::default()
    };
    if status == GameStatus::Active {
        facts.reader_to_act = row.to_act_user == Some(user_id);
        facts.to_act = row.to_act_user.and_then(|u| {
            seats
                .iter()
                .find(|s| s.user_id == u)
                .map(|s| s.user_name.clone())
        });
        facts.deadline =
            crate::service::correspondence::clocks::ClockState::from_json(row.clock.as_deref())
                .view(row.players as u8, now)
                .deadline;
        // The moves since the recipient's last one, in words (never a card drawn from the deck).
        let mut moves = Vec::new();
        for event in crate::storage::logs::events_after(conn, game_id, 0, i64::MAX)? {
            if let GameEvent::Decided { seat, decision, .. } = parse_event(&event.payload)? {
                if Some(seat) == me {
                    moves.clear();
                } else {
                    moves.push((name(seat), decision));
                }
            }
        }
        let skip = moves.len().saturating_sub(LAST_MOVES);
        facts.last_moves = moves.into_iter().skip(skip).collect();
    }
    if status == GameStatus::Over {
        if let Some(result) = load_state(conn, &row)?.result() {
            facts.result = Some(Outcome {
                winners: result.winners.iter().map(|&s| name(s)).collect(),
                totals: result
                    .scores
                    .iter()
                    .map(|s| (name(s.seat), s.total))
                    .collect(),
            });
        }
    }
    Ok(Some(facts))
}

/// `user_id`'s hand in a game under way (their own cards: for their email only).
pub(super) fn own_hand(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> ServiceResult<Vec<crate::engine::Card>> {
    let Some(row) = game_store::game(conn, game_id)? else {
        return Ok(Vec::new());
    };
    let seats = game_store::seats(conn, game_id)?;
    let seat = seats.iter().find(|s| s.user_id == user_id);
    match seat {
        Some(seat) if GameStatus::parse(&row.status) == GameStatus::Active => {
            Ok(load_state(conn, &row)?.hand(seat.seat as u8).to_vec())
        }
        _ => Ok(Vec::new()),
    }
}

/// What `user_id` may do now in the game, if it is their turn (their hand and the choices): for
/// the emails of a player who plays by reply, and only to that player.
pub(super) fn turn_offer(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> ServiceResult<Option<super::offers::TurnOffer>> {
    let Some(row) = game_store::game(conn, game_id)? else {
        return Ok(None);
    };
    if GameStatus::parse(&row.status) != GameStatus::Active || row.to_act_user != Some(user_id) {
        return Ok(None);
    }
    let seats = game_store::seats(conn, game_id)?;
    let Some(seat) = seats
        .iter()
        .find(|s| s.user_id == user_id)
        .map(|s| s.seat as u8)
    else {
        return Ok(None);
    };
    let game = load_state(conn, &row)?;
    let choices = crate::service::correspondence::by_mail::offered(&game, seat);
    if choices.is_empty() {
        return Ok(None);
    }
    Ok(Some(super::offers::TurnOffer {
        seat,
        version: row.version,
        hand: game.hand(seat).to_vec(),
        choices,
        pawns: crate::service::words::pawn_places(&game, seat),
    }))
}
