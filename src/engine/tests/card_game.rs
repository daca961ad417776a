//! C: `keltis-card`, Keltis Card.

use super::*;
use crate::engine::rows::Direction;

fn card_game(hand0: &[Card], hand1: &[Card]) -> Game {
    given(Variant::KeltisCard, &[hand0, hand1])
}

#[test]
fn c2_each_player_has_five_colour_paths_and_a_gray_path() {
    let mut g = card_game(&[c(Gray, 4)], &[]);
    play(&mut g, 0, lay_on(c(Gray, 4), Gray));
    let v = g.view(Some(0));
    assert_eq!(v.seats[0].rows.len(), 1);
    assert_eq!(v.seats[0].rows[0].color, Gray);
    assert_eq!(
        v.discard_piles.len(),
        6,
        "one pile per colour and one gray (C6)"
    );
}

#[test]
fn c3_number_cards_follow_k5_on_their_colour_path() {
    let mut g = card_game(&[c(Blue, 3), c(Blue, 7), c(Blue, 5)], &[]);
    play(&mut g, 0, lay_on(c(Blue, 3), Blue));
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    play(&mut g, 0, lay_on(c(Blue, 7), Blue));
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    refused(&mut g, 0, lay_on(c(Blue, 5), Blue), "row_order");
    refused(&mut g, 0, lay_on(c(Blue, 5), Pink), "wrong_path");
}

#[test]
fn c4_gray_card_on_a_path_whose_top_has_its_value_or_on_the_gray_path() {
    let mut g = card_game(&[c(Gray, 6)], &[]);
    g.rows[0][Blue.index()].push(c(Blue, 6));
    g.rows[0][Pink.index()].push(c(Pink, 5));
    let lays: Vec<Decision> = g
        .legal_decisions()
        .into_iter()
        .filter(|d| matches!(d, D::Lay { card, .. } if *card == c(Gray, 6)))
        .collect();
    assert_eq!(
        lays,
        vec![lay_on(c(Gray, 6), Gray), lay_on(c(Gray, 6), Blue)]
    );
    refused(&mut g, 0, lay_on(c(Gray, 6), Pink), "wrong_path");
    refused(
        &mut g,
        0,
        D::Lay {
            card: c(Gray, 6),
            pawn: None,
            to: None,
            path: None,
        },
        "choice_required",
    );
    play(&mut g, 0, lay_on(c(Gray, 6), Blue));
    assert_eq!(g.row(0, Blue).cards(), &[c(Blue, 6), c(Gray, 6)]);
    assert_eq!(
        g.row(0, Blue).direction(),
        Direction::Open,
        "the direction is unchanged"
    );
}

#[test]
fn c5_end_card_terminates_its_path_even_empty_and_only_the_second_may_follow() {
    let mut g = card_game(&[Card::end(Pink), c(Pink, 4), Card::end(Pink)], &[]);
    play(&mut g, 0, lay_on(Card::end(Pink), Pink));
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    refused(&mut g, 0, lay_on(c(Pink, 4), Pink), "path_terminated");
    play(&mut g, 0, lay_on(Card::end(Pink), Pink));
    assert_eq!(g.row(0, Pink).end_cards(), 2);
}

#[test]
fn c6_end_cards_go_to_their_colour_pile_and_gray_to_the_gray_pile() {
    let mut g = card_game(&[Card::end(Brown), c(Gray, 2)], &[]);
    play(
        &mut g,
        0,
        D::Discard {
            card: Card::end(Brown),
        },
    );
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    play(&mut g, 0, D::Discard { card: c(Gray, 2) });
    assert_eq!(g.pile(Brown), &[Card::end(Brown)]);
    assert_eq!(g.pile(Gray), &[c(Gray, 2)]);
}

#[test]
fn c7_play_one_then_draw_one_not_the_card_just_discarded() {
    let mut g = card_game(&[c(Green, 9)], &[c(Green, 1)]);
    play(&mut g, 0, D::Discard { card: c(Green, 9) });
    refused(
        &mut g,
        0,
        D::DrawPile { color: Green },
        "discarded_this_turn",
    );
    draw_deck(&mut g, 0);
    assert_eq!(g.to_act(), Some(1));
    play(&mut g, 1, D::Discard { card: c(Green, 1) });
    refused(
        &mut g,
        1,
        D::DrawPile { color: Green },
        "discarded_this_turn",
    );
}

#[test]
fn c8_two_cards_of_one_value_take_that_stone_and_draw_two() {
    let mut g = card_game(
        &[c(Green, 4), c(Gray, 4), c(Blue, 4)],
        &[c(Pink, 4), c(Yellow, 4)],
    );
    // Either order names the same decision.
    play(
        &mut g,
        0,
        D::TakeStone {
            cards: [c(Gray, 4), c(Green, 4)],
        },
    );
    assert_eq!(g.stone_owner(4), Some(0));
    assert_eq!(g.pile(Gray), &[c(Gray, 4)]);
    assert_eq!(g.pile(Green), &[c(Green, 4)]);
    draw_deck(&mut g, 0);
    draw_deck(&mut g, 0);
    assert_eq!(g.hand(0).len(), 8);
    refused(
        &mut g,
        1,
        D::TakeStone {
            cards: [c(Pink, 4), c(Yellow, 4)],
        },
        "stone_taken",
    );
}

#[test]
fn c8_stones_are_one_to_nine_and_the_cards_must_match() {
    let mut g = card_game(&[c(Green, 10), c(Blue, 10), c(Pink, 2), c(Pink, 3)], &[]);
    refused(
        &mut g,
        0,
        D::TakeStone {
            cards: [c(Green, 10), c(Blue, 10)],
        },
        "stone_cards_invalid",
    );
    refused(
        &mut g,
        0,
        D::TakeStone {
            cards: [c(Pink, 2), c(Pink, 3)],
        },
        "stone_cards_invalid",
    );
    refused(
        &mut g,
        0,
        D::TakeStone {
            cards: [c(Pink, 2), c(Pink, 2)],
        },
        "card_not_in_hand",
    );
}

#[test]
fn c9_five_terminated_paths_end_the_turn_and_start_two_plays_each() {
    let mut g = card_game(&[Card::end(Blue)], &[]);
    for color in [Green, Yellow] {
        g.rows[0][color.index()].push(Card::end(color));
    }
    for color in [Brown, Pink] {
        g.rows[1][color.index()].push(Card::end(color));
    }
    play(&mut g, 0, lay_on(Card::end(Blue), Blue));
    assert_eq!(g.end_reason(), Some(EndReason::PathsTerminated));
    assert_eq!(g.phase(), Phase::FinalPlay { left: 4 });
    assert_eq!(g.hand(0).len(), 7, "no further draw");
    // The opponent of the player who ended it starts; they alternate.
    assert_eq!(g.to_act(), Some(1));
    refused(&mut g, 1, D::DrawDeck, "unexpected_decision");
    let pair = g.hand(1).to_vec();
    refused(
        &mut g,
        1,
        D::TakeStone {
            cards: [pair[0], pair[1]],
        },
        "stone_in_final_phase",
    );
    play(&mut g, 1, D::Pass);
    assert_eq!(g.to_act(), Some(0));
    let card = g.hand(0)[0];
    play(&mut g, 0, D::Discard { card });
    play(&mut g, 1, D::Pass);
    assert!(!g.is_over());
    play(&mut g, 0, D::Pass);
    assert!(g.is_over());
    assert_eq!(g.hand(0).len(), 6);
}

#[test]
fn c9_drawing_the_last_card_starts_the_final_phase() {
    let mut g = card_game(&[c(Green, 0)], &[]);
    let last = g.draw_pile.pop().unwrap();
    g.removed.append(&mut g.draw_pile);
    g.draw_pile = vec![last];
    play(&mut g, 0, D::Discard { card: c(Green, 0) });
    draw_deck(&mut g, 0);
    assert_eq!(g.end_reason(), Some(EndReason::DrawPileExhausted));
    assert_eq!(g.phase(), Phase::FinalPlay { left: 4 });
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn c10_card_game_score_and_draw() {
    let mut g = card_game(&[], &[]);
    for v in [1, 2, 3, 4] {
        g.rows[0][Green.index()].push(c(Green, v));
    }
    g.rows[0][Green.index()].push(Card::end(Green)); // 5 cards: 2
    g.rows[0][Blue.index()].push(c(Blue, 7)); // 1 card: -4
    g.rows[0][Gray.index()].push(c(Gray, 0));
    g.rows[0][Gray.index()].push(c(Gray, 9)); // gray: 2
    g.stones[2] = Some(0);
    g.stones[6] = Some(0);
    g.stones[8] = Some(0); // 3 stones: 4
    let s = g.score(0);
    assert_eq!((s.paths, s.gray_path, s.wish_stones), (2 - 4, 2, 4));
    assert_eq!(s.total, 4);
    let s1 = g.score(1);
    assert_eq!(s1.total, -4, "no stones: -4");
    // Equal totals: a draw.
    g.rows[1][Gray.index()].push(c(Gray, 1));
    g.rows[1][Gray.index()].push(c(Gray, 2));
    g.rows[1][Gray.index()].push(c(Gray, 3));
    g.rows[1][Gray.index()].push(c(Gray, 4)); // gray path: 4
    g.stones[0] = Some(1);
    g.stones[1] = Some(1);
    g.stones[3] = Some(1); // 3 stones: 4
    g.rows[1][Pink.index()].push(c(Pink, 1)); // one card: -4; total 4
    g.phase = Phase::Over;
    g.end = Some(EndReason::DrawPileExhausted);
    let r = g.result().unwrap();
    assert_eq!(r.scores[1].total, 4);
    assert_eq!(r.winners, vec![0, 1]);
    assert!(r.draw);
}
