//! Plans for the next turn, raced: a plan kept at the moment the turn it is for begins is played
//! once (by the request that began the turn or by a worker of either instance), or refused as
//! stale; never kept beside a turn that began without it.

use super::*;

fn put_plan(s: &TestServer, game: i64, user: &User, version: i64) -> support::Answer {
    s.send(
        s.client
            .put(s.url(&format!("/api/v1/games/{game}/plan")))
            .bearer_auth(&user.token)
            .json(&json!({"expected_version": version, "alternatives": [
                {"text": "1 then deck"}, {"text": "1"}
            ]})),
    )
}

pub(super) fn plan_kept_or_refused_as_the_turn_begins(db: Db) {
    let site = Site::start(db, |_| {});
    for round in 0..ROUNDS {
        let players = users(site.a(), &format!("pl{round}_"), 2);
        let id = site.a().started_game("keltis-card", &players);
        let s = site.a();
        // Ben to act, his card played: his draw begins her turn.
        let view = s.game(id, &players[0]);
        let (anna, ben) = if view["state"]["to_act"] == json!(1) {
            (&players[0], &players[1])
        } else {
            (&players[1], &players[0])
        };
        let his = s.game(id, ben);
        let card = his["state"]["legal_decisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["type"] == "discard")
            .cloned()
            .unwrap();
        let a = s.decide(id, ben, his["version"].as_i64().unwrap(), &card);
        assert_eq!(a.status, 200, "{}", a.text);
        let v = a.json()["version"].as_i64().unwrap();
        let answers = site.race(2, |i, server| match i {
            0 => put_plan(server, id, anna, v),
            _ => server.decide(id, ben, v, &json!({"type": "draw_deck"})),
        });
        documented("put", "/api/v1/games/{id}/plan", &answers[..1]);
        documented("post", "/api/v1/games/{id}/decisions", &answers[1..]);
        assert_eq!(answers[1].status, 200, "round {round}: {}", answers[1].text);
        let kept = answers[0].status == 200;
        if !kept {
            assert_eq!(codes(&answers, 409), vec!["stale_version"], "round {round}");
        }
        // Played at once or by a worker's pass of either instance: wait for no plan to wait.
        let mut state = Value::Null;
        for _ in 0..200 {
            state = s
                .get(&format!("/api/v1/games/{id}/plan"), Some(&anna.token))
                .json();
            if state["plan"].is_null() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        assert!(
            state["plan"].is_null(),
            "round {round}: a plan left waiting: {state}"
        );
        let outcomes = state["outcomes"].as_array().unwrap();
        let game = s.game(id, anna);
        if kept {
            assert_eq!(outcomes.len(), 1, "round {round}: played once: {state}");
            assert_eq!(outcomes[0]["played"], true, "round {round}: {state}");
            assert_eq!(
                game["version"].as_i64().unwrap(),
                v + 1 + outcomes[0]["steps"].as_i64().unwrap(),
                "round {round}: her steps appended once"
            );
        } else {
            assert!(outcomes.is_empty(), "round {round}: {state}");
            assert_eq!(game["version"].as_i64(), Some(v + 1), "round {round}");
        }
        assert_eq!(
            site.a().count(&format!(
                "SELECT COUNT(*) AS n FROM turn_plans WHERE game_id = {id}"
            )),
            0
        );
    }
}
