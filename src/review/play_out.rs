//! How the judge plays a sampled game on after a choice: the quick policy (the search bot's, with
//! two rules a player would follow on top), the strong bot's greedy play-outs, or the hybrid
//! judge's greedy play-outs that start paths as players do.

use crate::engine::bots::heuristic::potential;
use crate::engine::bots::mcts::rollout_choice;
use crate::engine::bots::paths::{
    greedy_starting_paths, keep_due_start, StartRule, BY_OWN_TURNS, START_COMPANY,
};
use crate::engine::bots::rollout;
use crate::engine::cards::{Card, Color};
use crate::engine::decision::{Decision, DecisionOf};
use crate::engine::game::{Game, PILES};
use crate::engine::setup::SeedRng;

use super::judge::{margin, Judge};

/// A play-out still running after this many decisions is judged by its position (bots can in
/// principle pass cards through the piles for a long time).
const PLAY_OUT_LIMIT: usize = 1_000;

/// Plays a game on as the judge plays.
pub(super) struct PlayOut {
    judge: Judge,
    legal: Vec<Decision>,
    good: Vec<Decision>,
}

impl PlayOut {
    pub(super) fn new(judge: Judge) -> PlayOut {
        PlayOut {
            judge,
            legal: Vec::new(),
            good: Vec::new(),
        }
    }

    /// `seat`'s final margin by the judge's play-out of `game` (played on in place).
    pub(super) fn finish(&mut self, game: &mut Game, seat: u8, rng: &mut SeedRng) -> f64 {
        match self.judge {
            Judge::Strong => {
                let horizon = rollout::horizon(game.variant());
                rollout::play_out(game, horizon, &mut self.legal);
                rollout::lead(game, seat)
            }
            // The hybrid judge's figures are all its greedy play-outs' (a position's too, so
            // that a draw's luck compares like with like).
            Judge::Hybrid => {
                let horizon = rollout::horizon(game.variant());
                greedy_starting_paths(game, horizon, &mut self.legal, StartRule::JUDGE);
                rollout::lead(game, seat)
            }
            Judge::Quick => margin(&self.quick(game, rng), seat),
        }
    }

    /// `seat`'s final margin by the hybrid judge's play-out, `seat` playing `then` at its next
    /// turn where it may ([`greedy_starting_paths_then`]).
    pub(super) fn finish_then(&mut self, mut game: Game, seat: u8, then: NextTurn) -> f64 {
        let horizon = rollout::horizon(game.variant());
        greedy_starting_paths_then(&mut game, horizon, &mut self.legal, seat, then);
        rollout::lead(&game, seat)
    }

    /// The final totals by the quick policy; a play-out still running at the limit is valued
    /// by its position.
    fn quick(&mut self, game: &mut Game, rng: &mut SeedRng) -> Vec<i32> {
        for _ in 0..PLAY_OUT_LIMIT {
            let Some(actor) = game.to_act() else {
                return totals(game);
            };
            game.legal_decisions_into(&mut self.legal);
            drop_lonely_starts(game, actor, &mut self.legal);
            let d = match self.last_card(game, actor) {
                Some(d) => d,
                None => rollout_choice(game, actor, &self.legal, rng, &mut self.good),
            };
            if game.apply(actor, d).is_err() {
                break;
            }
        }
        (0..game.players())
            .map(|s| potential(game, s).round() as i32)
            .collect()
    }
}

impl PlayOut {
    /// The draw pile's last card in the board games (K9b: drawing it ends the game), as a player
    /// would treat it and the quick policy does not (it takes a fitting card from a discard pile
    /// first): a seat that wins if the game ends now draws it; one that would not takes any other
    /// card there is (`self.legal` holds the choices). `None`: not that decision, the policy
    /// chooses.
    fn last_card(&self, game: &Game, actor: u8) -> Option<Decision> {
        let deck = DecisionOf::DrawDeck;
        if game.draw_pile_len() != 1 || !self.legal.contains(&deck) {
            return None;
        }
        let mut ended = game.clone();
        ended.apply(actor, deck).ok()?;
        // Keltis Card's final plays come after it (C9): the policy plays those.
        if !ended.is_over() {
            return None;
        }
        if margin(&totals(&ended), actor) > 0.0 {
            return Some(deck);
        }
        self.legal.iter().copied().find(|&d| d != deck)
    }
}

/// A choice a seat plays at its next turn, if it may then: the judge's best choice, played a turn
/// late ([`greedy_starting_paths_then`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct NextTurn {
    pub decision: Decision,
    /// For a draw from a discard pile, the card on top when it was judged best: another card
    /// there later is another choice.
    pub top: Option<Card>,
    /// Whether the decision starts one of the seat's paths (a lay on an empty row).
    starts: bool,
}

impl NextTurn {
    /// `decision`, judged best in `game` (its seat to act).
    pub(super) fn of(game: &Game, decision: Decision) -> NextTurn {
        let top = top_drawn(game, decision);
        let starts = match (decision, game.to_act()) {
            (DecisionOf::Lay { card, path, .. }, Some(seat)) => {
                game.row(seat, path.unwrap_or(card.color())).is_empty()
            }
            _ => false,
        };
        NextTurn {
            decision,
            top,
            starts,
        }
    }

    /// What the seat plays of `legal` at its next turn: the decision where it may; where it
    /// started a path with a card no longer in hand (the choice put before it was discarding
    /// that very card), the start of the same path, with the same pawn, by the card of its
    /// colour nearest in value. A start put off is not a start given up while the path can
    /// still be started: valued as given up, each discard of a path's first card was charged
    /// the whole path's worth, turn after turn (judge revision 3). `None`: neither may be played.
    fn at(&self, game: &Game, legal: &[Decision]) -> Option<Decision> {
        let drawn_as_judged = top_drawn(game, self.decision) == self.top;
        if drawn_as_judged && legal.contains(&self.decision) {
            return Some(self.decision);
        }
        let DecisionOf::Lay {
            card,
            pawn,
            to,
            path,
        } = self.decision
        else {
            return None;
        };
        let color = path.unwrap_or(card.color());
        let still_empty = game
            .to_act()
            .is_some_and(|seat| game.row(seat, color).is_empty());
        let value = card.value().filter(|_| self.starts && still_empty)?;
        legal
            .iter()
            .filter_map(|&d| match d {
                DecisionOf::Lay {
                    card: other,
                    pawn: p,
                    to: t,
                    path: q,
                } if other.color() == card.color() && (p, t, q) == (pawn, to, path) => {
                    Some((other.value()?.abs_diff(value), d))
                }
                _ => None,
            })
            .min_by_key(|&(distance, _)| distance)
            .map(|(_, d)| d)
    }
}

/// For a draw from a discard pile, the card on top of it in `game`.
fn top_drawn(game: &Game, decision: Decision) -> Option<Card> {
    match decision {
        DecisionOf::DrawPile { color } => game.pile(color).last().copied(),
        _ => None,
    }
}

/// [`greedy_starting_paths`], but `seat` plays `then` at its next turn (after another seat has
/// played) where it may, and otherwise as the play-out would. What a choice gives away is what
/// it costs a player who plays the best choice a turn late, not what it costs where the
/// play-out never would: greedy's play-outs start a lone card's path rarely, and valued by
/// them alone, every turn a start stayed missed was charged the path's worth again
/// (docs/performance.md, "A missed choice charged as a delay").
pub(super) fn greedy_starting_paths_then(
    game: &mut Game,
    horizon: usize,
    legal: &mut Vec<Decision>,
    seat: u8,
    then: NextTurn,
) {
    // 0: the seat's own turn still running; 1: the others'; 2: the seat's next; 3: past it.
    let mut turn = 0;
    let narrow = |game: &Game, actor: u8, legal: &mut Vec<Decision>| {
        turn = match (turn, actor == seat) {
            (0, false) => 1,
            (1, true) => 2,
            (2, false) => 3,
            (t, _) => t,
        };
        if let Some(late) = (turn == 2).then(|| then.at(game, legal)).flatten() {
            legal.retain(|&d| d == late);
            turn = 3;
            return;
        }
        keep_due_start(game, actor, legal, StartRule::JUDGE);
    };
    rollout::play_out_by(game, horizon, legal, BY_OWN_TURNS, narrow);
}

/// New paths, left out of the quick play-outs unless the hand holds at least [`START_COMPANY`]
/// more cards of the path's colour (and unless nothing else is left). The quick policy lays any
/// low or high card on an empty path, and a path left short scores below nothing: in Keltis Card
/// one or two cards score -4 or -3 (C10), on the boards a pawn on the first stones -4 to -2 (B1,
/// X1; a big pawn twice that). In its play-outs a card kept in hand was often laid so, and the
/// judge found keeping a 0 or a 10 costly and discarding it best by 4 to 5 points, charging the
/// greedy bot, which keeps such cards for a path worth starting (issue 66: the quick judge's bias).
/// In Keltis, playing its own best choices against the strong bot, the quick judge won 6 of 30
/// games before and 9 of 30 after.
pub(super) fn drop_lonely_starts(game: &Game, actor: u8, legal: &mut Vec<Decision>) {
    // Counted once a decision: this runs at every step of every play-out.
    let mut company = [0; PILES];
    for card in game.hand(actor) {
        company[card.color().index()] += 1;
    }
    let starts_alone = |d: &Decision| {
        let DecisionOf::Lay { card, path, .. } = *d else {
            return false;
        };
        let color = path.unwrap_or(card.color());
        !card.is_end()
            && color != Color::Gray
            && company[color.index()] <= START_COMPANY
            && game.row(actor, color).is_empty()
    };
    if legal.iter().any(|d| !starts_alone(d)) {
        legal.retain(|d| !starts_alone(d));
    }
}

fn totals(game: &Game) -> Vec<i32> {
    (0..game.players()).map(|s| game.score(s).total).collect()
}
