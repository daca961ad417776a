//! Correspondence play: players who leave a game of three or four. On SQLite, and on PostgreSQL
//! when `TEST_DATABASE_URL` is set.

mod support;

use serde_json::{json, Value};
use support::{Db, User};

/// In a three-player game a resignation does not end the game: the stand-in bot plays the seat,
/// the others play on to the end, and the resigner cannot win and ranks last.
fn resigning_from_three_players_lets_the_others_play_on(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let players: Vec<User> = (0..3).map(|i| s.register(&format!("trio{i}"))).collect();
    let id = s.started_game("keltis", &players);
    let a = s.post(
        &format!("/api/v1/games/{id}/resign"),
        Some(&players[1].token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    let after = a.json();
    assert_eq!(after["status"], "active", "the game goes on");
    assert_eq!(after["state"]["seats"][1]["retired"], "resigned");
    // The resigner can no longer decide, and no client may send a time-out.
    let view = s.game(id, &players[0]);
    let version = view["version"].as_i64().unwrap();
    let a = s.decide(id, &players[1], version, &json!({"type": "draw_deck"}));
    assert_eq!((a.status, a.code()), (422, "seat_retired".into()));
    let a = s.decide(id, &players[0], version, &json!({"type": "time_out"}));
    assert_eq!((a.status, a.code()), (422, "reserved_decision".into()));
    // The two still in play their turns; the stand-in bot plays seat 1's.
    let mut rng = 7u64;
    let mut bot_turns = 0;
    let mut last_to_act = None;
    for _ in 0..20_000 {
        let view: Value = s.game(id, &players[0]);
        if view["status"] == "over" {
            let result = &view["state"]["result"];
            assert!(
                !result["winners"].as_array().unwrap().contains(&json!(1)),
                "{result}"
            );
            assert_eq!(result["ranking"][2], 1, "the resigner ranks last: {result}");
            assert_eq!(result["scores"][1]["retired"], "resigned");
            assert!(bot_turns > 0, "the stand-in played");
            let record = s.get(
                &format!("/api/v1/games/{id}/record"),
                Some(&players[2].token),
            );
            assert_eq!(record.status, 200);
            let decisions = record.json()["decisions"].as_array().unwrap().clone();
            assert!(decisions.iter().any(|d| d["decision"]["type"] == "resign"));
            return;
        }
        let to_act = view["state"]["to_act"].as_u64().unwrap() as usize;
        if to_act == 1 {
            if last_to_act != Some(view["version"].clone()) {
                bot_turns += 1;
                last_to_act = Some(view["version"].clone());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
            continue;
        }
        let me = s.game(id, &players[to_act]);
        let legal = me["state"]["legal_decisions"].as_array().unwrap();
        if legal.is_empty() {
            continue;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let d = &legal[(rng >> 33) as usize % legal.len()];
        let a = s.decide(id, &players[to_act], me["version"].as_i64().unwrap(), d);
        assert!(a.status == 200 || a.status == 409, "{d} -> {}", a.text);
    }
    panic!("the game did not finish");
}

on_both_databases!(resigning_from_three_players_lets_the_others_play_on);
