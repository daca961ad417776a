//! No input makes the server answer 500: every route and method of the OpenAPI document, with
//! junk bodies, ids, queries and tokens. Every error carries the problem shape.

use crate::support;

use serde_json::{json, Value};
use support::Db;

fn junk_bodies(seed: u64) -> Vec<Value> {
    let mut v = vec![
        Value::Null,
        json!(0),
        json!(-1),
        json!("text"),
        json!([]),
        json!({}),
        json!({"variant": 7, "players": "two"}),
        json!({"variant": "keltis", "players": 255}),
        json!({"variant": "keltis", "players": -3}),
        json!({"name": "", "password": ""}),
        json!({"name": "a".repeat(300), "password": "x".repeat(300)}),
        json!({"refresh_token": 12}),
        json!({"expected_version": "x", "decision": {"type": "lay"}}),
        json!({"expected_version": 1e300, "decision": {"type": "draw_pile", "color": "red"}}),
        json!({"expected_version": -9223372036854775808i64, "decision": {"type": "draw_deck"}}),
        json!({"expected_version": 0, "decision": {"type": "take_stone", "cards": [{"color": "gray", "value": 3}]}}),
        json!({"expected_version": 2, "decision": {"type": "step", "pawn": 300, "to": "r1c0"}}),
        json!({"user": null}),
        json!({"name": "t", "scopes": ["admin"]}),
        json!({"name": "t", "scopes": []}),
    ];
    // A few generated ones: nested objects with plausible keys and odd values.
    let keys = [
        "type", "card", "color", "value", "pawn", "to", "path", "decision", "variant",
    ];
    let mut x = seed;
    for _ in 0..10 {
        let mut obj = serde_json::Map::new();
        for _ in 0..4 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = keys[(x >> 40) as usize % keys.len()];
            let val = match (x >> 20) % 5 {
                0 => json!(x as i64),
                1 => json!(format!("{:x}", x)),
                2 => json!({"color": "blue", "value": (x % 20) as i64}),
                3 => json!([x % 3, null]),
                _ => json!(true),
            };
            obj.insert(k.into(), val);
        }
        v.push(Value::Object(obj));
    }
    v
}

fn no_input_makes_the_server_answer_500(db: Db) {
    {
        let s = support::spawn(db, |_| {}).expect("a database for this test");
        let user = s.register("fuzzer");
        let other = s.register("fuzzer2");
        let game = s.started_game("keltis-card", &[user.clone(), other]);
        let spec: Value = s.get("/openapi.json", None).json();
        let mut checked = 0;
        for (route, item) in spec["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                for id in [
                    game.to_string(),
                    "0".into(),
                    "-5".into(),
                    "99999999999999999999".into(),
                    "x".into(),
                ] {
                    let path = route.replace("{id}", &id);
                    for token in [
                        Some(user.token.as_str()),
                        None,
                        Some("kt_junk"),
                        Some("a.b.c"),
                    ] {
                        for body in junk_bodies(checked as u64 + 1).into_iter().take(
                            if token == Some(user.token.as_str()) {
                                40
                            } else {
                                2
                            },
                        ) {
                            let url = s.url(&format!("{path}?after=-1&limit=0&filter=mine&wait=0"));
                            let mut req = match method.as_str() {
                                "get" => s.client.get(url),
                                "post" => s.client.post(url).json(&body),
                                "put" => s.client.put(url).json(&body),
                                "delete" => s.client.delete(url),
                                other => panic!("method {other}"),
                            };
                            if let Some(t) = token {
                                req = req.bearer_auth(t);
                            }
                            let a = s.send(req);
                            assert!(
                                a.status < 500,
                                "{method} {path} {body} -> {} {}",
                                a.status,
                                a.text
                            );
                            if a.status >= 400 {
                                let problem = a.json();
                                assert!(
                                    problem["code"].is_string() && problem["message"].is_string(),
                                    "{method} {path}: {}",
                                    a.text
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} requests");
    }
}

on_both_databases!(no_input_makes_the_server_answer_500);
