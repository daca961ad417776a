//! The boards as their layouts carry them (B1, B2, X1, X2), the embedded copies against the
//! reference files, and each way a layout file can be wrong refused with its own error.

use super::*;

const BASE: &str = include_str!("../boards/keltis-base.json");
const NEUE_WEGE: &str = include_str!("../boards/neue-wege.json");

fn edit(text: &str, f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn b1_base_board_has_five_paths_of_nine_stones() {
    let b = Board::keltis();
    assert_eq!(b.spaces.len(), 45);
    assert_eq!(b.start_next.len(), 5);
    for first in &b.start_next {
        let mut values = vec![];
        let mut at = *first;
        let color = b.space(at).color;
        loop {
            let s = b.space(at);
            assert_eq!(s.color, color, "a path keeps its colour");
            values.push(s.value);
            assert_eq!(s.goal, s.row >= 7, "goal zone is stones 7..9");
            match s.next.as_slice() {
                [] => break,
                [n] => at = *n,
                _ => panic!("base paths do not branch"),
            }
        }
        assert_eq!(values, vec![-4, -3, -2, 1, 2, 3, 6, 7, 10]);
        assert!(b.space(at).is_final, "stone 9 is the end stone");
    }
}

#[test]
fn b2_base_board_has_25_tiles_on_20_dark_stones_and_5_end_stones() {
    let b = Board::keltis();
    let tiles = b.tile_list();
    assert_eq!(tiles.len(), 25);
    let count = |k: TileKind| tiles.iter().filter(|t| **t == k).count();
    assert_eq!(count(TileKind::WishStone(None)), 9);
    assert_eq!(count(TileKind::Clover), 9);
    assert_eq!(count(TileKind::Points(1)), 2);
    assert_eq!(count(TileKind::Points(2)), 3);
    assert_eq!(count(TileKind::Points(3)), 2);
    let slots: Vec<_> = b.tile_slots().collect();
    assert_eq!(slots.len(), 25);
    assert_eq!(slots.iter().filter(|s| b.space(**s).is_final).count(), 5);
}

#[test]
fn x1_expansion_board_rows_values_and_goal() {
    let b = Board::neue_wege();
    assert_eq!(b.start_next.len(), 4, "four spaces leave Start");
    let mut row_values = [None; 10];
    for s in &b.spaces {
        row_values[s.row as usize - 1] = Some(s.value);
        assert_eq!(s.goal, s.row >= 8, "goal zone is rows 8..10");
        for n in &s.next {
            assert_eq!(b.space(*n).row, s.row + 1);
        }
    }
    let values: Vec<i8> = row_values.iter().map(|v| v.unwrap()).collect();
    assert_eq!(values, vec![-4, -2, 0, 2, 3, 5, 8, 7, 6, 10]);
    let finals: Vec<_> = b.spaces.iter().filter(|s| s.is_final).collect();
    assert_eq!(finals.len(), 5);
    let mut colors: Vec<_> = finals.iter().map(|s| s.color.unwrap()).collect();
    colors.sort();
    assert_eq!(colors, Color::PATHS.to_vec(), "one final space per colour");
}

#[test]
fn x2_expansion_has_22_tiles_and_five_piles_of_five() {
    let b = Board::neue_wege();
    let tiles = b.tile_list();
    assert_eq!(tiles.len(), 22);
    let count = |k: TileKind| tiles.iter().filter(|t| **t == k).count();
    assert_eq!(count(TileKind::Clover), 5);
    assert_eq!(count(TileKind::Points(2)), 5);
    assert_eq!(count(TileKind::Points(3)), 2);
    assert_eq!(count(TileKind::Discard), 5);
    for c in Color::PATHS {
        assert_eq!(count(TileKind::WishStone(Some(c))), 1);
        let piles = b.spaces.iter().filter(|s| s.slot == Slot::Pile(c)).count();
        assert_eq!(piles, 1, "one pile space of {c:?}");
    }
    assert_eq!(b.pile_stones, 5);
}

#[test]
fn embedded_layouts_are_the_reference_copies() {
    for (ours, name) in [(BASE, "keltis-base.json"), (NEUE_WEGE, "neue-wege.json")] {
        let path = format!(
            "{}/../shared/rules/boards/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let reference = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reference layout {path}: {e}"));
        let a: serde_json::Value = serde_json::from_str(ours).unwrap();
        let b: serde_json::Value = serde_json::from_str(&reference).unwrap();
        assert_eq!(
            a, b,
            "{name} differs from the reference in shared/rules/boards"
        );
    }
}

#[test]
fn layout_with_an_unreachable_space_is_rejected() {
    let text = edit(NEUE_WEGE, |v| {
        // r1c1 is the only way into nothing else; drop it from start_next and from every
        // `next` so that nobody reaches it.
        v["start_next"] = serde_json::json!(["r1c0", "r1c2", "r1c3"]);
    });
    assert_eq!(
        Board::from_json(&text).unwrap_err(),
        LayoutError::Unreachable("r1c1".into())
    );
}

#[test]
fn layout_whose_next_skips_a_row_is_rejected() {
    let text = edit(BASE, |v| {
        v["spaces"][0]["next"] = serde_json::json!(["green-3"]);
    });
    let err = Board::from_json(&text).unwrap_err();
    assert!(
        matches!(err, LayoutError::RowSkipped { ref from, ref to, .. } if from == "green-1" && to == "green-3"),
        "{err}"
    );
    assert!(err.to_string().contains("row skipped"));
}

#[test]
fn layout_whose_tile_count_differs_from_its_slots_is_rejected() {
    let text = edit(BASE, |v| {
        v["tiles"]["clover"] = serde_json::json!(8);
    });
    assert_eq!(
        Board::from_json(&text).unwrap_err(),
        LayoutError::TileCount {
            tiles: 24,
            slots: 25
        }
    );
}

#[test]
fn layout_with_unknown_successor_or_tile_kind_is_rejected() {
    let text = edit(BASE, |v| {
        v["spaces"][0]["next"] = serde_json::json!(["nowhere"]);
    });
    assert!(matches!(
        Board::from_json(&text).unwrap_err(),
        LayoutError::UnknownSpace { .. }
    ));
    let text = edit(BASE, |v| {
        v["tiles"]["dragon"] = serde_json::json!(1);
    });
    assert_eq!(
        Board::from_json(&text).unwrap_err(),
        LayoutError::UnknownTileKind("dragon".into())
    );
    assert!(matches!(
        Board::from_json("{}").unwrap_err(),
        LayoutError::Json(_)
    ));
}

#[test]
fn layout_whose_space_leads_to_more_than_five_is_rejected() {
    // A turn's pawn moves are listed in a buffer of five successors a pawn.
    let text = edit(BASE, |v| {
        v["spaces"][0]["next"] =
            serde_json::json!(["green-2", "green-2", "green-2", "green-2", "green-2", "green-2"]);
    });
    let err = Board::from_json(&text).unwrap_err();
    assert_eq!(
        err,
        LayoutError::TooManySuccessors {
            id: "green-1".into(),
            count: 6
        }
    );
    assert_eq!(err.to_string(), "\"green-1\" leads to 6 spaces; at most 5");
    let five = edit(BASE, |v| {
        v["spaces"][0]["next"] =
            serde_json::json!(["green-2", "green-2", "green-2", "green-2", "green-2"]);
    });
    assert!(Board::from_json(&five).is_ok());
}

/// The values ahead the bots read from a table are the board walked by first successors, on both
/// boards (Neue Wege's spaces lead on to more than one), stopping at a path's end.
#[test]
fn values_ahead_are_the_board_walked_by_first_successors() {
    for board in [Board::keltis(), Board::neue_wege()] {
        for idx in 0..board.spaces.len() as SpaceIdx {
            let mut at = idx;
            for steps in 0..=MOST_AHEAD {
                assert_eq!(
                    board.value_ahead(idx, steps),
                    board.space(at).value,
                    "{} from {}, {steps} steps",
                    board.id,
                    board.space(idx).id
                );
                if let Some(&next) = board.space(at).next.first() {
                    at = next;
                }
            }
            // Past the most it looks ahead: as far as it looks.
            assert_eq!(
                board.value_ahead(idx, MOST_AHEAD + 2),
                board.value_ahead(idx, MOST_AHEAD)
            );
        }
    }
}
