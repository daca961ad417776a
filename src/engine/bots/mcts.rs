//! Information-set Monte Carlo tree search (single observer): each iteration samples a game
//! consistent with the bot's view, walks the shared tree through the decisions legal in that
//! sample (UCB1 with availability counts), adds one node, plays a quick policy to a cut-off and
//! scores the result for every seat. The root searches greedy's best few decisions only, each
//! on the same sample per iteration (paired comparison: the hidden cards are the main noise).

use std::time::Instant;

use super::heuristic::{fits_closely, pile_top_fits, potential};
use super::sample::sample_game;
use super::Budget;
use crate::engine::cards::Color;
use crate::engine::decision::Decision;
use crate::engine::decision::DecisionOf;
use crate::engine::game::Game;
use crate::engine::game::Phase;
use crate::engine::setup::SeedRng;
use crate::engine::view::View;

/// Rollout decisions played after the tree before the position is judged.
const ROLLOUT_DECISIONS: usize = 48;
/// Mean reward by which a candidate must beat greedy's first choice to replace it.
const GREEDY_MARGIN: f64 = 0.01;
/// Decisions searched at the root, greedy's best first.
const ROOT_WIDTH: usize = 4;
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

/// The rollout policy: mostly sensible, sometimes random. Lays that fit their row closely,
/// steps and stones are "good"; a pile's top card is drawn only when it fits, else the deck.
pub fn rollout_choice(
    game: &Game,
    seat: u8,
    legal: &[Decision],
    rng: &mut SeedRng,
    good: &mut Vec<Decision>,
) -> Decision {
    good.clear();
    let mut discards = 0;
    // A card's lays come together, one for each pawn and space on the boards: judged once.
    let mut last_lay = None;
    for &d in legal {
        let keep = match d {
            DecisionOf::Lay { card, path, .. } => {
                let color = path.unwrap_or(card.color());
                match last_lay {
                    Some((c, p, keep)) if (c, p) == (card, color) => keep,
                    _ => {
                        let row = game.row(seat, color);
                        // An end card closes a path: worth it on a long one only.
                        let keep = (card.is_end() && row.len() >= 6)
                            || color == Color::Gray
                            || fits_closely(row, card);
                        last_lay = Some((card, color, keep));
                        keep
                    }
                }
            }
            DecisionOf::DrawPile { color } => pile_top_fits(game, seat, color),
            DecisionOf::Step { .. } | DecisionOf::TakeStone { .. } => true,
            DecisionOf::Discard { .. } => {
                discards += 1;
                false
            }
            _ => false,
        };
        if keep {
            good.push(d);
        }
    }
    if game.phase() == Phase::Draw && good.is_empty() {
        return DecisionOf::DrawDeck;
    }
    if !good.is_empty() && rng.below(10) < 8 {
        return good[rng.below(good.len() as u64) as usize];
    }
    if discards > 0 && rng.below(10) < 7 {
        let k = rng.below(discards) as usize;
        if let Some(d) = legal
            .iter()
            .filter(|d| matches!(d, DecisionOf::Discard { .. }))
            .nth(k)
        {
            return *d;
        }
    }
    legal[rng.below(legal.len() as u64) as usize]
}

/// The search tree below the root candidates.
struct Tree {
    nodes: Vec<Node>,
    buf: Vec<Decision>,
    good: Vec<Decision>,
    path: Vec<usize>,
}

impl Tree {
    fn new_node(&mut self, decision: Option<Decision>, actor: u8) -> usize {
        self.nodes.push(Node {
            decision,
            actor,
            visits: 0,
            available: 0,
            reward: 0.0,
            children: Vec::new(),
        });
        self.nodes.len() - 1
    }

    /// One iteration below `start` (whose decision `game` has just applied): select with UCB1
    /// among the children legal in this sample, add one node, roll out, back up.
    fn iterate(
        &mut self,
        start: usize,
        mut game: Game,
        rng: &mut SeedRng,
        rollout_rng: &mut SeedRng,
    ) {
        self.path.clear();
        self.path.push(start);
        let mut node = start;
        while let Some(actor) = game.to_act() {
            game.legal_decisions_into(&mut self.buf);
            let untried: Vec<Decision> = self
                .buf
                .iter()
                .copied()
                .filter(|d| {
                    !self.nodes[node]
                        .children
                        .iter()
                        .any(|&c| self.nodes[c].decision == Some(*d))
                })
                .collect();
            if !untried.is_empty() {
                let d = untried[rng.below(untried.len() as u64) as usize];
                if game.apply(actor, d).is_err() {
                    break;
                }
                let child = self.new_node(Some(d), actor);
                self.nodes[node].children.push(child);
                self.path.push(child);
                break;
            }
            let mut best = (f64::NEG_INFINITY, usize::MAX);
            for i in 0..self.nodes[node].children.len() {
                let c = self.nodes[node].children[i];
                let Some(d) = self.nodes[c].decision else {
                    continue;
                };
                if !self.buf.contains(&d) {
                    continue;
                }
                let n = &mut self.nodes[c];
                n.available += 1;
                let visits = n.visits.max(1) as f64;
                let ucb = n.reward / visits
                    + EXPLORATION * ((n.available.max(1) as f64).ln() / visits).sqrt();
                if ucb > best.0 {
                    best = (ucb, c);
                }
            }
            let Some(d) = self.nodes.get(best.1).and_then(|n| n.decision) else {
                break;
            };
            if game.apply(actor, d).is_err() {
                break;
            }
            node = best.1;
            self.path.push(node);
        }
        for _ in 0..ROLLOUT_DECISIONS {
            let Some(actor) = game.to_act() else { break };
            game.legal_decisions_into(&mut self.buf);
            let d = rollout_choice(&game, actor, &self.buf, rollout_rng, &mut self.good);
            if game.apply(actor, d).is_err() {
                break;
            }
        }
        let r = rewards(&game);
        for &n in &self.path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += r[node.actor as usize];
        }
    }
}

/// Choose among `legal` for the view's seat. Greedy's best few decisions are the root's
/// candidates; each iteration samples one game consistent with the view and tries every
/// candidate on it with the same rollout random stream, so that candidates are compared on
/// the same hidden cards (common random numbers); below each candidate the tree grows as usual.
pub fn search(
    view: &View,
    legal: &[Decision],
    budget: Budget,
    rng: &mut SeedRng,
) -> (Decision, SearchStats) {
    let started = Instant::now();
    let seat = view.seat.unwrap_or(0);
    let candidates = super::root_candidates(view, seat, legal, ROOT_WIDTH, rng);
    if candidates.len() <= 1 {
        return (
            candidates.first().copied().unwrap_or(legal[0]),
            SearchStats { iterations: 0 },
        );
    }
    let mut tree = Tree {
        nodes: Vec::with_capacity(4096),
        buf: Vec::with_capacity(64),
        good: Vec::with_capacity(64),
        path: Vec::with_capacity(64),
    };
    let roots: Vec<usize> = candidates
        .iter()
        .map(|d| tree.new_node(Some(*d), seat))
        .collect();
    let mut iterations = 0u32;
    loop {
        if iterations > 0 && budget.spent(started, iterations) {
            break;
        }
        let Ok(base) = sample_game(view, rng) else {
            break;
        };
        let rollout_seed = rng.next_u64();
        for (i, d) in candidates.iter().enumerate() {
            let mut game = base.clone();
            if game.apply(seat, *d).is_err() {
                continue;
            }
            tree.iterate(roots[i], game, rng, &mut SeedRng::new(rollout_seed));
            iterations += 1;
        }
    }
    // Equal visits: the best mean.

    let mean = |i: usize| {
        let n = &tree.nodes[roots[i]];
        n.reward / n.visits.max(1) as f64
    };
    // Greedy's first choice stands unless another candidate is clearly better on the same samples.
    let mut best = (mean(0) + GREEDY_MARGIN, candidates[0]);
    for (i, d) in candidates.iter().enumerate().skip(1) {
        if mean(i) > best.0 {
            best = (mean(i), *d);
        }
    }
    (best.1, SearchStats { iterations })
}
