//! How much plans for the next turn shorten a correspondence game (issue 69), simulated with the
//! engine: two players who each look at their games once a day, at an hour drawn anew each day,
//! and play every turn they find there (the same `bot-greedy` for both). With plans, a player
//! who ends a turn leaves the next one as a plan: what the bot would play on the turn as it would
//! begin (`Game::next_turn_of`), with `piles_unchanged` where it takes from a discard pile. When
//! the turn begins the plan is played if `engine::planning::check` allows it (as the server
//! does), and the other player, still looking, finds their turn again at once. A game's length is
//! the days from its start to its last move.
//!
//! `cargo bench --bench plans` simulates 300 games per variant (two players) and prints the table
//! in docs/performance.md ("Plans for the next turn"); under `cargo test` it plays four games a
//! variant, to check that it runs.

use keltis::engine::bots::{Bot, BotKind};
use keltis::engine::planning::{check, rehearse, Condition, Seen};
use keltis::engine::setup::SeedRng;
use keltis::engine::{Decision, DecisionOf, Game, Variant};

/// A plan left for a seat's next turn.
struct Plan {
    steps: Vec<Decision>,
    conditions: Vec<Condition>,
    seen: Seen,
}

/// What one simulated game came to.
struct Finished {
    days: f64,
    turns: u32,
    planned: u32,
    played_by_plan: u32,
}

/// The bot's whole turn for `seat` on `game` (which is at that turn's start), as decisions.
fn bot_turn(bot: &mut Bot, game: &Game, seat: u8) -> Vec<Decision> {
    let mut g = game.clone();
    let mut steps = Vec::new();
    while g.to_act() == Some(seat) && steps.len() < 8 {
        let d = match bot.decide(&g.view(Some(seat))) {
            Ok(d) => d,
            Err(_) => g.legal_decisions()[0],
        };
        if g.apply(seat, d).is_err() {
            break;
        }
        steps.push(d);
    }
    steps
}

/// The plan the bot leaves for `seat`'s next turn, if that turn can be planned.
fn leave_plan(bot: &mut Bot, game: &Game, seat: u8) -> Option<Plan> {
    let next = game.next_turn_of(seat)?;
    let steps = bot_turn(bot, &next, seat);
    let (_, seen) = rehearse(&next, seat, &steps).ok()?;
    let conditions = if steps
        .iter()
        .any(|d| matches!(d, DecisionOf::DrawPile { .. }))
    {
        vec![Condition::PilesUnchanged]
    } else {
        Vec::new()
    };
    Some(Plan {
        steps,
        conditions,
        seen,
    })
}

fn simulate(variant: Variant, seed: u64, with_plans: bool) -> Finished {
    let mut game = Game::new(variant, 2, seed).expect("a two-player game");
    let mut rng = SeedRng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut bots = [
        Bot::new(BotKind::Greedy, seed.wrapping_mul(3)),
        Bot::new(BotKind::Greedy, seed.wrapping_mul(5)),
    ];
    let mut plans: [Option<Plan>; 2] = [None, None];
    let (mut turns, mut planned, mut played_by_plan) = (0u32, 0u32, 0u32);
    let mut last_move = 0.0;
    for day in 0..10_000u32 {
        let hours = [rng.below(24 * 60), rng.below(24 * 60)];
        let order: [u8; 2] = if hours[0] <= hours[1] { [0, 1] } else { [1, 0] };
        for looker in order {
            let at = f64::from(day) + hours[looker as usize] as f64 / (24.0 * 60.0);
            // Every turn the looker finds; a plan is played as its turn begins, whoever's.
            while let Some(seat) = game.to_act() {
                if let Some(plan) = plans[seat as usize].take() {
                    if check(&game, seat, &plan.steps, &plan.conditions, &plan.seen).is_ok() {
                        for &d in &plan.steps {
                            game.apply(seat, d).expect("a checked plan plays");
                        }
                        turns += 1;
                        played_by_plan += 1;
                        last_move = at;
                        continue;
                    }
                }
                if seat != looker {
                    break;
                }
                for d in bot_turn(&mut bots[looker as usize], &game, looker) {
                    game.apply(looker, d)
                        .expect("the bot's decisions are legal");
                }
                turns += 1;
                last_move = at;
                if with_plans && !game.is_over() {
                    plans[looker as usize] = leave_plan(&mut bots[looker as usize], &game, looker);
                    planned += u32::from(plans[looker as usize].is_some());
                }
            }
            if game.is_over() {
                return Finished {
                    days: last_move,
                    turns,
                    planned,
                    played_by_plan,
                };
            }
        }
    }
    panic!("a game that never ended");
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let games: u64 = if full { 300 } else { 4 };
    println!(
        "| variant | games | median days, no plans | median days, plans | fewer days | turns played by plan | plans not played (dropped, or waiting at the end) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for variant in [Variant::KeltisCard, Variant::Keltis, Variant::NeueWege] {
        let without: Vec<Finished> = (0..games).map(|s| simulate(variant, s, false)).collect();
        let with: Vec<Finished> = (0..games).map(|s| simulate(variant, s, true)).collect();
        let days = |fs: &[Finished]| median(fs.iter().map(|f| f.days).collect());
        let (before, after) = (days(&without), days(&with));
        let turns: u32 = with.iter().map(|f| f.turns).sum();
        let by_plan: u32 = with.iter().map(|f| f.played_by_plan).sum();
        let planned: u32 = with.iter().map(|f| f.planned).sum();
        println!(
            "| {} | {games} | {before:.1} | {after:.1} | {:.0}% | {:.0}% | {:.0}% |",
            variant.name(),
            100.0 * (1.0 - after / before),
            100.0 * f64::from(by_plan) / f64::from(turns.max(1)),
            100.0 * f64::from(planned.saturating_sub(by_plan)) / f64::from(planned.max(1)),
        );
        assert!(after < before, "{variant:?}: plans made games longer");
    }
}
