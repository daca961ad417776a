//! The hybrid judge ([`Judge::Hybrid`]): which choices its second look values, and that every
//! figure it gives is the strong play-outs', on the samples the quick screen used.

use super::judge::{choice_margins, samples, ChoiceMargins, HYBRID_BEST, HYBRID_STAND_INS};
use super::marks::mean_and_spread;
use super::*;
use crate::engine::bots::rollout;

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
/// the quick screen's best four, the kept one and two others; each on the same samples, by the
/// strong bot's play-out (the value `rollout` gives that sample after that choice, exactly).
#[test]
fn the_second_look_values_the_best_the_kept_and_stand_ins_by_strong_play_outs() {
    let mut checked = 0;
    for (variant, players) in [
        (Variant::Keltis, 2),
        (Variant::NeueWege, 3),
        (Variant::KeltisCard, 2),
    ] {
        let record = crate::review_tool::greedy_game(variant, players, 5).unwrap();
        let Some(game) = (10..record.decisions.len() / 2)
            .map(|i| record.replay_to(i).unwrap())
            .find(|g| g.legal_decisions().len() > HYBRID_BEST + HYBRID_STAND_INS + 2)
        else {
            continue;
        };
        let seat = game.to_act().unwrap();
        let view = game.view(Some(seat));
        let legal = view.resolved_legal_decisions().unwrap();
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
        assert_strong_values(&hybrid, &view, &legal, seat);
        checked += 1;
    }
    assert_eq!(checked, 3, "a variant had no decision with enough choices");
}

/// The judge draws its samples first: the same stream gives the same samples here.
fn rng() -> SeedRng {
    SeedRng::new(17)
}

fn assert_strong_values(values: &ChoiceMargins, view: &View, legal: &[Decision], seat: u8) {
    let sampled = samples(view, SAMPLES, &mut rng()).unwrap();
    let mut scratch = Vec::new();
    for (j, &c) in values.choices.iter().enumerate() {
        for (k, sample) in sampled.iter().enumerate() {
            let mut g = sample.clone();
            g.apply(seat, legal[c]).unwrap();
            let horizon = rollout::horizon(g.variant());
            rollout::play_out(&mut g, horizon, &mut scratch);
            let lead = rollout::lead(&g, seat);
            assert_eq!(values.margins[j][k], lead, "choice {c} sample {k}");
            assert_eq!(values.wins[j][k], judge::won(lead));
        }
    }
}

/// Given a decision with few choices (the draw, say: the deck or a discard pile), the hybrid
/// judge values every choice by the strong play-outs at once, nothing left to stand in for.
#[test]
fn few_choices_are_all_valued_by_strong_play_outs() {
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
    assert_strong_values(&values, &view, &legal, seat);
}
