//! `keltis review --calibrate`: what reviews say about players whose strength is known. Bots of
//! known order (random, greedy, strong) play each other; every game is reviewed; a review that
//! tells the truth gives the stronger bot the higher accuracy, the fewer points lost per
//! decision and the fewer marks. One table row per bot of each pairing, with 95% intervals
//! (issue 66; the table in docs/performance.md). A fourth pairing seats the judge itself, playing
//! the choice a review would call best, against the strong bot: a review is only as good as the
//! advice it gives.

use crate::engine::bots::BotKind;
use crate::engine::Variant;
use crate::review::marks::mean_and_spread;
use crate::review::{Effort, Review};

use super::tables::{rows, table, BotRow, GameLine, Seat, SeatFigures};
use super::{mixed_game, mixed_game_within, Player, ReviewToolError, MOST_DECISIONS};

/// A pairing of two players, the weaker first (as far as known); with more than two players the
/// seats alternate.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    pub weaker: (&'static str, Player),
    pub stronger: (&'static str, Player),
}

impl Pairing {
    /// `random-greedy`, `greedy-strong`, `strong-strong`, `strong-judge`.
    pub fn name(&self) -> String {
        format!("{}-{}", self.weaker.0, self.stronger.0)
    }

    /// As the table and the progress lines name it: `random v greedy`.
    pub fn title(&self) -> String {
        format!("{} v {}", self.weaker.0, self.stronger.0)
    }

    /// Each seat's side in the game of `seed` (its bot's name and who plays it), seated by
    /// [`weaker_seated`].
    pub fn sides(&self, players: u8, seed: u64) -> Vec<(&'static str, Player)> {
        (0..players)
            .map(|seat| {
                if weaker_seated(seat, seed) {
                    self.weaker
                } else {
                    self.stronger
                }
            })
            .collect()
    }

    /// The strong bot, where the pairing seats it.
    fn strong_bot(&self) -> Option<BotKind> {
        [self.weaker, self.stronger]
            .into_iter()
            .find_map(|(name, player)| match player {
                Player::Bot(kind) if name == "strong" => Some(kind),
                _ => None,
            })
    }
}

/// The pairings the calibration plays: random against greedy (greedy wins about 99% of such
/// games), greedy against strong, strong against itself, and the strong bot against the judge
/// playing at `effort`.
pub fn pairings(strong: BotKind, effort: Effort) -> [Pairing; 4] {
    let random = ("random", Player::Bot(BotKind::Random));
    let greedy = ("greedy", Player::Bot(BotKind::Greedy));
    let strong = ("strong", Player::Bot(strong));
    [
        Pairing {
            weaker: random,
            stronger: greedy,
        },
        Pairing {
            weaker: greedy,
            stronger: strong,
        },
        Pairing {
            weaker: strong,
            stronger: strong,
        },
        Pairing {
            weaker: strong,
            stronger: ("judge", Player::Judge(effort)),
        },
    ]
}

fn figures(review: &Review, seat: u8) -> SeatFigures {
    let s = &review.summary[usize::from(seat)];
    SeatFigures {
        accuracy: s.accuracy,
        judged: s.judged as f64,
        lost: s.points_lost,
        lost_per_decision: s.points_lost / s.judged.max(1) as f64,
        marks: (s.mistakes + s.blunders) as f64,
        blunders: s.blunders as f64,
        final_margin: s.final_margin,
    }
}

/// Play and review `games` games of `pairing`; the weaker bot's seats alternate with the
/// stronger's, and which comes first alternates from seed to seed ([`weaker_seated`]). A game
/// still running after `most_decisions` is left out and counted. `progress` sees one JSON line a
/// game ([`GameLine`]): a long run stopped early keeps what it found, and runs on other seeds
/// pool exactly.
#[allow(clippy::too_many_arguments)]
pub fn calibrate_pairing(
    pairing: Pairing,
    variant: Variant,
    players: u8,
    games: u64,
    seed: u64,
    effort: Effort,
    most_decisions: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<BotRow>, ReviewToolError> {
    let mut lines = Vec::new();
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let weak_at = |seat: u8| weaker_seated(seat, game_seed);
        let sides = pairing.sides(players, game_seed);
        let kinds: Vec<Player> = sides.iter().map(|side| side.1).collect();
        let mut line = GameLine {
            pairing: pairing.title(),
            seed: game_seed,
            variant: Some(variant),
            players: Some(players),
            judge: Some(effort.judge),
            samples: Some(effort.samples),
            strong: pairing.strong_bot().map(BotKind::name),
            judge_revision: crate::review::JUDGE_REVISION,
            strong_revision: pairing
                .strong_bot()
                .map(|_| crate::engine::bots::strong_revision(variant, players)),
            never_ended: false,
            seats: Vec::new(),
            weaker_below: None,
        };
        // Left out and counted: a review needs a finished game.
        match mixed_game_within(&kinds, variant, line.seed, most_decisions) {
            Err(ReviewToolError::NeverEnded) => line.never_ended = true,
            played => {
                let played = played?;
                let review = crate::review::review(&played.record, effort, line.seed)?;
                line.seats = (0..players)
                    .map(|seat| Seat {
                        bot: sides[usize::from(seat)].0.to_string(),
                        figures: figures(&review, seat),
                        seconds: Some(played.seconds_deciding[usize::from(seat)]),
                    })
                    .collect();
                let accuracy = |weak: bool| -> Vec<f64> {
                    (0..players)
                        .filter(|&s| weak_at(s) == weak)
                        .map(|s| line.seats[usize::from(s)].figures.accuracy)
                        .collect()
                };
                let (weak, strong) = (accuracy(true), accuracy(false));
                line.weaker_below = Some(mean_and_spread(&weak).0 < mean_and_spread(&strong).0);
            }
        }
        progress(&serde_json::to_string(&line)?);
        lines.push(line);
    }
    Ok(rows(pairing.weaker.0, pairing.stronger.0, &lines))
}

/// The calibration game of `pairing` on `seed`, recorded as [`calibrate_pairing`] plays it: to
/// read its review decision by decision (`keltis review --pairings strong-strong --seed 401`).
pub fn pairing_game(
    pairing: Pairing,
    variant: Variant,
    players: u8,
    seed: u64,
) -> Result<crate::engine::Record, ReviewToolError> {
    let kinds: Vec<Player> = pairing.sides(players, seed).iter().map(|s| s.1).collect();
    mixed_game(&kinds, variant, seed)
}

/// Whether the weaker bot sits at `seat` in the calibration game of `seed`: seat 0 in odd-seeded
/// games, every other seat from there. Decided by the game's seed alone, not by its place in a
/// run, so that a seed names one game whichever run played it (runs on other seeds pool, and
/// judges compared on the same seeds compare the same games). Until December 2026 it was the
/// place in the run, which agrees for runs started on an odd seed only.
pub fn weaker_seated(seat: u8, seed: u64) -> bool {
    !(u64::from(seat) + seed).is_multiple_of(2)
}

/// The pairings of [`pairings`] that `only` takes (by [`Pairing::name`]), played, reviewed and
/// tabled; `progress` sees the table as it grows (a run of 200 games a pairing takes hours).
#[allow(clippy::too_many_arguments)]
pub fn run(
    strong: BotKind,
    variant: Variant,
    players: u8,
    games: u64,
    seed: u64,
    effort: Effort,
    only: impl Fn(&str) -> bool,
    mut progress: impl FnMut(&str),
) -> Result<String, ReviewToolError> {
    let mut rows = Vec::new();
    for pairing in pairings(strong, effort) {
        if !only(&pairing.name()) {
            continue;
        }
        rows.extend(calibrate_pairing(
            pairing,
            variant,
            players,
            games,
            seed,
            effort,
            MOST_DECISIONS,
            &mut progress,
        )?);
        progress(&table(variant, players, games, &rows));
    }
    Ok(table(variant, players, games, &rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Judge;

    /// A game that never ends is left out of the figures and counted in the table, and the
    /// share of games with the weaker below is of those reviewed.
    #[test]
    fn a_game_that_never_ends_is_left_out_and_counted() {
        let effort = Effort {
            samples: 2,
            exact_nodes: 0,
            judge: Judge::Quick,
        };
        let [random_greedy, ..] = pairings(BotKind::Greedy, effort);
        let mut lines = Vec::new();
        // No game of Keltis Card ends within ten decisions: both are stopped.
        let rows = calibrate_pairing(
            random_greedy,
            Variant::KeltisCard,
            2,
            2,
            1,
            effort,
            10,
            &mut |line| lines.push(line.to_string()),
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert!(
            rows.iter().all(|r| r.never_ended == 2 && r.seats == 0),
            "{rows:?}"
        );
        let table = table(Variant::KeltisCard, 2, 2, &rows);
        let random_row = table.lines().nth(4).unwrap();
        assert!(
            random_row.starts_with("| random v greedy | random | 0 |"),
            "{table}"
        );
        assert!(random_row.ends_with("| 2 |  |"), "{table}");
        assert_eq!(lines.len(), 2, "a progress line a game: {lines:?}");
        assert!(
            lines.iter().all(|l| l.contains(r#""never_ended":true"#)),
            "{lines:?}"
        );
        // Within a bot game's limit both end and are reviewed.
        let rows = calibrate_pairing(
            random_greedy,
            Variant::KeltisCard,
            2,
            2,
            1,
            effort,
            MOST_DECISIONS,
            &mut |line| lines.push(line.to_string()),
        )
        .unwrap();
        assert!(
            rows.iter().all(|r| r.never_ended == 0 && r.seats == 2),
            "{rows:?}"
        );
        // Each reviewed game's line names its seats' bots and figures.
        let game: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
        let bots: Vec<&str> = (0..2)
            .filter_map(|s| game["seats"][s]["bot"].as_str())
            .collect();
        assert_eq!(bots, ["random", "greedy"], "{game}");
        assert!(
            game["seats"][0]["figures"]["accuracy"].is_number(),
            "{game}"
        );
        // And the seconds each seat's bot spent deciding, for the judge's equal time.
        assert!(
            (0..2).all(|s| game["seats"][s]["seconds"]
                .as_f64()
                .is_some_and(|t| t >= 0.0)),
            "{game}"
        );
    }

    /// A seed names one game, whichever run plays it: the game of seed 2 played second in a run
    /// from seed 1 and first in a run from seed 2 seats the same bots and is reviewed the same
    /// (before, the seats followed the place in the run, and the two were different games).
    #[test]
    fn a_seed_names_one_game_whichever_run_plays_it() {
        let effort = Effort {
            samples: 2,
            exact_nodes: 0,
            judge: Judge::Quick,
        };
        let [random_greedy, ..] = pairings(BotKind::Greedy, effort);
        let games_of = |seed: u64, games: u64| -> Vec<serde_json::Value> {
            let mut lines = Vec::new();
            calibrate_pairing(
                random_greedy,
                Variant::KeltisCard,
                2,
                games,
                seed,
                effort,
                MOST_DECISIONS,
                &mut |line| lines.push(serde_json::from_str(line).unwrap()),
            )
            .unwrap();
            lines
        };
        let (from_one, from_two) = (games_of(1, 2), games_of(2, 1));
        let seats = |game: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
            (0..2)
                .map(|s| {
                    let seat = &game["seats"][s];
                    (seat["bot"].clone(), seat["figures"].clone())
                })
                .collect()
        };
        assert_eq!(from_one[1]["seed"], 2);
        assert_eq!(from_two[0]["seed"], 2);
        assert_eq!(seats(&from_one[1]), seats(&from_two[0]));
        // Seat 0 is the weaker's in odd-seeded games, as in every run begun on an odd seed before.
        assert_eq!(from_one[0]["seats"][0]["bot"], "random");
        assert_eq!(from_two[0]["seats"][0]["bot"], "greedy");
        // `pairing_game` plays that game alone; reviewed on its seed it is reviewed the same
        // (`keltis review --pairings random-greedy --seed 2` reads it decision by decision).
        let record = pairing_game(random_greedy, Variant::KeltisCard, 2, 2).unwrap();
        let review = crate::review::review(&record, effort, 2).unwrap();
        for seat in 0..2u8 {
            let found = serde_json::to_value(figures(&review, seat)).unwrap();
            assert_eq!(found, from_two[0]["seats"][usize::from(seat)]["figures"]);
        }
    }
}
