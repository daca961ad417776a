//! The calibration's games as lines, and the tables of them: one JSON line a game, as
//! `keltis review --calibrate` writes it and `--pool` reads it back, and the table of each bot's
//! figures with 95% intervals that both print (issue 66; the games kept in docs/calibration/).

use crate::engine::bots::BotKind;
use crate::engine::Variant;
use crate::review::marks::mean_and_spread;
use crate::review::Judge;

use super::ReviewToolError;

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
    /// Seconds its player spent deciding in the game, on one core (lines written before they
    /// said it lack it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

/// One calibration game, as its progress line gives it: what was played and judged, and each
/// seat's figures, or that it never ended. Lines of runs on other seeds pool exactly
/// ([`pool`]); lines written before the run named its variant, players, judge, samples and strong
/// bot lack them.
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
    /// The judge's revision ([`crate::review::JUDGE_REVISION`]); lines without one were
    /// judged by the first.
    #[serde(default = "crate::review::first_judge_revision")]
    pub judge_revision: u32,
    /// The strong bot's revision ([`crate::engine::bots::strong_revision`]), where the pairing
    /// seats it; such a line without one was played by the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strong_revision: Option<u32>,
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
    /// Seconds spent deciding in a game, of the seats that say it (none where none do).
    pub seconds_per_game: Option<(f64, f64)>,
    /// The share of the reviewed games in which this bot's accuracy was below the other's (the
    /// weaker's row only).
    pub below_the_other: Option<f64>,
    /// The pairing's games left out because they never ended ([`super::MOST_DECISIONS`]).
    pub never_ended: u64,
    /// The pairing's games reviewed.
    pub games: u64,
    /// What the reviews charged each side against what each side scored (the weaker's row only).
    pub charges: Option<ChargesAndScores>,
}

/// Points charged against points scored, paired game by game. A review's charges are what its
/// players' choices cost, so the weaker side's extra charges should account for the stronger
/// side's extra points, luck apart (its mean is near 0). Where they do not, the judge's
/// play-outs leave more on the table after one side's choices than after the other's, and its
/// points lost a decision compare the positions as much as the players (docs/performance.md,
/// "A seed names one game"). Each a mean with the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ChargesAndScores {
    /// Points charged a game to the weaker's seats beyond the stronger's (each side's seats'
    /// mean).
    pub charged: (f64, f64),
    /// Points the stronger's seats scored a game beyond the weaker's.
    pub scored: (f64, f64),
    /// `charged` less `scored`, game by game: what the charges do not account for.
    pub unexplained: (f64, f64),
}

/// [`ChargesAndScores`] of the reviewed `games` of `weaker` against `stronger`.
fn charges_and_scores(
    weaker: &str,
    stronger: &str,
    games: &[&GameLine],
) -> Option<ChargesAndScores> {
    // A seat's final score less the winner's: its margin where it is behind, 0 for the winner.
    let behind = |f: &SeatFigures| f.final_margin.min(0.0);
    let (mut charged, mut scored, mut unexplained) = (Vec::new(), Vec::new(), Vec::new());
    for line in games {
        let side = |bot: &str, figure: &dyn Fn(&SeatFigures) -> f64| -> Option<f64> {
            let of: Vec<f64> = line
                .seats
                .iter()
                .filter(|s| s.bot == bot)
                .map(|s| figure(&s.figures))
                .collect();
            (!of.is_empty()).then(|| of.iter().sum::<f64>() / of.len() as f64)
        };
        let lost = |f: &SeatFigures| f.lost;
        let (Some(weak_lost), Some(strong_lost), Some(weak_score), Some(strong_score)) = (
            side(weaker, &lost),
            side(stronger, &lost),
            side(weaker, &behind),
            side(stronger, &behind),
        ) else {
            continue;
        };
        charged.push(weak_lost - strong_lost);
        scored.push(strong_score - weak_score);
        unexplained.push(weak_lost - strong_lost - (strong_score - weak_score));
    }
    (!charged.is_empty()).then(|| ChargesAndScores {
        charged: interval(&charged),
        scored: interval(&scored),
        unexplained: interval(&unexplained),
    })
}

fn interval(values: &[f64]) -> (f64, f64) {
    let (mean, spread) = mean_and_spread(values);
    let half = 1.96 * spread / (values.len().max(1) as f64).sqrt();
    (
        (mean * 100.0).round() / 100.0,
        (half * 100.0).round() / 100.0,
    )
}

/// The rows of one pairing's games: the weaker bot's, then the stronger's (one row where both
/// are the same bot).
pub(super) fn rows(weaker_bot: &str, stronger_bot: &str, lines: &[GameLine]) -> Vec<BotRow> {
    let name = lines.first().map_or(String::new(), |l| l.pairing.clone());
    let never_ended = lines.iter().filter(|l| l.never_ended).count() as u64;
    let reviewed = lines.iter().filter(|l| !l.never_ended);
    let below = reviewed
        .clone()
        .filter(|l| l.weaker_below == Some(true))
        .count();
    let of_bot = |bot: &str| -> Vec<&Seat> {
        reviewed
            .clone()
            .flat_map(|l| &l.seats)
            .filter(|s| s.bot == bot)
            .collect()
    };
    let games = lines.len() as u64 - never_ended;
    let row = |bot: &str, seats: &[&Seat], below: Option<f64>| {
        let of = |f: fn(&SeatFigures) -> f64| {
            interval(&seats.iter().map(|s| f(&s.figures)).collect::<Vec<_>>())
        };
        let seconds: Vec<f64> = seats.iter().filter_map(|s| s.seconds).collect();
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
            won: seats
                .iter()
                .filter(|s| s.figures.final_margin > 0.0)
                .count() as f64
                / seats.len().max(1) as f64,
            seconds_per_game: (!seconds.is_empty()).then(|| interval(&seconds)),
            below_the_other: below,
            never_ended,
            games,
            charges: None,
        }
    };
    if weaker_bot == stronger_bot {
        return vec![row(weaker_bot, &of_bot(weaker_bot), None)];
    }
    let reviewed_games: Vec<&GameLine> = reviewed.clone().collect();
    vec![
        BotRow {
            charges: charges_and_scores(weaker_bot, stronger_bot, &reviewed_games),
            ..row(
                weaker_bot,
                &of_bot(weaker_bot),
                Some(below as f64 / games.max(1) as f64),
            )
        },
        row(stronger_bot, &of_bot(stronger_bot), None),
    ]
}

/// The table of calibration games from their progress lines (`keltis review --pool`), for one
/// variant, player count, judge and strong bot: runs on other seeds, on other machines or
/// sessions, pooled into the 200 games a pairing the issue asks. A game given twice (the same
/// pairing, seed and seats) counts once; a game of another variant, player count, judge,
/// samples, strong bot or revision of the judge or of the strong bot is refused (`assume`
/// stands for what a line does not say: lines written before they said it; a line without a
/// revision is of the first).
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
            judge_revision: line.judge_revision,
            strong_revision: if line.strong.is_some() || line.pairing.contains("strong") {
                line.strong_revision.unwrap_or(1)
            } else {
                assume.strong_revision
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
        // Lines kept from before a seed named one game seat some seeds otherwise (the weaker bot
        // sat first in a run's first game, `calibrate::weaker_seated`): the same seed with other
        // seats is another game.
        let seating: Vec<&str> = line.seats.iter().map(|s| s.bot.as_str()).collect();
        if !seen.insert((line.pairing.clone(), line.seed, seating)) {
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
    pub judge_revision: u32,
    pub strong_revision: u32,
}

impl Pooled {
    fn name(&self) -> String {
        format!(
            "{} with {} players by the {} judge (revision {}) on {} samples (strong: {}, revision {})",
            self.variant.name(),
            self.players,
            format!("{:?}", self.judge).to_lowercase(),
            self.judge_revision,
            self.samples,
            self.strong.name(),
            self.strong_revision
        )
    }
}

/// The table of `rows`, in Markdown.
pub fn table(variant: Variant, players: u8, games: u64, rows: &[BotRow]) -> String {
    let pm = |(m, h): (f64, f64)| format!("{m:.2} ± {h:.2}");
    let mut out = format!(
        "{} with {players} players, {games} games a pairing\n\n\
         | pairing | bot | seats | accuracy | judged / game | points lost / game | points lost / decision | mistakes + blunders / game | blunders / game | final margin | won | accuracy below the other's | games never ended (left out) | seconds deciding / game |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        variant.name()
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0}% | {} | {} | {} |\n",
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
            r.seconds_per_game.map_or(String::new(), pm),
        );
    }
    out + &targets(rows)
}

/// How much longer than the strong bot the judge may decide and still play "at equal time": the
/// two are timed in the same runs, so a few per cent is noise, not an edge.
const EQUAL_TIME: f64 = 1.1;

/// The judge's own choices win at least half their games against the strong bot at equal time:
/// the judge deciding no longer than [`EQUAL_TIME`] times the strong bot, as timed in the games
/// themselves (a judge given more time than its opponent proves nothing; games timed before the
/// lines said it cannot show it).
fn judge_target(strong: &BotRow, judge: &BotRow) -> String {
    let won = judge.won >= 0.5;
    let (time, equal) = match (judge.seconds_per_game, strong.seconds_per_game) {
        (Some((j, _)), Some((s, _))) => (
            format!(
                "deciding {j:.1} s a game against the strong bot's {s:.1} s (at most {:.0}% of its)",
                EQUAL_TIME * 100.0
            ),
            j <= s * EQUAL_TIME,
        ),
        _ => ("its time deciding not recorded".to_string(), false),
    };
    let verdict = match (won, equal) {
        (true, true) => "met",
        (false, true) => "**not met**",
        (_, false) => "**not met** (not shown at equal time)",
    };
    format!(
        "the judge won {:.0}% of its games (at least half), {time}: {verdict}",
        judge.won * 100.0
    )
}

/// Whether the charges account for the scores: not a target of the issue's, a check of the
/// review against the results ([`ChargesAndScores`]).
fn charges_said(weaker: &str, stronger: &str, c: ChargesAndScores) -> String {
    let pm = |(m, h): (f64, f64)| format!("{m:.1} ± {h:.1}");
    let (gap, half) = c.unexplained;
    format!(
        "{weaker} charged {} points a game more than {stronger}, who scored {} more: {} ({} \
         unexplained)",
        pm(c.charged),
        pm(c.scored),
        if gap.abs() <= half {
            "accounted for"
        } else {
            "**not accounted for**"
        },
        pm(c.unexplained)
    )
}

/// The games a pairing the issue asks for.
pub const GAMES_ASKED: u64 = 200;

/// Which of the targets each pairing of `rows` meets: the weaker bot's accuracy below the
/// stronger's in at least 95% of games (random against greedy; 70%, greedy against strong), a gap
/// of at least 25 points between random and greedy, points lost a decision ordered with 95%
/// intervals apart; at most one blunder a game by the strong bot against itself; the judge's own
/// choices winning at least half their games against the strong bot at equal time
/// ([`judge_target`]).
pub fn targets(rows: &[BotRow]) -> String {
    let met = |ok: bool| if ok { "met" } else { "**not met**" };
    let mut out = format!("\nTargets (issue 66, over {GAMES_ASKED} games a pairing):\n");
    let mut i = 0;
    while i < rows.len() {
        let weaker = &rows[i];
        let stronger = rows.get(i + 1).filter(|r| r.pairing == weaker.pairing);
        i += if stronger.is_some() { 2 } else { 1 };
        let mut said = Vec::new();
        match (weaker.bot.as_str(), stronger) {
            ("strong", None) => {
                // The row is a seat's; the target a game's, both seats together.
                let seats_a_game = weaker.seats as f64 / weaker.games.max(1) as f64;
                let blunders = weaker.blunders_per_game.0 * seats_a_game;
                said.push(format!(
                    "{blunders:.2} blunders a game, every seat's together (at most 1): {}",
                    met(blunders <= 1.0)
                ))
            }
            ("strong", Some(judge)) if judge.bot == "judge" => {
                said.push(judge_target(weaker, judge))
            }
            (_, Some(stronger)) => {
                let least = if weaker.bot == "random" { 0.95 } else { 0.70 };
                let below = weaker.below_the_other.unwrap_or(0.0);
                said.push(format!(
                    "{}'s accuracy below {}'s in {:.1}% of games (at least {:.0}%): {}",
                    weaker.bot,
                    stronger.bot,
                    below * 100.0,
                    least * 100.0,
                    met(below >= least)
                ));
                if weaker.bot == "random" {
                    let gap = stronger.accuracy.0 - weaker.accuracy.0;
                    said.push(format!(
                        "a gap of {gap:.1} points (at least 25): {}",
                        met(gap >= 25.0)
                    ));
                }
                let (w, s) = (
                    weaker.points_lost_per_decision,
                    stronger.points_lost_per_decision,
                );
                said.push(format!(
                    "points lost a decision {:.2} ± {:.2} against {:.2} ± {:.2}, apart: {}",
                    w.0,
                    w.1,
                    s.0,
                    s.1,
                    met(w.0 - w.1 > s.0 + s.1)
                ));
                if let Some(c) = weaker.charges {
                    said.push(charges_said(&weaker.bot, &stronger.bot, c));
                }
            }
            _ => continue,
        }
        let short = match weaker.games {
            n if n >= GAMES_ASKED => String::new(),
            n => format!(", {} short", GAMES_ASKED - n),
        };
        out += &format!(
            "- {}, {} games{short}: {}\n",
            weaker.pairing,
            weaker.games,
            said.join("; ")
        );
    }
    out
}

#[cfg(test)]
#[path = "tables_tests.rs"]
mod tests;
