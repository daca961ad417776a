//! Events (tournaments): a Swiss or a round robin in groups, made by a player or an operator,
//! entered and withdrawn from ([`entries`]), dealt round by round by the server ([`rounds`]), and
//! shown with standings, crosstable and each round's games ([`view`]); and the standing ladders
//! ([`ladder`]). Who plays whom and where
//! everyone stands is decided by the pure rules in `crate::tournaments`.

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
use crate::storage::events::{self as store, EventRow, NewEventRow};
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
    let checked = check(new, now)?;
    let id = db.write(|conn| {
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

/// A new event, checked.
struct Checked {
    table_size: u8,
    rounds: u32,
    group_size: Option<u32>,
    time_control: String,
    points_by_place: String,
    bye: Points,
    min_players: u32,
    max_players: u32,
}

impl Checked {
    fn row<'a>(
        &'a self,
        new: &'a NewEvent,
        created_by: Option<i64>,
        now: i64,
    ) -> ServiceResult<NewEventRow<'a>> {
        Ok(NewEventRow {
            name: new.name.trim(),
            format: new.format.name(),
            variant: new.variant.name(),
            table_size: i32::from(self.table_size),
            time_control: &self.time_control,
            rated: new.rated,
            rounds: self.rounds as i32,
            group_size: self.group_size.map(|g| g as i32),
            points_by_place: &self.points_by_place,
            bye_points: self.bye.0,
            min_players: self.min_players as i32,
            max_players: self.max_players as i32,
            rating_min: new.entry.rating_min,
            rating_max: new.entry.rating_max,
            min_finished_games: new.entry.min_finished_games as i32,
            no_timeouts_days: new.entry.no_timeouts_days.map(|d| d as i32),
            late_entry_until: new.late_entry_until_round as i32,
            round_hours: new.round_hours.map(|h| h as i32),
            starts_at: new.starts_at,
            repeat_every_days: new.repeat_every_days.map(|d| d as i32),
            created_by,
            state: EventState::Registering.name(),
            seed: crate::service::random_u64()? as i64,
            created_at: now,
        })
    }
}

fn check(new: &NewEvent, now: i64) -> ServiceResult<Checked> {
    let name = new.name.trim().chars().count();
    if !(3..=80).contains(&name) {
        return Err(ServiceError::invalid(
            "invalid_name",
            "an event's name has 3 to 80 characters",
        ));
    }
    let size = new.table_size;
    if !new.variant.player_counts().contains(&size) {
        return Err(ServiceError::invalid(
            "invalid_table_size",
            format!("{} is not played at tables of {size}", new.variant),
        ));
    }
    let rounds = match new.format {
        EventFormat::Swiss => new.rounds.unwrap_or(3),
        EventFormat::RoundRobin => 1,
    };
    if !(1..=MAX_ROUNDS).contains(&rounds)
        || (new.format == EventFormat::RoundRobin && new.rounds.is_some_and(|r| r != 1))
    {
        return Err(ServiceError::invalid(
            "invalid_rounds",
            "a Swiss has 1 to 20 rounds; a round robin plays every game of a group at once",
        ));
    }
    let group_size = match new.format {
        EventFormat::RoundRobin => {
            let g = new.group_size.unwrap_or(4).max(u32::from(size));
            let most = if size == 2 { 12 } else { 6 };
            if new
                .group_size
                .is_some_and(|g| g < u32::from(size) || g > most)
            {
                return Err(ServiceError::invalid(
                    "invalid_group_size",
                    format!("groups have {size} to {most} players at tables of {size}"),
                ));
            }
            Some(g)
        }
        EventFormat::Swiss if new.group_size.is_some() => {
            return Err(ServiceError::invalid(
                "invalid_group_size",
                "a Swiss has no groups",
            ));
        }
        EventFormat::Swiss => None,
    };
    let scoring = scoring(new, size)?;
    let min_players = new.min_players.unwrap_or(u32::from(size) * 2);
    let max_players = new.max_players.unwrap_or(64);
    if min_players < u32::from(size) || max_players < min_players || max_players > MAX_PLAYERS {
        return Err(ServiceError::invalid(
            "invalid_players",
            format!("from at least one table's players ({size}) to at most 256, the fewest no more than the most"),
        ));
    }
    let e = &new.entry;
    if e.rating_min
        .zip(e.rating_max)
        .is_some_and(|(lo, hi)| lo > hi)
        || e.min_finished_games > 1000
        || e.no_timeouts_days.is_some_and(|d| !(1..=365).contains(&d))
    {
        return Err(ServiceError::invalid(
            "invalid_entry_conditions",
            "a rating range from low to high, at most 1000 finished games, 1 to 365 days without a time-out",
        ));
    }
    if new.late_entry_until_round > rounds
        || (new.format == EventFormat::RoundRobin && new.late_entry_until_round > 0)
    {
        return Err(ServiceError::invalid(
            "invalid_late_entry",
            "late entries are taken by a Swiss, until one of its rounds",
        ));
    }
    if new.round_hours.is_some_and(|h| !(1..=2160).contains(&h)) {
        return Err(ServiceError::invalid(
            "invalid_round_hours",
            "a round runs 1 to 2160 hours (90 days)",
        ));
    }
    if new
        .starts_at
        .is_some_and(|at| at <= now || at > now + MAX_START_AHEAD_MS)
        || (new.repeat_every_days.is_some() && new.starts_at.is_none())
        || new
            .repeat_every_days
            .is_some_and(|d| !(1..=365).contains(&d))
    {
        return Err(ServiceError::invalid(
            "invalid_start",
            "an event starts within 90 days (a recurring one at a time, every 1 to 365 days)",
        ));
    }
    let time_control = new.time_control.check()?;
    Ok(Checked {
        table_size: size,
        rounds,
        group_size,
        time_control: serde_json::to_string(&time_control)
            .map_err(|e| ServiceError::Internal(e.to_string()))?,
        points_by_place: scoring
            .by_place
            .iter()
            .map(|p| p.0.to_string())
            .collect::<Vec<_>>()
            .join(","),
        bye: scoring.bye,
        min_players,
        max_players,
    })
}

fn scoring(new: &NewEvent, size: u8) -> ServiceResult<Scoring> {
    let standard = Scoring::standard(size);
    let stated = |v: f64| Points::is_exact(v).then(|| Points::from_f64(v));
    let by_place = match &new.points_by_place {
        None => Some(standard.by_place.clone()),
        Some(list) => list.iter().map(|&v| stated(v)).collect(),
    };
    let bye = match new.bye_points {
        None => Some(standard.bye),
        Some(v) => stated(v),
    };
    by_place
        .zip(bye)
        .map(|(by_place, bye)| Scoring::with_places(by_place, bye))
        .filter(|s| s.is_valid(size) && s.by_place.iter().all(|p| p.0 <= 12 * 100))
        .ok_or_else(|| {
            ServiceError::invalid(
                "invalid_points",
                "one number of points per seat, never more for a worse place, none below 0 or above 100, a bye no more than first place (whole, halves, thirds or quarters)",
            )
        })
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
