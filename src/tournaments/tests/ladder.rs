//! The ladder: join at the bottom, challenge a little above, the winner climbs, a time-out
//! leaves.

use crate::tournaments::ladder::{Ladder, Refused, MAX_OPEN};

#[test]
fn a_challenger_who_wins_takes_the_rung_and_the_others_step_down() {
    let mut ladder = Ladder::default();
    for e in 1..=10 {
        assert_eq!(ladder.join(e), e as usize);
    }
    assert_eq!(ladder.join(3), 3, "joining twice keeps the rung");
    // From rung 10, two fifths of 10 = 4 rungs up: rung 6, not rung 5.
    assert_eq!(ladder.may_challenge(10, 6, &[]), Ok(()));
    assert_eq!(ladder.may_challenge(10, 5, &[]), Err(Refused::OutOfReach));
    assert_eq!(ladder.may_challenge(6, 10, &[]), Err(Refused::NotAbove));
    assert_eq!(ladder.may_challenge(2, 1, &[]), Ok(()));
    assert_eq!(ladder.may_challenge(11, 1, &[]), Err(Refused::NotOnLadder));
    ladder.challenger_won(10, 6);
    assert_eq!(ladder.rungs, vec![1, 2, 3, 4, 5, 10, 6, 7, 8, 9]);
    // Winning against someone now below changes nothing.
    ladder.challenger_won(10, 7);
    assert_eq!(ladder.rung(10), Some(6));
}

#[test]
fn three_challenges_out_and_three_in_at_most() {
    let mut ladder = Ladder::default();
    for e in 1..=20 {
        ladder.join(e);
    }
    let open = vec![(20, 19), (20, 18), (20, 17)];
    assert_eq!(open.len(), MAX_OPEN);
    assert_eq!(
        ladder.may_challenge(20, 16, &open),
        Err(Refused::TooManyOut)
    );
    assert_eq!(ladder.may_challenge(19, 17, &open), Ok(()));
    assert_eq!(
        ladder.may_challenge(20, 19, &open),
        Err(Refused::AlreadyOpen)
    );
    let open = vec![(13, 12), (14, 12), (15, 12)];
    assert_eq!(ladder.may_challenge(16, 12, &open), Err(Refused::TooManyIn));
}

#[test]
fn a_time_out_leaves_the_ladder_and_the_rungs_close_up() {
    let mut ladder = Ladder::default();
    for e in 1..=4 {
        ladder.join(e);
    }
    assert!(ladder.leave(2));
    assert!(!ladder.leave(2));
    assert_eq!(ladder.rungs, vec![1, 3, 4]);
    assert_eq!(Ladder::reach(1), 1);
    assert_eq!(Ladder::reach(20), 8);
}
