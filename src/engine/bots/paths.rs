//! Starting a path as players do. Greedy's one-step look starts a board path only where its
//! first stones are worth more than a step on a path already started, and with four players in
//! Keltis hardly ever: a player holding cards of a path's colour starts that path. When, a
//! [`StartRule`] says: the strong bot in four-player Keltis ([`super::rollout`]) starts one with
//! a close run of three ([`StartRule::STRONG`]; playing on as greedy alone lost it nearly every
//! game against the same search playing on so), the hybrid judge's play-outs (`review::play_out`)
//! with any two cards of its colour ([`StartRule::JUDGE`]: of the rules tried, the one that
//! played best). See docs/performance.md.

use super::greedy::Valuation;
use super::heuristic::{potential_by_own_turns, potential_by_own_turns_after_discards};
use crate::engine::cards::{Card, Color};
use crate::engine::decision::{Decision, DecisionOf};
use crate::engine::game::Game;
use crate::engine::Variant;

/// A position valued with pawns by the seat's own turns left (the hybrid judge's valuation, and
/// the four-player strong bot's in Keltis).
pub const BY_OWN_TURNS: Valuation = Valuation {
    of: potential_by_own_turns,
    after_discards: Some(potential_by_own_turns_after_discards),
};

/// Greedy's play-out (for every seat, to `horizon` decisions), with two changes a player would
/// make: where a seat holds a start due by `rule`, it starts that path ([`due_start`]; greedy
/// chooses the pawn), and pawns are valued by the seat's own turns left
/// ([`potential_by_own_turns`]). Greedy alone starts a path only where its first stones are worth
/// more than a step on a path already started, and with four players hardly ever: its play-outs
/// valued every choice but starting such a path as if it would never be started, and charged a
/// player who started it a turn later the path's whole worth, at every decision
/// (docs/performance.md, "The hybrid judge"). The hybrid judge plays on so, and the strong bot in
/// four-player Keltis ([`super::rollout`]), each by its own rule.
pub fn greedy_starting_paths(
    game: &mut Game,
    horizon: usize,
    legal: &mut Vec<Decision>,
    rule: StartRule,
) {
    let narrow = |game: &Game, actor: u8, legal: &mut Vec<Decision>| {
        keep_due_start(game, actor, legal, rule);
    };
    super::rollout::play_out_by(game, horizon, legal, BY_OWN_TURNS, narrow);
}

/// Where a start is due by `rule` ([`due_start`]) and may be laid, the lays of that card only.
pub fn keep_due_start(game: &Game, actor: u8, legal: &mut Vec<Decision>, rule: StartRule) {
    if !legal.iter().any(|d| matches!(d, DecisionOf::Lay { .. })) {
        return;
    }
    let Some(card) = due_start(game, actor, rule) else {
        return;
    };
    let starts = |d: &Decision| matches!(*d, DecisionOf::Lay { card: c, .. } if c == card);
    if legal.iter().any(starts) {
        legal.retain(starts);
    }
}

/// More cards of a path's colour than this in hand make starting the path worth it to the strong
/// bot (the review's quick play-outs leave out other starts:
/// `review::play_out::drop_lonely_starts`).
pub const START_COMPANY: usize = 2;

/// When a player starts an empty path: with a run of more than `company` cards of its colour in
/// hand, each within `close` in value of the one before ([`due_start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartRule {
    pub company: usize,
    pub close: u8,
}

impl StartRule {
    /// The strong bot's (four-player Keltis, strong revision 3): a run of three, each within
    /// greedy's own "fits closely" of the one before. Company that cannot follow closely does not
    /// count: a path started from 0 with 8 and 10 in hand stalls where greedy finds the jump not
    /// worth a step, and one started from 10 runs on.
    pub const STRONG: StartRule = StartRule {
        company: START_COMPANY,
        close: CLOSE,
    };
    /// The hybrid judge's play-outs' (judge revision 4): any two cards of the path's colour. In
    /// greedy play-outs of Keltis, half the seats by this rule and half by the strong bot's, it
    /// scored 4.1 to 6.9 points a seat more and won 64% to 67% of the games, with two, three and
    /// four players (2,000 deals each, seats swapped: docs/performance.md, "Judge revision 4");
    /// a stronger play-out values choices nearer what they are worth.
    pub const JUDGE: StartRule = StartRule {
        company: 1,
        close: 10,
    };
}

/// In Keltis, the card that starts a path a player would start now by `rule`, if any: of the
/// empty paths, the one whose cards in hand make the longest run a row could take in order, each
/// within `rule.close` of the one before (from the lowest up or the highest down; equal, from the
/// end nearer its own end of the row), if that run is longer than `rule.company`; the run's first
/// card. Neue Wege's pawns go where any colour leads and Keltis Card's greedy valuation counts a
/// hand's company (C10): there greedy starts paths itself.
pub fn due_start(game: &Game, actor: u8, rule: StartRule) -> Option<Card> {
    if game.variant() != Variant::Keltis {
        return None;
    }
    let mut due: Option<(usize, Card)> = None;
    for color in Color::PATHS {
        if !game.row(actor, color).is_empty() {
            continue;
        }
        let mut cards: Vec<(u8, Card)> = game
            .hand(actor)
            .iter()
            .filter(|c| c.color() == color)
            .filter_map(|c| Some((c.value()?, *c)))
            .collect();
        cards.sort_unstable();
        let (Some(&(lowest, low)), Some(&(highest, high))) = (cards.first(), cards.last()) else {
            continue;
        };
        let up = run(cards.iter().map(|c| c.0), rule.close);
        let down = run(cards.iter().rev().map(|c| c.0), rule.close);
        let (length, start) = if up > down || (up == down && lowest <= 10 - highest.min(10)) {
            (up, low)
        } else {
            (down, high)
        };
        if length > rule.company && due.is_none_or(|(longest, _)| length > longest) {
            due = Some((length, start));
        }
    }
    due.map(|(_, card)| card)
}

/// How close a card must follow the one before to count in the strong bot's run (greedy's own
/// "fits closely").
const CLOSE: u8 = 2;

/// How many of `values`, from the first, follow one another within `close`.
fn run(mut values: impl Iterator<Item = u8>, close: u8) -> usize {
    let Some(mut last) = values.next() else {
        return 0;
    };
    let mut length = 1;
    for value in values {
        if value.abs_diff(last) > close {
            break;
        }
        last = value;
        length += 1;
    }
    length
}
