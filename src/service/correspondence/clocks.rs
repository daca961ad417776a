//! Correspondence clocks: the time control chosen when a game is created, each seat's time, and
//! the deadline of the seat to act. A clock is not a rule of the game: the engine knows only that
//! a seat timed out (`time_out`); the arithmetic lives here, and the state is a projection kept in
//! the game's row, written in the transaction of each event.
//!
//! The clock runs for the seat to act, across all the decisions of its turn; it stops when another
//! seat is to act. A seat that left the game (played by the stand-in bot) has no deadline.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::ClockColumns;

const MINUTE: u32 = 60;
const DAY: u32 = 24 * 3600;

/// How much time players have, chosen at creation. JSON tagged by `type`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// Casual: no deadline.
    #[default]
    None,
    /// Every turn must be finished within `seconds` (1 minute to 30 days).
    PerTurn {
        #[schema(minimum = 60, maximum = 2592000)]
        seconds: u32,
    },
    /// A bank of `initial_seconds`; after each turn `increment_seconds` are added, up to
    /// `max_seconds` (e.g. 3 days + 1 day per turn, at most 7 days).
    Fischer {
        #[schema(minimum = 60, maximum = 2592000)]
        initial_seconds: u32,
        #[schema(minimum = 0, maximum = 2592000)]
        increment_seconds: u32,
        /// The most the bank may hold: at least `initial_seconds` (a smaller one is refused
        /// with 422 `invalid_time_control`).
        #[schema(minimum = 60, maximum = 5184000)]
        max_seconds: u32,
    },
}

impl TimeControl {
    /// Casual: no deadline.
    pub fn is_untimed(self) -> bool {
        matches!(self, TimeControl::None)
    }

    /// Refuse controls outside the documented ranges.
    pub fn check(self) -> ServiceResult<TimeControl> {
        let bad = |why: &str| Err(ServiceError::invalid("invalid_time_control", why));
        match self {
            TimeControl::None => Ok(self),
            TimeControl::PerTurn { seconds } if !(MINUTE..=30 * DAY).contains(&seconds) => {
                bad("a turn lasts 1 minute to 30 days")
            }
            TimeControl::Fischer {
                initial_seconds,
                increment_seconds,
                max_seconds,
            } if !(MINUTE..=30 * DAY).contains(&initial_seconds)
                || increment_seconds > 30 * DAY
                || max_seconds < initial_seconds
                || max_seconds > 60 * DAY =>
            {
                bad("a bank starts at 1 minute to 30 days, gains at most 30 days a turn, and its maximum is at least the start and at most 60 days")
            }
            _ => Ok(self),
        }
    }
}

/// The clock of a game, as kept in its row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub control: TimeControl,
    /// Fischer: each seat's bank when its current or next turn began, in milliseconds.
    #[serde(default)]
    pub banks: Vec<i64>,
    /// The turn on the clock, if a seat with a clock is to act.
    #[serde(default)]
    pub turn: Option<TurnClock>,
    /// Seats whose player is on vacation: their clocks stand still.
    #[serde(default)]
    pub away: Vec<u8>,
}

/// The clock of the turn being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    pub seat: u8,
    /// Time the turn used before its clock stopped for a vacation, in milliseconds.
    #[serde(default)]
    pub used_ms: i64,
    /// Since when the clock runs (milliseconds since the Unix epoch); `None` while the seat's
    /// player is away.
    pub since: Option<i64>,
}

/// A game's clock as everyone sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    pub time_control: TimeControl,
    /// Every seat's remaining time now, in milliseconds (per turn: a whole turn for the seats
    /// that are not to act); empty without a time control.
    pub seats: Vec<SeatClock>,
    /// When the seat to act runs out of time (milliseconds since the Unix epoch); `null` when no
    /// clock runs (no time control, the game over, or the seat to act away on vacation).
    #[schema(required = true)]
    pub deadline: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatClock {
    pub seat: u8,
    pub remaining_ms: i64,
    /// Whether this seat's clock is running.
    pub running: bool,
    /// Whether this seat's player is on vacation (their clock stands still).
    pub away: bool,
}

/// How long before a deadline the player is reminded: 24 hours and 1 hour, each only when the
/// turn began with at least twice that time (a one-hour turn gets no "one hour left").
pub const REMINDER_LEADS_MS: [i64; 2] = [24 * 3600 * 1000, 3600 * 1000];

impl ClockState {
    pub fn new(control: TimeControl, players: u8) -> ClockState {
        let banks = match control {
            TimeControl::Fischer {
                initial_seconds, ..
            } => vec![initial_seconds as i64 * 1000; players as usize],
            _ => Vec::new(),
        };
        ClockState {
            control,
            banks,
            turn: None,
            away: Vec::new(),
        }
    }

    pub fn from_json(text: Option<&str>) -> ClockState {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_else(|| ClockState::new(TimeControl::None, 0))
    }

    pub fn to_json(&self) -> ServiceResult<String> {
        serde_json::to_string(self).map_err(|e| ServiceError::Internal(e.to_string()))
    }

    /// The columns to store for this clock, serialised as `json`, after a change at `now`.
    pub fn columns<'a>(&self, json: &'a str, now: i64) -> ClockColumns<'a> {
        ClockColumns {
            json,
            deadline_at: self.deadline(),
            reminder_at: self.next_reminder(now),
        }
    }

    /// The time a seat's turn allows when it begins: the turn's length, or the seat's bank.
    fn allowance(&self, seat: u8) -> i64 {
        match self.control {
            TimeControl::None => 0,
            TimeControl::PerTurn { seconds } => seconds as i64 * 1000,
            TimeControl::Fischer { .. } => self.banks.get(seat as usize).copied().unwrap_or(0),
        }
    }

    /// After an event: `to_act` is the seat to act now (`None` when nobody runs a clock: game
    /// over, or a seat played by the stand-in). A turn that passed to another seat ends the
    /// current seat's turn (Fischer: its bank pays the time used and gains the increment). The
    /// new turn's clock runs unless its player is away.
    pub fn after(&mut self, to_act: Option<u8>, now: i64) {
        if self.control.is_untimed() {
            return;
        }
        if let Some(turn) = self.turn {
            if to_act == Some(turn.seat) {
                return;
            }
            if let TimeControl::Fischer {
                increment_seconds,
                max_seconds,
                ..
            } = self.control
            {
                let used = turn.used_ms + turn.since.map_or(0, |s| now - s);
                if let Some(bank) = self.banks.get_mut(turn.seat as usize) {
                    let left = (*bank - used).max(0);
                    *bank = (left + increment_seconds as i64 * 1000).min(max_seconds as i64 * 1000);
                }
            }
        }
        self.turn = to_act.map(|seat| TurnClock {
            seat,
            used_ms: 0,
            since: (!self.away.contains(&seat)).then_some(now),
        });
    }

    /// A plan plays the turn at once: the turn's clock starts again now, so that the plan uses
    /// none of it.
    pub fn restart_turn(&mut self, now: i64) {
        if let Some(turn) = &mut self.turn {
            turn.used_ms = 0;
            if turn.since.is_some() {
                turn.since = Some(now);
            }
        }
    }

    /// A seat's player goes on vacation (`away`) or comes back: their turn's clock stops, or runs
    /// again. A clock already past its deadline does not stop: the time-out comes first. Returns
    /// whether anything changed.
    pub fn set_away(&mut self, seat: u8, away: bool, now: i64) -> bool {
        if self.control.is_untimed() || self.away.contains(&seat) == away {
            return false;
        }
        if away {
            if self.deadline().is_some_and(|d| d <= now) && self.to_act() == Some(seat) {
                return false;
            }
            self.away.push(seat);
            self.away.sort_unstable();
        } else {
            self.away.retain(|&s| s != seat);
        }
        if let Some(turn) = self.turn.as_mut().filter(|t| t.seat == seat) {
            match (away, turn.since) {
                (true, Some(since)) => {
                    turn.used_ms += now - since;
                    turn.since = None;
                }
                (false, None) => turn.since = Some(now),
                _ => {}
            }
        }
        true
    }

    /// The seat whose turn is on the clock.
    pub fn to_act(&self) -> Option<u8> {
        self.turn.map(|t| t.seat)
    }

    /// When the seat to act runs out of time, while its clock runs.
    pub fn deadline(&self) -> Option<i64> {
        let turn = self.turn?;
        let since = turn.since?;
        match self.control {
            TimeControl::None => None,
            _ => Some(since + self.allowance(turn.seat) - turn.used_ms),
        }
    }

    /// The next time a reminder is due after `now`: the earliest lead (of
    /// [`REMINDER_LEADS_MS`]) that the turn is long enough for and that is still ahead.
    pub fn next_reminder(&self, now: i64) -> Option<i64> {
        let deadline = self.deadline()?;
        let allowance = self.allowance(self.to_act()?);
        REMINDER_LEADS_MS
            .iter()
            .filter(|&&lead| allowance >= 2 * lead)
            .map(|lead| deadline - lead)
            .find(|&at| at > now)
    }

    /// The reminder due at `now`, if any: the shortest lead already reached (a scheduler that
    /// was down sends one reminder, the most urgent), while the deadline is still ahead.
    pub fn reminder_due(&self, now: i64) -> Option<i64> {
        let deadline = self.deadline().filter(|&d| d > now)?;
        let allowance = self.allowance(self.to_act()?);
        REMINDER_LEADS_MS
            .iter()
            .rev()
            .copied()
            .find(|&lead| allowance >= 2 * lead && deadline - lead <= now)
    }

    pub fn view(&self, players: u8, now: i64) -> ClockView {
        let deadline = self.deadline();
        let seats = match self.control {
            TimeControl::None => Vec::new(),
            _ => (0..players)
                .map(|seat| {
                    let turn = self.turn.filter(|t| t.seat == seat);
                    let running = turn.is_some_and(|t| t.since.is_some());
                    let remaining_ms = match (turn, deadline) {
                        (Some(_), Some(d)) => (d - now).max(0),
                        (Some(t), None) => (self.allowance(seat) - t.used_ms).max(0),
                        (None, _) => self.allowance(seat),
                    };
                    SeatClock {
                        seat,
                        remaining_ms,
                        running,
                        away: self.away.contains(&seat),
                    }
                })
                .collect(),
        };
        ClockView {
            time_control: self.control,
            seats,
            deadline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fischer_pays_the_time_used_and_adds_the_increment_up_to_the_maximum() {
        let control = TimeControl::Fischer {
            initial_seconds: 3 * DAY,
            increment_seconds: DAY,
            max_seconds: 7 * DAY,
        };
        let day = DAY as i64 * 1000;
        let mut clock = ClockState::new(control, 2);
        clock.after(Some(0), 0);
        assert_eq!(clock.deadline(), Some(3 * day));
        clock.after(Some(0), day / 2); // a decision within the turn: the clock runs on
        clock.after(Some(1), 2 * day); // the turn passes after 2 days: 3 - 2 + 1 = 2 days
        assert_eq!(clock.banks[0], 2 * day);
        assert_eq!(clock.deadline(), Some(2 * day + 3 * day));
        clock.after(Some(0), 2 * day + 1000); // seat 1 used one second: 3 + 1 days, capped at 7
        assert_eq!(clock.banks[1], 4 * day - 1000);
        let view = clock.view(2, 2 * day + 1000 + day);
        assert_eq!(view.seats[0].remaining_ms, day);
        assert!(view.seats[0].running);
        assert_eq!(view.seats[1].remaining_ms, 4 * day - 1000);
    }

    #[test]
    fn per_turn_deadlines_restart_with_every_turn_and_stop_for_nobody() {
        let mut clock = ClockState::new(TimeControl::PerTurn { seconds: 600 }, 3);
        clock.after(Some(2), 1000);
        assert_eq!(clock.deadline(), Some(601_000));
        clock.after(Some(0), 50_000);
        assert_eq!(clock.deadline(), Some(650_000));
        clock.after(None, 60_000);
        assert_eq!(clock.deadline(), None);
        assert!(TimeControl::PerTurn { seconds: 59 }.check().is_err());
        assert!(TimeControl::PerTurn { seconds: 60 }.check().is_ok());
    }

    #[test]
    fn a_vacation_stops_the_turn_and_keeps_the_time_it_used() {
        let hour = 3600 * 1000;
        let mut clock = ClockState::new(TimeControl::PerTurn { seconds: 10 * 3600 }, 2);
        clock.after(Some(0), 0);
        assert!(clock.set_away(0, true, 3 * hour)); // 3 hours used
        assert_eq!(clock.deadline(), None);
        let view = clock.view(2, 50 * hour);
        assert_eq!(view.seats[0].remaining_ms, 7 * hour);
        assert!(view.seats[0].away && !view.seats[0].running);
        assert!(clock.set_away(0, false, 100 * hour));
        assert_eq!(clock.deadline(), Some(107 * hour));
        // A turn that comes to a seat whose player is away waits with a stopped clock.
        clock.set_away(1, true, 101 * hour);
        clock.after(Some(1), 102 * hour);
        assert_eq!(clock.deadline(), None);
        assert!(!clock.set_away(1, true, 103 * hour), "already away");
        clock.set_away(1, false, 110 * hour);
        assert_eq!(clock.deadline(), Some(120 * hour));
    }

    #[test]
    fn a_clock_past_its_deadline_does_not_stop_for_a_vacation() {
        let mut clock = ClockState::new(TimeControl::PerTurn { seconds: 60 }, 2);
        clock.after(Some(0), 0);
        assert!(!clock.set_away(0, true, 60_000));
        assert_eq!(clock.deadline(), Some(60_000));
        assert!(clock.set_away(1, true, 60_000), "another seat may go away");
    }

    #[test]
    fn reminders_come_24_hours_and_1_hour_before_when_the_turn_is_long_enough() {
        let hour = 3600 * 1000;
        let mut clock = ClockState::new(TimeControl::PerTurn { seconds: 3 * 86400 }, 2);
        clock.after(Some(0), 0);
        assert_eq!(clock.next_reminder(0), Some(48 * hour));
        assert_eq!(clock.reminder_due(48 * hour - 1), None);
        assert_eq!(clock.reminder_due(48 * hour), Some(24 * hour));
        assert_eq!(clock.next_reminder(48 * hour), Some(71 * hour));
        // A scheduler back after both points sends the most urgent one only.
        assert_eq!(clock.reminder_due(71 * hour + 5), Some(hour));
        assert_eq!(clock.next_reminder(71 * hour + 5), None);
        assert_eq!(clock.reminder_due(72 * hour), None, "past the deadline");
        // One-hour turns get no reminder; two-hour turns get the one-hour one.
        let mut short = ClockState::new(TimeControl::PerTurn { seconds: 3600 }, 2);
        short.after(Some(0), 0);
        assert_eq!(short.next_reminder(0), None);
        let mut two = ClockState::new(TimeControl::PerTurn { seconds: 7200 }, 2);
        two.after(Some(1), 0);
        assert_eq!(two.next_reminder(0), Some(hour));
    }

    use proptest::prelude::*;

    proptest! {
        /// Over random Fischer clocks, turns, waits and vacations, with time-outs applied as the
        /// scheduler does: no bank is ever negative or above the maximum, a turn never has used
        /// more than it was given, and a time-out only ever follows a passed deadline.
        #[test]
        fn banks_never_go_negative_and_time_outs_follow_passed_deadlines(
            initial in 60u32..100_000,
            increment in 0u32..50_000,
            extra in 0u32..100_000,
            steps in proptest::collection::vec((0i64..200_000_000, 0u8..3, 0u8..4), 1..60),
        ) {
            let control = TimeControl::Fischer {
                initial_seconds: initial,
                increment_seconds: increment,
                max_seconds: initial + extra,
            };
            let mut clock = ClockState::new(control, 3);
            let mut now = 0i64;
            clock.after(Some(0), now);
            for (wait, seat, action) in steps {
                now += wait;
                if let (Some(deadline), Some(late)) = (clock.deadline(), clock.to_act()) {
                    if deadline <= now {
                        // The scheduler's time-out: the next seat plays on.
                        clock.after(Some((late + 1) % 3), now);
                        continue;
                    }
                }
                if let Some(turn) = clock.turn {
                    if let (Some(since), Some(deadline)) = (turn.since, clock.deadline()) {
                        prop_assert!(deadline >= since, "used more than given");
                    }
                }
                match action {
                    0 => clock.set_away(seat, !clock.away.contains(&seat), now),
                    _ => {
                        clock.after(Some(seat), now);
                        true
                    }
                };
                for (s, bank) in clock.banks.iter().enumerate() {
                    prop_assert!(*bank >= 0, "seat {} bank {}", s, bank);
                    prop_assert!(*bank <= (initial + extra) as i64 * 1000);
                }
                for seat_clock in clock.view(3, now).seats {
                    prop_assert!(seat_clock.remaining_ms >= 0);
                }
            }
        }
    }
}
