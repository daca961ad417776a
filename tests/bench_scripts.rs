//! Issue 50: the scaling script (`benches/scaling.sh`) is what a lent many-core machine runs, in
//! one short call: it must work the first time. A run past 60 tables (the cap on one player's
//! running games, which the load tool's two accounts pass) on SQLite, and on a private
//! PostgreSQL cluster where PostgreSQL's binaries are installed, gives a row of figures for each.
//! A functional run on this machine's cores: its figures measure nothing and are not checked.

use std::path::Path;
use std::process::Command;

/// PostgreSQL's binaries as the script looks for them (the newest under /usr/lib/postgresql).
fn postgres_binaries() -> Option<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("bin"))
        .filter(|bin| bin.join("initdb").exists() && bin.join("pgbench").exists())
        .collect();
    found.sort();
    found.pop()
}

#[test]
fn the_scaling_script_runs_past_sixty_tables() {
    for tool in ["taskset", "curl", "python3"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            eprintln!("SKIPPED: the scaling script needs {tool}, which this machine lacks");
            return;
        }
    }
    let mut databases = vec!["sqlite"];
    if postgres_binaries().is_some() {
        databases.push("postgres");
    } else {
        eprintln!("SKIPPED in part: no PostgreSQL binaries under /usr/lib/postgresql, SQLite only");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .current_dir(root)
        .arg("benches/scaling.sh")
        .args(["--keltis", env!("CARGO_BIN_EXE_keltis")])
        .args(["--splits", "1", "--load-cores", "0", "--runs", "1"])
        .args(["--games", "64", "--seconds", "2", "--warm-up", "1"])
        .args(["--sqlite-sync", "full-outside-lock"])
        .args(["--databases", &databases.join(" ")])
        .env_remove("DATABASE_URL")
        .output()
        .expect("bash runs the script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the script failed:\n{stdout}\n{stderr}"
    );
    let targets = databases
        .iter()
        .map(|db| match *db {
            "sqlite" => "sqlite/full-outside-lock",
            other => other,
        })
        .collect::<Vec<_>>();
    for target in targets {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("| 1 | {target} | 1 |")))
            .unwrap_or_else(|| panic!("no row for {target}:\n{stdout}\n{stderr}"));
        let moves: f64 = row
            .split('|')
            .nth(4)
            .map_or("", str::trim)
            .replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("{target}'s run failed: {row}\n{stderr}"));
        assert!(moves > 0.0, "{target} played no move: {row}");
        if target == "postgres" {
            let pgbench = row.split('|').nth(6).map_or("", str::trim);
            assert!(
                pgbench
                    .replace(',', "")
                    .parse::<f64>()
                    .is_ok_and(|tps| tps > 0.0),
                "pgbench gave no rate beside it: {row}\n{stderr}"
            );
        }
    }
}
