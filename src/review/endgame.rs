//! The end of a sampled game, searched exactly: every seat chooses what maximises its own
//! expected final margin (max^n), every card the draw pile holds may be drawn next with its share
//! (the pile's order is left to chance, as it is for the players), and a position met again by
//! another order of moves is valued once (a transposition table). What a sample's hidden cards
//! are is the sampler's; from there on nothing is left to a policy. With two seats in Keltis
//! Card's final plays, where nothing is drawn and one seat's gain is the other's loss, max^n is
//! minimax: searched by alpha-beta there, the same worth at a fraction of the positions.
//!
//! Players may pass cards through the discard piles, so a game can go round forever: a line of
//! play never passes through one position twice (a choice that would come back to a position
//! already on the line is left out; nobody gains by going round). A worth shaped by the line
//! above (by such a left-out choice) is not kept in the table, so that the table never changes
//! what the search finds. A search stops, with nothing, past its budget of positions; the judge
//! then plays that sample out as it plays the others (see [`super::judge`]). Which decisions are exact is in
//! docs/playing.md ("How a review judges").

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::engine::decision::{Decision, DecisionOf};
use crate::engine::game::{Game, Phase};

use super::judge::margin;

/// A line of play longer than this many decisions ends the search, with nothing (the end is then
/// far: play-outs judge it), and bounds the search's recursion.
pub const LONGEST_LINE: usize = 120;

/// What a position is worth to each seat: `[margin of seat 0, .., margin of seat n-1, winning
/// chance of seat 0, .., winning chance of seat n-1]`, expectations over the draws to come.
#[derive(Clone, Debug, PartialEq)]
pub struct Worth(Rc<[f64]>);

impl Worth {
    /// The expected final margin of `seat`.
    pub fn margin(&self, seat: u8) -> f64 {
        self.0[seat as usize]
    }

    /// The chance that `seat` wins (a shared highest total counts a half).
    pub fn win_chance(&self, seat: u8) -> f64 {
        self.0[self.0.len() / 2 + seat as usize]
    }

    fn players(&self) -> usize {
        self.0.len() / 2
    }

    /// The worth of a two-seat game where seat 0's final margin is `margin` (seat 1's is its
    /// negative), no draw to come.
    fn of_two_seats(margin: f64) -> Worth {
        let won = super::judge::won;
        Worth([margin, -margin, won(margin), won(-margin)].into())
    }

    /// The worth of a finished game.
    fn of_finished(game: &Game) -> Worth {
        let totals: Vec<i32> = (0..game.players()).map(|s| game.score(s).total).collect();
        let margins: Vec<f64> = (0..game.players()).map(|s| margin(&totals, s)).collect();
        let wins = margins.iter().map(|&m| super::judge::won(m));
        Worth(margins.iter().copied().chain(wins).collect())
    }
}

/// An exact search with its budget and what it has found so far: one per sampled game, shared by
/// the choices tried on it (they meet the same positions).
pub struct Solver {
    left: u32,
    table: FxHashMap<u64, Worth>,
    /// The keys of the positions on the line being searched, to find one met again.
    line: Vec<u64>,
    legal: Vec<Vec<Decision>>,
    /// Games to copy positions into, their buffers kept: a copy allocating afresh at every
    /// position was half of a search's cost.
    spare: Vec<Game>,
}

/// What searching a position found: its worth, and the shallowest position of the line above
/// whose presence on the line shaped it (a choice left out because it came back there; `None`
/// if nothing above did), or that every choice comes back to the line (from the shallowest).
enum Found {
    Worth(Worth, Option<usize>),
    Repeats(usize),
}

impl Solver {
    /// A search that may expand `budget` positions in all (positions found in the table cost
    /// nothing).
    pub fn new(budget: u32) -> Solver {
        Solver {
            left: budget,
            table: FxHashMap::default(),
            line: Vec::new(),
            legal: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// `game`, copied into a spare game's buffers; give it back with [`Solver::give_back`].
    fn copy(&mut self, game: &Game) -> Game {
        match self.spare.pop() {
            Some(mut copy) => {
                copy.clone_from(game);
                copy
            }
            None => game.clone(),
        }
    }

    fn give_back(&mut self, game: Game) {
        self.spare.push(game);
    }

    /// `game`'s choices, listed into the buffer kept for `depth`; put it back there when done.
    fn legal_at(&mut self, game: &Game, depth: usize) -> Vec<Decision> {
        if self.legal.len() <= depth {
            self.legal.resize_with(depth + 1, Vec::new);
        }
        let mut legal = std::mem::take(&mut self.legal[depth]);
        game.legal_decisions_into(&mut legal);
        legal
    }

    /// What `game` is worth with every seat playing its best to the end, no line of play passing
    /// through one position twice (see the module's comment); `None` once the budget is spent (a
    /// search that ran out cannot resume: a later call answers `None` too, unless the table
    /// already holds the position).
    pub fn solve(&mut self, game: &Game) -> Option<Worth> {
        self.line.clear();
        match self.worth(game) {
            Some(Found::Worth(worth, _)) => Some(worth),
            Some(Found::Repeats(_)) | None => {
                self.left = 0;
                None
            }
        }
    }

    fn worth(&mut self, game: &Game) -> Option<Found> {
        let Some(actor) = game.to_act() else {
            return Some(Found::Worth(Worth::of_finished(game), None));
        };
        if two_seats_final_plays(game) {
            let depth = self.line.len();
            let margin = self.final_plays(game, f64::NEG_INFINITY, f64::INFINITY, depth)?;
            return Some(Found::Worth(Worth::of_two_seats(margin), None));
        }
        let key = game.transposition_key();
        if let Some(known) = self.table.get(&key) {
            return Some(Found::Worth(known.clone(), None));
        }
        if let Some(at) = self.line.iter().position(|&k| k == key) {
            return Some(Found::Repeats(at));
        }
        self.left = self.left.checked_sub(1)?;
        let depth = self.line.len();
        if depth >= LONGEST_LINE {
            return None;
        }
        self.line.push(key);
        let legal = self.legal_at(game, depth);
        let found = self.best_of(game, actor, &legal);
        self.legal[depth] = legal;
        self.line.pop();
        let (best, shaped_by) = match found? {
            Found::Worth(best, shaped_by) => (best, shaped_by),
            Found::Repeats(at) if at >= depth => return None,
            repeats => return Some(repeats),
        };
        // Shaped only by this position or below: its worth is its own, whatever line led here.
        let shaped_above = shaped_by.filter(|&at| at < depth);
        if shaped_above.is_none() {
            self.table.insert(key, best.clone());
        }
        Some(Found::Worth(best, shaped_above))
    }

    /// Seat 0's final margin from `game` in two seats' final plays ([`two_seats_final_plays`]),
    /// by alpha-beta: exact where it falls strictly between `alpha` and `beta`, otherwise a
    /// bound on the side it fell (and then not kept in the table). With no draw left and one
    /// seat's gain the other's loss, both seats choosing their best margin is minimax, and
    /// alpha-beta finds its value expanding far fewer positions than max^n, whose worth (with two
    /// seats a function of that margin) it is.
    fn final_plays(
        &mut self,
        game: &Game,
        mut alpha: f64,
        mut beta: f64,
        depth: usize,
    ) -> Option<f64> {
        let Some(actor) = game.to_act() else {
            return Some(margin(&[game.score(0).total, game.score(1).total], 0));
        };
        let key = game.transposition_key();
        if let Some(known) = self.table.get(&key) {
            return Some(known.margin(0));
        }
        self.left = self.left.checked_sub(1)?;
        let legal = self.legal_at(game, depth);
        let (low, high) = (alpha, beta);
        let maximising = actor == 0;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut found = Some(());
        for &d in &legal {
            let mut next = self.copy(game);
            let value = match next.apply(actor, d) {
                Ok(_) => self.final_plays(&next, alpha, beta, depth + 1),
                Err(_) => None,
            };
            self.give_back(next);
            let Some(value) = value else {
                found = None;
                break;
            };
            if maximising {
                best = best.max(value);
                alpha = alpha.max(best);
            } else {
                best = best.min(value);
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        self.legal[depth] = legal;
        found?;
        if low < best && best < high {
            self.table.insert(key, Worth::of_two_seats(best));
        }
        Some(best)
    }

    /// The best of `legal` for `actor`: a choice that comes back to the line is left out.
    fn best_of(&mut self, game: &Game, actor: u8, legal: &[Decision]) -> Option<Found> {
        let mut best: Option<Worth> = None;
        let mut shaped_by: Option<usize> = None;
        for &d in legal {
            let found = if matches!(d, DecisionOf::DrawDeck) {
                self.drawn(game, actor)?
            } else {
                let mut next = self.copy(game);
                let found = match next.apply(actor, d) {
                    Ok(_) => self.worth(&next),
                    Err(_) => None,
                };
                self.give_back(next);
                found?
            };
            let worth = match found {
                Found::Worth(worth, by) => {
                    shaped_by = shallowest(shaped_by, by);
                    worth
                }
                Found::Repeats(at) => {
                    shaped_by = shallowest(shaped_by, Some(at));
                    continue;
                }
            };
            // Equal worth: the first choice listed stands (the seat is indifferent).
            if best
                .as_ref()
                .is_none_or(|b| worth.margin(actor) > b.margin(actor))
            {
                best = Some(worth);
            }
        }
        Some(match best {
            Some(best) => Found::Worth(best, shaped_by),
            None => Found::Repeats(shaped_by?),
        })
    }

    /// A draw from the draw pile: each card it holds, with its share.
    fn drawn(&mut self, game: &Game, actor: u8) -> Option<Found> {
        let mut cards = game.draw_pile_cards().to_vec();
        cards.sort_unstable();
        let n = cards.len() as f64;
        let mut sum: Option<Vec<f64>> = None;
        let mut shaped_by: Option<usize> = None;
        let mut i = 0;
        while i < cards.len() {
            let card = cards[i];
            let same = cards[i..].iter().take_while(|&&c| c == card).count();
            i += same;
            let mut next = self.copy(game);
            let drawn = next.set_next_draw(card) && next.apply(actor, DecisionOf::DrawDeck).is_ok();
            let found = if drawn { self.worth(&next) } else { None };
            self.give_back(next);
            // A smaller pile is never on the line above: a draw always reaches a new position.
            let Found::Worth(worth, by) = found? else {
                return None;
            };
            shaped_by = shallowest(shaped_by, by);
            let share = same as f64 / n;
            let sum = sum.get_or_insert_with(|| vec![0.0; worth.players() * 2]);
            for (s, w) in sum.iter_mut().zip(worth.0.iter()) {
                *s += share * w;
            }
        }
        sum.map(|s| Found::Worth(Worth(s.into()), shaped_by))
    }
}

/// Keltis Card's final plays (C9) between two seats: no card is drawn and every play brings the
/// end nearer, so no line comes back, and what one seat gains the other loses.
fn two_seats_final_plays(game: &Game) -> bool {
    game.players() == 2
        && matches!(game.phase(), Phase::FinalPlay { .. })
        && game.draw_pile_len() == 0
}

/// The shallower of two places on the line (`None`: no place).
fn shallowest(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
#[path = "endgame_tests.rs"]
mod tests;
