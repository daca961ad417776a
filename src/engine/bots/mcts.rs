//! Information-set Monte Carlo tree search (single observer): each iteration samples a game
//! consistent with the bot's view, walks the shared tree through the decisions legal in that
//! sample (UCB1 with availability counts), adds one node, plays randomly to a cut-off and
//! scores the result for every seat.

use std::time::Instant;

use super::heuristic::potential;
use super::sample::sample_game;
use super::Budget;
use crate::engine::decision::Decision;
use crate::engine::game::Game;
use crate::engine::setup::SeedRng;
use crate::engine::view::View;

/// Random decisions played after the tree before the position is judged.
const ROLLOUT_DECISIONS: usize = 48;
/// Exploration constant of UCB1 (rewards are in 0..1).
const EXPLORATION: f64 = 0.7;
/// Points of advantage that make a reward of about 0.73.
const REWARD_SCALE: f64 = 6.0;

struct Node {
    decision: Option<Decision>,
    /// The seat that took `decision`.
    actor: u8,
    visits: u32,
    available: u32,
    reward: f64,
    children: Vec<usize>,
}

/// What the search did, for tests and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchStats {
    pub iterations: u32,
}

/// Rewards of a position for every seat: 1 / shared / 0 at the end, a squashed lead before.
fn rewards(game: &Game) -> Vec<f64> {
    let players = game.players as usize;
    if let Some(result) = game.result() {
        let share = 1.0 / result.winners.len().max(1) as f64;
        return (0..players as u8)
            .map(|s| {
                if result.winners.contains(&s) {
                    share
                } else {
                    0.0
                }
            })
            .collect();
    }
    let worth: Vec<f64> = (0..game.players).map(|s| potential(game, s)).collect();
    (0..players)
        .map(|s| {
            let best_other = worth
                .iter()
                .enumerate()
                .filter(|(o, _)| *o != s)
                .map(|(_, w)| *w)
                .fold(f64::NEG_INFINITY, f64::max);
            1.0 / (1.0 + (-(worth[s] - best_other) / REWARD_SCALE).exp())
        })
        .collect()
}

pub fn search(
    view: &View,
    legal: &[Decision],
    budget: Budget,
    rng: &mut SeedRng,
) -> (Decision, SearchStats) {
    let started = Instant::now();
    let mut tree = vec![Node {
        decision: None,
        actor: 0,
        visits: 0,
        available: 0,
        reward: 0.0,
        children: Vec::new(),
    }];
    let mut iterations = 0u32;
    let mut buf = Vec::with_capacity(64);
    let mut path = Vec::with_capacity(64);
    loop {
        let done = match budget {
            Budget::Iterations(n) => iterations >= n,
            Budget::Millis(ms) => started.elapsed().as_secs_f64() * 1000.0 >= ms as f64,
        };
        if done && iterations > 0 {
            break;
        }
        let Ok(mut game) = sample_game(view, rng) else {
            break;
        };
        iterations += 1;
        path.clear();
        let mut node = 0usize;
        // Selection and expansion.
        while let Some(actor) = game.to_act() {
            game.legal_decisions_into(&mut buf);
            let untried: Vec<Decision> = buf
                .iter()
                .copied()
                .filter(|d| {
                    !tree[node]
                        .children
                        .iter()
                        .any(|&c| tree[c].decision == Some(*d))
                })
                .collect();
            if !untried.is_empty() {
                let d = untried[rng.below(untried.len() as u64) as usize];
                if game.apply(actor, d).is_err() {
                    break;
                }
                tree.push(Node {
                    decision: Some(d),
                    actor,
                    visits: 0,
                    available: 0,
                    reward: 0.0,
                    children: Vec::new(),
                });
                let child = tree.len() - 1;
                tree[node].children.push(child);
                path.push(child);
                break;
            }
            let mut best = (f64::NEG_INFINITY, usize::MAX);
            let children = tree[node].children.clone();
            for c in children {
                let Some(d) = tree[c].decision else { continue };
                if !buf.contains(&d) {
                    continue;
                }
                tree[c].available += 1;
                let n = &tree[c];
                let mean = n.reward / n.visits.max(1) as f64;
                let ucb = mean
                    + EXPLORATION
                        * ((n.available.max(1) as f64).ln() / n.visits.max(1) as f64).sqrt();
                if ucb > best.0 {
                    best = (ucb, c);
                }
            }
            if best.1 == usize::MAX {
                break;
            }
            node = best.1;
            let Some(d) = tree[node].decision else { break };
            if game.apply(actor, d).is_err() {
                break;
            }
            path.push(node);
        }
        // Rollout.
        for _ in 0..ROLLOUT_DECISIONS {
            let Some(actor) = game.to_act() else { break };
            game.legal_decisions_into(&mut buf);
            let d = buf[rng.below(buf.len() as u64) as usize];
            if game.apply(actor, d).is_err() {
                break;
            }
        }
        // Backpropagation.
        let r = rewards(&game);
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1;
            node.reward += r[node.actor as usize];
        }
        tree[0].visits += 1;
    }
    let root = &tree[0];
    let best = root
        .children
        .iter()
        .filter_map(|&c| tree[c].decision.map(|d| (tree[c].visits, d)))
        .filter(|(_, d)| legal.contains(d))
        .max_by_key(|(v, _)| *v)
        .map(|(_, d)| d)
        .unwrap_or(legal[0]);
    (best, SearchStats { iterations })
}
