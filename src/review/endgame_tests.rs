//! The solver against enumeration: every order the draw pile could give, every choice of every
//! seat, no table, written apart from the solver on purpose. End positions of every variant and
//! player count, taken from games between greedy bots.

use super::*;
use crate::engine::record::Record;
use crate::engine::Variant;

/// Enumeration stops past this many positions (the position is then left unchecked): Keltis
/// Card's final plays fit; a board game's end does not, whatever the limit (its lines can go on
/// through the discard piles), so a small one spares the time.
fn enumeration_limit(variant: Variant) -> u64 {
    if variant == Variant::KeltisCard {
        100_000
    } else {
        5_000
    }
}

fn greedy_game(variant: Variant, players: u8, seed: u64) -> Record {
    crate::review_tool::greedy_game(variant, players, seed).unwrap()
}

/// Each seat's expected margin and winning chance, every seat choosing its best expected
/// margin (equal: the first listed) among the choices that do not bring the line back to a
/// position on it, every card of the pile drawn next with the same chance. `Ok(None)`: every
/// choice comes back; `Err(())`: past the limit. `line`: the games on the line so far.
fn enumerate(game: &Game, line: &mut Vec<Game>, visited: &mut u64) -> Result<Option<Vec<f64>>, ()> {
    *visited += 1;
    if *visited > enumeration_limit(game.variant()) || line.len() >= LONGEST_LINE {
        return Err(());
    }
    let Some(actor) = game.to_act() else {
        return Ok(Some(Worth::of_finished(game).0.to_vec()));
    };
    if line.iter().any(|g| same_position(g, game)) {
        return Ok(None);
    }
    line.push(game.clone());
    let value = enumerate_choices(game, actor, line, visited);
    line.pop();
    value
}

/// The same position, read from the games' snapshots: equal once the draw piles are sorted (their
/// order is chance's), leaving out what players know of hands, the removed cards and the end.
fn same_position(a: &Game, b: &Game) -> bool {
    let position = |g: &Game| {
        let mut v = serde_json::to_value(g).unwrap();
        let o = v.as_object_mut().unwrap();
        for k in ["known_in_hand", "removed", "end"] {
            o.remove(k);
        }
        if let Some(pile) = o.get_mut("draw_pile").and_then(|p| p.as_array_mut()) {
            pile.sort_by_key(|c| c.to_string());
        }
        v
    };
    position(a) == position(b)
}

fn enumerate_choices(
    game: &Game,
    actor: u8,
    line: &mut Vec<Game>,
    visited: &mut u64,
) -> Result<Option<Vec<f64>>, ()> {
    let mut best: Option<Vec<f64>> = None;
    for d in game.legal_decisions() {
        let value = if matches!(d, DecisionOf::DrawDeck) {
            // Each position of the pile brought to the top in turn: duplicates counted apart.
            let pile = game.draw_pile_cards().to_vec();
            let mut sum = vec![0.0; 2 * game.players() as usize];
            for &card in &pile {
                let mut g = game.clone();
                assert!(g.set_next_draw(card));
                g.apply(actor, d).unwrap();
                let v = enumerate(&g, line, visited)?.expect("a draw reaches a new position");
                for (s, x) in sum.iter_mut().zip(&v) {
                    *s += x / pile.len() as f64;
                }
            }
            sum
        } else {
            let mut g = game.clone();
            g.apply(actor, d).unwrap();
            match enumerate(&g, line, visited)? {
                Some(v) => v,
                None => continue,
            }
        };
        if best
            .as_ref()
            .is_none_or(|b| value[actor as usize] > b[actor as usize])
        {
            best = Some(value);
        }
    }
    Ok(best)
}

/// Going back from the end of `record`, the positions with a choice whose every line enumeration
/// can follow (each with its count of positions visited), up to the first it cannot: the
/// earliest of them has the largest tree.
fn enumerable_end(record: &Record) -> Vec<(Game, u64, Vec<f64>)> {
    let mut found = Vec::new();
    for i in (0..record.decisions.len()).rev() {
        let game = record.replay_to(i).unwrap();
        if game.legal_decisions().len() < 2 {
            continue;
        }
        let mut visited = 0;
        let Ok(value) = enumerate(&game, &mut Vec::new(), &mut visited) else {
            break;
        };
        found.push((game, visited, value.expect("a choice that goes somewhere")));
    }
    found
}

/// Where enumeration can follow every line, the solver finds the same worth for every seat, from
/// the last decisions of each game back to the largest tree enumeration follows. In Keltis Card
/// that is its final plays (C9: no draw is left, no card comes back); in the board games a seat
/// can nearly always go on by drawing from a discard pile, so the positions found are few (the
/// test says how many, and checks every one).
#[test]
fn the_solver_agrees_with_enumerating_every_draw_and_choice() {
    for (variant, players) in [
        (Variant::Keltis, 2),
        (Variant::Keltis, 3),
        (Variant::Keltis, 4),
        (Variant::NeueWege, 2),
        (Variant::NeueWege, 3),
        (Variant::NeueWege, 4),
        (Variant::KeltisCard, 2),
    ] {
        let (mut checked, mut largest) = (0, 0);
        let seeds = if variant == Variant::KeltisCard { 3 } else { 1 };
        for seed in 0..seeds {
            let record = greedy_game(variant, players, seed);
            for (game, visited, expected) in enumerable_end(&record) {
                let worth = Solver::new(u32::MAX)
                    .solve(&game)
                    .expect("no budget to run out");
                for (s, (got, want)) in worth.0.iter().zip(&expected).enumerate() {
                    assert!(
                        (got - want).abs() < 1e-9,
                        "{variant} {players} seed {seed}: value {s}: {got} against {want}"
                    );
                }
                checked += 1;
                largest = largest.max(visited);
            }
        }
        eprintln!(
            "{variant} with {players}: {checked} positions, the largest {largest} enumerated"
        );
        if variant == Variant::KeltisCard {
            assert!(
                checked >= 4 && largest > 20,
                "{checked} positions, {largest}"
            );
        }
    }
}

/// The table spares the search what it met before: the same position solved again expands
/// nothing; and a search past its budget says so rather than guess.
#[test]
fn positions_met_again_cost_nothing_and_a_spent_budget_says_so() {
    // Keltis Card's final plays, all four left.
    let record = greedy_game(Variant::KeltisCard, 2, 4);
    let game = (0..record.decisions.len())
        .map(|i| record.replay_to(i).unwrap())
        .find(|g| g.phase() == (crate::engine::Phase::FinalPlay { left: 4 }))
        .expect("final plays");
    let mut solver = Solver::new(u32::MAX);
    let first = solver.solve(&game).unwrap();
    let spent = u32::MAX - solver.left;
    assert!(spent > 1, "{spent} positions");
    assert_eq!(solver.solve(&game), Some(first));
    assert_eq!(u32::MAX - solver.left, spent, "nothing expanded again");
    assert_eq!(Solver::new(spent - 1).solve(&game), None);
    assert!(Solver::new(spent).solve(&game).is_some());
}
