//! Players together (issue 33), over HTTP on both databases: table chat (live on the game's
//! stream, once and in order; pages; unread counts; limits), private notes that no other route
//! shows, and blocks.

use crate::support;

use serde_json::{json, Value};
use support::sse::{Frame, Sse};
use support::{Db, TestServer, User};

fn say(s: &TestServer, id: i64, who: &User, text: &str) -> support::Answer {
    s.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&who.token),
        json!({ "text": text }),
    )
}

fn chat_texts(s: &TestServer, id: i64, who: &User) -> Vec<String> {
    let a = s.get(&format!("/api/v1/games/{id}/chat"), Some(&who.token));
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

/// The next chat frame of a stream (events of the game are skipped): its id and message.
fn next_chat(stream: &mut Sse) -> (String, Value) {
    loop {
        match stream.frame().expect("the stream goes on") {
            Frame::Event {
                id,
                event: Some(kind),
                data,
            } if kind == "chat" => return (id.expect("an id"), data),
            _ => continue,
        }
    }
}

fn count(s: &TestServer, table: &str) -> usize {
    s.count(&format!("SELECT COUNT(*) AS n FROM {table}"))
}

fn a_table_talks(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben, cy) = (s.register("anna"), s.register("ben"), s.register("cyd"));
    let id = s.started_game("keltis", &[anna.clone(), ben.clone()]);
    let stream_url = s.url(&format!("/api/v1/games/{id}/stream?chat=true"));
    let mut anna_hears = Sse::open(&stream_url, Some(&anna.token), None);
    let mut ben_hears = Sse::open(&stream_url, Some(&ben.token), None);

    let lines = [
        (&anna, "Good luck!"),
        (&ben, "You too"),
        (&anna, "Nice move"),
    ];
    for (who, text) in lines {
        let a = say(&s, id, who, &format!("  {text} "));
        assert_eq!(a.status, 201, "{}", a.text);
        assert_eq!(a.json()["text"], text, "trimmed");
        assert_eq!(a.json()["user"], who.name);
    }
    // Each seat hears every message once, in order; the ids resume both cursors.
    for stream in [&mut anna_hears, &mut ben_hears] {
        let mut last = 0;
        for (who, text) in lines {
            let (frame_id, message) = next_chat(stream);
            assert_eq!(
                (&message["user"], &message["text"]),
                (&json!(who.name), &json!(text))
            );
            let (_, msg) = frame_id.split_once('.').expect("<seq>.<message id>");
            assert_eq!(msg.parse::<i64>().unwrap(), message["id"].as_i64().unwrap());
            assert!(message["id"].as_i64().unwrap() > last);
            last = message["id"].as_i64().unwrap();
        }
    }
    // Resuming after the second message gives the third alone.
    let first_two = chat_texts(&s, id, &anna);
    assert_eq!(
        first_two,
        ["Nice move", "You too", "Good luck!"],
        "newest first"
    );
    let page = s
        .get(
            &format!("/api/v1/games/{id}/chat?limit=1"),
            Some(&anna.token),
        )
        .json();
    let before = page["next_before"].as_i64().unwrap();
    let second = s
        .get(
            &format!("/api/v1/games/{id}/chat?limit=1&before={before}"),
            Some(&anna.token),
        )
        .json();
    assert_eq!(second["messages"][0]["text"], "You too");
    let second_id = second["messages"][0]["id"].as_i64().unwrap();
    let version = s.game(id, &anna)["version"].as_i64().unwrap();
    let mut resumed = Sse::resume(&stream_url, &anna.token, &format!("{version}.{second_id}"));
    assert_eq!(next_chat(&mut resumed).1["text"], "Nice move");

    // Never in the game's event log.
    let events = s.events(id, &anna);
    assert!(events.iter().all(|e| !e.to_string().contains("Nice move")));

    // A spectator and a stranger read and write nothing.
    for path in [
        format!("/api/v1/games/{id}/chat"),
        format!("/api/v1/games/{id}/note"),
    ] {
        let a = s.get(&path, Some(&cy.token));
        assert_eq!((a.status, a.code()), (403, "not_seated".into()), "{path}");
    }
    let a = say(&s, id, &cy, "hello");
    assert_eq!((a.status, a.code()), (403, "not_seated".into()));
    let a = Sse::request(&stream_url, Some(&cy.token), None);
    assert_eq!(a.status(), 403);
    // Without `chat` the stream is the game's alone, for anyone.
    let a = Sse::request(
        &s.url(&format!("/api/v1/games/{id}/stream")),
        Some(&cy.token),
        None,
    );
    assert_eq!(a.status(), 200);

    // Unread: ben has not read anna's two; reading marks them.
    let unread = |who: &User| {
        let games = s.get("/api/v1/me/games", Some(&who.token)).json();
        games["games"][0]["unread_messages"].as_i64().unwrap()
    };
    assert_eq!((unread(&ben), unread(&anna)), (2, 1));
    let newest = s
        .get(&format!("/api/v1/games/{id}/chat"), Some(&ben.token))
        .json()["messages"][0]["id"]
        .clone();
    let read = s.send(
        s.client
            .put(s.url(&format!("/api/v1/games/{id}/chat/read")))
            .bearer_auth(&ben.token)
            .json(&json!({ "last_read": newest })),
    );
    assert_eq!(read.status, 204, "{}", read.text);
    assert_eq!(unread(&ben), 0);

    // Ten messages a minute (anna wrote two already), then 429 with Retry-After; a minute later,
    // again.
    let written = count(&s, "chat_messages");
    for n in 0..8 {
        assert_eq!(say(&s, id, &anna, &format!("line {n}")).status, 201);
    }
    let a = say(&s, id, &anna, "one too many");
    assert_eq!((a.status, a.code()), (429, "rate_limited".into()));
    let retry_after: u64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert_eq!(count(&s, "chat_messages"), written + 8);
    s.clock.advance(61_000);
    assert_eq!(say(&s, id, &anna, "back").status, 201);
}

fn bad_messages_store_nothing(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben, cy) = (s.register("anna"), s.register("ben"), s.register("cyd"));
    let id = s.started_game("keltis-card", &[anna.clone(), ben.clone()]);
    let other = s.started_game("keltis-card", &[ben.clone(), cy.clone()]);
    let refused = [
        (id, json!({"text": "x".repeat(501)}), 422, "invalid_message"),
        (
            id,
            json!({"text": "x".repeat(100_000)}),
            413,
            "body_too_large",
        ),
        (id, json!({"text": "   "}), 422, "invalid_message"),
        (id, json!({"text": "two\nlines"}), 422, "invalid_message"),
        (id, json!({"text": "bell\u{7}"}), 422, "invalid_message"),
        (id, json!({"text": 5}), 422, "invalid_body"),
        (id, json!({"text": "hi", "to": "ben"}), 422, "invalid_body"),
        (other, json!({"text": "not my game"}), 403, "not_seated"),
        (999_999, json!({"text": "no game"}), 404, "not_found"),
    ];
    for (game, body, status, code) in refused {
        let a = s.post(
            &format!("/api/v1/games/{game}/chat"),
            Some(&anna.token),
            body.clone(),
        );
        let shown: String = body.to_string().chars().take(80).collect();
        assert_eq!((a.status, a.code()), (status, code.into()), "{shown}");
    }
    let a = s.send(
        s.client
            .put(s.url(&format!("/api/v1/games/{id}/note")))
            .bearer_auth(&anna.token)
            .json(&json!({"text": "x".repeat(5001)})),
    );
    assert_eq!((a.status, a.code()), (422, "invalid_note".into()));
    let a = s.get(
        &format!("/api/v1/games/{id}/chat?limit=101"),
        Some(&anna.token),
    );
    assert_eq!(a.status, 400);
    assert_eq!(count(&s, "chat_messages"), 0);
    assert_eq!(count(&s, "game_notes"), 0);
}

/// Every GET of the document, called as another player with the parameters pointing at the
/// game, the player and the note's author.
pub(crate) fn every_read_as(
    s: &TestServer,
    who: &User,
    game: i64,
    author: &str,
) -> Vec<(String, String)> {
    let spec: Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    let mut answers = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        if path.ends_with("/stream") || item.get("get").is_none() {
            continue;
        }
        let path = path
            .replace("{id}", &game.to_string())
            .replace("{name}", author)
            .replace("{variant}", "keltis")
            .replace("{step}", "1");
        let a = s.get(&path, Some(&who.token));
        answers.push((path, a.text));
    }
    answers
}

/// Everything a stream of `url` sends as `who` until it falls silent (its first heartbeat).
pub(crate) fn streamed_until_silent(url: &str, who: &User) -> String {
    let mut stream = Sse::open(url, Some(&who.token), None);
    let mut seen = String::new();
    while let Some(frame) = stream.frame() {
        match frame {
            Frame::Comment(c) if c == "heartbeat" => break,
            other => seen.push_str(&format!("{other:?}")),
        }
    }
    seen
}

fn a_note_is_its_authors_alone(db: Db) {
    // Streams fall silent within a second, so that the test reads them to their end.
    let s =
        support::spawn(db, |c| c.stream_heartbeat_seconds = 1).expect("a database for this test");
    let (anna, ben) = (s.register("anna"), s.register("ben"));
    let id = s.started_game("keltis", &[anna.clone(), ben.clone()]);
    let secret = "Ben keeps the pink pile: discard no pink";
    let set = |who: &User, text: &str| {
        s.send(
            s.client
                .put(s.url(&format!("/api/v1/games/{id}/note")))
                .bearer_auth(&who.token)
                .json(&json!({ "text": text })),
        )
    };
    let a = set(&anna, &format!("{secret}\n\tline two"));
    assert_eq!(a.status, 200, "{}", a.text);
    let note = s
        .get(&format!("/api/v1/games/{id}/note"), Some(&anna.token))
        .json();
    assert_eq!(note["text"], format!("{secret}\n\tline two"));
    assert!(note["updated_at"].is_i64());
    let bens = s
        .get(&format!("/api/v1/games/{id}/note"), Some(&ben.token))
        .json();
    assert_eq!(bens, json!({"text": "", "updated_at": null}));

    let mut checked = 0;
    for (path, text) in every_read_as(&s, &ben, id, "anna") {
        assert!(
            !text.contains("pink pile"),
            "{path} shows anna's note to ben"
        );
        checked += 1;
    }
    assert!(checked > 20, "{checked} routes");
    // Nor the streams: the game's (with its chat) and ben's own.
    for path in [
        format!("/api/v1/games/{id}/stream?chat=true"),
        "/api/v1/me/stream?after=0".to_string(),
    ] {
        let seen = streamed_until_silent(&s.url(&path), &ben);
        assert!(
            !seen.is_empty() && !seen.contains("pink pile"),
            "{path}: {seen}"
        );
    }
    // Ben's export does not have it; anna's does.
    let export = |who: &User| s.get("/api/v1/me/export", Some(&who.token)).text;
    assert!(!export(&ben).contains("pink pile"));
    assert!(export(&anna).contains("pink pile"));
    // The game's end and its record do not reveal it either.
    while s.game(id, &anna)["status"] != "over" {
        s.finish_turn(id, &[anna.clone(), ben.clone()]);
    }
    for (path, text) in every_read_as(&s, &ben, id, "anna") {
        assert!(
            !text.contains("pink pile"),
            "{path} shows anna's note after the end"
        );
    }
    // An empty text deletes it.
    assert_eq!(set(&anna, "").status, 200);
    assert_eq!(count(&s, "game_notes"), 0);
}

fn blocks_keep_players_apart(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let (anna, ben, cy) = (s.register("anna"), s.register("ben"), s.register("cyd"));
    // A game under way among the three, before the block.
    let id = s.started_game("keltis", &[anna.clone(), ben.clone(), cy.clone()]);
    let block = |who: &User, name: &str| {
        s.send(
            s.client
                .put(s.url(&format!("/api/v1/me/blocks/{name}")))
                .bearer_auth(&who.token),
        )
    };
    assert_eq!(block(&ben, "anna").status, 204);
    assert_eq!(
        block(&ben, "anna").status,
        204,
        "blocking again changes nothing"
    );
    let a = block(&ben, "ben");
    assert_eq!((a.status, a.code()), (422, "cannot_block_self".into()));
    assert_eq!(block(&ben, "nobody").status, 404);
    let list = s.get("/api/v1/me/blocks", Some(&ben.token)).json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["user"], "anna");

    // Messages: neither sees the other's; cy sees both; the game goes on.
    assert_eq!(say(&s, id, &anna, "from anna").status, 201);
    assert_eq!(say(&s, id, &ben, "from ben").status, 201);
    assert_eq!(chat_texts(&s, id, &ben), ["from ben"]);
    assert_eq!(chat_texts(&s, id, &anna), ["from anna"]);
    assert_eq!(chat_texts(&s, id, &cy), ["from ben", "from anna"]);
    let unread =
        s.get("/api/v1/me/games", Some(&ben.token)).json()["games"][0]["unread_messages"].clone();
    assert_eq!(unread, 0, "a blocked player's messages are not unread");
    s.finish_turn(id, &[anna.clone(), ben.clone(), cy.clone()]);
    assert_eq!(s.game(id, &anna)["status"], "active");

    // Invitations and joining: refused to the blocked player.
    let bens_game = s.create(&ben, json!({"variant": "keltis", "players": 3}));
    let a = s.post(
        &format!("/api/v1/games/{bens_game}/join"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!((a.status, a.code()), (403, "blocked".into()));
    let annas_game = s.create(&anna, json!({"variant": "keltis", "players": 3}));
    let a = s.post(
        &format!("/api/v1/games/{annas_game}/invites"),
        Some(&anna.token),
        json!({"user": "ben"}),
    );
    assert_eq!((a.status, a.code()), (403, "blocked".into()));
    // Others still may.
    let a = s.post(
        &format!("/api/v1/games/{bens_game}/join"),
        Some(&cy.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);

    // Undone, all is as before.
    let a = s.send(
        s.client
            .delete(s.url("/api/v1/me/blocks/anna"))
            .bearer_auth(&ben.token),
    );
    assert_eq!(a.status, 204);
    assert_eq!(
        s.send(
            s.client
                .delete(s.url("/api/v1/me/blocks/anna"))
                .bearer_auth(&ben.token)
        )
        .status,
        404
    );
    assert_eq!(chat_texts(&s, id, &ben), ["from ben", "from anna"]);
    let a = s.post(
        &format!("/api/v1/games/{bens_game}/join"),
        Some(&anna.token),
        json!({}),
    );
    assert_eq!(a.status, 200, "{}", a.text);
}

on_both_databases!(
    a_table_talks,
    bad_messages_store_nothing,
    a_note_is_its_authors_alone,
    blocks_keep_players_apart
);
