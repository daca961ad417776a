//! Keltis Card's plan: a position valued by what the seat's remaining plays can still make of it.
//!
//! A colour path pays only once it is long (C10: 1 card -4, 4 cards 1, 7 cards 6, 9 cards 10), and
//! a player lays one card a turn, so a good player commits to a few colours. The one-step
//! heuristic (`heuristic::potential`) cannot see that: it never starts a path, and greedy bots
//! score by wish stones and the gray path. Here each path and the gray path get the plays that
//! can still feed them (cards in hand that fit, and the share of the unseen cards that fit which
//! the seat's remaining draws should bring), the plays are cut to the turns the seat can count on,
//! taking first from where a play is worth least, and the position is worth the score that plan
//! ends at, with the wish stones already held.
//!
//! The rollout bot ranks its candidates by it and judges its cut-off play-outs by it; its
//! play-outs stay greedy's (see docs/performance.md for what each measured).

use crate::engine::cards::Color;
use crate::engine::game::{Game, Phase, PILES};
use crate::engine::rows::{Direction, Row};
use crate::engine::scoring::{c10_path, c10_stones};

/// Share of the fitting cards the seat's draws should bring that the plan counts on (the
/// opponent draws from the same cards, and some come too late or in the wrong order). Measured:
/// 0.4 to 1.0 all beat greedy; 0.6 best.
const FUTURE_SHARE: f64 = 0.6;
/// Share of the turns left that the plan counts on laying in: some go to discards, to wish
/// stones and to drawing the right card. Measured: 0.5 to 0.85 beat counting every turn; 0.7 best.
const TURNS_COUNTED: f64 = 0.7;
/// C9: plays each player still has once the draw pile is empty.
const FINAL_PLAYS_EACH: usize = 2;
/// Card codes: colour index times 12 plus the value (11: an end card).
const CODES: usize = PILES * 12;

/// One place the plan can spend plays: its score with `k` more plays.
#[derive(Clone, Copy)]
enum Outlet {
    /// A path of `len` cards (C10).
    Path { len: usize },
    /// The gray path, 1 point a card (C4, C10).
    Gray,
}

impl Outlet {
    fn worth(self, k: usize) -> i32 {
        match self {
            Outlet::Path { len } => c10_path(len + k),
            Outlet::Gray => k as i32,
        }
    }
}

/// The plays the seat still has: its turns before the draw pile runs out, and C9's last two.
fn plays_left(game: &Game, seat: u8) -> usize {
    match game.phase {
        Phase::FinalPlay { left } => {
            let mine_first = game.to_act == seat;
            (left as usize + usize::from(mine_first)) / 2
        }
        _ => {
            // Each turn draws one card; the seat's turns are every other one.
            let after_this = game.draw_pile.len().saturating_sub(1);
            let this_turn = usize::from(game.turn_player == seat && game.phase == Phase::Play);
            this_turn + after_this / 2 + FINAL_PLAYS_EACH
        }
    }
}

/// How many of `values` (a count per value 0..=10) could still go on the row, in some order.
fn fitting(row: &Row, values: &[u8; 11]) -> f64 {
    let top = row.cards().iter().rev().find_map(|c| c.value());
    let (up, down) = match top {
        None => {
            let all: u32 = values.iter().map(|&n| n as u32).sum();
            // An empty path takes one direction: about half of what there is.
            return all as f64 * 0.5;
        }
        Some(t) => {
            let t = t as usize;
            let up: u32 = values[t..].iter().map(|&n| n as u32).sum();
            let down: u32 = values[..=t].iter().map(|&n| n as u32).sum();
            (up, down)
        }
    };
    match row.direction() {
        Direction::Ascending => up as f64,
        Direction::Descending => down as f64,
        Direction::Open => up.max(down) as f64,
    }
}

/// The seat's worth in points if its remaining plays go where they pay most. Reads the other
/// hands and the draw pile only as one count of unseen cards: the same on every game sampled from
/// the seat's view but for the cards removed unseen (C1).
pub fn plan_value(game: &Game, seat: u8) -> f64 {
    if game.is_over() {
        return game.score(seat).total as f64;
    }
    let s = seat as usize;
    let plays = plays_left(game, seat);
    let mut unseen = [0u8; CODES];
    let mut unseen_total = game.draw_pile.len();
    for card in &game.draw_pile {
        unseen[card.code() as usize] += 1;
    }
    for (other, hand) in game.hands.iter().enumerate() {
        if other != s {
            unseen_total += hand.len();
            for card in hand {
                unseen[card.code() as usize] += 1;
            }
        }
    }
    let draws = plays.saturating_sub(FINAL_PLAYS_EACH) as f64;
    let share = if unseen_total == 0 {
        0.0
    } else {
        FUTURE_SHARE * draws / unseen_total as f64
    };
    let mut held = [0u8; CODES];
    for card in &game.hands[s] {
        held[card.code() as usize] += 1;
    }
    let rows = &game.rows[s];
    // Each outlet and the plays it could take: the five paths, then the gray one.
    let mut outlets = [(Outlet::Gray, 0); PILES];
    for c in Color::PATHS {
        let row = &rows[c.index()];
        let base = c.index() * 12;
        let end_code = base + 11;
        let supply = match row.end_cards() {
            // C5: a terminated path takes only its second end card.
            1 => held[end_code] as f64 + share * unseen[end_code] as f64,
            0 => {
                let in_hand: [u8; 11] = held[base..base + 11].try_into().unwrap_or([0; 11]);
                let to_come: [u8; 11] = unseen[base..base + 11].try_into().unwrap_or([0; 11]);
                // An end card in hand can close the path: one card more.
                let closing = f64::from(u8::from(held[end_code] > 0));
                fitting(row, &in_hand) + share * fitting(row, &to_come) + closing
            }
            _ => 0.0,
        };
        outlets[c.index()] = (Outlet::Path { len: row.len() }, supply.round() as usize);
    }
    let gray = Color::Gray.index() * 12;
    let count = |counts: &[u8]| counts.iter().map(|&n| f64::from(n)).sum::<f64>();
    let gray_supply = count(&held[gray..gray + 11]) + share * count(&unseen[gray..gray + 11]);
    outlets[Color::Gray.index()] = (Outlet::Gray, gray_supply.round() as usize);
    let counted = (plays as f64 * TURNS_COUNTED).round() as usize;
    let stones = game.stones.iter().filter(|o| **o == Some(seat)).count();
    // Stones not yet taken are not counted on: the opponent may take them first, and counting
    // them measured no better.
    (planned(&mut outlets, counted) + rows[Color::Gray.index()].len() as i32 + c10_stones(stones))
        as f64
}

/// The score the outlets reach with at most `plays` plays: each first takes the plays that suit
/// it best alone (a path too short to pay is not started), then plays are taken back one at a
/// time from the outlet that loses least by it.
fn planned(outlets: &mut [(Outlet, usize)], plays: usize) -> i32 {
    for (outlet, supply) in outlets.iter_mut() {
        let best = (0..=*supply)
            .max_by_key(|&k| (outlet.worth(k), k))
            .unwrap_or(0);
        *supply = best;
    }
    let mut total: usize = outlets.iter().map(|(_, k)| *k).sum();
    while total > plays {
        let cheapest = outlets
            .iter()
            .enumerate()
            .filter(|(_, (_, k))| *k > 0)
            .min_by_key(|(_, (o, k))| o.worth(*k) - o.worth(*k - 1))
            .map(|(i, _)| i);
        let Some(i) = cheapest else { break };
        outlets[i].1 -= 1;
        total -= 1;
    }
    outlets.iter().map(|(o, k)| o.worth(*k)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cards::Card;
    use crate::engine::decision::DecisionOf;
    use crate::engine::Variant;

    #[test]
    fn a_path_gets_every_play_its_cards_can_take_when_turns_allow() {
        // C10: 3 cards and 4 more make 7: 6 points.
        let mut outlets = [(Outlet::Path { len: 3 }, 4)];
        assert_eq!(planned(&mut outlets, 20), 6);
    }

    #[test]
    fn a_path_too_short_to_pay_is_not_started() {
        // C10: 2 cards would score -3; an empty path scores 0.
        let mut outlets = [(Outlet::Path { len: 0 }, 2), (Outlet::Gray, 1)];
        assert_eq!(planned(&mut outlets, 20), 1);
    }

    #[test]
    fn scarce_plays_go_where_they_pay_most() {
        // Two paths of 6 cards, 3 fitting cards each, 3 plays: one path finished and the other
        // as it is (10 + 3), as good as any split (7 and 8 cards: 6 + 7).
        let mut outlets = [(Outlet::Path { len: 6 }, 3), (Outlet::Path { len: 6 }, 3)];
        assert_eq!(planned(&mut outlets, 3), 13);
        let mut outlets = [(Outlet::Path { len: 6 }, 3), (Outlet::Path { len: 8 }, 1)];
        // 3 plays: 8 -> 9 (+3) and 6 -> 8 (+4) = 7 + 10; or 6 -> 9 = 10 + 7.
        assert_eq!(planned(&mut outlets, 3), 17);
        // 1 play: on the path where it pays 3.
        let mut outlets = [(Outlet::Path { len: 6 }, 3), (Outlet::Path { len: 8 }, 1)];
        assert_eq!(planned(&mut outlets, 1), 3 + 10);
    }

    fn c(color: Color, value: u8) -> Card {
        Card::number(color, value)
    }

    /// A Keltis Card game at its first decision, seat 0 to play with `hand`.
    fn card_game(hand: &[Card]) -> Game {
        let mut game = Game::new(Variant::KeltisCard, 2, 3).expect("valid");
        let seat = game.to_act().expect("to act") as usize;
        // Swap the wanted cards into the seat's hand from wherever they are.
        for (i, &card) in hand.iter().enumerate() {
            let old = game.hands[seat][i];
            if old == card {
                continue;
            }
            let holders: Vec<&mut [Card]> = game
                .hands
                .iter_mut()
                .map(|hand| hand.as_mut_slice())
                .chain([game.draw_pile.as_mut_slice(), game.removed.as_mut_slice()])
                .collect();
            let mut placed = false;
            for holder in holders {
                if let Some(j) = holder.iter().position(|x| *x == card) {
                    holder[j] = old;
                    placed = true;
                    break;
                }
            }
            assert!(placed, "{card} not in the game");
            game.hands[seat][i] = card;
        }
        game.hands[seat].sort();
        game
    }

    #[test]
    fn c10_laying_on_a_committed_path_is_worth_more_than_discarding_when_turns_run_short() {
        use Color::{Blue, Green};
        let hand = [
            c(Green, 3),
            c(Green, 4),
            c(Green, 5),
            c(Green, 6),
            c(Green, 7),
            c(Blue, 0),
            c(Blue, 9),
            c(Blue, 4),
        ];
        let mut game = card_game(&hand);
        let seat = game.to_act().expect("to act");
        // Late in the game: four turns left for this seat.
        let keep = 7;
        let cut = game.draw_pile.len() - keep;
        let gone: Vec<Card> = game.draw_pile.drain(..cut).collect();
        game.removed.extend(gone);
        let value_after = |d| {
            let mut g = game.clone();
            g.apply(seat, d).expect("legal");
            plan_value(&g, seat)
        };
        let lay = value_after(DecisionOf::Lay {
            card: c(Green, 3),
            pawn: None,
            to: None,
            path: None,
        });
        let discard = value_after(DecisionOf::Discard { card: c(Blue, 4) });
        assert!(lay > discard, "lay {lay}, discard {discard}");
    }
}
