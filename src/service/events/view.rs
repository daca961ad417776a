//! What an event shows: its settings and state, its entries, the standings with their named
//! tie-breaks, the crosstable, and each round's games and byes. Names and game ids only: nothing
//! of any hand.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::record::EventRecord;
use super::{EntryConditions, EventFormat, EventState, Settings};
use crate::engine::Variant;
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::events::{self as store, EventRow};
use crate::storage::{accounts as users, Database, DbConnection};
use crate::tournaments::standings::{Standing, TieBreak, TieBreakValue};

/// An event, as lists show it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EventSummary {
    pub id: i64,
    pub name: String,
    pub format: EventFormat,
    pub variant: Variant,
    pub table_size: u8,
    pub rated: bool,
    pub time_control: TimeControl,
    /// A Swiss's rounds; 1 for a round robin.
    pub rounds: u32,
    /// A round robin's groups' size.
    #[schema(required = true)]
    pub group_size: Option<u32>,
    /// Points for each place, first place first.
    pub points_by_place: Vec<f64>,
    pub bye_points: f64,
    pub state: EventState,
    /// The round dealt last (0 before the start).
    pub current_round: u32,
    /// When it starts (milliseconds since the Unix epoch); `null`: once full.
    #[schema(required = true)]
    pub starts_at: Option<i64>,
    /// When entries open (milliseconds since the Unix epoch); `null`: they are open (or were,
    /// from the event's making).
    #[schema(required = true)]
    pub registration_opens_at: Option<i64>,
    /// Entries not withdrawn.
    pub entries: u32,
    pub min_players: u32,
    pub max_players: u32,
    pub entry: EntryConditions,
    /// Late entries until this round is dealt (0: none).
    pub late_entry_until_round: u32,
    #[schema(required = true)]
    pub round_hours: Option<u32>,
    /// Who made it (`null`: the server, a recurring edition).
    #[schema(required = true)]
    pub made_by: Option<String>,
    #[schema(required = true)]
    pub repeat_every_days: Option<u32>,
    /// The next edition of a recurring event, once made.
    #[schema(required = true)]
    pub next_edition_id: Option<i64>,
    pub created_at: i64,
    #[schema(required = true)]
    pub started_at: Option<i64>,
    /// When it finished or was cancelled.
    #[schema(required = true)]
    pub finished_at: Option<i64>,
}

/// An entry.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EntryView {
    pub name: String,
    /// The rating in the variant at entry (the seed order).
    pub rating: i32,
    pub entered_at: i64,
    pub withdrawn: bool,
}

/// A tie-break's value.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TieBreakView {
    /// `buchholz`, `sonneborn_berger`, `opponents_points` or `placings`.
    pub name: String,
    /// The points of a points tie-break.
    #[schema(required = true)]
    pub points: Option<f64>,
    /// `placings`: how many first places, second places, and so on.
    #[schema(required = true)]
    pub placings: Option<Vec<u32>>,
}

/// A line of the standings.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct StandingView {
    /// 1 for the leader; shared by players tied on points and every tie-break.
    pub place: u32,
    pub name: String,
    pub points: f64,
    /// In the order they apply (then seed order).
    pub tie_breaks: Vec<TieBreakView>,
    pub games: u32,
    pub byes: u32,
    pub withdrawn: bool,
}

/// One player's round in the crosstable: a game (decided or not) or a bye.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CrossCell {
    pub round: u32,
    #[schema(required = true)]
    pub game_id: Option<i64>,
    /// The others at the table, in seat order.
    pub opponents: Vec<String>,
    /// The place taken (`null`: not decided yet, or a bye).
    #[schema(required = true)]
    pub place: Option<u8>,
    #[schema(required = true)]
    pub points: Option<f64>,
    /// Whether this player moved first.
    pub moved_first: bool,
    pub bye: bool,
}

/// A line of the crosstable, in the standings' order.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CrossRow {
    pub name: String,
    pub rounds: Vec<CrossCell>,
}

/// A game of a round.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RoundGame {
    pub game_id: i64,
    /// The players in seat order (the first moves first).
    pub players: Vec<String>,
    /// `active`, `over` or `aborted`.
    pub status: String,
    /// Each seat's place, once decided.
    #[schema(required = true)]
    pub places: Option<Vec<u8>>,
}

/// A bye of a round.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ByeView {
    pub name: String,
    pub points: f64,
    /// A late entry's half bye is not full.
    pub full: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RoundView {
    pub round: u32,
    pub games: Vec<RoundGame>,
    pub byes: Vec<ByeView>,
}

/// An event with its entries, standings, crosstable and rounds.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EventDetail {
    pub event: EventSummary,
    pub entries: Vec<EntryView>,
    pub standings: Vec<StandingView>,
    pub crosstable: Vec<CrossRow>,
    pub rounds: Vec<RoundView>,
}

pub(crate) fn summary(conn: &mut DbConnection, row: &EventRow) -> ServiceResult<EventSummary> {
    let settings = Settings::of(row)?;
    let entries = store::entries(conn, row.id)?
        .iter()
        .filter(|(e, _)| e.withdrawn_at.is_none())
        .count() as u32;
    let made_by = match row.created_by {
        Some(id) => users::user_by_id(conn, id)?.map(|u| u.name),
        None => None,
    };
    let count = |n: Option<i32>| n.map(|n| n.max(0) as u32);
    Ok(EventSummary {
        id: row.id,
        name: row.name.clone(),
        format: settings.format,
        variant: settings.variant,
        table_size: settings.table_size,
        rated: row.rated,
        time_control: settings.time_control,
        rounds: row.rounds.max(0) as u32,
        group_size: count(row.group_size),
        points_by_place: settings
            .scoring
            .by_place
            .iter()
            .map(|p| p.as_f64())
            .collect(),
        bye_points: settings.scoring.bye.as_f64(),
        state: EventState::parse(&row.state),
        current_round: row.current_round.max(0) as u32,
        starts_at: row.starts_at,
        registration_opens_at: row.registration_opens_at,
        entries,
        min_players: row.min_players.max(0) as u32,
        max_players: row.max_players.max(0) as u32,
        entry: EntryConditions {
            rating_min: row.rating_min,
            rating_max: row.rating_max,
            min_finished_games: row.min_finished_games.max(0) as u32,
            no_timeouts_days: count(row.no_timeouts_days),
        },
        late_entry_until_round: row.late_entry_until.max(0) as u32,
        round_hours: count(row.round_hours),
        made_by,
        repeat_every_days: count(row.repeat_every_days),
        next_edition_id: row.next_edition_id,
        created_at: row.created_at,
        started_at: row.started_at,
        finished_at: row.finished_at,
    })
}

/// One of a player's events, with their entry, line of the standings and rounds (their data
/// export).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EnteredEvent {
    pub event: EventSummary,
    pub entry: EntryView,
    /// Their line of the standings (as `GET /events/{id}` shows it at every moment).
    #[schema(required = true)]
    pub standing: Option<StandingView>,
    /// Their row of the crosstable.
    pub rounds: Vec<CrossCell>,
}

/// The events the caller entered, newest first.
pub fn entered(db: &Database, caller: &Caller) -> ServiceResult<Vec<EnteredEvent>> {
    caller.require(Scope::Read)?;
    let ids = db.read(|conn| store::entered_by(conn, caller.user_id))?;
    let mut events = Vec::with_capacity(ids.len());
    for id in ids {
        let mut whole = detail(db, id)?;
        let mine = |name: &str| name == caller.name;
        let Some(entry) = whole.entries.drain(..).find(|e| mine(&e.name)) else {
            continue;
        };
        events.push(EnteredEvent {
            standing: whole.standings.into_iter().find(|s| mine(&s.name)),
            rounds: whole
                .crosstable
                .into_iter()
                .find(|r| mine(&r.name))
                .map(|r| r.rounds)
                .unwrap_or_default(),
            event: whole.event,
            entry,
        });
    }
    Ok(events)
}

/// The whole event.
pub(crate) fn detail(db: &Database, id: i64) -> ServiceResult<EventDetail> {
    db.read(|conn| {
        let row = store::by_id(conn, id)?.ok_or(ServiceError::NotFound("event"))?;
        let event = summary(conn, &row)?;
        let settings = Settings::of(&row)?;
        let record = EventRecord::read(conn, id, settings.table_size)?;
        let order = record.standings(&settings);
        Ok(EventDetail {
            entries: record
                .entries
                .iter()
                .map(|(e, name)| EntryView {
                    name: name.clone(),
                    rating: e.rating.round() as i32,
                    entered_at: e.entered_at,
                    withdrawn: e.withdrawn_at.is_some(),
                })
                .collect(),
            standings: standings_of(&record, &order, settings.table_size),
            crosstable: crosstable_of(&record, &order, &settings),
            rounds: rounds_of(&record),
            event,
        })
    })
}

fn standings_of(record: &EventRecord, order: &[Standing], table_size: u8) -> Vec<StandingView> {
    let names = TieBreak::for_table_size(table_size);
    order
        .iter()
        .map(|s| StandingView {
            place: s.place,
            name: record.name_of(s.entrant),
            points: s.points.as_f64(),
            tie_breaks: names
                .iter()
                .zip(&s.tie_breaks)
                .map(|(name, value)| TieBreakView {
                    name: name.name().to_string(),
                    points: match value {
                        TieBreakValue::Points(p) => Some(p.as_f64()),
                        TieBreakValue::Placings(_) => None,
                    },
                    placings: match value {
                        TieBreakValue::Placings(counts) => Some(counts.clone()),
                        TieBreakValue::Points(_) => None,
                    },
                })
                .collect(),
            games: s.games,
            byes: s.byes,
            withdrawn: record
                .entries
                .iter()
                .any(|(e, _)| e.id == s.entrant && e.withdrawn_at.is_some()),
        })
        .collect()
}

/// Every game and bye of each player, in the standings' order.
fn crosstable_of(record: &EventRecord, order: &[Standing], settings: &Settings) -> Vec<CrossRow> {
    order
        .iter()
        .map(|s| {
            let mut cells: Vec<CrossCell> = vec![];
            for game in &record.games {
                let Some(at) = game.seats.iter().position(|&e| e == s.entrant) else {
                    continue;
                };
                let place = game.places.as_ref().map(|p| p[at]);
                let points = game
                    .places
                    .as_ref()
                    .map(|p| settings.scoring.points(p)[at].as_f64());
                cells.push(CrossCell {
                    round: game.round,
                    game_id: Some(game.game_id),
                    opponents: game
                        .seats
                        .iter()
                        .filter(|&&e| e != s.entrant)
                        .map(|&e| record.name_of(e))
                        .collect(),
                    place,
                    points,
                    moved_first: at == 0,
                    bye: false,
                });
            }
            for bye in record.byes.iter().filter(|b| b.entrant == s.entrant) {
                cells.push(CrossCell {
                    round: bye.round,
                    game_id: None,
                    opponents: vec![],
                    place: None,
                    points: Some(bye.points.as_f64()),
                    moved_first: false,
                    bye: true,
                });
            }
            cells.sort_by_key(|c| (c.round, c.game_id));
            CrossRow {
                name: record.name_of(s.entrant),
                rounds: cells,
            }
        })
        .collect()
}

fn rounds_of(record: &EventRecord) -> Vec<RoundView> {
    let last = record
        .games
        .iter()
        .map(|g| g.round)
        .chain(record.byes.iter().map(|b| b.round))
        .max()
        .unwrap_or(0);
    (1..=last)
        .map(|round| RoundView {
            round,
            games: record
                .games
                .iter()
                .filter(|g| g.round == round)
                .map(|g| RoundGame {
                    game_id: g.game_id,
                    players: g.seats.iter().map(|&e| record.name_of(e)).collect(),
                    status: g.status.clone(),
                    places: g.places.clone(),
                })
                .collect(),
            byes: record
                .byes
                .iter()
                .filter(|b| b.round == round)
                .map(|b| ByeView {
                    name: record.name_of(b.entrant),
                    points: b.points.as_f64(),
                    full: b.full,
                })
                .collect(),
        })
        .collect()
}
