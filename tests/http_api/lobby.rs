//! The lobby (joining, leaving, invitations, the lists of games) and the server's health and docs.

use super::support::{Db, User};
use super::{server, users};
use serde_json::json;

fn lobby_join_leave_invite_and_lists(db: Db) {
    let Some(s) = server(db) else { return };
    let [a, b, c] = <[User; 3]>::try_from(users(&s, "lobby", 3)).ok().unwrap();
    let g = s.post(
        "/api/v1/games",
        Some(&a.token),
        json!({"variant": "keltis", "players": 3}),
    );
    assert_eq!(g.status, 201);
    let id = g.json()["id"].as_i64().unwrap();
    let open = s.get("/api/v1/games?filter=open", Some(&b.token)).json();
    assert!(open["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id));
    assert_eq!(
        s.post(
            &format!("/api/v1/games/{id}/join"),
            Some(&b.token),
            json!({})
        )
        .status,
        200
    );
    let again = s.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&b.token),
        json!({}),
    );
    assert_eq!((again.status, again.code()), (409, "already_seated".into()));
    let left = s.post(
        &format!("/api/v1/games/{id}/leave"),
        Some(&b.token),
        json!({}),
    );
    assert_eq!(left.status, 200);
    assert_eq!(left.json()["seats"].as_array().unwrap().len(), 1);
    // Invitation only.
    let g = s.post(
        "/api/v1/games",
        Some(&a.token),
        json!({"variant": "keltis-card", "players": 2, "invite_only": true}),
    );
    let private = g.json()["id"].as_i64().unwrap();
    let open = s.get("/api/v1/games", Some(&c.token)).json();
    assert!(!open["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == private));
    let refused = s.post(
        &format!("/api/v1/games/{private}/join"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!(
        (refused.status, refused.code()),
        (403, "invite_only".into())
    );
    let inv = s.post(
        &format!("/api/v1/games/{private}/invites"),
        Some(&a.token),
        json!({"user": "lobby2"}),
    );
    assert_eq!(inv.status, 200, "{}", inv.text);
    let mine = s.get("/api/v1/games?filter=mine", Some(&c.token)).json();
    assert!(mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == private));
    let joined = s.post(
        &format!("/api/v1/games/{private}/join"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!(joined.status, 200);
    assert_eq!(joined.json()["status"], "active", "a full game starts");
    let late = s.post(
        &format!("/api/v1/games/{private}/leave"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!((late.status, late.code()), (409, "game_started".into()));
    // Resign ends it; the other player wins.
    let r = s.post(
        &format!("/api/v1/games/{private}/resign"),
        Some(&c.token),
        json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let result = &r.json()["state"]["result"];
    assert_eq!(result["end_reason"]["reason"], "resigned");
    assert_eq!(result["winners"], json!([0]));
    assert_eq!(
        s.get(&format!("/api/v1/games/{private}/record"), Some(&a.token))
            .status,
        200
    );
}

fn health_and_docs(db: Db) {
    let Some(s) = server(db) else { return };
    assert_eq!(s.get("/healthz", None).json()["status"], "ok");
    assert_eq!(s.get("/readyz", None).json()["status"], "ready");
    let spec = s.get("/openapi.json", None).json();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    let docs = s.get("/docs/", None);
    assert_eq!(docs.status, 200);
    assert!(docs.text.contains("swagger"), "Swagger UI is served");
}

crate::on_both_databases!(lobby_join_leave_invite_and_lists, health_and_docs,);
