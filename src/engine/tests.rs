//! Given / when / then tests, one or more per rule id of RULES.md, written from the rulebook.
//! "Given" arranges a state directly; "when" is one or more decisions; "then" reads the state.

use super::board::{SpaceIdx, TileKind};
use super::cards::{Card, Color};
use super::decision::{Decision, DecisionOf as D};
use super::game::{Game, Phase, BIG_PAWN, PLAIN_STONE, START};
use super::scoring::{EndReason, Retirement};
use super::setup::Setup;
use super::{RuleError, Variant};

use Color::{Blue, Brown, Gray, Green, Pink, Yellow};

fn c(color: Color, value: u8) -> Card {
    Card::number(color, value)
}

/// A game whose seats hold exactly these hands, seat 0 to start, every tile removed and every
/// pile of wish stones full. The rest of the deck is the draw pile in deck order.
fn given(variant: Variant, hands: &[&[Card]]) -> Game {
    let players = hands.len() as u8;
    let mut setup = Setup::deal(variant, players, 7).expect("valid player count");
    let mut pool: Vec<Card> = setup
        .draw_pile
        .iter()
        .chain(&setup.removed)
        .chain(setup.hands.iter().flatten())
        .copied()
        .collect();
    pool.sort();
    for card in hands.iter().flat_map(|h| h.iter()) {
        let i = pool
            .iter()
            .position(|c| c == card)
            .unwrap_or_else(|| panic!("{card} is not left in the deck"));
        pool.remove(i);
    }
    let mut dealt = Vec::new();
    for hand in hands {
        let mut h = hand.to_vec();
        // Fill short hands from the pool so that every seat starts with 8 (K3).
        while h.len() < 8 {
            h.push(pool.remove(pool.len() - 1));
        }
        dealt.push(h);
    }
    setup.hands = dealt;
    setup.removed = Vec::new();
    setup.draw_pile = pool;
    setup.start_player = 0;
    let mut g = Game::from_setup(&setup).expect("arranged setup is consistent");
    g.tiles.iter_mut().for_each(|t| *t = None);
    g
}

fn space(g: &Game, id: &str) -> SpaceIdx {
    g.board()
        .and_then(|b| b.index_of(id))
        .unwrap_or_else(|| panic!("no space {id}"))
}

fn lay(card: Card, pawn: u8, to: SpaceIdx) -> Decision {
    D::Lay {
        card,
        pawn: Some(pawn),
        to: Some(to),
        path: None,
    }
}

fn lay_on(card: Card, path: Color) -> Decision {
    D::Lay {
        card,
        pawn: None,
        to: None,
        path: Some(path),
    }
}

/// Apply and check that the decision was listed as legal first.
fn play(g: &mut Game, seat: u8, d: Decision) {
    assert!(
        g.legal_decisions().contains(&d.normalized()),
        "{d:?} should be legal; legal: {:?}",
        g.legal_decisions()
    );
    g.apply(seat, d)
        .unwrap_or_else(|e| panic!("{d:?} refused: {e}"));
}

/// Apply, expect the error code, and check that nothing changed.
fn refused(g: &mut Game, seat: u8, d: Decision, code: &str) {
    let before = g.clone();
    let err = g.apply(seat, d).expect_err("decision should be refused");
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(*g, before, "a refused decision changes nothing");
    if g.to_act() == Some(seat) {
        assert!(!g.legal_decisions().contains(&d));
    }
}

/// Given: it is `seat`'s turn again, at its start (to test several lays in a row).
fn give_turn_to(g: &mut Game, seat: u8) {
    g.turn_player = seat;
    g.to_act = seat;
    g.phase = Phase::Play;
}

fn draw_deck(g: &mut Game, seat: u8) {
    play(g, seat, D::DrawDeck);
}

// ---------------------------------------------------------------- K: both board games

#[test]
fn k4_five_pawns_one_big_all_on_start() {
    for variant in [Variant::Keltis, Variant::NeueWege] {
        let g = Game::new(variant, 3, 1).unwrap();
        for seat in 0..3 {
            assert_eq!(g.pawns(seat), &[START; 5]);
            let view = g.view(Some(seat));
            let pawns = &view.seats[seat as usize].pawns;
            assert_eq!(pawns.len(), 5);
            assert_eq!(pawns.iter().filter(|p| p.big).count(), 1);
            assert!(pawns.iter().all(|p| p.space.is_none()));
        }
    }
}

#[test]
fn k5_a_card_that_breaks_the_row_order_is_refused_and_changes_nothing() {
    let mut g = given(
        Variant::Keltis,
        &[&[c(Green, 3), c(Green, 6), c(Green, 4)], &[]],
    );
    let green1 = space(&g, "green-1");
    play(&mut g, 0, lay(c(Green, 3), 1, green1));
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    let green2 = space(&g, "green-2");
    play(&mut g, 0, lay(c(Green, 6), 1, green2));
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    // 3, 6: ascending, so 4 may not follow.
    let green3 = space(&g, "green-3");
    refused(&mut g, 0, lay(c(Green, 4), 1, green3), "row_order");
    // ...but it can always be discarded.
    play(&mut g, 0, D::Discard { card: c(Green, 4) });
}

#[test]
fn k6_a_turn_is_one_card_then_draw_back_to_eight() {
    let mut g = given(Variant::Keltis, &[&[c(Blue, 5)], &[]]);
    let top = *g.draw_pile.last().unwrap();
    assert_eq!(g.phase(), Phase::Play);
    let to = space(&g, "blue-1");
    play(&mut g, 0, lay(c(Blue, 5), BIG_PAWN, to));
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.hand(0).len(), 7);
    let card = g.hand(0)[0];
    refused(&mut g, 0, D::Discard { card }, "unexpected_decision");
    refused(&mut g, 1, D::DrawDeck, "not_your_turn");
    draw_deck(&mut g, 0);
    assert_eq!(g.hand(0).len(), 8);
    assert!(
        g.hand_has(0, top),
        "the top card of the draw pile was drawn"
    );
    assert_eq!((g.to_act(), g.phase()), (Some(1), Phase::Play));
}

#[test]
fn k6_the_draw_may_come_from_the_top_of_any_discard_pile() {
    let mut g = given(Variant::Keltis, &[&[c(Pink, 2)], &[c(Yellow, 9)]]);
    play(&mut g, 0, D::Discard { card: c(Pink, 2) });
    draw_deck(&mut g, 0);
    play(&mut g, 1, D::Discard { card: c(Yellow, 9) });
    play(&mut g, 1, D::DrawPile { color: Pink });
    assert!(g.hand_has(1, c(Pink, 2)));
    assert!(g.pile(Pink).is_empty());
}

#[test]
fn k7_a_card_discarded_this_turn_cannot_be_drawn_back() {
    let mut g = given(Variant::Keltis, &[&[c(Pink, 2)], &[c(Green, 1)]]);
    play(&mut g, 0, D::Discard { card: c(Pink, 2) });
    refused(
        &mut g,
        0,
        D::DrawPile { color: Pink },
        "discarded_this_turn",
    );
    draw_deck(&mut g, 0);
    // Next turn, the other player may take it.
    play(&mut g, 1, D::Discard { card: c(Green, 1) });
    play(&mut g, 1, D::DrawPile { color: Pink });
    assert!(g.hand_has(1, c(Pink, 2)));
}

#[test]
fn k7_empty_pile_cannot_be_drawn() {
    let mut g = given(Variant::Keltis, &[&[c(Pink, 2)], &[]]);
    play(&mut g, 0, D::Discard { card: c(Pink, 2) });
    refused(&mut g, 0, D::DrawPile { color: Blue }, "pile_empty");
}

#[test]
fn k8_every_discard_pile_is_public_in_every_view() {
    let mut g = given(
        Variant::Keltis,
        &[&[c(Pink, 2)], &[c(Pink, 9), c(Green, 1)]],
    );
    play(&mut g, 0, D::Discard { card: c(Pink, 2) });
    draw_deck(&mut g, 0);
    play(&mut g, 1, D::Discard { card: c(Pink, 9) });
    for viewer in [Some(0), Some(1), None] {
        let v = g.view(viewer);
        let pink = v.discard_piles.iter().find(|p| p.color == Pink).unwrap();
        assert_eq!(pink.cards, vec![c(Pink, 2), c(Pink, 9)]);
    }
}

#[test]
fn k9a_the_fifth_pawn_entering_the_goal_zone_ends_the_game_at_once() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 5)], &[]]);
    // Four pawns already in the goal zone (stones 7..9).
    g.pawns[1] = [
        space(&g, "yellow-7"),
        space(&g, "brown-8"),
        space(&g, "blue-9"),
        space(&g, "pink-7"),
        START,
    ];
    g.goal_pawns = 4;
    g.pawns[0][2] = space(&g, "green-6");
    let green7 = space(&g, "green-7");
    g.tiles[green7 as usize] = Some(TileKind::Points(3));
    play(&mut g, 0, lay(c(Green, 5), 2, green7));
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::GoalZoneFull));
    assert_eq!(g.tile_points(0), 0, "that arrival's tile is not resolved");
    assert_eq!(g.hand(0).len(), 7, "the turn ends without drawing");
    refused(&mut g, 0, D::DrawDeck, "game_over");
    assert!(g.legal_decisions().is_empty());
}

#[test]
fn k9a_a_pawn_moving_within_the_goal_zone_does_not_count_again() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 5)], &[]]);
    g.pawns[0][1] = space(&g, "green-7");
    g.goal_pawns = 4;
    let to = space(&g, "green-8");
    play(&mut g, 0, lay(c(Green, 5), 1, to));
    assert!(!g.is_over());
    assert_eq!(g.goal_pawns(), 4);
}

#[test]
fn k9b_drawing_the_last_card_ends_the_game() {
    let mut g = given(Variant::NeueWege, &[&[c(Pink, 2)], &[]]);
    // Keep one card in the draw pile; the rest moves to the removed cards.
    let last = g.draw_pile.pop().unwrap();
    g.removed.append(&mut g.draw_pile);
    g.draw_pile = vec![last];
    play(&mut g, 0, D::Discard { card: c(Pink, 2) });
    draw_deck(&mut g, 0);
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::DrawPileExhausted));
}

#[test]
fn k10_equal_totals_share_the_win() {
    let mut g = given(Variant::Keltis, &[&[], &[], &[]]);
    // Seats 0 and 1 each have one small pawn on a 3 stone; seat 2 stays on Start.
    g.pawns[0][1] = space(&g, "green-6");
    g.pawns[1][1] = space(&g, "blue-6");
    g.wish_stones[0][PLAIN_STONE] = 2;
    g.wish_stones[1][PLAIN_STONE] = 2;
    g.finish(EndReason::DrawPileExhausted);
    let result = g.result().unwrap();
    assert_eq!(result.winners, vec![0, 1]);
    assert!(!result.draw, "two of three players share the win");
    assert_eq!(result.scores[0].total, 3 + 2);
}

#[test]
fn k11_the_big_pawn_doubles_its_space_value_negative_too_but_not_tiles() {
    let mut g = given(Variant::Keltis, &[&[], &[]]);
    g.pawns[0][BIG_PAWN as usize] = space(&g, "green-9");
    g.pawns[0][1] = space(&g, "blue-9");
    g.pawns[1][BIG_PAWN as usize] = space(&g, "pink-1");
    g.tile_points[0] = 3;
    let s0 = g.score(0);
    assert_eq!(s0.pawns, 2 * 10 + 10);
    assert_eq!(s0.tile_points, 3, "tile points are not doubled");
    assert_eq!(g.score(1).pawns, -8);
}

#[test]
fn k13_free_step_is_optional() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 5)], &[]]);
    let green1 = space(&g, "green-1");
    g.tiles[green1 as usize] = Some(TileKind::Clover);
    play(&mut g, 0, lay(c(Green, 5), 1, green1));
    assert_eq!(g.phase(), Phase::FreeStep);
    play(&mut g, 0, D::Skip);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.pawns(0)[1], green1);
}

#[test]
fn k13_free_step_arrival_resolves_its_tile_and_chains() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 5)], &[]]);
    let (g1, g2, g3) = (
        space(&g, "green-1"),
        space(&g, "green-2"),
        space(&g, "green-3"),
    );
    g.tiles[g1 as usize] = Some(TileKind::Clover);
    g.tiles[g2 as usize] = Some(TileKind::Clover);
    g.tiles[g3 as usize] = Some(TileKind::Points(2));
    play(&mut g, 0, lay(c(Green, 5), 1, g1));
    play(&mut g, 0, D::Step { pawn: 1, to: g2 });
    assert_eq!(g.phase(), Phase::FreeStep, "the second clover chains");
    play(&mut g, 0, D::Step { pawn: 1, to: g3 });
    assert_eq!(g.tile_points(0), 2);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.tile_at(g1), Some(TileKind::Clover), "clovers stay");
}

#[test]
fn k13_a_pawn_on_a_final_space_cannot_step() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 5)], &[]]);
    let g1 = space(&g, "green-1");
    g.tiles[g1 as usize] = Some(TileKind::Clover);
    g.pawns[0][BIG_PAWN as usize] = space(&g, "blue-9");
    play(&mut g, 0, lay(c(Green, 5), 1, g1));
    let steps = g.legal_decisions();
    assert!(steps
        .iter()
        .all(|d| !matches!(d, D::Step { pawn: BIG_PAWN, .. })));
    let blue8 = space(&g, "blue-8");
    refused(
        &mut g,
        0,
        D::Step {
            pawn: BIG_PAWN,
            to: blue8,
        },
        "illegal_move",
    );
}

// ---------------------------------------------------------------- B: the base game

#[test]
fn b3_first_card_of_a_colour_puts_a_chosen_pawn_on_stone_one() {
    let mut g = given(Variant::Keltis, &[&[c(Brown, 7)], &[]]);
    let brown1 = space(&g, "brown-1");
    let lays: Vec<Decision> = g
        .legal_decisions()
        .into_iter()
        .filter(|d| matches!(d, D::Lay { card, .. } if *card == c(Brown, 7)))
        .collect();
    // The big pawn or a small one (small pawns are identical: the lowest-numbered is named).
    assert_eq!(
        lays,
        vec![lay(c(Brown, 7), 0, brown1), lay(c(Brown, 7), 1, brown1)]
    );
    refused(
        &mut g,
        0,
        lay(c(Brown, 7), 3, brown1),
        "not_lowest_small_pawn",
    );
    refused(
        &mut g,
        0,
        D::Lay {
            card: c(Brown, 7),
            pawn: None,
            to: None,
            path: None,
        },
        "choice_required",
    );
    play(&mut g, 0, lay(c(Brown, 7), BIG_PAWN, brown1));
    assert_eq!(g.pawns(0)[BIG_PAWN as usize], brown1);
}

#[test]
fn b3_one_card_is_one_step_whatever_its_value() {
    let mut g = given(Variant::Keltis, &[&[c(Brown, 0), c(Brown, 10)], &[]]);
    let to = space(&g, "brown-1");
    play(&mut g, 0, lay(c(Brown, 0), 1, to));
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    // The pawn is named implicitly: only one move exists.
    play_implicit(&mut g, c(Brown, 10));
    assert_eq!(g.pawns(0)[1], space(&g, "brown-2"));
}

fn play_implicit(g: &mut Game, card: Card) {
    g.apply(
        g.to_act,
        D::Lay {
            card,
            pawn: None,
            to: None,
            path: None,
        },
    )
    .expect("a lay with one possible move needs no pawn or target");
}

#[test]
fn b4_a_player_never_has_two_pawns_on_one_path() {
    let mut g = given(Variant::Keltis, &[&[c(Blue, 3)], &[]]);
    g.pawns[0][1] = space(&g, "blue-2");
    let blue3 = space(&g, "blue-3");
    let lays: Vec<Decision> = g
        .legal_decisions()
        .into_iter()
        .filter(|d| matches!(d, D::Lay { card, .. } if *card == c(Blue, 3)))
        .collect();
    assert_eq!(lays, vec![lay(c(Blue, 3), 1, blue3)]);
    let blue1 = space(&g, "blue-1");
    refused(&mut g, 0, lay(c(Blue, 3), BIG_PAWN, blue1), "illegal_move");
}

#[test]
fn b5_points_tile_scores_at_once_and_stays() {
    let mut g = given(Variant::Keltis, &[&[c(Pink, 1)], &[]]);
    let pink1 = space(&g, "pink-1");
    g.tiles[pink1 as usize] = Some(TileKind::Points(2));
    play(&mut g, 0, lay(c(Pink, 1), 1, pink1));
    assert_eq!(g.tile_points(0), 2);
    assert_eq!(g.tile_at(pink1), Some(TileKind::Points(2)));
}

#[test]
fn b5_wish_stone_is_taken_and_kept_face_up() {
    let mut g = given(Variant::Keltis, &[&[c(Pink, 1)], &[]]);
    let pink1 = space(&g, "pink-1");
    g.tiles[pink1 as usize] = Some(TileKind::WishStone(None));
    play(&mut g, 0, lay(c(Pink, 1), 1, pink1));
    assert_eq!(g.wish_stones(0)[PLAIN_STONE], 1);
    assert_eq!(g.tile_at(pink1), None);
    let v = g.view(Some(1));
    assert_eq!(v.seats[0].wish_stones[0].count, 1, "everyone sees it");
}

#[test]
fn b6_laying_on_a_finished_path_gives_a_free_step_with_another_pawn() {
    let mut g = given(Variant::Keltis, &[&[c(Yellow, 4)], &[]]);
    g.pawns[0][1] = space(&g, "yellow-9");
    g.pawns[0][2] = space(&g, "green-3");
    let bonus = D::Lay {
        card: c(Yellow, 4),
        pawn: None,
        to: None,
        path: None,
    };
    play(&mut g, 0, bonus);
    assert_eq!(g.row(0, Yellow).len(), 1, "the card is laid in the row");
    assert_eq!(g.phase(), Phase::FreeStep);
    let green4 = space(&g, "green-4");
    play(
        &mut g,
        0,
        D::Step {
            pawn: 2,
            to: green4,
        },
    );
    assert_eq!(g.pawns(0)[2], space(&g, "green-4"));
}

#[test]
fn b6_the_end_stone_bonus_lay_still_obeys_the_row() {
    let mut g = given(Variant::Keltis, &[&[c(Yellow, 4)], &[]]);
    g.pawns[0][1] = space(&g, "yellow-9");
    g.rows[0][Yellow.index()].push(c(Yellow, 9));
    g.rows[0][Yellow.index()].push(c(Yellow, 5));
    let bonus = D::Lay {
        card: c(Yellow, 4),
        pawn: None,
        to: None,
        path: None,
    };
    play(&mut g, 0, bonus);
    g.phase = Phase::Play;
    g.rows[0][Yellow.index()].push(c(Yellow, 2));
    g.put_in_hand(0, c(Yellow, 3));
    refused(
        &mut g,
        0,
        D::Lay {
            card: c(Yellow, 3),
            pawn: None,
            to: None,
            path: None,
        },
        "row_order",
    );
}

#[test]
fn b7_a_free_step_may_take_a_pawn_from_start_onto_a_new_path() {
    let mut g = given(Variant::Keltis, &[&[c(Green, 5)], &[]]);
    let g1 = space(&g, "green-1");
    g.tiles[g1 as usize] = Some(TileKind::Clover);
    g.pawns[0][BIG_PAWN as usize] = space(&g, "pink-4");
    play(&mut g, 0, lay(c(Green, 5), 1, g1));
    let steps: Vec<Decision> = g
        .legal_decisions()
        .into_iter()
        .filter(|d| matches!(d, D::Step { pawn: 2, .. }))
        .collect();
    // From Start: not onto green (pawn 1 is there) nor pink (the big pawn is there).
    let targets: Vec<&str> = steps
        .iter()
        .map(|d| match d {
            D::Step { to, .. } => g.board().unwrap().space(*to).id.as_str(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(targets, vec!["yellow-1", "brown-1", "blue-1"]);
    let (blue1, blue2) = (space(&g, "blue-1"), space(&g, "blue-2"));
    play(&mut g, 0, D::Step { pawn: 2, to: blue1 });
    refused(
        &mut g,
        0,
        D::Step { pawn: 2, to: blue2 },
        "unexpected_decision",
    );
    // Later blue cards move that pawn.
    draw_deck(&mut g, 0);
    give_turn_to(&mut g, 0);
    g.put_in_hand(0, c(Blue, 1));
    play_implicit(&mut g, c(Blue, 1));
    assert_eq!(g.pawns(0)[2], space(&g, "blue-2"));
}

#[test]
fn b8_base_game_score_pawns_tiles_and_wish_stones() {
    let mut g = given(Variant::Keltis, &[&[], &[]]);
    g.pawns[0] = [
        space(&g, "green-8"), // big: 2 x 7
        space(&g, "blue-1"),  // -4
        space(&g, "pink-5"),  // 2
        START,
        START,
    ];
    g.tile_points[0] = 4;
    g.wish_stones[0][PLAIN_STONE] = 3;
    let s = g.score(0);
    assert_eq!((s.pawns, s.tile_points, s.wish_stones), (14 - 4 + 2, 4, 3));
    assert_eq!(s.total, 12 + 4 + 3);
    assert_eq!(g.score(1).wish_stones, -4, "no wish stones costs 4");
}

// ---------------------------------------------------------------- X: Neue Wege

#[test]
fn x3_a_card_moves_a_pawn_to_a_successor_of_its_colour_or_a_joker() {
    let mut g = given(Variant::NeueWege, &[&[c(Blue, 5), c(Yellow, 1)], &[]]);
    // From Start: r1c2 is blue.
    let blue_lays: Vec<Decision> = g
        .legal_decisions()
        .into_iter()
        .filter(|d| matches!(d, D::Lay { card, .. } if *card == c(Blue, 5)))
        .collect();
    let r1c2 = space(&g, "r1c2");
    assert_eq!(
        blue_lays,
        vec![lay(c(Blue, 5), 0, r1c2), lay(c(Blue, 5), 1, r1c2)]
    );
    // Yellow: no yellow space on row 1, so no pawn can move; it can only be discarded (X3).
    refused(
        &mut g,
        0,
        D::Lay {
            card: c(Yellow, 1),
            pawn: Some(1),
            to: Some(r1c2),
            path: None,
        },
        "no_pawn_can_move",
    );
    assert!(g
        .legal_decisions()
        .contains(&D::Discard { card: c(Yellow, 1) }));
    // A joker successor takes any colour: r1c0 leads to r2c1 (joker).
    g.pawns[0][1] = space(&g, "r1c0");
    let r2c1 = space(&g, "r2c1");
    play(&mut g, 0, lay(c(Yellow, 1), 1, r2c1));
    assert_eq!(g.row(0, Yellow).cards(), &[c(Yellow, 1)]);
}

#[test]
fn x4_pawns_share_spaces_and_only_move_forward() {
    let mut g = given(
        Variant::NeueWege,
        &[&[c(Green, 3), c(Green, 4)], &[c(Green, 5)]],
    );
    let r1c0 = space(&g, "r1c0");
    play(&mut g, 0, lay(c(Green, 3), 0, r1c0));
    draw_deck(&mut g, 0);
    play(&mut g, 1, lay(c(Green, 5), 1, r1c0));
    draw_deck(&mut g, 1);
    // Two pawns of seat 0 may stand together too.
    play(&mut g, 0, lay(c(Green, 4), 1, r1c0));
    assert_eq!(g.pawns(0)[0], r1c0);
    assert_eq!(g.pawns(0)[1], r1c0);
    assert_eq!(g.pawns(1)[1], r1c0);
    // No successor is ever behind.
    let b = g.board().unwrap();
    for s in &b.spaces {
        for n in &s.next {
            assert!(b.space(*n).row > s.row);
        }
    }
}

#[test]
fn x5_no_end_stone_bonus_on_the_expansion_board() {
    let mut g = given(Variant::NeueWege, &[&[c(Green, 3)], &[]]);
    g.pawns[0] = [space(&g, "r10c0"); 5];
    refused(
        &mut g,
        0,
        D::Lay {
            card: c(Green, 3),
            pawn: None,
            to: None,
            path: None,
        },
        "no_pawn_can_move",
    );
}

#[test]
fn x6_points_tiles_are_not_doubled_by_the_big_pawn() {
    let mut g = given(Variant::NeueWege, &[&[c(Blue, 3)], &[]]);
    let r1c2 = space(&g, "r1c2");
    g.tiles[r1c2 as usize] = Some(TileKind::Points(3));
    play(&mut g, 0, lay(c(Blue, 3), BIG_PAWN, r1c2));
    assert_eq!(g.tile_points(0), 3);
}

#[test]
fn x6_discard_tile_from_hand_means_two_draws() {
    let mut g = given(Variant::NeueWege, &[&[c(Blue, 3), c(Pink, 8)], &[]]);
    let r1c2 = space(&g, "r1c2");
    g.tiles[r1c2 as usize] = Some(TileKind::Discard);
    play(&mut g, 0, lay(c(Blue, 3), 1, r1c2));
    assert_eq!(g.phase(), Phase::DiscardTile);
    play(&mut g, 0, D::DiscardFromHand { card: c(Pink, 8) });
    assert_eq!(g.pile(Pink), &[c(Pink, 8)]);
    refused(
        &mut g,
        0,
        D::DrawPile { color: Pink },
        "discarded_this_turn",
    );
    draw_deck(&mut g, 0);
    assert_eq!(g.phase(), Phase::Draw, "a second draw");
    draw_deck(&mut g, 0);
    assert_eq!(g.hand(0).len(), 8);
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn x6_discard_tile_from_a_row_recomputes_its_direction() {
    let mut g = given(Variant::NeueWege, &[&[c(Blue, 3)], &[]]);
    g.rows[0][Blue.index()].push(c(Blue, 8));
    let r1c2 = space(&g, "r1c2");
    g.tiles[r1c2 as usize] = Some(TileKind::Discard);
    play(&mut g, 0, lay(c(Blue, 3), 1, r1c2));
    assert_eq!(
        g.row(0, Blue).direction(),
        super::rows::Direction::Descending
    );
    play(&mut g, 0, D::DiscardFromRow { color: Blue });
    assert_eq!(g.row(0, Blue).cards(), &[c(Blue, 8)]);
    assert_eq!(g.row(0, Blue).direction(), super::rows::Direction::Open);
    refused(
        &mut g,
        0,
        D::DrawPile { color: Blue },
        "discarded_this_turn",
    );
    assert_eq!(g.hand(0).len(), 7, "one draw only");
    draw_deck(&mut g, 0);
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn x6_discard_tile_may_be_skipped_and_an_empty_row_cannot_give() {
    let mut g = given(Variant::NeueWege, &[&[c(Blue, 3)], &[]]);
    let r1c2 = space(&g, "r1c2");
    g.tiles[r1c2 as usize] = Some(TileKind::Discard);
    play(&mut g, 0, lay(c(Blue, 3), 1, r1c2));
    refused(&mut g, 0, D::DiscardFromRow { color: Pink }, "row_empty");
    play(&mut g, 0, D::Skip);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.tile_at(r1c2), Some(TileKind::Discard), "the tile stays");
}

#[test]
fn x6_pile_space_gives_its_top_stone_while_any_remain() {
    let mut g = given(Variant::NeueWege, &[&[c(Green, 3)], &[]]);
    let pile = space(&g, "r3c3"); // pile:green, green space
    g.pawns[0][1] = space(&g, "r2c2");
    g.pile_stones[pile as usize] = 1;
    play(&mut g, 0, lay(c(Green, 3), 1, pile));
    assert_eq!(g.wish_stones(0)[Green.index()], 1);
    assert_eq!(g.pile_stones[pile as usize], 0);
    draw_deck(&mut g, 0);
    g.pawns[1][1] = space(&g, "r2c2");
    g.hands[1].remove(0);
    g.put_in_hand(1, c(Green, 9));
    play(&mut g, 1, lay(c(Green, 9), 1, pile));
    assert_eq!(
        g.wish_stones(1)[Green.index()],
        0,
        "an empty pile gives nothing"
    );
}

#[test]
fn x6_wish_stone_tile_is_taken() {
    let mut g = given(Variant::NeueWege, &[&[c(Blue, 3)], &[]]);
    let r1c2 = space(&g, "r1c2");
    g.tiles[r1c2 as usize] = Some(TileKind::WishStone(Some(Pink)));
    play(&mut g, 0, lay(c(Blue, 3), 1, r1c2));
    assert_eq!(g.wish_stones(0)[Pink.index()], 1);
    assert_eq!(g.tile_at(r1c2), None);
}

#[test]
fn x7_every_players_wish_stones_are_public() {
    let mut g = given(Variant::NeueWege, &[&[], &[]]);
    g.wish_stones[0][Blue.index()] = 2;
    for viewer in [Some(1), None] {
        let v = g.view(viewer);
        let blue = v.seats[0]
            .wish_stones
            .iter()
            .find(|h| h.color == Some(Blue))
            .unwrap();
        assert_eq!(blue.count, 2);
    }
}

#[test]
fn x8_expansion_score() {
    let mut g = given(Variant::NeueWege, &[&[], &[]]);
    g.pawns[0][BIG_PAWN as usize] = space(&g, "r10c2"); // 2 x 10
    g.pawns[0][1] = space(&g, "r2c0"); // -2
    g.tile_points[0] = 5;
    g.wish_stones[0] = [3, 1, 0, 1, 1, 0]; // four colours (6) + three green (10)
    let s = g.score(0);
    assert_eq!((s.pawns, s.tile_points, s.wish_stones), (18, 5, 16));
    assert_eq!(s.total, 39);
}

// ---------------------------------------------------------------- C: Keltis Card

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
        super::rows::Direction::Open,
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

// ---------------------------------------------------------------- views, resign, errors

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

// ---------------------------------------------------------------- records

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
    let mut record = super::Record::new(setup);
    record.decisions.push(super::RecordedDecision {
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
