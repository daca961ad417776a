//! Property tests of the rules engine over random seeds and random legal play, for every variant
//! and player count. Each case plays one whole game and checks every invariant at every step.

use std::collections::HashMap;

use keltis::engine::game::Phase;
use keltis::engine::setup::SeedRng;
use keltis::engine::{
    Card, Color, Decision, DecisionOf as D, EndReason, Game, Record, Setup, Variant, View,
};
use proptest::prelude::*;

const CONFIGS: [(Variant, u8); 7] = [
    (Variant::Keltis, 2),
    (Variant::Keltis, 3),
    (Variant::Keltis, 4),
    (Variant::NeueWege, 2),
    (Variant::NeueWege, 3),
    (Variant::NeueWege, 4),
    (Variant::KeltisCard, 2),
];

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

/// A random decision of any type, fully named (as `legal_decisions` names them).
fn random_decision(rng: &mut SeedRng, variant: Variant) -> Decision {
    let color = |rng: &mut SeedRng| Color::ALL[rng.below(6) as usize];
    let card = |rng: &mut SeedRng| {
        let c = Color::ALL[rng.below(6) as usize];
        if c != Color::Gray && rng.below(12) == 11 {
            Card::end(c)
        } else {
            Card::number(c, rng.below(11) as u8)
        }
    };
    match rng.below(10) {
        0..=2 => {
            let card = card(rng);
            if variant == Variant::KeltisCard {
                D::Lay {
                    card,
                    pawn: None,
                    to: None,
                    path: Some(color(rng)),
                }
            } else {
                D::Lay {
                    card,
                    pawn: Some(rng.below(6) as u8),
                    to: Some(rng.below(50) as u8),
                    path: None,
                }
            }
        }
        3 => D::Discard { card: card(rng) },
        4 => D::Step {
            pawn: rng.below(6) as u8,
            to: rng.below(50) as u8,
        },
        5 => [D::Skip, D::Pass, D::DrawDeck][rng.below(3) as usize],
        6 => D::DrawPile { color: color(rng) },
        7 => D::DiscardFromHand { card: card(rng) },
        8 => D::DiscardFromRow { color: color(rng) },
        _ => D::TakeStone {
            cards: [card(rng), card(rng)],
        },
    }
}

/// Reference layouts, read independently of the engine's loader: space id -> (row, value, colour).
fn layout(variant: Variant) -> HashMap<String, (u64, i64, String)> {
    let file = match variant {
        Variant::Keltis => "keltis-base.json",
        Variant::NeueWege => "neue-wege.json",
        Variant::KeltisCard => return HashMap::new(),
    };
    let path = format!(
        "{}/../shared/rules/boards/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                (
                    s["row"].as_u64().unwrap(),
                    s["value"].as_i64().unwrap(),
                    s["color"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect()
}

/// B8, X8, C10 recounted from the spectator view, with the tables typed again from RULES.md.
fn recount(view: &View, spaces: &HashMap<String, (u64, i64, String)>) -> Vec<i64> {
    view.seats
        .iter()
        .map(|seat| match view.variant {
            Variant::KeltisCard => {
                let path_table = [0, -4, -3, -2, 1, 2, 3, 6, 7, 10];
                let stone_table = [-4, -1, 0, 4, 6, 10];
                let mut total = 0;
                for row in &seat.rows {
                    if row.color == Color::Gray {
                        total += row.cards.len() as i64;
                    } else {
                        total += path_table[row.cards.len().min(9)];
                    }
                }
                let stones = view
                    .stones
                    .as_ref()
                    .unwrap()
                    .iter()
                    .filter(|s| s.taken_by == Some(seat.seat))
                    .count();
                total + stone_table[stones.min(5)]
            }
            variant => {
                let mut total = seat.tile_points as i64;
                for pawn in &seat.pawns {
                    if let Some(id) = &pawn.space {
                        let value = spaces[id].1;
                        total += if pawn.big { 2 * value } else { value };
                    }
                }
                if variant == Variant::Keltis {
                    let table = [-4, -3, 2, 3, 6, 10];
                    total + table[(seat.wish_stones[0].count as usize).min(5)]
                } else {
                    let table = [-4, -3, -2, 3, 6, 10];
                    let colours = seat.wish_stones.iter().filter(|h| h.count > 0).count();
                    let triples = seat.wish_stones.iter().filter(|h| h.count >= 3).count();
                    total + table[colours] + 10 * triples as i64
                }
            }
        })
        .collect()
}

/// K5 on a row as the view shows it: number values never turn back.
fn row_is_ordered(cards: &[Card]) -> bool {
    let values: Vec<u8> = cards.iter().filter_map(|c| c.value()).collect();
    values.windows(2).all(|w| w[0] <= w[1]) || values.windows(2).all(|w| w[0] >= w[1])
}

fn play_and_check(variant: Variant, players: u8, seed: u64) {
    let spaces = layout(variant);
    let setup = Setup::deal(variant, players, seed).unwrap();
    let mut game = Game::from_setup(&setup).unwrap();
    let mut record = Record::new(setup);
    let all_cards = sorted(game.all_cards());
    let mut rng = SeedRng::new(seed ^ 0xA11CE);
    let mut pawn_rows: HashMap<(u8, u8), u64> = HashMap::new();
    let mut steps = 0;
    while let Some(seat) = game.to_act() {
        steps += 1;
        assert!(steps < 5000, "the game ends");
        let view = game.view(None);
        // Cards are conserved.
        assert_eq!(sorted(game.all_cards()), all_cards);
        // Hands hold 8 between turns: everyone but the turn's player always, and the turn's
        // player when it starts.
        if !matches!(game.phase(), Phase::FinalPlay { .. }) {
            for s in &view.seats {
                if s.seat != view.turn_player || game.phase() == Phase::Play {
                    assert_eq!(s.hand_size, 8, "seat {} in {:?}", s.seat, game.phase());
                }
            }
        }
        // Every row obeys K5 (the gray path takes any order, C4).
        for s in &view.seats {
            for row in s.rows.iter().filter(|r| r.color != Color::Gray) {
                assert!(row_is_ordered(&row.cards), "{:?}", row.cards);
            }
        }
        if variant != Variant::KeltisCard {
            // Not over yet: fewer than 5 pawns in the goal zone, and cards left to draw (K9).
            assert!(view.board.as_ref().unwrap().goal_pawns < 5);
            assert!(view.draw_pile_size > 0);
            for s in &view.seats {
                let mut colours = Vec::new();
                for p in &s.pawns {
                    // Pawns only move forward.
                    let row = p.space.as_ref().map_or(0, |id| spaces[id].0);
                    let before = pawn_rows.insert((s.seat, p.pawn), row).unwrap_or(0);
                    assert!(row >= before, "pawn moved back");
                    if let Some(id) = &p.space {
                        colours.push(spaces[id].2.clone());
                    }
                }
                if variant == Variant::Keltis {
                    // B4: at most one pawn per path and player.
                    let n = colours.len();
                    colours.sort();
                    colours.dedup();
                    assert_eq!(colours.len(), n, "two pawns on one path");
                }
            }
        } else if !matches!(game.phase(), Phase::FinalPlay { .. }) {
            assert!(view.draw_pile_size > 0);
            let terminated = view
                .seats
                .iter()
                .flat_map(|s| &s.rows)
                .filter(|r| r.cards.iter().any(|c| c.is_end()))
                .count();
            assert!(
                terminated < 5,
                "C9: five terminated paths start the final phase"
            );
        }

        let legal = game.legal_decisions();
        assert!(!legal.is_empty(), "someone to act always has a decision");
        // Every listed decision applies.
        for d in &legal {
            let mut g = game.clone();
            g.apply(seat, *d)
                .unwrap_or_else(|e| panic!("listed {d:?} refused: {e}"));
        }
        // Random decisions: accepted exactly when listed; refused ones change nothing.
        for _ in 0..8 {
            let d = random_decision(&mut rng, variant);
            let mut g = game.clone();
            let outcome = g.apply(seat, d);
            if legal.contains(&d.normalized()) {
                assert!(outcome.is_ok(), "{d:?}");
            } else {
                assert!(outcome.is_err(), "unlisted {d:?} accepted");
                assert_eq!(g, game, "refused {d:?} changed the game");
            }
        }
        // Another seat's decision is refused.
        let other = (seat + 1) % players;
        let mut g = game.clone();
        assert!(g.apply(other, legal[0]).is_err());
        assert_eq!(g, game);

        // A snapshot restores the identical state.
        assert_eq!(Game::from_snapshot(&game.to_snapshot()).unwrap(), game);
        let d = legal[rng.below(legal.len() as u64) as usize];
        game.apply(seat, d).unwrap();
        record.push(&game, seat, d);
    }

    // The game ended exactly for its reason.
    let view = game.view(None);
    let result = game.result().expect("a finished game has a result");
    match result.end_reason {
        EndReason::GoalZoneFull => assert_eq!(view.board.as_ref().unwrap().goal_pawns, 5),
        EndReason::DrawPileExhausted => assert_eq!(view.draw_pile_size, 0),
        EndReason::PathsTerminated => assert!(variant == Variant::KeltisCard),
        EndReason::Resigned { .. } | EndReason::TimedOut { .. } => panic!("nobody left"),
    }
    if variant != Variant::KeltisCard && result.end_reason == EndReason::DrawPileExhausted {
        assert!(view.board.as_ref().unwrap().goal_pawns < 5);
    }
    // The final score equals an independent recount.
    let totals: Vec<i64> = result.scores.iter().map(|s| s.total as i64).collect();
    assert_eq!(totals, recount(&view, &spaces));
    let best = totals.iter().max().unwrap();
    let winners: Vec<u8> = (0..players)
        .filter(|s| totals[*s as usize] == *best)
        .collect();
    assert_eq!(result.winners, winners);
    // The record replays to the identical state, also after a trip through JSON.
    assert_eq!(record.replay().unwrap(), game);
    let json = serde_json::to_string(&record).unwrap();
    let back: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(back.replay().unwrap(), game);
    assert_eq!(back.result, Some(result));
}

/// Random games of 3 or 4 where seats resign or time out at random moments: the game goes on
/// while two seats are left, a seat that left cannot act for itself again yet keeps its turns,
/// never wins and ranks below every seat still in; the record replays.
fn play_with_leavers(variant: Variant, players: u8, seed: u64) {
    let mut rng = SeedRng::new(seed ^ 0x5eed);
    let mut game = Game::new(variant, players, seed).unwrap();
    let setup = Setup::deal(variant, players, seed).unwrap();
    let mut record = Record::new(setup);
    let mut left = 0;
    for _ in 0..20_000 {
        let Some(seat) = game.to_act() else { break };
        if rng.below(150) == 0 {
            let who = rng.below(players as u64) as u8;
            let d = if rng.below(2) == 0 {
                D::Resign
            } else {
                D::TimeOut
            };
            let was_out = game.retired(who).is_some();
            let outcome = game.apply(who, d);
            assert_eq!(outcome.is_err(), was_out, "{d:?} by {who}");
            if outcome.is_ok() {
                left += 1;
                record.push(&game, who, d);
                if (players as usize) - left < 2 {
                    assert!(game.is_over(), "fewer than two left: the game ends");
                    break;
                }
                assert!(!game.is_over(), "two or more left: the game goes on");
            }
            continue;
        }
        let legal = game.legal_decisions();
        let d = legal[rng.below(legal.len() as u64) as usize];
        game.apply(seat, d).unwrap();
        record.push(&game, seat, d);
    }
    let Some(result) = game.result() else { return };
    let out: Vec<u8> = (0..players)
        .filter(|s| game.retired(*s).is_some())
        .collect();
    assert!(result.winners.iter().all(|w| !out.contains(w)));
    let ranked_out = &result.ranking[result.ranking.len() - out.len()..];
    let mut sorted = ranked_out.to_vec();
    sorted.sort();
    assert_eq!(sorted, out, "those who left rank last");
    assert_eq!(record.replay().unwrap(), game);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn seats_that_leave_play_on_and_rank_last(seed in any::<u64>(), four in any::<bool>(), card in 0..3u8) {
        let variant = [Variant::Keltis, Variant::NeueWege, Variant::Keltis][card as usize];
        play_with_leavers(variant, if four { 4 } else { 3 }, seed);
    }

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>(), config in 0..CONFIGS.len()) {
        let (variant, players) = CONFIGS[config];
        play_and_check(variant, players, seed);
    }
}

#[test]
fn every_variant_and_player_count_keeps_every_invariant() {
    for (variant, players) in CONFIGS {
        for seed in 0..24 {
            play_and_check(variant, players, seed);
        }
    }
}

#[test]
fn same_seed_and_decisions_give_the_same_game() {
    for (variant, players) in CONFIGS {
        let run = || {
            let mut g = Game::new(variant, players, 99).unwrap();
            let mut rng = SeedRng::new(5);
            while let Some(seat) = g.to_act() {
                let legal = g.legal_decisions();
                g.apply(seat, legal[rng.below(legal.len() as u64) as usize])
                    .unwrap();
            }
            g
        };
        assert_eq!(run(), run());
    }
}
