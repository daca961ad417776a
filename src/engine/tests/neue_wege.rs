//! X: `neue-wege`, the "Neue Wege, neue Ziele" board.

use super::*;
use crate::engine::rows::Direction;

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
    assert_eq!(g.row(0, Blue).direction(), Direction::Descending);
    play(&mut g, 0, D::DiscardFromRow { color: Blue });
    assert_eq!(g.row(0, Blue).cards(), &[c(Blue, 8)]);
    assert_eq!(g.row(0, Blue).direction(), Direction::Open);
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
