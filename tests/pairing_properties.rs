//! The pairing rule (issue 46) over random queues: variants, table sizes, rating ranges, blocks,
//! bots and arrival order. No request is seated twice, every table satisfies each of its members'
//! constraints, no blocked pair sits together, and when the rule has run no set of requests still
//! waiting could form a table (a brute-force search over every subset says so).

use keltis::engine::Variant;
use keltis::pairing::{compatible, tables, with_bots, Request, Seats, Table};
use proptest::prelude::*;

fn request() -> impl Strategy<Value = Request> {
    (
        0i64..8,
        prop_oneof![Just(Variant::Keltis), Just(Variant::NeueWege)],
        prop::collection::vec(2u8..=4, 1..3),
        prop_oneof![Just("none"), Just("per_turn:86400")],
        any::<bool>(),
        1300.0f64..1700.0,
        prop::option::of((0.0f64..300.0, 0.0f64..300.0)),
        0i64..1000,
        prop::option::of(0i64..2000),
        prop::bool::weighted(0.1),
    )
        .prop_map(
            |(player, variant, seats, clock, rated, rating, range, at, bot, by_bot)| Request {
                id: 0,
                player,
                variant,
                seats: Seats::of(&seats).expect("2 to 4"),
                time_control: clock.to_string(),
                rated,
                rating,
                range,
                filed_at: at,
                bot_after_ms: bot,
                by_bot,
            },
        )
}

fn queue() -> impl Strategy<Value = (Vec<Request>, Vec<(i64, i64)>)> {
    (
        prop::collection::vec(request(), 0..12),
        prop::collection::vec((0i64..8, 0i64..8), 0..6),
    )
        .prop_map(|(mut requests, blocks)| {
            for (i, r) in requests.iter_mut().enumerate() {
                r.id = i as i64 + 1;
            }
            (requests, blocks)
        })
}

/// Whether the requests `members` may sit together at a table of `size`.
fn fits(members: &[&Request], size: u8, blocked: &dyn Fn(i64, i64) -> bool) -> bool {
    members.iter().enumerate().all(|(i, a)| {
        a.seats.accepts(size)
            && members[i + 1..]
                .iter()
                .all(|b| compatible(a, b, size, blocked))
    })
}

/// Every set of 2 to 4 of `waiting` that could form a full table.
fn some_table_left(waiting: &[&Request], blocked: &dyn Fn(i64, i64) -> bool) -> Option<Vec<i64>> {
    let n = waiting.len();
    for mask in 1u32..(1 << n) {
        let members: Vec<&Request> = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| waiting[i])
            .collect();
        let size = members.len() as u8;
        if (2..=4).contains(&size) && fits(&members, size, blocked) {
            return Some(members.iter().map(|r| r.id).collect());
        }
    }
    None
}

fn check_tables(
    formed: &[Table],
    requests: &[Request],
    blocked: &dyn Fn(i64, i64) -> bool,
) -> Result<(), TestCaseError> {
    let mut seen = std::collections::HashSet::new();
    for table in formed {
        let members: Vec<&Request> = table
            .requests
            .iter()
            .map(|id| requests.iter().find(|r| r.id == *id).expect("a request"))
            .collect();
        for r in &members {
            prop_assert!(seen.insert(r.id), "request {} seated twice", r.id);
        }
        prop_assert!(fits(&members, table.size(), blocked), "{table:?}");
        if table.bots > 0 {
            prop_assert!(members.iter().all(|r| r.allows_bots()), "{table:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_table_keeps_every_members_constraints_and_none_is_left((requests, blocks) in queue()) {
        let blocked = |a: i64, b: i64| blocks.contains(&(a, b)) || blocks.contains(&(b, a));
        let formed = tables(&requests, &blocked);
        check_tables(&formed, &requests, &blocked)?;
        prop_assert!(formed.iter().all(|t| t.bots == 0));
        let seated: Vec<i64> = formed.iter().flat_map(|t| t.requests.clone()).collect();
        let waiting: Vec<&Request> = requests.iter().filter(|r| !seated.contains(&r.id)).collect();
        prop_assert_eq!(some_table_left(&waiting, &blocked), None);
        // The same queue in another order forms the same tables.
        let mut reversed = requests.clone();
        reversed.reverse();
        prop_assert_eq!(tables(&reversed, &blocked), formed);
    }

    #[test]
    fn bots_fill_only_tables_whose_people_allow_them(
        (requests, blocks) in queue(),
        now in 0i64..4000,
    ) {
        let blocked = |a: i64, b: i64| blocks.contains(&(a, b)) || blocks.contains(&(b, a));
        let formed = with_bots(&requests, now, &blocked);
        check_tables(&formed, &requests, &blocked)?;
        for table in &formed {
            let lead = requests.iter().find(|r| r.id == table.requests[0]).expect("a request");
            let waited = lead.bot_after_ms.is_some_and(|w| lead.filed_at + w <= now);
            prop_assert!(waited, "{table:?} before its wait");
        }
    }
}
