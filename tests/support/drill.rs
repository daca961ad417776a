//! What the drills share: the `keltis` binary serving a database, and a table played through it
//! until the server goes away, with every move it acknowledged.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use serde_json::{json, Value};

use super::User;

/// `keltis serve` on `database_url`, on a free port; its base URL once it answers.
pub fn serve(database_url: &str, data_dir: &std::path::Path) -> (Child, String) {
    serve_with_env(database_url, data_dir, &[])
}

/// [`serve`] with settings of its own in the environment (`KELTIS_...`).
pub fn serve_with_env(
    database_url: &str,
    data_dir: &std::path::Path,
    env: &[(&str, &str)],
) -> (Child, String) {
    let mut binary = Command::new(env!("CARGO_BIN_EXE_keltis"));
    binary.envs(env.iter().copied());
    start(binary, database_url, data_dir, Stdio::null())
}

/// [`serve`], started by a shell that first lowers the soft open-file limit to `soft` (as a
/// login shell's `ulimit -Sn` or a service manager may leave it) and, given `hard`, the hard
/// one too (which the server then cannot raise); its log goes to `log`.
pub fn serve_with_open_files(
    database_url: &str,
    data_dir: &std::path::Path,
    soft: u64,
    hard: Option<u64>,
    log: &std::path::Path,
) -> (Child, String) {
    let hard = hard.map_or(String::new(), |hard| format!(" && ulimit -Hn {hard}"));
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(format!("ulimit -Sn {soft}{hard} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_keltis"))
        // Its tests hold hundreds of streams as one player.
        .env("KELTIS_MAX_STREAMS_PER_PLAYER", "100000");
    let log = std::fs::File::create(log).expect("a log file");
    start(shell, database_url, data_dir, Stdio::from(log))
}

fn start(
    mut command: Command,
    database_url: &str,
    data_dir: &std::path::Path,
    log: Stdio,
) -> (Child, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let base = format!("http://127.0.0.1:{port}");
    let mut child = command
        .arg("serve")
        .env("DATABASE_URL", database_url)
        .env("KELTIS_DATA_DIR", data_dir)
        .env("KELTIS_BIND", format!("127.0.0.1:{port}"))
        .env("KELTIS_JWT_SECRET", super::SECRET)
        .env("KELTIS_VAPID_PRIVATE_KEY", super::VAPID_KEY)
        .env("KELTIS_BOTS", "false")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("keltis serve starts");
    let client = Client::new();
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        if client
            .get(format!("{base}/readyz"))
            .send()
            .is_ok_and(|r| r.status().is_success())
        {
            return (child, base);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("keltis serve did not become ready");
}

/// One table's play until the server goes away: every acknowledged move as (version, decision).
pub fn play(base: &str, id: i64, players: &[User], acked: &AtomicUsize) -> Vec<(i64, Value)> {
    let client = Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");
    let mut moves = Vec::new();
    let get = |user: &User| -> Option<Value> {
        client
            .get(format!("{base}/api/v1/games/{id}"))
            .bearer_auth(&user.token)
            .send()
            .ok()?
            .json()
            .ok()
    };
    loop {
        let Some(game) = get(&players[0]) else {
            return moves;
        };
        let Some(seat) = game["state"]["to_act"].as_u64() else {
            return moves; // over
        };
        let Some(me) = get(&players[seat as usize]) else {
            return moves;
        };
        let legal = me["state"]["legal_decisions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let Some(decision) = legal
            .iter()
            .find(|d| d["type"] == "draw_deck")
            .or_else(|| legal.first())
            .cloned()
        else {
            return moves;
        };
        let sent = client
            .post(format!("{base}/api/v1/games/{id}/decisions"))
            .bearer_auth(&players[seat as usize].token)
            .json(&json!({"expected_version": me["version"], "decision": decision}))
            .send();
        let Ok(answer) = sent else {
            return moves; // killed before or while answering: not acknowledged
        };
        if answer.status().is_success() {
            let Ok(body) = answer.json::<Value>() else {
                return moves; // the answer was cut off: not acknowledged
            };
            moves.push((body["version"].as_i64().unwrap_or(-1), decision));
            acked.fetch_add(1, Ordering::Relaxed);
        }
    }
}
