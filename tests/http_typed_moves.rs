//! Moves in words over HTTP (issue 49), on SQLite and on PostgreSQL when `TEST_DATABASE_URL` is
//! set: whole games of every variant played by typing the choices' own words in the three
//! languages in turn; a number, several steps at once; words that fit several choices or none
//! answered with the choices in words, and nothing played on any refusal.

use crate::support;

use serde_json::{json, Value};
use support::{Db, TestServer, User};

fn choices(s: &TestServer, game: i64, user: &User, language: &str) -> Value {
    let a = s.get(
        &format!("/api/v1/games/{game}/choices?language={language}"),
        Some(&user.token),
    );
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

fn typed(s: &TestServer, game: i64, user: &User, version: &Value, text: &str) -> support::Answer {
    s.post(
        &format!("/api/v1/games/{game}/typed-moves"),
        Some(&user.token),
        json!({"expected_version": version, "text": text}),
    )
}

/// Whoever is to act types the words of a choice (the first, the last, the middle one in turn),
/// read in English, French and German in turn; each plays exactly the decision it names.
fn whole_games_are_played_by_words(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    for (variant, players, prefix) in [
        ("keltis-card", 2, "kc"),
        ("keltis", 3, "kt"),
        ("neue-wege", 2, "nw"),
    ] {
        let users: Vec<User> = (0..players)
            .map(|i| s.register(&format!("{prefix}{i}")))
            .collect();
        let game = s.started_game(variant, &users);
        let mut moves = 0usize;
        loop {
            let view = s.game(game, &users[0]);
            if view["status"] != "active" {
                break;
            }
            let seat = view["state"]["to_act"].as_u64().expect("a seat to act") as usize;
            let player = &users[seat];
            let language = ["en", "fr", "de"][moves % 3];
            let turn = choices(&s, game, player, language);
            let list = turn["choices"].as_array().expect("choices");
            assert!(!list.is_empty(), "{turn}");
            let mine = s.game(game, player);
            let legal: Vec<&Value> = mine["state"]["legal_decisions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["type"] != "resign")
                .collect();
            let listed: Vec<&Value> = list.iter().map(|c| &c["decision"]).collect();
            assert_eq!(listed, legal, "numbered as the legal decisions");
            let pick = &list[[0, list.len() - 1, list.len() / 2][moves % 3]];
            let words = pick["words"].as_str().unwrap();
            assert!(!words.contains('{'), "{words}");
            let a = typed(&s, game, player, &turn["version"], words);
            assert_eq!(a.status, 200, "{words}: {}", a.text);
            let answer = a.json();
            assert_eq!(answer["decisions"], json!([pick["decision"]]), "{words}");
            assert_eq!(answer["played"].as_array().unwrap().len(), 1);
            moves += 1;
            // The others' choices are empty meanwhile.
            let other = &users[(seat + 1) % users.len()];
            let theirs = choices(&s, game, other, "en");
            if theirs["version"] == answer["game"]["version"]
                && answer["game"]["state"]["to_act"] != json!((seat + 1) % users.len())
            {
                assert_eq!(theirs["choices"], json!([]));
            }
        }
        assert!(moves > 20, "{variant}: {moves} moves");
        let over = s.game(game, &users[0]);
        assert_eq!(over["status"], "over");
        // After the end the rules answer, as for a decision.
        let a = typed(&s, game, &users[0], &over["version"], "1");
        assert_eq!(
            (a.status, a.code().as_str()),
            (422, "game_over"),
            "{}",
            a.text
        );
    }
}

/// A number plays that choice; several steps play in order; words that fit several choices or
/// none, and any step refused, play nothing and answer with the choices in words.
fn refusals_play_nothing_and_answer_with_the_choices(db: Db) {
    let s = support::spawn(db, |_| {}).expect("a database for this test");
    let users = [s.register("ann"), s.register("ben"), s.register("cat")];
    let game = s.started_game("keltis-card", &users[..2]);
    let view = s.game(game, &users[0]);
    let seat = view["state"]["to_act"].as_u64().unwrap() as usize;
    let (player, other) = (&users[seat], &users[1 - seat]);
    let turn = choices(&s, game, player, "de");
    let version = turn["version"].clone();
    assert_eq!(turn["language"], "de");
    let english = choices(&s, game, player, "en");
    assert_ne!(turn["choices"][0]["words"], english["choices"][0]["words"]);
    assert!(turn["choices"][0]["words"]
        .as_str()
        .unwrap()
        .contains("legen"));
    assert_eq!(choices(&s, game, other, "en")["choices"], json!([]));
    let a = s.get(
        &format!("/api/v1/games/{game}/choices"),
        Some(&users[2].token),
    );
    assert_eq!((a.status, a.code().as_str()), (403, "not_seated"));

    let refused = |text: &str, code: &str| -> Value {
        let a = typed(&s, game, player, &version, text);
        assert_eq!(
            (a.status, a.code().as_str()),
            (422, code),
            "{text}: {}",
            a.text
        );
        let body = a.json();
        assert!(body["choices"].is_array(), "{}", a.text);
        assert_eq!(s.game(game, player)["version"], version, "nothing played");
        body
    };
    refused("lorem ipsum", "words_unreadable");
    refused("lay lorem ipsum", "words_unreadable");
    refused("99", "words_not_a_choice");
    // A colour of which the hand holds two cards: which one?
    let hand: Vec<String> = turn["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["decision"]["type"] == "lay")
        .map(|c| {
            c["decision"]["card"]["color"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    let twice = hand
        .iter()
        .find(|c| hand.iter().filter(|d| d == c).count() > 1)
        .expect("eight cards of five colours: two of one");
    let body = refused(&format!("lay {twice}"), "words_ambiguous");
    assert!(body["choices"].as_array().unwrap().len() > 1, "{body}");
    // The first step fits, the second names nothing: neither is played.
    refused("1 then lorem", "words_unreadable");
    let a = typed(&s, game, player, &json!(0), "1");
    assert_eq!((a.status, a.code().as_str()), (409, "stale_version"));
    let a = typed(&s, game, other, &version, "1");
    assert_eq!(
        (a.status, a.code().as_str()),
        (422, "not_your_turn"),
        "{}",
        a.text
    );
    assert_eq!(s.game(game, player)["version"], version);
    // What the player cannot see is refused, never read as a space and played: control
    // characters, line ends, zero-width and direction characters.
    for hidden in [
        "1\u{0}",
        "1\u{7f}",
        "1\u{85}",
        "1\n",
        "\t1",
        "1\r",
        "1\u{8}",
        "lay\u{0}blue 4",
        "1\u{200b}",
        "\u{202e}1\u{202c}",
    ] {
        let a = typed(&s, game, player, &version, hidden);
        assert_eq!(
            (a.status, a.code().as_str()),
            (422, "invalid_body"),
            "{hidden:?}: {}",
            a.text
        );
    }
    assert_eq!(s.game(game, player)["version"], version, "nothing played");

    // A number, then the deck: two steps played in order.
    let a = typed(&s, game, player, &version, "1 then deck");
    assert_eq!(a.status, 200, "{}", a.text);
    let answer = a.json();
    assert_eq!(answer["decisions"][0], turn["choices"][0]["decision"]);
    assert_eq!(answer["decisions"][1], json!({"type": "draw_deck"}));
    assert!(answer["played"][1]
        .as_str()
        .unwrap()
        .starts_with(&player.name));
    assert_eq!(
        answer["game"]["version"].as_i64(),
        version.as_i64().map(|v| v + 2)
    );
}

on_both_databases!(
    whole_games_are_played_by_words,
    refusals_play_nothing_and_answer_with_the_choices,
);
