//! Events (tournaments): a Swiss or a round robin in groups, made by a player or an operator,
//! entered and withdrawn from ([`entries`]), dealt round by round by the server ([`rounds`]), and
//! shown with standings, crosstable and each round's games ([`view`]); and the standing ladders
//! ([`ladder`]). Who plays whom and where
//! everyone stands is decided by the pure rules in `crate::tournaments`.

mod checks;
pub mod entries;
pub mod ladder;
mod record;
pub mod rounds;
pub mod view;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::Variant;
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::events::{self as store, EventRow};
use crate::storage::locks::{self, Subject};
use crate::storage::{accounts as users, Database};
use crate::tournaments::{Points, Scoring};

pub use rounds::{run_events, EventsPolicy};
pub use view::{EventDetail, EventSummary};

/// Events a player may have waiting to start at once.
const MAX_REGISTERING_MADE: i64 = 5;
const MAX_ROUNDS: u32 = 20;
const MAX_PLAYERS: u32 = 256;
/// The furthest ahead an event may start (90 days).
const MAX_START_AHEAD_MS: i64 = 90 * 24 * 3_600_000;

/// How an event is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventFormat {
    /// Rounds one at a time, each player meeting others of close standing, never the same
    /// opponent twice while another can be found.
    Swiss,
    /// Groups formed by rating, every game of a group at once.
    RoundRobin,
}

impl EventFormat {
    pub fn name(self) -> &'static str {
        match self {
            EventFormat::Swiss => "swiss",
            EventFormat::RoundRobin => "round_robin",
        }
    }

    fn parse(text: &str) -> Option<EventFormat> {
        match text {
            "swiss" => Some(EventFormat::Swiss),
            "round_robin" => Some(EventFormat::RoundRobin),
            _ => None,
        }
    }
}

/// Who may enter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryConditions {
    /// The lowest rating in the variant allowed (players with none have the initial rating).
    #[serde(default)]
    pub rating_min: Option<i32>,
    #[serde(default)]
    pub rating_max: Option<i32>,
    /// Games finished on the server, at least (default 0).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000)]
    pub min_finished_games: u32,
    /// No game lost on time in this many days (1 to 365).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 365)]
    pub no_timeouts_days: Option<u32>,
}

/// A new event.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Friday Swiss", "format": "swiss", "variant": "keltis-card", "table_size": 2, "rounds": 3, "time_control": {"type": "per_turn", "seconds": 259200}, "starts_at": 1798761600000_i64, "max_players": 16}))]
pub struct NewEvent {
    /// 3 to 80 characters.
    #[schema(min_length = 3, max_length = 80)]
    pub name: String,
    pub format: EventFormat,
    pub variant: Variant,
    /// Players at each table (default 2): among the variant's player counts.
    #[serde(default = "two")]
    #[schema(minimum = 2, maximum = 4)]
    pub table_size: u8,
    /// A Swiss's rounds (1 to 20); a round robin has one (every game at once).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 20)]
    pub rounds: Option<u32>,
    /// A round robin's groups: about this many players each (default 4, the table size to 12
    /// at two seats, to 6 at three or four).
    #[serde(default)]
    #[schema(minimum = 2, maximum = 12)]
    pub group_size: Option<u32>,
    /// Rated (default) or casual games.
    #[serde(default = "yes")]
    pub rated: bool,
    /// The games' time control (default: none).
    #[serde(default, deserialize_with = "crate::service::play::strict::tagged")]
    pub time_control: TimeControl,
    /// Points for each place at a table, first place first (default: 1, 0 at two seats; 2, 1, 0
    /// at three; 3, 2, 1, 0 at four). Never more for a worse place; whole, halves, thirds or
    /// quarters.
    #[serde(default)]
    pub points_by_place: Option<Vec<f64>>,
    /// What a bye is worth (default: a win at two seats, the mean of the places at more).
    #[serde(default)]
    pub bye_points: Option<f64>,
    /// Fewest players to start (default: twice the table size); fewer by the start, and the
    /// event is cancelled.
    #[serde(default)]
    #[schema(minimum = 2, maximum = 256)]
    pub min_players: Option<u32>,
    /// Most players (default 64, at most 256).
    #[serde(default)]
    #[schema(minimum = 2, maximum = 256)]
    pub max_players: Option<u32>,
    #[serde(default)]
    pub entry: EntryConditions,
    /// A Swiss takes late entries until this round is dealt (default 0: none); each round
    /// missed scores a half bye.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 20)]
    pub late_entry_until_round: u32,
    /// The longest a round runs, in hours (1 to 2160); games still running then are decided by
    /// their clocks: the player to act times out, as when a deadline passes.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 2160)]
    pub round_hours: Option<u32>,
    /// When it starts (milliseconds since the Unix epoch, within 90 days); absent: once full.
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// When entries open (milliseconds since the Unix epoch, before the start); absent: at once.
    /// An event announced weeks ahead can open for entries a day before it starts.
    #[serde(default)]
    pub registration_opens_at: Option<i64>,
    /// Operators only: a new edition every this many days (1 to 365), made when this one starts.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 365)]
    pub repeat_every_days: Option<u32>,
}

fn two() -> u8 {
    2
}

fn yes() -> bool {
    true
}

/// Where an event stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventState {
    Registering,
    Running,
    Finished,
    /// Too few entered by the start, or its maker called it off.
    Cancelled,
}

impl EventState {
    pub fn name(self) -> &'static str {
        match self {
            EventState::Registering => "registering",
            EventState::Running => "running",
            EventState::Finished => "finished",
            EventState::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> EventState {
        match text {
            "running" => EventState::Running,
            "finished" => EventState::Finished,
            "cancelled" => EventState::Cancelled,
            _ => EventState::Registering,
        }
    }
}

/// An event's stored settings, read back.
pub(crate) struct Settings {
    pub format: EventFormat,
    pub variant: Variant,
    pub table_size: u8,
    pub time_control: TimeControl,
    pub scoring: Scoring,
}

impl Settings {
    pub(crate) fn of(row: &EventRow) -> ServiceResult<Settings> {
        let corrupt = |what: &str| ServiceError::Internal(format!("event {} {what}", row.id));
        let by_place = row
            .points_by_place
            .split(',')
            .map(|p| p.parse::<i64>().map(Points))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| corrupt("points"))?;
        Ok(Settings {
            format: EventFormat::parse(&row.format).ok_or_else(|| corrupt("format"))?,
            variant: Variant::parse(&row.variant).ok_or_else(|| corrupt("variant"))?,
            table_size: u8::try_from(row.table_size).map_err(|_| corrupt("table size"))?,
            time_control: serde_json::from_str(&row.time_control)
                .map_err(|_| corrupt("time control"))?,
            scoring: Scoring::with_places(by_place, Points(row.bye_points)),
        })
    }
}

/// Make an event; it takes entries at once.
pub fn create(db: &Database, caller: &Caller, new: &NewEvent) -> ServiceResult<EventDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    let checked = checks::check(new, now)?;
    let id = db.write(|conn| {
        // The cap on events waiting holds against another made at the same moment.
        locks::lock(conn, Subject::Player(caller.user_id))?;
        if new.repeat_every_days.is_some() {
            let operator = users::user_by_id(conn, caller.user_id)?.is_some_and(|u| u.moderator);
            if !operator {
                return Err(ServiceError::forbidden(
                    "operators_only",
                    "only operators (moderators) make recurring events",
                ));
            }
        }
        if store::registering_made_by(conn, caller.user_id)? >= MAX_REGISTERING_MADE {
            return Err(ServiceError::conflict(
                "too_many_events",
                format!(
                    "you have {MAX_REGISTERING_MADE} events waiting to start, the most at once"
                ),
            ));
        }
        let row = store::insert(conn, &checked.row(new, Some(caller.user_id), now)?)?;
        Ok::<_, ServiceError>(row.id)
    })?;
    view::detail(db, id)
}

/// Events by where they stand: `registering` and `running` ones all, soonest first; `finished`
/// and `cancelled`, the latest 50.
pub fn list(db: &Database, caller: &Caller, state: EventState) -> ServiceResult<Vec<EventSummary>> {
    caller.require(Scope::Read)?;
    let limit = match state {
        EventState::Registering | EventState::Running => 500,
        _ => 50,
    };
    let rows = db.read(|conn| store::in_states(conn, &[state.name()], limit))?;
    db.read(|conn| rows.iter().map(|r| view::summary(conn, r)).collect())
}

/// One event, with its entries, standings, crosstable and rounds.
pub fn get(db: &Database, caller: &Caller, id: i64) -> ServiceResult<EventDetail> {
    caller.require(Scope::Read)?;
    view::detail(db, id)
}

/// Call off an event that has not started (its maker, or a moderator).
pub fn cancel(db: &Database, caller: &Caller, id: i64) -> ServiceResult<EventDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|conn| {
        let row = store::by_id(conn, id)?.ok_or(ServiceError::NotFound("event"))?;
        let moderator = users::user_by_id(conn, caller.user_id)?.is_some_and(|u| u.moderator);
        if row.created_by != Some(caller.user_id) && !moderator {
            return Err(ServiceError::forbidden(
                "not_event_maker",
                "only the event's maker or a moderator may do this",
            ));
        }
        if !store::set_state(conn, id, "registering", "cancelled", now)? {
            return Err(ServiceError::conflict(
                "event_started",
                "the event has started (or ended): it can no longer be called off",
            ));
        }
        rounds::tell_cancelled(conn, id, now)
    })?;
    view::detail(db, id)
}
