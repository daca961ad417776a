//! The review checked against what can be known exactly: the last decisions of a game, where
//! every continuation can be enumerated, a planted blunder, an unfinished game, the samples
//! themselves.

use super::judge::{choice_margins, margin, samples};
use super::*;
use crate::engine::bots::{BotKind, Budget};
use crate::engine::game::Phase;

/// Few samples: the checks here do not need many.
const LIGHT: Effort = Effort {
    samples: 6,
    exact_nodes: 2_000,
    judge: Judge::Quick,
};

/// A whole game between greedy bots, recorded (as `keltis review` plays them).
fn greedy_game(variant: Variant, players: u8, seed: u64) -> Record {
    crate::review_tool::greedy_game(variant, players, seed).unwrap()
}

fn totals(game: &Game) -> Vec<i32> {
    (0..game.players()).map(|s| game.score(s).total).collect()
}

/// Every continuation of `game`, each seat choosing its best final margin: the enumeration the
/// judge's exact search must agree with (written apart from it, on purpose).
fn enumerate(game: &Game) -> Vec<i32> {
    let Some(actor) = game.to_act() else {
        return totals(game);
    };
    let outcomes: Vec<Vec<i32>> = game
        .legal_decisions()
        .into_iter()
        .map(|d| {
            let mut g = game.clone();
            g.apply(actor, d).unwrap();
            enumerate(&g)
        })
        .collect();
    let best = outcomes
        .iter()
        .map(|t| margin(t, actor))
        .fold(f64::NEG_INFINITY, f64::max);
    outcomes
        .into_iter()
        .find(|t| margin(t, actor) == best)
        .unwrap()
}

#[test]
fn an_unfinished_game_is_not_reviewed() {
    let mut record = greedy_game(Variant::KeltisCard, 2, 1);
    record.decisions.truncate(record.decisions.len() / 2);
    record.result = None;
    assert_eq!(review(&record, LIGHT, 1), Err(ReviewError::NotOver));
}

/// The last decision of a game, in every variant: each choice that ends the game has a margin
/// known exactly whatever cards are hidden, and the judge gives it on every sample.
#[test]
fn the_last_decision_is_judged_exactly_as_enumerated() {
    for (variant, players) in [
        (Variant::Keltis, 2),
        (Variant::NeueWege, 3),
        (Variant::KeltisCard, 2),
    ] {
        let mut checked = 0;
        for seed in 0..6 {
            let record = greedy_game(variant, players, seed);
            let last = record.decisions.len() - 1;
            let game = record.replay_to(last).unwrap();
            let seat = game.to_act().unwrap();
            let legal = game.legal_decisions();
            if legal.len() < 2 {
                continue;
            }
            let judged = choice_margins(
                &game.view(Some(seat)),
                &legal,
                None,
                LIGHT,
                &mut SeedRng::new(seed),
            )
            .unwrap();
            for (c, &d) in legal.iter().enumerate() {
                let mut g = game.clone();
                g.apply(seat, d).unwrap();
                if !g.is_over() {
                    continue;
                }
                let exact = margin(&totals(&g), seat);
                for m in &judged.margins[c] {
                    assert_eq!(*m, exact, "{variant} seed {seed} choice {c}");
                }
                checked += 1;
            }
        }
        assert!(
            checked > 0,
            "{variant}: no game ended on a decision with a choice"
        );
    }
}

/// Keltis Card's last two plays (C9): the judge searches them exactly on each sampled game, and
/// agrees with the enumeration of every continuation on that sample (tolerance: none).
#[test]
fn the_final_plays_agree_with_the_enumeration_on_every_sample() {
    let mut checked = 0;
    for seed in 0..8 {
        let record = greedy_game(Variant::KeltisCard, 2, seed);
        let Some(at) = (0..record.decisions.len()).find(|&i| {
            let g = record.replay_to(i).unwrap();
            g.phase() == (Phase::FinalPlay { left: 2 })
        }) else {
            continue;
        };
        let game = record.replay_to(at).unwrap();
        let seat = game.to_act().unwrap();
        let view = game.view(Some(seat));
        let legal = game.legal_decisions();
        // The judge draws its samples first: the same stream gives the same samples here.
        let sampled = samples(&view, LIGHT.samples, &mut SeedRng::new(seed)).unwrap();
        let judged = choice_margins(&view, &legal, None, LIGHT, &mut SeedRng::new(seed)).unwrap();
        for (k, sample) in sampled.iter().enumerate() {
            for (c, &d) in legal.iter().enumerate() {
                let mut g = sample.clone();
                g.apply(seat, d).unwrap();
                let exact = margin(&enumerate(&g), seat);
                assert_eq!(
                    judged.margins[c][k], exact,
                    "seed {seed} sample {k} choice {c}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 0);
}

/// Near the end: a choice that makes the win certain (won on every sample) gives away no winning
/// chance and is never marked, whatever points another would have added; a choice that throws a
/// certain win away (lost on every sample where another wins on every one) is a blunder. The
/// cases found from outside were of these kinds: a discard that made a win by 1 certain marked a
/// blunder (Keltis, 2 players) and a mistake (Neue Wege), a 3-player win thrown away unmarked.
#[test]
fn a_certain_win_is_never_marked_and_one_thrown_away_is_a_blunder() {
    let effort = Effort {
        samples: 12,
        exact_nodes: 20_000,
        judge: Judge::Quick,
    };
    for (variant, players) in [
        (Variant::Keltis, 2),
        (Variant::NeueWege, 2),
        (Variant::Keltis, 3),
        (Variant::KeltisCard, 2),
    ] {
        let (mut certain, mut thrown, mut exact) = (0, 0, 0);
        for seed in 0..2 {
            let record = greedy_game(variant, players, seed);
            for index in 0..record.decisions.len() {
                let game = record.replay_to(index).unwrap();
                let Some(seat) = game.to_act() else { continue };
                if game.draw_pile_len() > 1 && !matches!(game.phase(), Phase::FinalPlay { .. }) {
                    continue;
                }
                let view = game.view(Some(seat));
                let legal = view.resolved_legal_decisions().unwrap();
                if legal.len() < 2 {
                    continue;
                }
                let values =
                    choice_margins(&view, &legal, None, effort, &mut SeedRng::new(seed)).unwrap();
                let all = |c: usize, w: f64| values.wins[c].iter().all(|&x| x == w);
                let a_certain_win = (0..legal.len()).any(|c| all(c, 1.0));
                for (c, &d) in legal.iter().enumerate() {
                    let thrown_away = a_certain_win && all(c, 0.0);
                    if !all(c, 1.0) && !thrown_away {
                        continue;
                    }
                    // The same stream: the same samples as above.
                    let (judged, _) =
                        judge_decision(&view, index, d, effort, &mut SeedRng::new(seed)).unwrap();
                    let judged = judged.unwrap();
                    exact += usize::from(judged.exact);
                    if all(c, 1.0) {
                        assert_eq!(judged.mark, None, "{variant}: {judged:?}");
                        assert_eq!(judged.chance_lost, 0.0, "{variant}: {judged:?}");
                        certain += 1;
                    }
                    if thrown_away {
                        assert_eq!(judged.mark, Some(Mark::Blunder), "{variant}: {judged:?}");
                        thrown += 1;
                    }
                }
            }
        }
        eprintln!(
            "{variant} with {players}: {certain} certain wins, {thrown} thrown away, {exact} exact"
        );
        assert!(certain > 0, "{variant} with {players}: no certain win met");
    }
}

/// Each decision's samples show its player exactly what that player saw (every card where they
/// saw it, the rest dealt among the places they could not see), sample by sample, and differ
/// from the real game where they could not see.
#[test]
fn every_sample_holds_only_what_its_player_could_see() {
    for (variant, players) in [
        (Variant::Keltis, 4),
        (Variant::NeueWege, 2),
        (Variant::KeltisCard, 2),
    ] {
        let record = greedy_game(variant, players, 3);
        let mut rng = SeedRng::new(5);
        let mut differed = 0;
        for step in (0..record.decisions.len()).step_by(9) {
            let game = record.replay_to(step).unwrap();
            let seat = game.to_act().unwrap();
            let view = game.view(Some(seat));
            for sample in samples(&view, 4, &mut rng).unwrap() {
                assert_eq!(sample.view(Some(seat)), view, "{variant} step {step}");
                let other = (seat + 1) % players;
                if sample.hand(other) != game.hand(other) {
                    differed += 1;
                }
            }
        }
        assert!(
            differed > 0,
            "{variant}: the samples copied the hidden hands"
        );
    }
}

/// The last decision replaced by the choice the enumeration shows worst, in a close game: a
/// blunder, its cost the enumerated difference, and the same review twice.
#[test]
fn a_planted_blunder_is_marked_and_the_review_repeats_itself() {
    for seed in 0..40 {
        let mut record = greedy_game(Variant::KeltisCard, 2, seed);
        let last = record.decisions.len() - 1;
        let game = record.replay_to(last).unwrap();
        let seat = game.to_act().unwrap();
        let ends: Vec<(f64, Decision)> = game
            .legal_decisions()
            .into_iter()
            .filter_map(|d| {
                let mut g = game.clone();
                g.apply(seat, d).unwrap();
                g.is_over().then(|| (margin(&totals(&g), seat), d))
            })
            .collect();
        let best = ends.iter().map(|e| e.0).fold(f64::NEG_INFINITY, f64::max);
        let Some(&(worst, blunder)) = ends.iter().min_by(|a, b| a.0.total_cmp(&b.0)) else {
            continue;
        };
        // Costly: the best choice wins, the worst loses by several points.
        if ends.len() != game.legal_decisions().len() || best <= 0.0 || worst > -3.0 {
            continue;
        }
        let mut planted = record.replay_to(last).unwrap();
        planted.apply(seat, blunder).unwrap();
        record.decisions.pop();
        record.push(&planted, seat, blunder);

        let reviewed = review(&record, LIGHT, 11).unwrap();
        let judged = reviewed.decisions.iter().find(|d| d.index == last).unwrap();
        assert_eq!(judged.mark, Some(Mark::Blunder), "{judged:?}");
        assert_eq!(judged.points_lost, best - worst);
        assert_eq!(judged.best_margin, best);
        let player = &reviewed.summary[seat as usize];
        assert!(
            player.blunders >= 1 && player.accuracy < 100.0,
            "{player:?}"
        );
        assert_eq!(review(&record, LIGHT, 11).unwrap(), reviewed);
        return;
    }
    panic!("no close game with a costly last decision among 40 seeds");
}

/// A whole game of each variant, by every judge: every decision with a choice judged once,
/// every draw from the deck weighed, figures in range.
#[test]
fn a_whole_game_is_reviewed_in_every_variant() {
    for (variant, players, judge) in [
        (Variant::Keltis, 2, Judge::Quick),
        (Variant::NeueWege, 4, Judge::Quick),
        (Variant::KeltisCard, 2, Judge::Quick),
        (Variant::Keltis, 3, Judge::Strong),
        (Variant::KeltisCard, 2, Judge::Strong),
        (Variant::Keltis, 4, Judge::Hybrid),
        (Variant::KeltisCard, 2, Judge::Hybrid),
    ] {
        let record = greedy_game(variant, players, 2);
        let reviewed = review(
            &record,
            Effort {
                samples: 2,
                exact_nodes: 200,
                judge,
            },
            3,
        )
        .unwrap();
        let game = Game::from_setup(&record.setup).unwrap();
        let mut g = game.clone();
        let mut with_choice = 0;
        let mut deck_draws = 0;
        for r in &record.decisions {
            if g.legal_decisions().len() > 1 {
                with_choice += 1;
            }
            let d = r.decision.clone().resolve(g.board()).unwrap();
            deck_draws += usize::from(d == DecisionOf::DrawDeck);
            r.apply_to(&mut g).unwrap();
        }
        assert_eq!(reviewed.judge, judge, "a review names its judge");
        assert_eq!(reviewed.decisions.len(), with_choice, "{variant} {judge:?}");
        assert_eq!(reviewed.draws.len(), deck_draws, "{variant} {judge:?}");
        for d in &reviewed.decisions {
            assert!(
                (0.0..=1.0).contains(&d.win_chance) && d.chance_lost >= 0.0 && d.points_lost >= 0.0
            );
            assert!(d.best_margin >= d.margin);
        }
        assert_eq!(reviewed.summary.len(), players as usize);
        for p in &reviewed.summary {
            assert!((0.0..=100.0).contains(&p.accuracy), "{p:?}");
        }
    }
}

/// A review stored before reviews named their judge was the quick judge's, and one stored
/// before they named its revision the first revision's: read so; a review names both as
/// `keltis review` and the API write it.
#[test]
fn a_review_kept_without_its_judge_was_the_quick_judges_first_revision() {
    let reviewed = review(&greedy_game(Variant::KeltisCard, 2, 4), LIGHT, 1).unwrap();
    let mut stored = serde_json::to_value(&reviewed).unwrap();
    assert_eq!(stored["judge"], "quick");
    assert_eq!(stored["judge_revision"], JUDGE_REVISION);
    let hybrid = Review {
        judge: Judge::Hybrid,
        ..reviewed.clone()
    };
    assert_eq!(serde_json::to_value(&hybrid).unwrap()["judge"], "hybrid");
    stored.as_object_mut().unwrap().remove("judge");
    stored.as_object_mut().unwrap().remove("judge_revision");
    let read: Review = serde_json::from_value(stored).unwrap();
    assert_eq!(
        read,
        Review {
            judge_revision: 1,
            ..reviewed
        }
    );
}

/// Issue 48: the strong bot (`bot-strong`'s kind, on a small fixed budget) playing itself makes
/// no blunder the review can see, in every variant. (Keltis Card joined once the bot planned its
/// paths: before, it made three blunders in such a game.)
#[test]
fn the_strong_bot_against_itself_makes_no_blunders() {
    let strong = BotKind::Rollout(Budget::Iterations(8));
    for (variant, players, seed) in [
        (Variant::Keltis, 2, 4),
        (Variant::NeueWege, 2, 4),
        (Variant::KeltisCard, 2, 4),
    ] {
        let record = crate::review_tool::bot_game(strong, variant, players, seed).unwrap();
        let reviewed = review(&record, server_effort(variant, players), 5).unwrap();
        for p in &reviewed.summary {
            assert_eq!(p.blunders, 0, "{variant}: {p:?}");
        }
    }
}

/// Issue 66's target for the strong bot against itself, at most one blunder a game (every seat's
/// together), in four-player Keltis: a seeded game on the small budget above. Before the bot
/// started paths as players do there (its third revision) the review charged it nine blunders
/// in this game, 6.2 a game at `rollout:32i`, and rightly: the bot that starts paths won 49% of
/// its seats against it, and it none (docs/performance.md).
#[test]
fn the_four_player_strong_bot_against_itself_blunders_at_most_once_a_game() {
    let strong = BotKind::Rollout(Budget::Iterations(8));
    let (variant, players) = (Variant::Keltis, 4);
    let record = crate::review_tool::bot_game(strong, variant, players, 4).unwrap();
    let reviewed = review(&record, server_effort(variant, players), 4).unwrap();
    let blunders: usize = reviewed.summary.iter().map(|p| p.blunders).sum();
    assert!(blunders <= 1, "{:?}", reviewed.summary);
}

/// Issue 66: a player who picks uniformly at random is told so. Seeded games of the random bot
/// against the greedy bot (which wins about 99% of them) in every variant, reviewed at the
/// server's effort: in each, the random seats' accuracy is below every greedy seat's, and near
/// the 0 that random choices score (the calibration benchmark, docs/performance.md, measures this
/// over hundreds of games; this is its seeded sample for every run).
#[test]
fn reviews_rank_a_random_player_below_the_greedy_bot() {
    for (variant, players, seed) in [
        (Variant::KeltisCard, 2, 1),
        (Variant::KeltisCard, 2, 2),
        (Variant::Keltis, 2, 1),
        (Variant::Keltis, 2, 2),
        (Variant::NeueWege, 2, 1),
        (Variant::Keltis, 3, 1),
    ] {
        random_ranked_below_greedy(variant, players, seed);
    }
}

/// [`reviews_rank_a_random_player_below_the_greedy_bot`] with four players in Keltis (a test of
/// its own: its review is the costliest, and runs beside the others). The quick judge, the
/// server's there until December 2026, ranked them the wrong way round in most games.
#[test]
fn four_player_keltis_reviews_rank_a_random_player_below_the_greedy_bot() {
    random_ranked_below_greedy(Variant::Keltis, 4, 1);
}

/// A seeded game of `players` seats, random and greedy by turns, reviewed at the server's effort:
/// the random seats' mean accuracy below the greedy seats' (a game as the calibration benchmark
/// counts it, issue 66's target), and every random seat's under 25. Every random seat below
/// every greedy seat was asked until judge revision 4, whose four-player game here put a greedy
/// seat at 6.4 and a random one at 18.4: on ten four-player calibration games that held in 7 by
/// revision 3 and 8 by revision 4, the sides' means in all 10 by both (docs/performance.md).
fn random_ranked_below_greedy(variant: Variant, players: u8, seed: u64) {
    use crate::review_tool::{mixed_game, Player};
    let random = |seat: u8| (u64::from(seat) + seed).is_multiple_of(2);
    let seats: Vec<Player> = (0..players)
        .map(|s| {
            Player::Bot(if random(s) {
                BotKind::Random
            } else {
                BotKind::Greedy
            })
        })
        .collect();
    let record = mixed_game(&seats, variant, seed).unwrap();
    let reviewed = review(&record, server_effort(variant, players), seed).unwrap();
    let (of_random, of_greedy): (Vec<&PlayerReview>, Vec<&PlayerReview>) =
        reviewed.summary.iter().partition(|p| random(p.seat));
    let mean = |side: &[&PlayerReview]| {
        let accuracies: Vec<f64> = side.iter().map(|p| p.accuracy).collect();
        marks::mean_and_spread(&accuracies).0
    };
    let said =
        format!("{variant} {players}p seed {seed}: random {of_random:?}, greedy {of_greedy:?}");
    assert!(mean(&of_random) < mean(&of_greedy), "{said}");
    assert!(of_random.iter().all(|p| p.accuracy < 25.0), "{said}");
}

/// Given the first decision of a game (every path empty), when the quick play-outs list their
/// choices, then a card that would start a path with fewer than two more of its colour in hand is
/// left out, in every variant (C10; B1 and X1: a pawn on a path's first stones scores -4 to -2),
/// and every other choice stays: discards, and starts with company.
#[test]
fn quick_play_outs_start_no_path_alone() {
    use crate::engine::setup::Setup;
    let (mut dropped, mut kept) = (0, 0);
    for variant in [Variant::Keltis, Variant::NeueWege, Variant::KeltisCard] {
        for seed in 1..=8 {
            let game = Game::from_setup(&Setup::deal(variant, 2, seed).unwrap()).unwrap();
            let seat = game.to_act().unwrap();
            let legal = game.legal_decisions();
            let mut quick = legal.clone();
            super::play_out::drop_lonely_starts(&game, seat, &mut quick);
            for d in &legal {
                let alone = match *d {
                    DecisionOf::Lay { card, path, .. } => {
                        let color = path.unwrap_or(card.color());
                        let company = game
                            .hand(seat)
                            .iter()
                            .filter(|c| c.color() == color)
                            .count();
                        !card.is_end() && color != crate::engine::cards::Color::Gray && company < 3
                    }
                    _ => false,
                };
                assert_eq!(quick.contains(d), !alone, "{variant:?} seed {seed}: {d:?}");
                if matches!(d, DecisionOf::Lay { .. }) {
                    if alone {
                        dropped += 1;
                    } else {
                        kept += 1;
                    }
                }
            }
        }
    }
    assert!(dropped > 0 && kept > 0, "dropped {dropped}, kept {kept}");
}
