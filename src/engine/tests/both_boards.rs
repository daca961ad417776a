//! K: rules common to `keltis` and `neue-wege`.

use super::*;

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
