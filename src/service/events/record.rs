//! An event's record, read from storage into the pure rules' terms: its entries in seed order,
//! the games decided (each seat's place), the byes, and the games still running.

use std::collections::BTreeMap;

use super::Settings;
use crate::service::play::games::{parse_event, GameEvent, GameStatus};
use crate::service::ServiceResult;
use crate::storage::events::{self as store, EntryRow};
use crate::storage::DbConnection;
use crate::tournaments::standings::{standings, Standing};
use crate::tournaments::{Bye, Entrant, Played, Points};

/// A game's round, its (seat, entry) pairs, and its status.
type GameSeats = (u32, Vec<(i32, Entrant)>, Option<String>);

pub(crate) struct EventRecord {
    /// Entries in seed order: the best rated at entry first, then the first to enter.
    pub entries: Vec<(EntryRow, String)>,
    /// Every game dealt, in the order dealt.
    pub games: Vec<DealtGame>,
    /// The decided games, as the rules read them.
    pub played: Vec<Played>,
    pub byes: Vec<Bye>,
}

/// A game an event dealt.
pub(crate) struct DealtGame {
    pub game_id: i64,
    pub round: u32,
    /// Entries in seat order.
    pub seats: Vec<Entrant>,
    pub status: String,
    /// Each seat's place, once decided.
    pub places: Option<Vec<u8>>,
}

impl EventRecord {
    pub fn read(
        conn: &mut DbConnection,
        event_id: i64,
        table_size: u8,
    ) -> ServiceResult<EventRecord> {
        let mut entries = store::entries(conn, event_id)?;
        entries.sort_by(|(a, _), (b, _)| b.rating.total_cmp(&a.rating).then(a.id.cmp(&b.id)));
        let pairings = store::pairings(conn, event_id)?;
        let places: BTreeMap<(i64, i32), i32> = store::places(conn, event_id)?
            .into_iter()
            .map(|p| ((p.game_id, p.seat), p.place))
            .collect();
        // Each game's seats, in seat order (pairings come ordered by game and seat).
        let mut games: BTreeMap<i64, GameSeats> = BTreeMap::new();
        let mut byes = vec![];
        for (p, status) in &pairings {
            match (p.game_id, p.bye_points) {
                (Some(game_id), _) => {
                    let game = games
                        .entry(game_id)
                        .or_insert_with(|| (p.round as u32, vec![], status.clone()));
                    game.1.push((p.seat.unwrap_or(0), p.entry_id));
                }
                (None, Some(points)) => byes.push(Bye {
                    round: p.round as u32,
                    entrant: p.entry_id,
                    points: Points(points),
                    full: p.full_bye,
                }),
                (None, None) => {}
            }
        }
        let mut played = vec![];
        let mut dealt = vec![];
        for (game_id, (round, mut seats, status_name)) in games {
            seats.sort();
            let status_name = status_name.unwrap_or_default();
            let status = GameStatus::parse(&status_name);
            let entrants: Vec<Entrant> = seats.iter().map(|(_, e)| *e).collect();
            let decided: Option<Vec<u8>> = match status {
                GameStatus::Over => seats
                    .iter()
                    .map(|(seat, _)| places.get(&(game_id, *seat)).map(|&p| p as u8))
                    .collect(),
                GameStatus::Aborted | GameStatus::Cancelled => {
                    Some(aborted_places(conn, game_id, seats.len(), table_size)?)
                }
                _ => None,
            };
            if let Some(places) = &decided {
                played.push(Played {
                    round,
                    seats: entrants.clone(),
                    places: places.clone(),
                });
            }
            dealt.push(DealtGame {
                game_id,
                round,
                seats: entrants,
                status: status_name,
                places: decided,
            });
        }
        Ok(EventRecord {
            entries,
            games: dealt,
            played,
            byes,
        })
    }

    /// Games dealt and not decided yet.
    pub fn running(&self) -> impl Iterator<Item = &DealtGame> {
        self.games.iter().filter(|g| g.places.is_none())
    }

    /// Where every entry stands now.
    pub fn standings(&self, settings: &Settings) -> Vec<Standing> {
        standings(
            &self.all(),
            &self.played,
            &self.byes,
            &settings.scoring,
            settings.table_size,
        )
    }

    /// The entries still playing, in seed order.
    pub fn active(&self) -> Vec<Entrant> {
        self.entries
            .iter()
            .filter(|(e, _)| e.withdrawn_at.is_none())
            .map(|(e, _)| e.id)
            .collect()
    }

    pub fn all(&self) -> Vec<Entrant> {
        self.entries.iter().map(|(e, _)| e.id).collect()
    }

    pub fn name_of(&self, entrant: Entrant) -> String {
        self.entries
            .iter()
            .find(|(e, _)| e.id == entrant)
            .map(|(_, name)| name.clone())
            .unwrap_or_default()
    }

    pub fn user_of(&self, entrant: Entrant) -> Option<i64> {
        self.entries
            .iter()
            .find(|(e, _)| e.id == entrant)
            .map(|(e, _)| e.user_id)
    }
}

/// An event game ended without a result (its first turn never played): the seat that timed out
/// takes the last place, the others share the first.
fn aborted_places(
    conn: &mut DbConnection,
    game_id: i64,
    seats: usize,
    table_size: u8,
) -> ServiceResult<Vec<u8>> {
    let mut absent = None;
    for row in crate::storage::logs::events_after(conn, game_id, 0, i64::MAX)? {
        if let GameEvent::Aborted { seat } = parse_event(&row.payload)? {
            absent = Some(usize::from(seat));
        }
    }
    Ok((0..seats)
        .map(|seat| if Some(seat) == absent { table_size } else { 1 })
        .collect())
}
