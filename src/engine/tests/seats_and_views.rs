//! What each seat may see, leaving a game (resign, time out), decisions refused whatever the
//! variant, and records that do not replay.

use super::*;
use crate::engine::{Record, RecordedDecision};

#[test]
fn a_view_depends_only_on_what_its_seat_may_see() {
    // Two games that differ in the draw pile's order, the removed cards and the other hand.
    for variant in Variant::ALL {
        let a = Setup::deal(variant, 2, 11).unwrap();
        let mut b = a.clone();
        b.draw_pile.reverse();
        let other_hand: Vec<Card> = b.removed.drain(..8).collect();
        let old_hand = std::mem::replace(&mut b.hands[1], other_hand);
        b.removed.extend(old_hand);
        let ga = Game::from_setup(&a).unwrap();
        let gb = Game::from_setup(&b).unwrap();
        assert_ne!(ga, gb);
        assert_eq!(ga.view(Some(0)), gb.view(Some(0)), "{variant}");
        assert_eq!(ga.view(None), gb.view(None), "{variant}");
        assert_ne!(ga.view(Some(1)), gb.view(Some(1)));
    }
}

#[test]
fn legal_decisions_are_shown_only_to_the_seat_to_act() {
    let g = Game::new(Variant::Keltis, 3, 5).unwrap();
    let to_act = g.to_act().unwrap();
    for seat in 0..3 {
        let v = g.view(Some(seat));
        assert_eq!(!v.legal_decisions.is_empty(), seat == to_act);
        assert_eq!(v.hand.len(), 8);
    }
    assert!(g.view(None).hand.is_empty());
    assert!(g.view(None).legal_decisions.is_empty());
}

#[test]
fn resign_in_a_two_player_game_ends_it_and_the_resigner_cannot_win() {
    let mut g = given(Variant::Keltis, &[&[], &[]]);
    g.pawns[1][BIG_PAWN as usize] = space(&g, "green-9");
    g.apply(1, D::Resign).unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.end_reason, EndReason::Resigned { seat: 1 });
    assert_eq!(r.winners, vec![0]);
    assert_eq!(
        r.ranking,
        vec![0, 1],
        "the resigner ranks last despite more points"
    );
    assert_eq!(r.scores[1].retired, Some(Retirement::Resigned));
    assert_eq!(g.apply(0, D::Resign).unwrap_err(), RuleError::GameOver);
}

#[test]
fn a_time_out_in_a_two_player_game_ends_it() {
    let mut g = given(Variant::KeltisCard, &[&[], &[]]);
    g.apply(0, D::TimeOut).unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.end_reason, EndReason::TimedOut { seat: 0 });
    assert_eq!(r.winners, vec![1]);
    assert_eq!(r.ranking, vec![1, 0]);
}

#[test]
fn with_three_players_a_seat_that_leaves_plays_on_and_cannot_win() {
    // Given a three-player game where seat 1 leads on points,
    let mut g = given(Variant::Keltis, &[&[c(Green, 1)], &[], &[]]);
    g.pawns[1][BIG_PAWN as usize] = space(&g, "green-9");
    g.pawns[2][1] = space(&g, "blue-3");
    // when seat 1 resigns,
    g.apply(1, D::Resign).unwrap();
    // then the game goes on, seat 1 keeps its turns (a bot plays them), and may not leave twice;
    assert!(!g.is_over());
    assert_eq!(g.retired(1), Some(Retirement::Resigned));
    assert_eq!(g.view(Some(0)).seats[1].retired, Some(Retirement::Resigned));
    assert_eq!(
        g.apply(1, D::TimeOut).unwrap_err(),
        RuleError::SeatRetired { seat: 1 }
    );
    // when seat 2 times out, fewer than two are left: the game ends;
    g.apply(2, D::TimeOut).unwrap();
    let r = g.result().unwrap();
    assert_eq!(r.end_reason, EndReason::TimedOut { seat: 2 });
    // the one still in wins, those who left rank below it by their totals.
    assert_eq!(r.winners, vec![0]);
    assert_eq!(r.ranking[0], 0);
    assert_eq!(r.ranking[1..], [1, 2], "seat 1 has more points than seat 2");
}

#[test]
fn decisions_of_another_variant_or_phase_are_refused() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 1), c(Green, 2)], &[]]);
    refused(
        &mut g,
        0,
        D::TakeStone {
            cards: [c(Green, 1), c(Green, 2)],
        },
        "not_in_variant",
    );
    refused(&mut g, 0, D::Skip, "unexpected_decision");
    refused(&mut g, 0, D::Step { pawn: 1, to: 0 }, "unexpected_decision");
    refused(
        &mut g,
        0,
        D::Discard { card: c(Blue, 10) },
        "card_not_in_hand",
    );
    refused(&mut g, 0, lay(c(Green, 1), 7, 0), "no_such_pawn");
    assert_eq!(
        g.apply(5, D::DrawDeck).unwrap_err(),
        RuleError::NoSuchSeat { seat: 5 }
    );
}

/// A record that does not replay is an error the server logs: it names the refusal by its code,
/// never the card, which may be one of a hand still hidden.
#[test]
fn a_refused_replay_names_its_code_not_the_card() {
    let setup = Setup::deal(Variant::KeltisCard, 2, 7).expect("valid player count");
    let game = Game::from_setup(&setup).expect("dealt setup is consistent");
    let seat = game.to_act().expect("someone starts");
    // Cards come in pairs: one the deciding seat does not hold itself.
    let hidden = *game
        .hand(1 - seat)
        .iter()
        .find(|card| !game.hand(seat).contains(card))
        .expect("a card only the other seat holds");
    let mut record = Record::new(setup);
    record.decisions.push(RecordedDecision {
        seat,
        decision: lay_on(hidden, hidden.color()).to_json(game.board()),
    });
    let err = record
        .replay()
        .expect_err("the other seat's card is refused");
    let text = err.to_string();
    assert!(text.contains("card_not_in_hand"), "{text}");
    assert!(!text.contains(&hidden.to_string()), "{text} names {hidden}");
}
