//! `keltis selfplay`, run as a user runs it.

use std::process::Command;

use keltis::engine::{Game, Record};

#[test]
fn selfplay_prints_a_report_and_writes_replayable_records() {
    let dir = std::env::temp_dir().join(format!("keltis-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (variant, players) in [("keltis", "3"), ("neue-wege", "2"), ("keltis-card", "2")] {
        let records = dir.join(format!("{variant}.jsonl"));
        let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
            .args(["selfplay", "--variant", variant, "--players", players])
            .args(["--games", "5", "--seed", "7", "--records"])
            .arg(&records)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["games"], 5);
        assert_eq!(report["variant"], variant);
        assert!(report["decisions"].as_u64().unwrap() > 5 * 50);
        assert!(report["decisions_per_second"].as_f64().unwrap() > 0.0);
        let ended: u64 = report["end_reasons"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(ended, 5);
        assert_eq!(
            report["mean_scores"].as_array().unwrap().len(),
            players.parse::<usize>().unwrap()
        );

        let text = std::fs::read_to_string(&records).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5);
        let mut decisions = 0;
        for line in lines {
            let record: Record = serde_json::from_str(line).unwrap();
            let game: Game = record.replay().unwrap();
            assert!(game.is_over());
            assert_eq!(record.result, game.result());
            decisions += record.decisions.len() as u64;
        }
        assert_eq!(report["decisions"].as_u64().unwrap(), decisions);
    }
    // The same seed gives the same games.
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_keltis"))
            .args([
                "selfplay",
                "--variant",
                "keltis",
                "--games",
                "3",
                "--seed",
                "11",
            ])
            .output()
            .unwrap()
    };
    let a: serde_json::Value = serde_json::from_slice(&run().stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&run().stdout).unwrap();
    assert_eq!(a["decisions"], b["decisions"]);
    assert_eq!(a["mean_scores"], b["mean_scores"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_refuses_a_bad_variant_or_player_count() {
    let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["selfplay", "--variant", "chess"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
    let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["selfplay", "--variant", "keltis-card", "--players", "3"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 2 players"));
}

#[test]
fn the_readme_selfplay_command_runs_without_a_variant() {
    let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["selfplay", "--games", "3", "--seed", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["variant"], "keltis");
}

/// `keltis serve` on a fresh data folder: it migrates, listens, and logs no error or warning.
#[test]
fn a_first_start_logs_no_error() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("keltis-first-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("listening") {
                let _ = tx.send(());
            }
            lines.push(line);
        }
        lines
    });
    let started = rx.recv_timeout(std::time::Duration::from_secs(60)).is_ok();
    // Let the pool finish opening its connections before looking.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let _ = child.kill();
    let _ = child.wait();
    let lines = reader.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(started, "{}", lines.join("\n"));
    let log = lines.join("\n");
    assert!(log.contains("listening"), "{log}");
    for bad in ["ERROR", "WARN", "database is locked"] {
        assert!(!log.contains(bad), "{bad} in a first start:\n{log}");
    }
}
