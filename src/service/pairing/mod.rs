//! Pairing ("Play now"): the requests players file, list and cancel, and the pass that seats
//! waiting requests together by the rule in `crate::pairing` ([`pass`]); rematches at finished
//! games ([`rematch`]); open challenge links ([`challenges`]); games created in bulk by
//! organisers ([`bulk`]).

pub mod bulk;
pub mod challenges;
pub mod pass;
pub mod rematch;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::Variant;
use crate::pairing::Seats;
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::social::fair_use::may_take_a_seat;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::pairing::{self as store, NewRequestRow, RequestRow};
use crate::storage::Database;

pub use pass::{pair_waiting, PairingPolicy};

/// The most requests one player may have waiting at once.
pub const MAX_WAITING: i64 = 5;
/// How long a request waits when its player does not say (7 days), and the most it may (30).
const DEFAULT_EXPIRY_HOURS: u32 = 7 * 24;
const MAX_EXPIRY_HOURS: u32 = 30 * 24;
/// The longest wait before bots may fill the seats (7 days, in minutes).
const MAX_BOT_WAIT_MINUTES: u32 = 7 * 24 * 60;
/// The widest rating range either way.
const MAX_RANGE: u32 = 1000;
/// How long a closed request stays listed (a day).
pub const CLOSED_KEPT_MS: i64 = 24 * 3_600_000;

/// How far below and above your rating the other players' may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingRange {
    /// Rating points below yours (0 to 1000).
    #[schema(minimum = 0, maximum = 1000)]
    pub below: u32,
    /// Rating points above yours (0 to 1000).
    #[schema(minimum = 0, maximum = 1000)]
    pub above: u32,
}

/// What you will play, with whoever comes.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"variant": "keltis", "seats": [2, 3], "rated": true, "time_control": {"type": "per_turn", "seconds": 259200}, "rating_range": {"below": 300, "above": 300}, "bot_after_minutes": 60}))]
pub struct NewPairingRequest {
    pub variant: Variant,
    /// The table sizes you accept (default `[2]`): 2 to 4 (`keltis-card`: 2), each once.
    #[serde(default = "two_seats")]
    #[schema(min_items = 1, max_items = 3)]
    pub seats: Vec<u8>,
    /// Rated (default) or casual: you are paired only with requests that agree.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
    /// The time control (default: none); you are paired only with requests of the same one.
    #[serde(default, deserialize_with = "crate::service::play::strict::tagged")]
    pub time_control: TimeControl,
    /// Whose ratings you accept, around yours (default: anyone's).
    #[serde(default)]
    pub rating_range: Option<RatingRange>,
    /// After how many minutes the server's bots may take the seats nobody took (0 to 10080);
    /// absent or `null`: never. A request that allows bots may also sit with outside bots.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10080)]
    pub bot_after_minutes: Option<u32>,
    /// Hours until the request lapses (1 to 720, default 168: a week).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 720)]
    pub expires_in_hours: Option<u32>,
}

fn two_seats() -> Vec<u8> {
    vec![2]
}

fn rated_by_default() -> bool {
    true
}

/// Where a request stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RequestState {
    /// Waiting for players.
    Waiting,
    /// Seated at `game_id`.
    Seated,
    /// Cancelled by its player.
    Cancelled,
    /// Its time ran out.
    Expired,
    /// Withdrawn by the server: the account was suspended.
    Withdrawn,
}

impl RequestState {
    fn parse(text: &str) -> RequestState {
        match text {
            "seated" => RequestState::Seated,
            "cancelled" => RequestState::Cancelled,
            "expired" => RequestState::Expired,
            "withdrawn" => RequestState::Withdrawn,
            _ => RequestState::Waiting,
        }
    }
}

/// One of your pairing requests.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PairingRequest {
    pub id: i64,
    pub variant: Variant,
    /// The table sizes accepted, smallest first.
    pub seats: Vec<u8>,
    pub rated: bool,
    pub time_control: TimeControl,
    #[schema(required = true)]
    pub rating_range: Option<RatingRange>,
    #[schema(required = true)]
    pub bot_after_minutes: Option<u32>,
    /// When it was filed (milliseconds since the Unix epoch).
    pub filed_at: i64,
    /// When it lapses if still waiting.
    pub expires_at: i64,
    pub state: RequestState,
    /// The game it was seated at (`seated`).
    #[schema(required = true)]
    pub game_id: Option<i64>,
    /// When it stopped waiting.
    #[schema(required = true)]
    pub closed_at: Option<i64>,
}

/// Your requests: those waiting, and those closed within the last day (what became of them).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PairingRequestList {
    pub requests: Vec<PairingRequest>,
    /// How many may wait at once.
    pub max_waiting: i64,
}

impl PairingRequest {
    fn of(row: RequestRow) -> ServiceResult<PairingRequest> {
        let corrupt = |what: &str| ServiceError::Internal(format!("stored request {what}"));
        let sizes: Vec<u8> = row
            .seats
            .split(',')
            .map(|n| n.parse::<u8>())
            .collect::<Result<_, _>>()
            .map_err(|_| corrupt("seats"))?;
        Ok(PairingRequest {
            id: row.id,
            variant: Variant::parse(&row.variant).ok_or_else(|| corrupt("variant"))?,
            seats: sizes,
            rated: row.rated,
            time_control: serde_json::from_str(&row.time_control)
                .map_err(|_| corrupt("time control"))?,
            rating_range: row
                .rating_below
                .zip(row.rating_above)
                .map(|(below, above)| RatingRange {
                    below: below.max(0) as u32,
                    above: above.max(0) as u32,
                }),
            bot_after_minutes: row.bot_after_ms.map(|ms| (ms / 60_000) as u32),
            filed_at: row.filed_at,
            expires_at: row.expires_at,
            state: RequestState::parse(&row.state),
            game_id: row.game_id,
            closed_at: row.closed_at,
        })
    }
}

/// The checked shape of a new request, as stored.
struct Checked {
    seats: String,
    time_control: String,
    range: Option<RatingRange>,
    bot_after_ms: Option<i64>,
    expires_in_ms: i64,
}

fn check(new: &NewPairingRequest) -> ServiceResult<Checked> {
    let counts = new.variant.player_counts();
    // The schema's bounds (at most 3 items, each once), checked here as the body's reader does
    // not; an empty list is `invalid_seats` below.
    let mut sizes = new.seats.clone();
    sizes.sort_unstable();
    sizes.dedup();
    if new.seats.len() > 3 || sizes.len() != new.seats.len() {
        return Err(ServiceError::invalid(
            "invalid_body",
            "seats lists 1 to 3 table sizes, each once",
        ));
    }
    let seats = Seats::of(&new.seats)
        .filter(|s| s.sizes().iter().all(|n| counts.contains(n)))
        .ok_or_else(|| {
            ServiceError::invalid(
                "invalid_seats",
                format!(
                    "{} is played by {} to {} players: seats lists sizes among those",
                    new.variant,
                    counts.start(),
                    counts.end()
                ),
            )
        })?;
    let time_control = new.time_control.check()?;
    if new
        .rating_range
        .is_some_and(|r| r.below > MAX_RANGE || r.above > MAX_RANGE)
    {
        return Err(ServiceError::invalid(
            "invalid_rating_range",
            "a rating range reaches at most 1000 points either way",
        ));
    }
    if new
        .bot_after_minutes
        .is_some_and(|m| m > MAX_BOT_WAIT_MINUTES)
    {
        return Err(ServiceError::invalid(
            "invalid_bot_wait",
            "bots may be waited for 0 to 10080 minutes (a week)",
        ));
    }
    let hours = new.expires_in_hours.unwrap_or(DEFAULT_EXPIRY_HOURS);
    if !(1..=MAX_EXPIRY_HOURS).contains(&hours) {
        return Err(ServiceError::invalid(
            "invalid_expiry",
            "a request lasts 1 to 720 hours (30 days)",
        ));
    }
    Ok(Checked {
        seats: seats
            .sizes()
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(","),
        time_control: serde_json::to_string(&time_control)
            .map_err(|e| ServiceError::Internal(e.to_string()))?,
        range: new.rating_range,
        bot_after_ms: new.bot_after_minutes.map(|m| i64::from(m) * 60_000),
        expires_in_ms: i64::from(hours) * 3_600_000,
    })
}

/// File a request, then pair at once: the answer says `seated` with the game when players were
/// waiting for it.
pub fn file(
    db: &Database,
    caller: &Caller,
    new: &NewPairingRequest,
    policy: &PairingPolicy,
) -> ServiceResult<PairingRequest> {
    caller.require(Scope::Play)?;
    let checked = check(new)?;
    let now = db.now();
    let id = db.write(|conn| {
        may_take_a_seat(conn, caller.user_id, policy.fair, now)?;
        let waiting = store::of_user(conn, caller.user_id, now)?;
        if waiting.len() as i64 >= MAX_WAITING {
            return Err(ServiceError::conflict(
                "too_many_requests",
                format!("you have {MAX_WAITING} requests waiting, the most at once: cancel one"),
            ));
        }
        let same = |r: &RequestRow| {
            r.variant == new.variant.name()
                && r.seats == checked.seats
                && r.time_control == checked.time_control
                && r.rated == new.rated
        };
        if waiting.iter().any(same) {
            return Err(ServiceError::conflict(
                "duplicate_request",
                "a request for this game is already waiting",
            ));
        }
        let row = store::insert(
            conn,
            &NewRequestRow {
                user_id: caller.user_id,
                variant: new.variant.name(),
                seats: &checked.seats,
                time_control: &checked.time_control,
                rated: new.rated,
                rating_below: checked.range.map(|r| r.below as i32),
                rating_above: checked.range.map(|r| r.above as i32),
                bot_after_ms: checked.bot_after_ms,
                filed_at: now,
                expires_at: now + checked.expires_in_ms,
                state: "waiting",
            },
        )?;
        Ok::<_, ServiceError>(row.id)
    })?;
    // Filed; pairing that fails now is tried again by the pairing worker.
    if let Err(e) = pair_waiting(db, policy) {
        crate::warn_throttled!(error = %e.for_log(), "pairing after a request failed");
    }
    own(db, caller, id)
}

/// The caller's requests: waiting, and closed within the last day.
pub fn list(db: &Database, caller: &Caller) -> ServiceResult<PairingRequestList> {
    caller.require(Scope::Read)?;
    let since = db.now() - CLOSED_KEPT_MS;
    let rows = db.read(|conn| store::of_user(conn, caller.user_id, since))?;
    Ok(PairingRequestList {
        requests: rows
            .into_iter()
            .map(PairingRequest::of)
            .collect::<ServiceResult<_>>()?,
        max_waiting: MAX_WAITING,
    })
}

/// One of the caller's requests (another player's is not found).
pub fn get(db: &Database, caller: &Caller, id: i64) -> ServiceResult<PairingRequest> {
    caller.require(Scope::Read)?;
    own(db, caller, id)
}

/// The caller's request `id`, whatever the token's scopes (the answer to what it just did).
fn own(db: &Database, caller: &Caller, id: i64) -> ServiceResult<PairingRequest> {
    let row = db
        .read(|conn| store::by_id(conn, id))?
        .filter(|r| r.user_id == caller.user_id)
        .ok_or(ServiceError::NotFound("pairing request"))?;
    PairingRequest::of(row)
}

/// Cancel a waiting request; 409 `request_closed` when it was seated, expired or withdrawn
/// meanwhile (a request seated is a game: resign or play it).
pub fn cancel(db: &Database, caller: &Caller, id: i64) -> ServiceResult<PairingRequest> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|conn| {
        store::lock(conn)?;
        let row = store::by_id(conn, id)?
            .filter(|r| r.user_id == caller.user_id)
            .ok_or(ServiceError::NotFound("pairing request"))?;
        if store::close(conn, &[row.id], "cancelled", now)? == 0 {
            return Err(ServiceError::conflict(
                "request_closed",
                format!("the request is no longer waiting: it is {}", row.state),
            ));
        }
        Ok(())
    })?;
    own(db, caller, id)
}
