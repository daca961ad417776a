//! Vacation: a player's clocks stand still in all their games while they are away, within a
//! yearly allowance of days (a server setting). The allowance is per calendar year (UTC); a
//! vacation ends when its player stops it or when the allowance runs out, whichever comes first.
//! Each game concerned gets a `vacation_started` / `vacation_ended` event, so the other players
//! see that a seat is away.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::ClockState;
use crate::service::play::games::{append, load_state, GameEvent};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::GameUpdate;
use crate::storage::games::{self as store};
use crate::storage::vacations::{self, VacationRow};
use crate::storage::{Database, DbConnection, StorageError};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// The server's vacation rule.
#[derive(Clone, Copy, Debug)]
pub struct VacationPolicy {
    pub days_per_year: u32,
}

/// A player's vacation allowance and its use this year.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VacationStatus {
    /// Vacation days each calendar year (UTC) allows.
    pub allowance_days: u32,
    /// The year the figures are for.
    pub year: i32,
    /// Vacation used this year, in milliseconds (the running vacation counted up to now).
    pub used_ms: i64,
    /// What is left of this year's allowance, in milliseconds.
    pub remaining_ms: i64,
    /// The running vacation, if the player is away.
    #[schema(required = true)]
    pub current: Option<CurrentVacation>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CurrentVacation {
    /// Milliseconds since the Unix epoch.
    pub started_at: i64,
    /// When it ends by itself, the allowance used up (milliseconds since the Unix epoch).
    pub ends_at: i64,
}

/// The calendar year (UTC) of `ms`, and its first and last millisecond + 1.
fn year_of(ms: i64) -> (i32, i64, i64) {
    let year = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .map(|t| t.year())
        .unwrap_or(1970);
    let start = |y: i32| {
        time::Date::from_calendar_date(y, time::Month::January, 1)
            .map(|d| d.midnight().assume_utc().unix_timestamp() * 1000)
            .unwrap_or(0)
    };
    (year, start(year), start(year + 1))
}

fn status_at(
    conn: &mut DbConnection,
    user_id: i64,
    policy: VacationPolicy,
    now: i64,
) -> ServiceResult<VacationStatus> {
    let (year, from, to) = year_of(now);
    let taken = vacations::vacations_since(conn, user_id, from)?;
    let used_ms: i64 = taken
        .iter()
        .map(|v| {
            let end = v.ended_at.unwrap_or(now).min(to);
            (end - v.started_at.max(from)).max(0)
        })
        .sum();
    let allowance = policy.days_per_year as i64 * DAY_MS;
    Ok(VacationStatus {
        allowance_days: policy.days_per_year,
        year,
        used_ms,
        remaining_ms: (allowance - used_ms).max(0),
        current: taken
            .iter()
            .find(|v| v.ended_at.is_none())
            .map(|v| CurrentVacation {
                started_at: v.started_at,
                ends_at: v.ends_at,
            }),
    })
}

pub fn status(
    db: &Database,
    caller: &Caller,
    policy: VacationPolicy,
) -> ServiceResult<VacationStatus> {
    caller.require(Scope::Read)?;
    let now = db.now();
    db.read(|conn| status_at(conn, caller.user_id, policy, now))
}

/// Go on vacation: every clock of the caller stops until they come back or the allowance runs
/// out.
pub fn start(
    db: &Database,
    caller: &Caller,
    policy: VacationPolicy,
) -> ServiceResult<VacationStatus> {
    caller.require(Scope::Play)?;
    retry_stale(|| {
        let now = db.now();
        db.write(|conn| {
            let status = status_at(conn, caller.user_id, policy, now)?;
            if status.current.is_some() {
                return Err(already_away());
            }
            if status.remaining_ms == 0 {
                return Err(ServiceError::conflict(
                    "no_vacation_left",
                    "this year's vacation allowance is used up",
                ));
            }
            vacations::start(conn, caller.user_id, now, now + status.remaining_ms).map_err(
                |e| match e {
                    StorageError::Conflict => already_away(),
                    e => e.into(),
                },
            )?;
            set_away_everywhere(conn, caller.user_id, &caller.name, true, now)?;
            status_at(conn, caller.user_id, policy, now)
        })
    })
}

/// Come back from vacation: every clock of the caller runs again.
pub fn stop(
    db: &Database,
    caller: &Caller,
    policy: VacationPolicy,
) -> ServiceResult<VacationStatus> {
    caller.require(Scope::Play)?;
    retry_stale(|| {
        let now = db.now();
        db.write(|conn| {
            let Some(running) = vacations::running(conn, caller.user_id)? else {
                return Err(ServiceError::conflict(
                    "not_on_vacation",
                    "you are not on vacation",
                ));
            };
            end(conn, &running, &caller.name, now.min(running.ends_at), now)?;
            status_at(conn, caller.user_id, policy, now)
        })
    })
}

/// End the vacations whose allowance ran out by now (the scheduler's work). A vacation is ended
/// once, by whichever server instance or player comes first. Returns how many ended.
pub fn end_due(db: &Database, batch: i64) -> ServiceResult<usize> {
    let now = db.now();
    let due = db.read(|conn| vacations::due(conn, now, batch))?;
    let mut ended = 0;
    for vacation in due {
        let outcome = retry_stale(|| {
            db.write(|conn| {
                let user = crate::storage::accounts::user_by_id(conn, vacation.user_id)?
                    .ok_or(ServiceError::NotFound("user"))?;
                end(conn, &vacation, &user.name, vacation.ends_at, now)
            })
        });
        match outcome {
            Ok(true) => ended += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(user_id = vacation.user_id, error = %e.for_log(), "ending a vacation failed")
            }
        }
    }
    Ok(ended)
}

/// End `vacation` as of `at` (what the allowance is charged), the clocks running again from
/// `now` (time the server was down is not charged to anyone). False when it had already ended.
fn end(
    conn: &mut DbConnection,
    vacation: &VacationRow,
    user_name: &str,
    at: i64,
    now: i64,
) -> ServiceResult<bool> {
    if !vacations::end(conn, vacation.id, at)? {
        return Ok(false);
    }
    set_away_everywhere(conn, vacation.user_id, user_name, false, now)?;
    Ok(true)
}

/// Stop (or restart) the user's clock in every active game with a time control, with an event
/// in each game whose clock changed.
fn set_away_everywhere(
    conn: &mut DbConnection,
    user_id: i64,
    user_name: &str,
    away: bool,
    now: i64,
) -> ServiceResult<()> {
    for (row, seat) in store::active_seats_of(conn, user_id)? {
        let seat = seat as u8;
        let mut clock = ClockState::from_json(row.clock.as_deref());
        if clock.control.is_untimed() || load_state(conn, &row)?.retired(seat).is_some() {
            continue;
        }
        if !clock.set_away(seat, away, now) {
            continue;
        }
        let user = user_name.to_string();
        let event = if away {
            GameEvent::VacationStarted { seat, user }
        } else {
            GameEvent::VacationEnded { seat, user }
        };
        let json = clock.to_json()?;
        append(
            conn,
            &row,
            row.version,
            &event,
            GameUpdate {
                clock: Some(clock.columns(&json, now)),
                ..GameUpdate::default()
            },
            now,
        )?;
    }
    Ok(())
}

fn already_away() -> ServiceError {
    ServiceError::conflict("already_on_vacation", "you are already on vacation")
}

/// Run `attempt` again when a game moved on under it (a move landed between reading and
/// appending); the vacation's writes are one transaction, so nothing is half done.
fn retry_stale<T>(mut attempt: impl FnMut() -> ServiceResult<T>) -> ServiceResult<T> {
    for _ in 0..4 {
        match attempt() {
            Err(ServiceError::StaleVersion { .. }) => continue,
            other => return other,
        }
    }
    attempt()
}

#[cfg(test)]
mod tests {
    use super::year_of;

    #[test]
    fn years_are_calendar_years_in_utc() {
        // 2026-11-22T00:00:00Z and 2027-01-01T00:00:00Z.
        let (year, from, to) = year_of(1_795_305_600_000);
        assert_eq!(year, 2026);
        assert_eq!(from, 1_767_225_600_000);
        assert_eq!(to, 1_798_761_600_000);
        assert_eq!(year_of(to).0, 2027);
        assert_eq!(year_of(to - 1).0, 2026);
    }
}
