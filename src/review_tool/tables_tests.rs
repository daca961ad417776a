//! The calibration's tables: pooled runs counted once, and the targets said for each pairing.

use super::*;

/// Given the lines of two runs (one game in both, one line from before lines named their
/// variant) and a seed of theirs played by a third run with the seats the other way round,
/// when pooled, then each game counts once and the table is theirs; a game of another variant,
/// strong bot or revision of the judge or of the strong bot is refused.
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
            // And, later still, the seconds each seat's bot spent deciding.
            line["seats"][0]["seconds"] = 1.0.into();
            line["seats"][1]["seconds"] = 3.0.into();
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
    // Seed 3 played by another run, the greedy bot first: another game.
    let mut other_seats = lines[3].clone();
    other_seats.seats.reverse();
    other_seats.seats[0].figures.accuracy = 60.0;
    other_seats.seats[1].figures.accuracy = 40.0;
    lines.push(other_seats);
    let of = Pooled {
        variant: Variant::NeueWege,
        players: 2,
        judge: Judge::Hybrid,
        samples: 100,
        strong: BotKind::parse("rollout:32i").unwrap(),
        // Lines that do not name the judge's revision are of the first; so of the strong bot's.
        judge_revision: 1,
        strong_revision: 1,
    };
    let table = pool(&lines, of).unwrap();
    let random_row = table.lines().nth(4).unwrap();
    // Seeds 1, 2 and 3 once each, and seed 3's other game: the random seats' accuracy 25 on
    // average, below in 3 of 4; the seconds of the three seats that say them (seed 2's line,
    // kept from the first run, does not).
    assert!(
        random_row.starts_with("| random v greedy | random | 4 | 25.00 ± "),
        "{table}"
    );
    assert!(random_row.ends_with("| 75% | 0 | 1.00 ± 0.00 |"), "{table}");
    assert!(
        table.starts_with("neue-wege with 2 players, 4 games a pairing"),
        "{table}"
    );
    assert!(
        table.contains("- random v greedy, 4 games, 196 short: random's accuracy below greedy's in 75.0% of games (at least 95%): **not met**"),
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
    assert!(pool(std::slice::from_ref(&stronger), of).is_ok());
    // Played by a later revision of the strong bot: refused among the first's, pooled alone.
    let mut revised = stronger.clone();
    revised.strong_revision = Some(2);
    let refused = pool(&[stronger.clone(), revised.clone()], of);
    assert!(matches!(refused, Err(ReviewToolError::Pool(_))));
    let revised_of = Pooled {
        strong_revision: 2,
        ..of
    };
    assert!(pool(&[revised], revised_of).is_ok());
    // A pairing without the strong bot is of any of its revisions.
    assert!(pool(&lines[..1], revised_of).is_ok());
    // A game judged by a later revision of the judge: refused among the first's, pooled alone.
    stronger.judge_revision = 2;
    assert!(matches!(
        pool(&[lines[0].clone(), stronger.clone()], of),
        Err(ReviewToolError::Pool(_))
    ));
    let second = Pooled {
        judge_revision: 2,
        ..of
    };
    assert!(pool(&[stronger], second).is_ok());
}

/// Given a pairing of each kind, the targets say which are met: each figure against its
/// target, and the games short of 200.
#[test]
fn targets_say_which_are_met() {
    let row = |pairing: &str, bot: &str, accuracy: f64, lost: (f64, f64)| BotRow {
        pairing: pairing.into(),
        bot: bot.into(),
        seats: 200,
        accuracy: (accuracy, 2.0),
        judged_per_game: (100.0, 2.0),
        points_lost_per_game: (100.0, 5.0),
        points_lost_per_decision: lost,
        marks_per_game: (1.0, 0.2),
        blunders_per_game: (0.5, 0.1),
        final_margin: (0.0, 2.0),
        won: 0.5,
        seconds_per_game: None,
        below_the_other: None,
        never_ended: 0,
        games: 200,
        charges: None,
    };
    let rows = [
        BotRow {
            below_the_other: Some(0.955),
            ..row("random v greedy", "random", 5.0, (1.44, 0.05))
        },
        row("random v greedy", "greedy", 34.0, (1.11, 0.05)),
        BotRow {
            below_the_other: Some(0.69),
            games: 130,
            ..row("greedy v strong", "greedy", 31.0, (1.12, 0.07))
        },
        row("greedy v strong", "strong", 57.0, (0.90, 0.06)),
        BotRow {
            seats: 400,
            ..row("strong v strong", "strong", 56.0, (0.85, 0.1))
        },
        BotRow {
            won: 0.42,
            games: 50,
            ..row("strong v judge", "strong", 75.0, (0.7, 0.1))
        },
        BotRow {
            won: 0.42,
            games: 50,
            ..row("strong v judge", "judge", 87.0, (0.4, 0.1))
        },
    ];
    let said = targets(&rows);
    let lines: Vec<&str> = said.lines().skip(2).collect();
    assert_eq!(lines.len(), 4, "{said}");
    assert_eq!(
        lines[0],
        "- random v greedy, 200 games: random's accuracy below greedy's in 95.5% of games \
         (at least 95%): met; a gap of 29.0 points (at least 25): met; points lost a decision \
         1.44 ± 0.05 against 1.11 ± 0.05, apart: met"
    );
    assert_eq!(
        lines[1],
        "- greedy v strong, 130 games, 70 short: greedy's accuracy below strong's in 69.0% of \
         games (at least 70%): **not met**; points lost a decision 1.12 ± 0.07 against \
         0.90 ± 0.06, apart: met"
    );
    assert_eq!(
        lines[2],
        "- strong v strong, 200 games: 1.00 blunders a game, every seat's together (at most 1): met"
    );
    assert_eq!(
        lines[3],
        "- strong v judge, 50 games, 150 short: the judge won 42% of its games (at least \
         half), its time deciding not recorded: **not met** (not shown at equal time)"
    );
    // Timed: the judge's wins count only where it decided no longer than the strong bot (a
    // tenth more is noise).
    let timed = |won: f64, judge_seconds: f64| {
        let strong = BotRow {
            won: 1.0 - won,
            games: 200,
            seconds_per_game: Some((8.0, 0.5)),
            ..row("strong v judge", "strong", 75.0, (0.7, 0.1))
        };
        let judge = BotRow {
            won,
            games: 200,
            seconds_per_game: Some((judge_seconds, 0.5)),
            ..row("strong v judge", "judge", 87.0, (0.4, 0.1))
        };
        targets(&[strong, judge])
            .lines()
            .nth(2)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        timed(0.55, 8.7),
        "- strong v judge, 200 games: the judge won 55% of its games (at least half), deciding \
         8.7 s a game against the strong bot's 8.0 s (at most 110% of its): met"
    );
    assert!(timed(0.55, 8.9)
        .ends_with("s (at most 110% of its): **not met** (not shown at equal time)"));
    assert!(timed(0.45, 7.0).ends_with("s (at most 110% of its): **not met**"));
}

/// Given three three-seat games of random against greedy, when tabled, then the charges against
/// the scores are the paired means: each side's seats' points lost (means of its seats), and
/// each side's final score less the winner's (a seat's margin where it is behind, 0 for the
/// winner), and the target line says the charges do not account for the scores where the
/// difference's interval leaves out 0.
#[test]
fn charges_are_weighed_against_the_scores_game_by_game() {
    let game = |seed: u64, seats: [(&str, f64, f64); 3]| -> GameLine {
        let seats: Vec<serde_json::Value> = seats
            .iter()
            .map(|&(bot, lost, margin)| {
                serde_json::json!({"bot": bot, "figures": {"accuracy": 10.0, "judged": 50.0,
                    "lost": lost, "lost_per_decision": lost / 50.0, "marks": 1.0,
                    "blunders": 0.0, "final_margin": margin}})
            })
            .collect();
        serde_json::from_value(
            serde_json::json!({"pairing": "random v greedy", "seed": seed,
            "seats": seats, "weaker_below": true}),
        )
        .unwrap()
    };
    let lines = [
        // Charged 50 - 30 = 20; scored 0 - (-15) = 15.
        game(
            1,
            [
                ("random", 40.0, -10.0),
                ("greedy", 30.0, 10.0),
                ("random", 60.0, -20.0),
            ],
        ),
        // Charged 50 - 20 = 30; scored -2 - (-14) = 12 (the second greedy seat 4 behind).
        game(
            2,
            [
                ("greedy", 10.0, 4.0),
                ("random", 50.0, -14.0),
                ("greedy", 30.0, -4.0),
            ],
        ),
        // Charged 60 - 20 = 40; scored 0 - (-25) = 25.
        game(
            3,
            [
                ("random", 70.0, -20.0),
                ("greedy", 20.0, 20.0),
                ("random", 50.0, -30.0),
            ],
        ),
    ];
    let tabled = rows("random", "greedy", &lines);
    let charges = tabled[0].charges.unwrap();
    assert_eq!(charges.charged, (30.0, 11.32));
    assert_eq!(charges.scored, (17.33, 7.7));
    assert_eq!(charges.unexplained, (12.67, 7.7));
    assert_eq!(tabled[1].charges, None, "the stronger's row says none");
    let said = targets(&tabled);
    assert!(
        said.trim_end().ends_with(
            "; random charged 30.0 ± 11.3 points a game more than greedy, who scored \
             17.3 ± 7.7 more: **not accounted for** (12.7 ± 7.7 unexplained)"
        ),
        "{said}"
    );
    // The first two games alone: 5 and 18 unexplained, an interval about 0.
    let two = targets(&rows("random", "greedy", &lines[..2]));
    assert!(
        two.contains("more: accounted for (11.5 ± 12.7 unexplained)"),
        "{two}"
    );
}
