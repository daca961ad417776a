//! The hybrid judge ([`Judge::Hybrid`]): which choices its second look values, that every figure
//! it gives is its greedy play-outs', on the samples the quick screen used, and that those
//! play-outs start paths as players do.

use super::judge::{
    candidate_margins, choice_margins, samples, ChoiceMargins, HYBRID_BEST, HYBRID_STAND_INS,
};
use super::marks::{half_mean, mean_and_spread};
use super::play_out::{greedy_starting_paths_then, NextTurn};
use super::*;
use crate::engine::bots::paths::{due_start, greedy_starting_paths};
use crate::engine::bots::rollout;
use crate::engine::cards::{Card, Color};
use crate::engine::setup::Setup;

const SAMPLES: usize = 6;

fn effort(judge: Judge) -> Effort {
    Effort {
        samples: SAMPLES,
        exact_nodes: 2_000,
        judge,
    }
}

/// Given a decision in the middle of a game between greedy bots (many choices, the end far off),
/// when the hybrid judge values it keeping the choice the quick screen liked least, then it values
/// the quick screen's best four, the kept one and two others; each on the same samples, by its
/// greedy play-out (the value that play-out gives that sample after that choice, exactly).
#[test]
fn the_second_look_values_the_best_the_kept_and_stand_ins_by_greedy_play_outs() {
    for (variant, view, legal, seat) in decisions_with_many_choices() {
        let quick = choice_margins(&view, &legal, None, effort(Judge::Quick), &mut rng()).unwrap();
        let means: Vec<f64> = quick.margins.iter().map(|m| mean_and_spread(m).0).collect();
        let worst = (0..means.len())
            .min_by(|&a, &b| means[a].total_cmp(&means[b]))
            .unwrap();
        let hybrid = choice_margins(
            &view,
            &legal,
            Some(worst),
            effort(Judge::Hybrid),
            &mut rng(),
        )
        .unwrap();

        assert_eq!(hybrid.of, legal.len());
        assert_eq!(hybrid.stand_ins, HYBRID_STAND_INS);
        assert_eq!(hybrid.choices.len(), HYBRID_BEST + 1 + HYBRID_STAND_INS);
        assert_eq!(
            hybrid.choices[HYBRID_BEST], worst,
            "{variant}: the kept choice"
        );
        let fourth = {
            let mut sorted = means.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            sorted[HYBRID_BEST - 1]
        };
        for &c in &hybrid.choices[..HYBRID_BEST] {
            assert!(
                means[c] >= fourth,
                "{variant}: {c} is not among the best four"
            );
        }
        let mut distinct = hybrid.choices.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), hybrid.choices.len());
        assert_play_out_values(&hybrid, &view, &legal, seat);
    }
}

/// Given the same decisions, when the judge values them for a player choosing (the calibration's
/// judge as a player), then it values the same best four as a review, by the same greedy
/// play-outs and credit for a delay, and no stand-ins: they are never chosen.
#[test]
fn a_player_values_the_reviews_best_four_alone() {
    for (variant, view, legal, seat) in &decisions_with_many_choices() {
        let effort = effort(Judge::Hybrid);
        let review = choice_margins(view, legal, None, effort, &mut rng()).unwrap();
        let player = candidate_margins(view, legal, effort, &mut rng()).unwrap();
        assert_eq!(player.stand_ins, 0, "{variant}");
        assert_eq!(player.choices, review.choices[..HYBRID_BEST], "{variant}");
        assert_play_out_values(&player, view, legal, *seat);
    }
}

/// A decision with many choices, the end far off, from a game between greedy bots of each of
/// three settings: its variant, its player's view and choices, and its seat.
fn decisions_with_many_choices() -> Vec<(Variant, View, Vec<Decision>, u8)> {
    let settings = [
        (Variant::Keltis, 2),
        (Variant::NeueWege, 3),
        (Variant::KeltisCard, 2),
    ];
    let busy: Vec<_> = settings
        .into_iter()
        .filter_map(|(variant, players)| {
            let record = crate::review_tool::greedy_game(variant, players, 5).unwrap();
            let game = (10..record.decisions.len() / 2)
                .map(|i| record.replay_to(i).unwrap())
                .find(|g| g.legal_decisions().len() > HYBRID_BEST + HYBRID_STAND_INS + 2)?;
            let seat = game.to_act().unwrap();
            let view = game.view(Some(seat));
            let legal = view.resolved_legal_decisions().unwrap();
            Some((variant, view, legal, seat))
        })
        .collect();
    assert_eq!(
        busy.len(),
        3,
        "a variant had no decision with enough choices"
    );
    busy
}

/// The judge draws its samples first: the same stream gives the same samples here.
fn rng() -> SeedRng {
    SeedRng::new(17)
}

/// Each valued choice's figures are its greedy play-outs' on the samples, or, for a choice other
/// than the best, those of the same play-outs with the best choice played at the seat's next
/// turn, half by half: on each half where the other half's mean is the higher ([`judge`]'s credit
/// for a delay, cross-fitted).
fn assert_play_out_values(values: &ChoiceMargins, view: &View, legal: &[Decision], seat: u8) {
    let sampled = samples(view, SAMPLES, &mut rng()).unwrap();
    let mut scratch = Vec::new();
    let after = |c: usize, sample: &Game| {
        let mut g = sample.clone();
        g.apply(seat, legal[c]).unwrap();
        g
    };
    let plain: Vec<Vec<f64>> = values
        .choices
        .iter()
        .map(|&c| {
            sampled
                .iter()
                .map(|sample| {
                    let mut g = after(c, sample);
                    let horizon = rollout::horizon(g.variant());
                    greedy_starting_paths(&mut g, horizon, &mut scratch);
                    rollout::lead(&g, seat)
                })
                .collect()
        })
        .collect();
    let means: Vec<f64> = plain.iter().map(|m| mean_and_spread(m).0).collect();
    let best = (0..means.len()).fold(0, |b, i| if means[i] > means[b] { i } else { b });
    let mut credited_halves = 0;
    for (j, &c) in values.choices.iter().enumerate() {
        let mut expected = plain[j].clone();
        if j != best {
            let late: Vec<f64> = sampled
                .iter()
                .map(|sample| {
                    let mut g = after(c, sample);
                    let horizon = rollout::horizon(g.variant());
                    let then = NextTurn::of(sample, legal[values.choices[best]]);
                    greedy_starting_paths_then(&mut g, horizon, &mut scratch, seat, then);
                    rollout::lead(&g, seat)
                })
                .collect();
            // Each half takes the delay where the other half's means favour it.
            for parity in [0, 1] {
                if half_mean(&late, 1 - parity) > half_mean(&plain[j], 1 - parity) {
                    for k in (parity..late.len()).step_by(2) {
                        expected[k] = late[k];
                    }
                    credited_halves += 1;
                }
            }
        }
        assert_eq!(values.margins[j], expected, "choice {c}");
        let wins: Vec<f64> = expected.iter().map(|&m| judge::won(m)).collect();
        assert_eq!(values.wins[j], wins, "choice {c}");
    }
    eprintln!(
        "{credited_halves} of {} choices' halves credited",
        2 * values.choices.len()
    );
}

/// Given a hand with a lone pink 10 (no run of any colour to start), when the seat discards and
/// the play-out is told the seat's next turn lays the pink 10 with the big pawn, then the seat's
/// next turn does exactly that, after the other seat has played, and nothing of it before.
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
    assert_eq!(due_start(&game, seat), None);
    let pink = Card::number(Pink, 10);
    let lay = game
        .legal_decisions()
        .into_iter()
        .find(|d| matches!(*d, DecisionOf::Lay { card, pawn: Some(0), .. } if card == pink))
        .unwrap();
    let then = NextTurn::of(&game, lay);
    let mut discarded = game.clone();
    discarded
        .apply(
            seat,
            DecisionOf::Discard {
                card: Card::number(Green, 5),
            },
        )
        .unwrap();
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

/// Given a decision with few choices (the draw, say: the deck or a discard pile), the hybrid
/// judge values every choice by its greedy play-outs at once, nothing left to stand in for.
#[test]
fn few_choices_are_all_valued_by_greedy_play_outs() {
    let game = [Variant::Keltis, Variant::KeltisCard, Variant::NeueWege]
        .into_iter()
        .flat_map(|variant| (0..4).map(move |seed| (variant, seed)))
        .find_map(|(variant, seed)| {
            let record = crate::review_tool::greedy_game(variant, 2, seed).unwrap();
            (4..record.decisions.len() / 2)
                .map(|i| record.replay_to(i).unwrap())
                .find(|g| (2..=HYBRID_BEST).contains(&g.legal_decisions().len()))
        })
        .expect("a decision with few choices");
    let seat = game.to_act().unwrap();
    let view = game.view(Some(seat));
    let legal = view.resolved_legal_decisions().unwrap();
    let values = choice_margins(&view, &legal, Some(0), effort(Judge::Hybrid), &mut rng()).unwrap();
    assert_eq!(values.choices, (0..legal.len()).collect::<Vec<_>>());
    assert_eq!(values.stand_ins, 0);
    assert_play_out_values(&values, &view, &legal, seat);
}

/// Cards by colour and value.
type Hand = &'static [(Color, u8)];

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

/// Given a Keltis hand, when the hybrid judge's play-out comes to lay, then it starts the empty
/// path a player would (B1: a pawn's first stones score below nothing, so a path is started with
/// company): the one whose cards make the longest run a row could take, each within two of the
/// one before, if more than two; from the run's first card; greedy left to choose the pawn.
#[test]
fn the_play_outs_start_a_path_with_company() {
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
        (
            &[
                (Pink, 0),
                (Pink, 8),
                (Pink, 10),
                (Pink, 10),
                (Green, 5),
                (Blue, 9),
                (Yellow, 6),
                (Brown, 4),
            ],
            Some((Pink, 10)),
        ),
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
        (
            &[
                (Brown, 0),
                (Brown, 4),
                (Brown, 7),
                (Brown, 10),
                (Green, 5),
                (Blue, 9),
                (Yellow, 6),
                (Pink, 4),
            ],
            None,
        ),
        // Two of each at most: no start.
        (
            &[
                (Brown, 0),
                (Brown, 1),
                (Blue, 7),
                (Blue, 8),
                (Green, 5),
                (Green, 3),
                (Yellow, 6),
                (Pink, 4),
            ],
            None,
        ),
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
        let due = due_start(&game, seat);
        assert_eq!(due, expected.map(|(c, v)| Card::number(c, v)), "{hand:?}");
        let mut after = game.clone();
        greedy_starting_paths(&mut after, 1, &mut Vec::new());
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
            assert_eq!(due_start(&game, game.to_act().unwrap()), None, "{variant}");
        }
    }
}
