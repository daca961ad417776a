//! Writes that race (issue 65): every cap, "once" rule and last free place that
//! docs/architecture.md lists under "Writes that race", each met by requests released together
//! by a barrier: through two instances on one PostgreSQL database (alternating), and through one
//! SQLite server's connections. Several rounds each. Every answer is below 500 and one its
//! operation documents; the rows say the rule held.

use crate::support;

use serde_json::{json, Value};
use support::races::{codes, documented, with_status, Site};
use support::{Db, TestServer, User};

/// Rounds of each race: a race that holds by chance fails one of them.
const ROUNDS: usize = 3;
const HOUR: i64 = 3_600_000;

fn users(s: &TestServer, prefix: &str, n: usize) -> Vec<User> {
    (0..n)
        .map(|i| s.register(&format!("{prefix}{i}")))
        .collect()
}

mod account;
mod lobby;
mod plans;
mod waiting;

use account::{
    account_deleted_once, chat_at_most_ten_messages_a_minute, chat_read_mark_never_goes_back,
    name_registered_once, note_written_twice_is_one_note, password_reset_links_used_once,
    password_reset_mails_at_most_three_an_hour, push_devices_at_most_ten,
    push_endpoint_registered_twice_is_one_device, two_factor_started_twice_is_one_enrolment,
    vacation_started_once, webhooks_at_most_ten,
};
use lobby::{
    invitation_join_and_leave_together, last_seat_by_join_invitation_and_link,
    last_seats_taken_once, one_idempotency_key_on_two_games, running_games_cap_on_creations,
    running_games_cap_on_joins,
};
use plans::plan_kept_or_refused_as_the_turn_begins;
use waiting::{
    event_last_places_taken_once, events_waiting_at_most_five_made,
    ladder_challenges_at_most_three_in, ladder_joined_once_each, pairing_request_filed_once,
    pairing_requests_waiting_at_most_five, rematch_started_once,
};

mod mail {
    use super::{password_reset_links_used_once, password_reset_mails_at_most_three_an_hour};
    mail_tests_on_both_databases!(
        password_reset_links_used_once,
        password_reset_mails_at_most_three_an_hour,
    );
}

on_both_databases!(
    plan_kept_or_refused_as_the_turn_begins,
    pairing_requests_waiting_at_most_five,
    pairing_request_filed_once,
    events_waiting_at_most_five_made,
    event_last_places_taken_once,
    ladder_challenges_at_most_three_in,
    ladder_joined_once_each,
    rematch_started_once,
    webhooks_at_most_ten,
    push_devices_at_most_ten,
    push_endpoint_registered_twice_is_one_device,
    chat_at_most_ten_messages_a_minute,
    chat_read_mark_never_goes_back,
    note_written_twice_is_one_note,
    two_factor_started_twice_is_one_enrolment,
    running_games_cap_on_joins,
    running_games_cap_on_creations,
    last_seats_taken_once,
    last_seat_by_join_invitation_and_link,
    invitation_join_and_leave_together,
    one_idempotency_key_on_two_games,
    account_deleted_once,
    name_registered_once,
    vacation_started_once,
);

/// The rules are listed in one place, docs/architecture.md ("Writes that race"): each names its
/// race test, which must be here.
#[test]
fn every_rule_listed_has_its_race_test() {
    let docs = include_str!("../../docs/architecture.md");
    let section = docs
        .split("## Writes that race")
        .nth(1)
        .expect("docs/architecture.md has a section \"Writes that race\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let this = [
        include_str!("mod.rs"),
        include_str!("account.rs"),
        include_str!("lobby.rs"),
        include_str!("plans.rs"),
        include_str!("waiting.rs"),
    ]
    .concat();
    let mut listed = 0;
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let Some(test) = line
            .trim_end_matches('|')
            .rsplit('|')
            .next()
            .map(|cell| cell.trim().trim_matches('`'))
        else {
            continue;
        };
        if test.is_empty() || test.starts_with('-') || test == "race test" {
            continue;
        }
        listed += 1;
        assert!(
            this.contains(&format!("fn {test}(db: Db)"))
                && (this.contains(&format!("    {test},\n"))
                    || this.contains(&format!("({test});"))),
            "docs/architecture.md lists the race test `{test}`, which tests/http_races/ lacks"
        );
    }
    assert!(listed >= 25, "only {listed} rules listed");
}
