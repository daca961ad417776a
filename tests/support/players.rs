//! What the rating, moderation, pairing and events tests share: players, profiles, the `keltis`
//! command.

use std::process::Command;

use serde_json::{json, Value};

use super::{TestServer, User};

pub fn users(s: &TestServer, prefix: &str, n: usize) -> Vec<User> {
    (0..n)
        .map(|i| s.register(&format!("{prefix}{i}")))
        .collect()
}

pub fn profile(s: &TestServer, asker: &User, name: &str) -> Value {
    let a = s.get(&format!("/api/v1/players/{name}"), Some(&asker.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// A player's rating entry in one variant, if they have one.
pub fn rating_in(profile: &Value, variant: &str) -> Option<Value> {
    profile["ratings"]
        .as_array()?
        .iter()
        .find(|r| r["variant"] == variant)
        .cloned()
}

pub fn figure(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

pub fn resign(s: &TestServer, id: i64, user: &User) {
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&user.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
}

/// Run `keltis` with these arguments (a data folder of its own, for the commands that open the
/// database); its one JSON report.
pub fn run_keltis(args: &[&str]) -> Value {
    let dir = std::env::temp_dir().join(format!("keltis-cli-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(args)
        .env("KELTIS_DATA_DIR", &dir)
        .output()
        .expect("keltis runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON report")
}

/// Play random legal decisions (drawing from the deck when it may, so that the game ends)
/// until the game is over.
pub fn play_out(s: &TestServer, id: i64, players: &[User]) {
    let mut rng: u64 = 7;
    for _ in 0..3000 {
        let view = s.game(id, &players[0]);
        if view["status"] == "over" {
            return;
        }
        let to_act = view["state"]["to_act"].as_u64().expect("seat to act") as usize;
        let me = s.game(id, &players[to_act]);
        let legal = me["state"]["legal_decisions"].as_array().expect("legal");
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let deck = legal.iter().find(|d| d["type"] == "draw_deck");
        let d = match deck {
            Some(d) if !(rng >> 40).is_multiple_of(5) => d,
            _ => &legal[(rng >> 33) as usize % legal.len()],
        };
        let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap_or(0), d);
        assert_eq!(a.status, 200, "{d} -> {}", a.text);
    }
    panic!("the game did not end in 3000 decisions");
}

/// Make `name` a moderator, as an operator does (`keltis moderator`).
pub fn make_moderator(s: &TestServer, name: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["moderator", name, "--database-url", &s.database_url])
        .output()
        .expect("keltis runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
