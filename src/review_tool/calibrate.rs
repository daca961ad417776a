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
use crate::review::{Effort, Judge, Review};

use super::{mixed_game_within, Player, ReviewToolError, MOST_DECISIONS};

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

/// What one seat's review said (each game's, on the progress lines).
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SeatFigures {
    pub accuracy: f64,
    pub judged: f64,
    pub lost: f64,
    pub lost_per_decision: f64,
    pub marks: f64,
    pub blunders: f64,
    pub final_margin: f64,
}

/// One seat of a calibration game: which bot played it and what its review said.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Seat {
    pub bot: String,
    pub figures: SeatFigures,
}

/// One calibration game, as its progress line gives it: what was played and judged, and each
/// seat's figures, or that it never ended. Lines of runs on other seeds pool exactly
/// ([`pool`]); lines written before the run named its variant, players and judge lack them.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GameLine {
    pub pairing: String,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<Judge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
    /// The strong bot (`rollout:32i`), where the pairing seats it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strong: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub never_ended: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Seat>,
    /// The weaker bot's accuracy (the mean of its seats') below the stronger's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weaker_below: Option<bool>,
}

/// Figures of one bot in one pairing: each a mean with the half-width of its 95% interval.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BotRow {
    pub pairing: String,
    pub bot: String,
    pub seats: usize,
    pub accuracy: (f64, f64),
    /// Decisions judged (with a choice) in a game.
    pub judged_per_game: (f64, f64),
    pub points_lost_per_game: (f64, f64),
    pub points_lost_per_decision: (f64, f64),
    /// Mistakes and blunders in a game.
    pub marks_per_game: (f64, f64),
    pub blunders_per_game: (f64, f64),
    pub final_margin: (f64, f64),
    /// The share of its seats that won.
    pub won: f64,
    /// The share of the reviewed games in which this bot's accuracy was below the other's (the
    /// weaker's row only).
    pub below_the_other: Option<f64>,
    /// The pairing's games left out because they never ended ([`super::MOST_DECISIONS`]).
    pub never_ended: u64,
}

fn interval(values: &[f64]) -> (f64, f64) {
    let (mean, spread) = mean_and_spread(values);
    let half = 1.96 * spread / (values.len().max(1) as f64).sqrt();
    (
        (mean * 100.0).round() / 100.0,
        (half * 100.0).round() / 100.0,
    )
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
/// stronger's, and which comes first alternates from game to game. A game still running after
/// `most_decisions` is left out and counted. `progress` sees one JSON line a game
/// ([`GameLine`]): a long run stopped early keeps what it found, and runs on other seeds pool
/// exactly.
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
        let weak_at = |seat: u8| (u64::from(seat) + g) % 2 == 0;
        let kinds: Vec<Player> = (0..players)
            .map(|s| {
                if weak_at(s) {
                    pairing.weaker.1
                } else {
                    pairing.stronger.1
                }
            })
            .collect();
        let mut line = GameLine {
            pairing: pairing.title(),
            seed: seed.wrapping_add(g),
            variant: Some(variant),
            players: Some(players),
            judge: Some(effort.judge),
            samples: Some(effort.samples),
            strong: pairing.strong_bot().map(BotKind::name),
            never_ended: false,
            seats: Vec::new(),
            weaker_below: None,
        };
        // Left out and counted: a review needs a finished game.
        match mixed_game_within(&kinds, variant, line.seed, most_decisions) {
            Err(ReviewToolError::NeverEnded) => line.never_ended = true,
            played => {
                let review = crate::review::review(&played?, effort, line.seed)?;
                let bot = |seat| {
                    if weak_at(seat) {
                        pairing.weaker.0
                    } else {
                        pairing.stronger.0
                    }
                };
                line.seats = (0..players)
                    .map(|seat| Seat {
                        bot: bot(seat).to_string(),
                        figures: figures(&review, seat),
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

/// The rows of one pairing's games: the weaker bot's, then the stronger's (one row where both
/// are the same bot).
fn rows(weaker_bot: &str, stronger_bot: &str, lines: &[GameLine]) -> Vec<BotRow> {
    let name = lines.first().map_or(String::new(), |l| l.pairing.clone());
    let never_ended = lines.iter().filter(|l| l.never_ended).count() as u64;
    let reviewed = lines.iter().filter(|l| !l.never_ended);
    let below = reviewed
        .clone()
        .filter(|l| l.weaker_below == Some(true))
        .count();
    let of_bot = |bot: &str| -> Vec<SeatFigures> {
        reviewed
            .clone()
            .flat_map(|l| &l.seats)
            .filter(|s| s.bot == bot)
            .map(|s| s.figures)
            .collect()
    };
    let row = |bot: &str, seats: &[SeatFigures], below: Option<f64>| {
        let of = |f: fn(&SeatFigures) -> f64| interval(&seats.iter().map(f).collect::<Vec<_>>());
        BotRow {
            pairing: name.clone(),
            bot: bot.to_string(),
            seats: seats.len(),
            accuracy: of(|f| f.accuracy),
            judged_per_game: of(|f| f.judged),
            points_lost_per_game: of(|f| f.lost),
            points_lost_per_decision: of(|f| f.lost_per_decision),
            marks_per_game: of(|f| f.marks),
            blunders_per_game: of(|f| f.blunders),
            final_margin: of(|f| f.final_margin),
            won: seats.iter().filter(|f| f.final_margin > 0.0).count() as f64
                / seats.len().max(1) as f64,
            below_the_other: below,
            never_ended,
        }
    };
    if weaker_bot == stronger_bot {
        return vec![row(weaker_bot, &of_bot(weaker_bot), None)];
    }
    let games = lines.len() as u64 - never_ended;
    vec![
        row(
            weaker_bot,
            &of_bot(weaker_bot),
            Some(below as f64 / games.max(1) as f64),
        ),
        row(stronger_bot, &of_bot(stronger_bot), None),
    ]
}

/// The table of calibration games from their progress lines (`keltis review --pool`), for one
/// variant, player count, judge and strong bot: runs on other seeds, on other machines or
/// sessions, pooled into the 200 games a pairing the issue asks. A game given twice (the same
/// pairing and seed) counts once; a game of another variant, player count, judge, samples or
/// strong bot is refused (`assume` stands for what a line does not say: lines written before they said it).
pub fn pool(lines: &[GameLine], assume: Pooled) -> Result<String, ReviewToolError> {
    let mut by_pairing: Vec<(String, Vec<GameLine>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for line in lines {
        let of_line = Pooled {
            variant: line.variant.unwrap_or(assume.variant),
            players: line.players.unwrap_or(assume.players),
            judge: line.judge.unwrap_or(assume.judge),
            samples: line.samples.unwrap_or(assume.samples),
            strong: match &line.strong {
                Some(name) => BotKind::parse(name)
                    .ok_or_else(|| ReviewToolError::Pool(format!("{name:?} is not a bot")))?,
                None => assume.strong,
            },
        };
        if of_line != assume {
            return Err(ReviewToolError::Pool(format!(
                "{} game {} is of {}, not {}",
                line.pairing,
                line.seed,
                of_line.name(),
                assume.name()
            )));
        }
        if !seen.insert((line.pairing.clone(), line.seed)) {
            continue;
        }
        match by_pairing.iter_mut().find(|(p, _)| *p == line.pairing) {
            Some((_, games)) => games.push(line.clone()),
            None => by_pairing.push((line.pairing.clone(), vec![line.clone()])),
        }
    }
    let mut table_rows = Vec::new();
    let mut fewest = u64::MAX;
    for (pairing, games) in &by_pairing {
        let (weaker, stronger) = pairing.split_once(" v ").ok_or_else(|| {
            ReviewToolError::Pool(format!(
                "{pairing:?} is not a pairing (\"weaker v stronger\")"
            ))
        })?;
        fewest = fewest.min(games.len() as u64);
        table_rows.extend(rows(weaker, stronger, games));
    }
    Ok(table(
        assume.variant,
        assume.players,
        if by_pairing.is_empty() { 0 } else { fewest },
        &table_rows,
    ))
}

/// What the pooled games must all be: one variant, player count, judge (and its samples) and
/// strong bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pooled {
    pub variant: Variant,
    pub players: u8,
    pub judge: Judge,
    pub samples: usize,
    pub strong: BotKind,
}

impl Pooled {
    fn name(&self) -> String {
        format!(
            "{} with {} players by the {} judge on {} samples (strong: {})",
            self.variant.name(),
            self.players,
            format!("{:?}", self.judge).to_lowercase(),
            self.samples,
            self.strong.name()
        )
    }
}

/// The table of `rows`, in Markdown.
pub fn table(variant: Variant, players: u8, games: u64, rows: &[BotRow]) -> String {
    let pm = |(m, h): (f64, f64)| format!("{m:.2} ± {h:.2}");
    let mut out = format!(
        "{} with {players} players, {games} games a pairing\n\n\
         | pairing | bot | seats | accuracy | judged / game | points lost / game | points lost / decision | mistakes + blunders / game | blunders / game | final margin | won | accuracy below the other's | games never ended (left out) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        variant.name()
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0}% | {} | {} |\n",
            r.pairing,
            r.bot,
            r.seats,
            pm(r.accuracy),
            pm(r.judged_per_game),
            pm(r.points_lost_per_game),
            pm(r.points_lost_per_decision),
            pm(r.marks_per_game),
            pm(r.blunders_per_game),
            pm(r.final_margin),
            r.won * 100.0,
            r.below_the_other
                .map_or(String::new(), |b| format!("{:.0}%", b * 100.0)),
            r.never_ended,
        );
    }
    out
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
        assert!(random_row.ends_with("| 2 |"), "{table}");
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
    }

    /// Given the lines of two runs (one game in both, one line from before lines named their
    /// variant), when pooled, then each game counts once and the table is theirs; a game of
    /// another variant is refused.
    #[test]
    fn pooled_runs_count_each_game_once() {
        let game = |seed: u64, weak: f64, strong: f64, named: bool| {
            let seat = |bot: &str, accuracy: f64| {
                serde_json::json!({"bot": bot, "figures": {"accuracy": accuracy, "judged": 10.0,
                    "lost": 5.0, "lost_per_decision": 0.5, "marks": 1.0, "blunders": 0.0,
                    "final_margin": if bot == "random" { -20.0 } else { 20.0 }}})
            };
            let mut line = serde_json::json!({"pairing": "random v greedy", "seed": seed,
                "seats": [seat("random", weak), seat("greedy", strong)],
                "weaker_below": weak < strong});
            if named {
                line["variant"] = "neue-wege".into();
                line["players"] = 2.into();
                line["judge"] = "hybrid".into();
                line["samples"] = 100.into();
            }
            line.to_string()
        };
        let first = [game(1, 0.0, 40.0, true), game(2, 50.0, 30.0, false)].join("\n");
        let second = format!(
            "a table line\n{}\n{}\n",
            game(2, 50.0, 30.0, true),
            game(3, 10.0, 20.0, true)
        );
        let mut lines = crate::review_tool::read_game_lines(first.as_bytes()).unwrap();
        lines.extend(crate::review_tool::read_game_lines(second.as_bytes()).unwrap());
        assert_eq!(lines.len(), 4);
        let of = Pooled {
            variant: Variant::NeueWege,
            players: 2,
            judge: Judge::Hybrid,
            samples: 100,
            strong: BotKind::parse("rollout:32i").unwrap(),
        };
        let table = pool(&lines, of).unwrap();
        let random_row = table.lines().nth(4).unwrap();
        // Seeds 1, 2 and 3 once each: the random seats' accuracy 20 on average, below in 2 of 3.
        assert!(
            random_row.starts_with("| random v greedy | random | 3 | 20.00 ± "),
            "{table}"
        );
        assert!(random_row.ends_with("| 67% | 0 |"), "{table}");
        assert!(
            table.starts_with("neue-wege with 2 players, 3 games a pairing"),
            "{table}"
        );
        let keltis = Pooled {
            variant: Variant::Keltis,
            ..of
        };
        let fewer_samples = Pooled { samples: 50, ..of };
        assert!(matches!(
            pool(&lines[..1], fewer_samples),
            Err(ReviewToolError::Pool(_))
        ));
        assert!(matches!(
            pool(&lines, keltis),
            Err(ReviewToolError::Pool(_))
        ));
        // A pairing with the strong bot, played by another strong bot: refused.
        let mut stronger = lines[0].clone();
        stronger.pairing = "greedy v strong".into();
        stronger.strong = Some("rollout:640i".into());
        let refused = pool(std::slice::from_ref(&stronger), of);
        assert!(
            matches!(refused, Err(ReviewToolError::Pool(_))),
            "{refused:?}"
        );
        stronger.strong = Some("rollout:32i".into());
        assert!(pool(&[stronger], of).is_ok());
    }
}
