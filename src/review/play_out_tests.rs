//! The hybrid judge's play-outs (`super::play_out`): they start paths as players do, and play
//! the judge's best choice a turn late where told to (the credit for a delay).

use super::play_out::{greedy_starting_paths_then, NextTurn};
use super::*;
use crate::engine::bots::paths::{due_start, greedy_starting_paths, StartRule};
use crate::engine::cards::{Card, Color};
use crate::engine::setup::Setup;

/// Given a hand with a lone pink 10 (the play-outs start no path with it), when the seat
/// discards and the play-out is told the seat's next turn lays the pink 10 with the big pawn, then
/// the seat's next turn does exactly that, after the other seat has played, and nothing of it
/// before.
#[test]
fn the_best_choice_is_played_at_the_next_turn() {
    use Color::*;
    let hand: Hand = &[
        (Pink, 10),
        (Green, 5),
        (Blue, 9),
        (Yellow, 6),
        (Brown, 4),
        (Green, 1),
        (Blue, 3),
        (Yellow, 0),
    ];
    let (game, seat) = keltis_with_hand(hand);
    let due = due_start(&game, seat, StartRule::JUDGE);
    assert_ne!(due.map(|c| c.color()), Some(Pink), "a lone pink is not due");
    let pink = Card::number(Pink, 10);
    let (then, discarded) = best_lay_and_discard(&game, seat, pink, Card::number(Green, 5));
    // The shortest play-out that lays it, and who played on the way.
    let (played, decisions) = (1..20)
        .find_map(|horizon| {
            let mut g = discarded.clone();
            greedy_starting_paths_then(&mut g, horizon, &mut Vec::new(), seat, then);
            let laid = !g.row(seat, Pink).is_empty();
            laid.then_some((g, horizon))
        })
        .unwrap();
    assert_eq!(played.row(seat, Pink).cards(), [pink]);
    assert_eq!(
        played.to_act(),
        Some(seat),
        "{decisions} decisions: the seat draws next"
    );
    // The seat drew, the other seat laid or discarded and drew (free steps may come between).
    assert!((3..=6).contains(&decisions), "{decisions} decisions");
}

/// Given a hand whose pink 10 would start the pink path with the small pawn, when the seat
/// discards that very card and the play-out is told the seat's next turn lays it, then the seat's
/// next turn starts the pink path with the small pawn all the same, by the pink card nearest in
/// value (the 7, not the 3): a start put off, not given up while the path can still be started.
#[test]
fn a_start_put_off_by_discarding_its_card_starts_the_path_with_the_next_nearest() {
    use Color::*;
    let hand: Hand = &[
        (Pink, 10),
        (Pink, 7),
        (Pink, 3),
        (Blue, 9),
        (Yellow, 6),
        (Brown, 4),
        (Green, 1),
        (Yellow, 0),
    ];
    let (game, seat) = keltis_with_hand(hand);
    let pink = Card::number(Pink, 10);
    let (then, discarded) = best_lay_and_discard(&game, seat, pink, pink);
    // Not the play-outs' own rule: that starts no pink path with the 7.
    let due = due_start(&discarded, seat, StartRule::JUDGE);
    assert_ne!(due, Some(Card::number(Pink, 7)));
    let started = (1..20)
        .find_map(|horizon| {
            let mut g = discarded.clone();
            greedy_starting_paths_then(&mut g, horizon, &mut Vec::new(), seat, then);
            (!g.row(seat, Pink).is_empty()).then_some(g)
        })
        .expect("the pink path started at the next turn");
    assert_eq!(started.row(seat, Pink).cards(), [Card::number(Pink, 7)]);
    // The pawn the best chose (0) moved, and no other.
    let (before, after) = (discarded.pawns(seat), started.pawns(seat));
    let moved: Vec<usize> = (0..before.len())
        .filter(|&p| before[p] != after[p])
        .collect();
    assert_eq!(moved, [0]);
}

/// The seat's lay of `card` with the small pawn, judged best and to be played at its next turn,
/// and the game after the seat discards `discard` instead.
fn best_lay_and_discard(game: &Game, seat: u8, card: Card, discard: Card) -> (NextTurn, Game) {
    let lay = game
        .legal_decisions()
        .into_iter()
        .find(|d| matches!(*d, DecisionOf::Lay { card: c, pawn: Some(0), .. } if c == card))
        .unwrap();
    let mut discarded = game.clone();
    discarded
        .apply(seat, DecisionOf::Discard { card: discard })
        .unwrap();
    (NextTurn::of(game, lay), discarded)
}

/// Cards by colour and value.
type Hand = &'static [(Color, u8)];

/// Hands both rules' tests read (`StartRule::STRONG`'s and `StartRule::JUDGE`'s).
const TWO_OF_THREE_COLOURS: Hand = &[
    (Color::Brown, 0),
    (Color::Brown, 1),
    (Color::Blue, 7),
    (Color::Blue, 8),
    (Color::Green, 5),
    (Color::Green, 3),
    (Color::Yellow, 6),
    (Color::Pink, 4),
];
const FOUR_BROWN_APART: Hand = &[
    (Color::Brown, 0),
    (Color::Brown, 4),
    (Color::Brown, 7),
    (Color::Brown, 10),
    (Color::Green, 5),
    (Color::Blue, 9),
    (Color::Yellow, 6),
    (Color::Pink, 4),
];
const PINK_0_8_10_10: Hand = &[
    (Color::Pink, 0),
    (Color::Pink, 8),
    (Color::Pink, 10),
    (Color::Pink, 10),
    (Color::Green, 5),
    (Color::Blue, 9),
    (Color::Yellow, 6),
    (Color::Brown, 4),
];

/// A Keltis game whose seat to act holds `hand`: each card swapped in from wherever the deal put
/// it (the draw pile, the removed cards, the other hand).
fn keltis_with_hand(hand: &[(Color, u8)]) -> (Game, u8) {
    let mut setup = Setup::deal(Variant::Keltis, 2, 3).unwrap();
    let seat = setup.start_player;
    let (first, second) = setup.hands.split_at_mut(1);
    let (mine, other) = if seat == 0 {
        (&mut first[0], &mut second[0])
    } else {
        (&mut second[0], &mut first[0])
    };
    assert_eq!(mine.len(), hand.len());
    for (i, &(color, value)) in hand.iter().enumerate() {
        let card = Card::number(color, value);
        if let Some(at) = mine[i..].iter().position(|&c| c == card) {
            mine.swap(i, i + at);
            continue;
        }
        let elsewhere = [&mut setup.draw_pile, &mut setup.removed, &mut *other]
            .into_iter()
            .find_map(|cards| cards.iter_mut().find(|c| **c == card))
            .unwrap();
        std::mem::swap(&mut mine[i], elsewhere);
    }
    (Game::from_setup(&setup).unwrap(), seat)
}

/// Given a Keltis hand, when the strong bot's play-out comes to lay, then it starts the empty
/// path its rule names (`StartRule::STRONG`; B1: a pawn's first stones score below nothing, so a
/// path is started with company): the one whose cards make the longest run a row could take,
/// each within two of the one before, if more than two; from the run's first card; greedy left
/// to choose the pawn.
#[test]
fn the_strong_bots_play_outs_start_a_path_with_a_close_run() {
    use Color::{Blue, Brown, Green, Pink, Yellow};
    let cases: [(Hand, Option<(Color, u8)>); 6] = [
        // Three blue that run from 0 up: start at 0.
        (
            &[
                (Blue, 0),
                (Blue, 2),
                (Blue, 3),
                (Green, 5),
                (Green, 9),
                (Pink, 1),
                (Yellow, 6),
                (Brown, 4),
            ],
            Some((Blue, 0)),
        ),
        // Pink 0, 8, 10, 10: from 0 nothing follows; from 10 down, 10 and 8 do.
        (PINK_0_8_10_10, Some((Pink, 10))),
        // The longer run wins: four green from 10 down against three yellow from 1 up.
        (
            &[
                (Yellow, 1),
                (Yellow, 2),
                (Yellow, 4),
                (Green, 10),
                (Green, 9),
                (Green, 7),
                (Green, 6),
                (Brown, 0),
            ],
            Some((Green, 10)),
        ),
        // Four brown, but no three in a close run: no start.
        (FOUR_BROWN_APART, None),
        // Two of each at most: no start.
        (TWO_OF_THREE_COLOURS, None),
        // A run as long both ways: from the end nearer its own end of the row (8 is 2 from 10).
        (
            &[
                (Blue, 4),
                (Blue, 6),
                (Blue, 8),
                (Green, 5),
                (Green, 0),
                (Pink, 9),
                (Yellow, 1),
                (Brown, 4),
            ],
            Some((Blue, 8)),
        ),
    ];
    for (hand, expected) in cases {
        let (game, seat) = keltis_with_hand(hand);
        let due = due_start(&game, seat, StartRule::STRONG);
        assert_eq!(due, expected.map(|(c, v)| Card::number(c, v)), "{hand:?}");
        let mut after = game.clone();
        greedy_starting_paths(&mut after, 1, &mut Vec::new(), StartRule::STRONG);
        if let Some(card) = due {
            assert_eq!(
                after.row(seat, card.color()).cards(),
                [card],
                "{hand:?}: started"
            );
        }
    }
    // Neue Wege's and Keltis Card's greedy starts paths itself.
    for variant in [Variant::NeueWege, Variant::KeltisCard] {
        for seed in 1..=10 {
            let game = Game::from_setup(&Setup::deal(variant, 2, seed).unwrap()).unwrap();
            for rule in [StartRule::STRONG, StartRule::JUDGE] {
                let due = due_start(&game, game.to_act().unwrap(), rule);
                assert_eq!(due, None, "{variant}");
            }
        }
    }
}

/// Given Keltis hands, when the hybrid judge's play-out comes to lay, then it starts an empty
/// path wherever the hand holds two cards of its colour (`StartRule::JUDGE`, judge revision 4:
/// the rule that played best), the one with the most, from the end nearer its own end of the
/// row; where the strong bot's rule starts none, or another card.
#[test]
fn the_judges_play_outs_start_a_path_with_any_two_cards_of_its_colour() {
    use Color::*;
    // The hand, the judge's start, the strong bot's.
    type Case = (Hand, (Color, u8), Option<(Color, u8)>);
    let cases: [Case; 3] = [
        // Two of three colours: the first path of them, from its lower end (3 is 5 from 10).
        (TWO_OF_THREE_COLOURS, (Green, 3), None),
        // Four brown far apart: the most cards, from the 0.
        (FOUR_BROWN_APART, (Brown, 0), None),
        // Pink 0, 8, 10, 10: all four follow from the 0 (the strong bot's rule: from the 10).
        (PINK_0_8_10_10, (Pink, 0), Some((Pink, 10))),
    ];
    for (hand, (color, value), strong) in cases {
        let (game, seat) = keltis_with_hand(hand);
        let card = Card::number(color, value);
        assert_eq!(
            due_start(&game, seat, StartRule::JUDGE),
            Some(card),
            "{hand:?}"
        );
        let strongs = due_start(&game, seat, StartRule::STRONG);
        assert_eq!(strongs, strong.map(|(c, v)| Card::number(c, v)), "{hand:?}");
        let mut after = game.clone();
        greedy_starting_paths(&mut after, 1, &mut Vec::new(), StartRule::JUDGE);
        assert_eq!(after.row(seat, color).cards(), [card], "{hand:?}: started");
    }
}
