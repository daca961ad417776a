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
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
struct SeatFigures {
    accuracy: f64,
    judged: f64,
    lost: f64,
    lost_per_decision: f64,
    marks: f64,
    blunders: f64,
    final_margin: f64,
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
/// `most_decisions` is left out and counted. `progress` sees one JSON line a game, its seats'
/// figures: a long run stopped early keeps what it found, and runs on other seeds pool exactly.
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
    let name = format!("{} v {}", pairing.weaker.0, pairing.stronger.0);
    let (mut weaker, mut stronger) = (Vec::new(), Vec::new());
    let (mut below, mut never_ended) = (0usize, 0u64);
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
        // Left out and counted: a review needs a finished game.
        let record = match mixed_game_within(&kinds, variant, seed.wrapping_add(g), most_decisions)
        {
            Err(ReviewToolError::NeverEnded) => {
                never_ended += 1;
                let line = serde_json::json!({
                    "pairing": name, "seed": seed.wrapping_add(g), "never_ended": true,
                });
                progress(&line.to_string());
                continue;
            }
            played => played?,
        };
        let review = crate::review::review(&record, effort, seed.wrapping_add(g))?;
        let (mut weak_acc, mut strong_acc) = (Vec::new(), Vec::new());
        let mut seats = Vec::new();
        for seat in 0..players {
            let f = figures(&review, seat);
            let weak = weak_at(seat);
            let bot = if weak {
                pairing.weaker.0
            } else {
                pairing.stronger.0
            };
            seats.push(serde_json::json!({"bot": bot, "figures": f}));
            if weak {
                weak_acc.push(f.accuracy);
                weaker.push(f);
            } else {
                strong_acc.push(f.accuracy);
                stronger.push(f);
            }
        }
        let weaker_below = mean_and_spread(&weak_acc).0 < mean_and_spread(&strong_acc).0;
        below += usize::from(weaker_below);
        let line = serde_json::json!({
            "pairing": name, "seed": seed.wrapping_add(g), "seats": seats, "weaker_below": weaker_below,
        });
        progress(&line.to_string());
    }
    let same = pairing.weaker.0 == pairing.stronger.0;
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
    if same {
        let all: Vec<SeatFigures> = weaker.into_iter().chain(stronger).collect();
        return Ok(vec![row(pairing.weaker.0, &all, None)]);
    }
    Ok(vec![
        row(
            pairing.weaker.0,
            &weaker,
            Some(below as f64 / (games - never_ended).max(1) as f64),
        ),
        row(pairing.stronger.0, &stronger, None),
    ])
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
}
