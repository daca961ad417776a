//! The pairing rule by example: given waiting requests, when the rule runs, then these tables.

use super::*;

/// A request of player `id` (its own id too), filed at `at`, for a 2-player rated Keltis game
/// with no time control, rated 1500, any opponent.
fn request(id: i64, at: i64) -> Request {
    Request {
        id,
        player: id,
        variant: Variant::Keltis,
        seats: Seats::of(&[2]).unwrap(),
        time_control: "none".into(),
        rated: true,
        rating: 1500.0,
        range: None,
        filed_at: at,
        bot_after_ms: None,
        by_bot: false,
    }
}

fn sizes(r: Request, seats: &[u8]) -> Request {
    Request {
        seats: Seats::of(seats).unwrap(),
        ..r
    }
}

fn rated(r: Request, rating: f64, range: Option<(f64, f64)>) -> Request {
    Request { rating, range, ..r }
}

fn nobody_blocked(_: i64, _: i64) -> bool {
    false
}

fn ids(tables: &[Table]) -> Vec<Vec<i64>> {
    tables.iter().map(|t| t.requests.clone()).collect()
}

#[test]
fn two_matching_requests_sit_down_together() {
    let waiting = [request(1, 10), request(2, 20)];
    assert_eq!(ids(&tables(&waiting, &nobody_blocked)), vec![vec![1, 2]]);
}

#[test]
fn a_request_alone_waits() {
    assert!(tables(&[request(1, 10)], &nobody_blocked).is_empty());
}

#[test]
fn a_player_never_sits_with_themselves() {
    let mut second = request(2, 20);
    second.player = 1;
    assert!(tables(&[request(1, 10), second], &nobody_blocked).is_empty());
}

#[test]
fn variant_time_control_and_rated_must_agree() {
    let other_variant = Request {
        variant: Variant::NeueWege,
        ..request(2, 20)
    };
    let other_clock = Request {
        time_control: "per_turn:86400".into(),
        ..request(3, 30)
    };
    let casual = Request {
        rated: false,
        ..request(4, 40)
    };
    let waiting = [request(1, 10), other_variant, other_clock, casual];
    assert!(tables(&waiting, &nobody_blocked).is_empty());
}

#[test]
fn ratings_must_lie_in_each_others_range() {
    // 1 accepts 1400-1600; 2 (1550) accepts down to 1450 only: 1 (1500) fits, so they play.
    let one = rated(request(1, 10), 1500.0, Some((100.0, 100.0)));
    let two = rated(request(2, 20), 1550.0, Some((100.0, 0.0)));
    assert_eq!(
        ids(&tables(&[one.clone(), two], &nobody_blocked)),
        vec![vec![1, 2]]
    );
    // 3 (1700) is outside 1's range, though 1 is inside 3's (no range).
    let three = rated(request(3, 20), 1700.0, None);
    assert!(tables(&[one, three], &nobody_blocked).is_empty());
}

#[test]
fn blocked_players_are_never_seated_together() {
    let blocked = |a: i64, b: i64| (a, b) == (2, 1) || (a, b) == (1, 2);
    let waiting = [request(1, 10), request(2, 20), request(3, 30)];
    // 1 is served first: 2 blocked it, so 3 sits with it; 2 waits.
    assert_eq!(ids(&tables(&waiting, &blocked)), vec![vec![1, 3]]);
}

#[test]
fn the_oldest_is_served_first_with_the_closest_rating() {
    let waiting = [
        rated(request(4, 40), 1510.0, None),
        rated(request(1, 10), 1500.0, None),
        rated(request(2, 20), 1800.0, None),
        rated(request(3, 30), 1450.0, None),
    ];
    // 1 first: 4 (10 away) before 3 (50) before 2 (300); then 2, the older, with 3.
    assert_eq!(
        ids(&tables(&waiting, &nobody_blocked)),
        vec![vec![1, 4], vec![2, 3]]
    );
}

#[test]
fn the_largest_table_that_fills_is_formed() {
    let waiting = [
        sizes(request(1, 10), &[2, 3]),
        sizes(request(2, 20), &[2, 3]),
        sizes(request(3, 30), &[3]),
    ];
    // A table of two would leave 3 waiting: the three sit down together.
    let formed = tables(&waiting, &nobody_blocked);
    assert_eq!(ids(&formed), vec![vec![1, 2, 3]]);
    assert_eq!(formed[0].size(), 3);
}

#[test]
fn a_larger_table_only_from_requests_that_all_accept_its_size() {
    let waiting = [
        sizes(request(1, 10), &[4]),
        sizes(request(2, 20), &[3, 4]),
        sizes(request(3, 30), &[2, 4]),
    ];
    // No size all three accept can be filled: 4 needs a fourth, 2 and 3 someone else.
    assert!(tables(&waiting, &nobody_blocked).is_empty());
    let fourth = sizes(request(4, 40), &[4]);
    let mut more = waiting.to_vec();
    more.push(fourth);
    assert_eq!(ids(&tables(&more, &nobody_blocked)), vec![vec![1, 2, 3, 4]]);
}

#[test]
fn a_table_is_found_past_a_preferred_mate_who_spoils_it() {
    // For 1's table of three, 2 is closest in rating but blocks 3 and 4; 3 and 4 get on.
    let blocked = |a: i64, b: i64| matches!((a.min(b), a.max(b)), (2, 3) | (2, 4));
    let waiting = [
        sizes(rated(request(1, 10), 1500.0, None), &[3]),
        sizes(rated(request(2, 20), 1501.0, None), &[3]),
        sizes(rated(request(3, 30), 1600.0, None), &[3]),
        sizes(rated(request(4, 40), 1700.0, None), &[3]),
    ];
    assert_eq!(ids(&tables(&waiting, &blocked)), vec![vec![1, 3, 4]]);
}

#[test]
fn an_outside_bot_sits_only_with_requests_that_allow_bots() {
    let bot = Request {
        by_bot: true,
        ..request(2, 20)
    };
    assert!(tables(&[request(1, 10), bot.clone()], &nobody_blocked).is_empty());
    let allows = Request {
        bot_after_ms: Some(3_600_000),
        ..request(1, 10)
    };
    assert_eq!(
        ids(&tables(&[allows, bot], &nobody_blocked)),
        vec![vec![1, 2]]
    );
}

#[test]
fn a_bot_takes_the_seats_left_after_the_wait_and_never_before() {
    let waiting = Request {
        bot_after_ms: Some(600_000),
        ..sizes(request(1, 0), &[3, 4])
    };
    assert!(with_bots(std::slice::from_ref(&waiting), 599_999, &nobody_blocked).is_empty());
    let formed = with_bots(std::slice::from_ref(&waiting), 600_000, &nobody_blocked);
    assert_eq!(
        formed,
        vec![Table {
            requests: vec![1],
            bots: 2
        }]
    );
    // Another waiting request that allows bots sits down too; one that does not, never.
    let likes_bots = Request {
        bot_after_ms: Some(86_400_000),
        ..sizes(request(2, 100), &[3])
    };
    let no_bots = sizes(request(3, 50), &[3]);
    let formed = with_bots(&[waiting, likes_bots, no_bots], 600_000, &nobody_blocked);
    assert_eq!(
        formed,
        vec![Table {
            requests: vec![1, 2],
            bots: 1
        }]
    );
}

#[test]
fn a_request_that_allows_no_bot_never_gets_one() {
    assert!(with_bots(&[request(1, 0)], i64::MAX, &nobody_blocked).is_empty());
}

#[test]
fn seats_are_two_to_four() {
    assert_eq!(Seats::of(&[2, 4]).map(Seats::sizes), Some(vec![2, 4]));
    assert_eq!(Seats::of(&[]), None);
    assert_eq!(Seats::of(&[5]), None);
    assert_eq!(Seats::of(&[1, 2]), None);
}
