//! B: `keltis`, the base game.

use super::*;

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
