//! A new event's settings checked and turned into its stored row: table size, rounds, groups,
//! points by place, players, entry conditions, late entries, the registration window and the
//! start.

use super::{EventFormat, EventState, NewEvent, MAX_PLAYERS, MAX_ROUNDS, MAX_START_AHEAD_MS};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::events::NewEventRow;
use crate::tournaments::{Points, Scoring};

/// A new event, checked.
pub(super) struct Checked {
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
    pub(super) fn row<'a>(
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
            registration_opens_at: new.registration_opens_at.filter(|&at| at > now),
            repeat_every_days: new.repeat_every_days.map(|d| d as i32),
            created_by,
            state: EventState::Registering.name(),
            seed: crate::service::random_u64()? as i64,
            created_at: now,
        })
    }
}

pub(super) fn check(new: &NewEvent, now: i64) -> ServiceResult<Checked> {
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
    if new.registration_opens_at.is_some_and(|opens| {
        opens > now + MAX_START_AHEAD_MS || new.starts_at.is_some_and(|start| opens >= start)
    }) {
        return Err(ServiceError::invalid(
            "invalid_registration_window",
            "entries open within 90 days, before the event starts",
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
