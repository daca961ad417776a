//! Whole games of every variant played by clicking, and two players seeing each other's moves live.

use super::*;

/// A variant's name as the English catalogue says it.
fn variant_name(variant: &str) -> &'static str {
    match variant {
        "keltis" => "Keltis",
        "neue-wege" => "Keltis: Neue Wege, neue Ziele",
        _ => "Keltis Card",
    }
}

/// A whole game of `variant` against bot-greedy, from registration to the final score, by
/// clicking; then its record stepped through in the viewer. Checks what every variant shares:
/// the result and the scores shown are the server's, the clock shows, no request leaves the
/// server, the first load of the game page stays under 300 KB, every board space has its ring,
/// and axe-core finds nothing serious on the lobby and the game page.
fn play_in_browser(variant: &str, player: &str) -> Value {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("play_game.mjs", &[&s.base, player, variant]);
    let result = report["result"].as_str().unwrap_or_default();
    assert!(result.contains("Final ranking"), "{report}");
    // "Game over" shows once (the turn line), the log's last entry is the record's last move,
    // and the lobby says the game is over once.
    assert_eq!(report["ending"]["gameOver"], json!(1), "{report}");
    assert_eq!(report["ending"]["lastNumber"], report["moves"], "{report}");
    let lobby = report["lobbyLine"].as_str().unwrap_or_default();
    assert_eq!(lobby.matches("over").count(), 1, "{report}");
    // Played by keyboard alone, the focus never fell to the page's body after an action.
    assert_eq!(report["clicks"]["lostFocus"], json!(0), "{report}");
    let first_load = report["firstLoadBytes"].as_u64().unwrap_or_default();
    // Compressed, with an empty cache: under 150 KB.
    assert!((10_000..150 * 1024).contains(&first_load), "{report}");
    assert_eq!(report["outside"], json!([]), "{report}");
    assert_eq!(report["finishedConsole"], json!([]), "{report}");
    // Nor any console error from the first page to the game's end (a refused request is one).
    assert_eq!(report["playConsole"], json!([]), "{report}");
    assert_eq!(report["lobbyProblems"], json!([]), "{report}");
    assert_eq!(report["gameProblems"], json!([]), "{report}");
    // Every board space has its ring, jokers included.
    assert_eq!(report["unringed"], json!([]), "{report}");
    // Both seats' time shows (3 days per move).
    assert_eq!(
        report["clock"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );
    assert!(
        report["clock"][0]
            .as_str()
            .unwrap_or_default()
            .contains(" d "),
        "{report}"
    );
    // The server agrees: one finished game with the scores the page showed, seat by seat.
    let history: Value = serde_json::from_str(
        &s.get(
            &format!("/api/v1/history?player={player}"),
            Some(&s.register("onlooker").token),
        )
        .text,
    )
    .expect("history");
    let games = history["games"].as_array().cloned().unwrap_or_default();
    assert_eq!(games.len(), 1, "{history}");
    let totals: Vec<Value> = games[0]["seats"]
        .as_array()
        .map(|seats| seats.iter().map(|s| s["total"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(report["scores"], json!(totals), "{report} {history}");
    // The viewer: the deal first, then one decision after another, and the same result at the end.
    assert!(report["moves"].as_u64() > Some(20), "{report}");
    let seen = report["seen"].as_array().cloned().unwrap_or_default();
    assert_eq!(seen.first(), Some(&json!("The deal")), "{report}");
    // Each decision said as what its player did ("bot-greedy drew from the deck").
    assert!(
        seen[1..].iter().all(|m| m
            .as_str()
            .is_some_and(|m| m.starts_with(&format!("{player} ")) || m.starts_with("bot-greedy "))),
        "{report}"
    );
    assert_eq!(report["replayResult"], report["result"], "{report}");
    // The review asked for in the viewer: its marks, figures and lines are the API's.
    let id = report["gameId"].as_i64().expect("the game's id");
    let api = s.get(
        &format!("/api/v1/games/{id}/review"),
        Some(&s.register("reviewer").token),
    );
    assert_eq!(api.status, 200, "{}", api.text);
    let api = api.json()["review"].clone();
    let marks: Vec<Value> = api["decisions"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter(|d| !d["mark"].is_null())
                .map(|d| json!([d["index"].as_u64().unwrap_or_default() + 1, d["mark"]]))
                .collect()
        })
        .unwrap_or_default();
    let shown = &report["review"];
    assert_eq!(shown["marks"], json!(marks), "{report}");
    assert_eq!(shown["rows"], json!(2), "{report}");
    assert_eq!(shown["lines"], json!(2), "{report}");
    // At a phone's width the review's table does not widen the page (issue 68: 500 px at 412).
    assert_eq!(shown["phoneOverflow"], json!(0), "{report}");
    // Each player's accuracy as the page prints it (to the tenth): within half a tenth of the
    // API's (a tie such as 79.25 prints 79.3 in the page, where Rust would round it to 79.2).
    let numbers = |v: &Value| -> Vec<f64> {
        v.as_array()
            .map(|l| l.iter().map(|x| x.as_f64().unwrap_or(-1.0)).collect())
            .unwrap_or_default()
    };
    let accuracy: Vec<Value> = api["summary"]
        .as_array()
        .map(|l| l.iter().map(|p| p["accuracy"].clone()).collect())
        .unwrap_or_default();
    let (printed, exact) = (numbers(&shown["accuracy"]), numbers(&json!(accuracy)));
    assert_eq!(printed.len(), exact.len(), "{report}");
    let near = |printed: f64, exact: f64| (printed - exact).abs() <= 0.05 + 1e-9;
    for (printed, exact) in printed.iter().zip(&exact) {
        assert!(near(*printed, *exact), "{printed} for {exact}: {report}");
    }
    // The next mistake from the deal: the first mistake or blunder, its verdict in words.
    let first = marks
        .iter()
        .find(|m| m[1] == "mistake" || m[1] == "blunder");
    match first {
        Some(m) => {
            let jumped = &shown["jumped"];
            assert_eq!(jumped["mark"], m[1], "{report}");
            assert!(
                jumped["label"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with(&format!("Move {} ", m[0])),
                "{report}"
            );
            assert!(
                jumped["text"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("better: "),
                "{report}"
            );
        }
        None => assert_eq!(shown["jumped"], Value::Null, "{report}"),
    }
    // The profile, reached from the player's name: the finished game and the rating it gave.
    assert_eq!(report["profile"]["heading"], json!(player), "{report}");
    assert_eq!(report["profile"]["finished"], json!(1), "{report}");
    assert_eq!(report["profile"]["ratings"], json!(1), "{report}");
    // Their accuracy from the review, on the profile.
    let viewer = s.register("profile-reader");
    let detail = s
        .get(&format!("/api/v1/games/{id}"), Some(&viewer.token))
        .json();
    let seat = detail["seats"]
        .as_array()
        .and_then(|l| l.iter().find(|x| x["user"] == player))
        .map(|x| x["seat"].clone())
        .unwrap_or_default();
    let own = api["summary"]
        .as_array()
        .and_then(|l| l.iter().find(|p| p["seat"] == seat))
        .and_then(|p| p["accuracy"].as_f64())
        .unwrap_or(-1.0);
    // The line's figure is printed to the tenth as the review's page prints it (a tie rounds up).
    let lines = &report["profile"]["accuracy"];
    let shape = (lines.as_array().map(Vec::len), &lines[0][0]);
    assert_eq!(shape, (Some(1), &json!(variant)), "{report}");
    let line = lines[0][1].as_str().unwrap_or_default();
    let printed = line
        .strip_prefix(&format!("{}: ", variant_name(variant)))
        .and_then(|rest| rest.strip_suffix(" over one reviewed game"))
        .and_then(|figure| figure.parse::<f64>().ok());
    let near_own = printed.is_some_and(|p| near(p, own));
    assert!(near_own, "{line} for {own}: {report}");
    assert_eq!(report["peopleProblems"], json!([]), "{report}");
    assert_eq!(report["help"], json!("How to play Keltis"), "{report}");
    // The move log shows, in words, each of the other player's decisions since our last one.
    let log = &report["log"];
    let events = log["events"].as_array().cloned().unwrap_or_default();
    let shown = log["shown"].as_array().cloned().unwrap_or_default();
    assert!(!events.is_empty(), "{report}");
    assert_eq!(shown.len(), events.len(), "{report}");
    assert!(
        shown
            .iter()
            .all(|s| s.as_str().is_some_and(|s| s.starts_with("bot-greedy "))),
        "{report}"
    );
    assert_eq!(log["marked"], json!(1), "{report}");
    // Each entry numbered as the record numbers its move; the marker takes no number.
    assert!(log["numbered"].as_u64() > Some(0), "{report}");
    assert_eq!(log["misnumbered"], json!(0), "{report}");
    assert_eq!(log["markerNumbered"], json!(false), "{report}");
    // The log by keyboard: each step back lands on an entry of the log.
    let keys = &report["logKeys"];
    assert!(keys["entries"].as_u64() > Some(8), "{report}");
    assert!(keys["presses"].as_u64() >= Some(8), "{report}");
    assert_eq!(keys["focusedEntry"], keys["presses"], "{report}");
    assert_eq!(keys["stepped"], keys["presses"], "{report}");
    if report["keyboard"] == json!(true) && keys["withSpace"].as_u64() > Some(0) {
        // On a board, the entries of moves to a space show it (the log stepped through until
        // one did; a game whose last 60 moves all went to no space has none to show).
        assert!(keys["shown"].as_u64() > Some(0), "{report}");
    }
    report
}

#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn a_whole_keltis_card_game_by_clicking() {
    let report = play_in_browser("keltis-card", "clicker");
    assert!(report["clicks"]["card"].as_u64() > Some(10), "{report}");
}

/// A board game: cards played by clicking the space their pawn goes to (the first by keyboard).
fn board_game_by_clicking(variant: &str, player: &str) {
    let report = play_in_browser(variant, player);
    assert!(report["clicks"]["board"].as_u64() > Some(3), "{report}");
    assert_eq!(
        report["keyboard"],
        json!(true),
        "a move by keyboard alone: {report}"
    );
}

#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn a_whole_keltis_game_by_clicking() {
    board_game_by_clicking("keltis", "boarder");
}

#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn a_whole_neue_wege_game_by_clicking() {
    board_game_by_clicking("neue-wege", "wanderer");
}

/// Two browsers, a desktop and a phone (by touch): each sees the other's moves appear without
/// reloading; a second tab that missed a move is told so and shows the game as it is.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn two_players_see_each_others_moves_live() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("two_players.mjs", &[&s.base, "desk", "phone"]);
    let seen = report["seen"].as_array().cloned().unwrap_or_default();
    assert_eq!(seen.len(), 6, "{report}");
    for turn in &seen {
        assert_eq!(turn["after"], json!("Your turn"), "{report}");
        assert_ne!(turn["before"], turn["after"], "{report}");
        assert_eq!(turn["reloaded"], json!(false), "{report}");
    }
    // Both players moved.
    assert!(seen.iter().any(|t| t["mover"] == json!("desk")), "{report}");
    assert!(
        seen.iter().any(|t| t["mover"] == json!("phone")),
        "{report}"
    );
    // The tab that missed a move says so and shows the game as it is (the draw comes next).
    assert!(
        report["staleStatus"]
            .as_str()
            .is_some_and(|s| s.starts_with("Someone else moved first")),
        "{report}"
    );
    assert_eq!(report["staleOffersDraw"], json!(true), "{report}");
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// Play now in two browsers lands both players in one game; at its end a rematch offered on one
/// is accepted on the other, and both land in the new game; a challenge link shared on one seats
/// the other.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn play_now_a_rematch_and_a_challenge_link_in_two_browsers() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("play_now.mjs", &[&s.base, "desk", "phone"]);
    assert!(
        report["searching"]
            .as_str()
            .is_some_and(|t| t.starts_with("Searching")),
        "{report}"
    );
    assert!(
        report["waitingItem"]
            .as_str()
            .is_some_and(|t| t.contains("Keltis Card") && t.contains("waiting for")),
        "{report}"
    );
    let first = &report["first"];
    assert!(first["a"].as_i64().is_some_and(|id| id > 0), "{report}");
    assert_eq!(first["a"], first["b"], "the same game: {report}");
    assert_eq!(
        report["offered"],
        json!("Rematch offered: waiting for phone"),
        "{report}"
    );
    assert_eq!(report["told"], json!("desk offers a rematch"), "{report}");
    let second = &report["second"];
    assert_eq!(second["a"], second["b"], "the same new game: {report}");
    assert_ne!(second["a"], first["a"], "{report}");
    // The challenge link seated the phone at the desktop's invitation-only game.
    assert!(
        report["shared"]
            .as_str()
            .is_some_and(|l| l.contains("/join/")),
        "{report}"
    );
    assert_eq!(report["joined"], report["challenged"], "{report}");
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// An event in two browsers: made on the events page, entered from both, started once full; the
/// phone follows "Your game" and resigns, and the standings move. Then a ladder: both join, the
/// phone challenges the desktop and lands in the game.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn an_event_entered_played_and_standings_moved_in_two_browsers() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("events.mjs", &[&s.base, "desk", "phone"]);
    assert_eq!(
        report["before"],
        json!(["1\tdesk\t0\tBuchholz 0 · Sonneborn-Berger 0"]),
        "{report}"
    );
    assert!(
        report["summary"]
            .as_str()
            .is_some_and(|t| t.contains("round 1 of 1")),
        "{report}"
    );
    assert_eq!(
        report["after"],
        json!([
            "1\tdesk\t1\tBuchholz 0 · Sonneborn-Berger 0",
            "2\tphone\t0\tBuchholz 1 · Sonneborn-Berger 0"
        ]),
        "{report}"
    );
    assert_eq!(
        report["crosstable"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// Issue 49: a whole game of each variant played through the command line alone (the words of
/// the completion list, sometimes a number), against a bot; questions answered in words; words
/// naming nothing answered with the choices. Same words everywhere: every choice button the
/// board offers says one of the API's choices word for word, and what the API answers as played
/// is said alike in the move log.
///
/// One variant a test, each in a browser of its own, so that two play at once.
fn a_whole_game_played_through_the_command_line(variant: &str) {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("command_line.mjs", &[&s.base, "typist", variant]);
    let games = report["games"].as_array().expect("games");
    assert_eq!(games.len(), 1, "{report}");
    for game in games {
        assert_eq!(game["over"], "Game over", "{game}");
        assert!(game["typed"].as_u64().is_some_and(|n| n > 20), "{game}");
        assert!(game["numbers"].as_u64().is_some_and(|n| n > 0), "{game}");
        assert_eq!(
            game["unlike"],
            json!([]),
            "buttons the API does not say: {game}"
        );
        assert!(game["buttons"].as_u64().is_some_and(|n| n > 20), "{game}");
        assert_eq!(
            game["unlogged"],
            json!([]),
            "played words not in the log: {game}"
        );
        assert!(game["logged"].as_u64().is_some_and(|n| n > 20), "{game}");
        assert!(
            game["questions"]["hand"]
                .as_str()
                .is_some_and(|a| a.starts_with("Your hand: ")),
            "{game}"
        );
        assert!(
            game["questions"]["scores"]
                .as_str()
                .is_some_and(|a| a.contains("typist: ") && a.contains("points")),
            "{game}"
        );
        let refused = game["refused"].as_str().unwrap_or_default();
        assert!(
            refused.contains("lorem ipsum") && refused.contains("Your choices:"),
            "{game}"
        );
        let id = game["id"].as_i64().unwrap();
        assert_eq!(
            s.count(&format!(
                "SELECT COUNT(*) AS n FROM games WHERE id = {id} AND status = 'over'"
            )),
            1
        );
    }
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// Issue 49: the text-first table, by keyboard alone: the game page's first link opens it; a
/// whole game of each variant played by typing completions; the accessibility tree read after
/// every move names no internal id; each of the bot's moves announced once, in words; axe finds
/// nothing serious.
///
/// One variant a test, each in a browser of its own, so that two play at once.
fn a_whole_game_at_the_text_table_by_keyboard(variant: &str) {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("text_table.mjs", &[&s.base, "reader", variant]);
    let games = report["games"].as_array().expect("games");
    assert_eq!(games.len(), 1, "{report}");
    for game in games {
        assert_eq!(
            game["firstLink"], "first-link: Text table (for screen readers and keyboards)",
            "{game}"
        );
        assert_eq!(game["over"], "Game over", "{game}");
        assert!(game["moves"].as_u64().is_some_and(|n| n > 20), "{game}");
        assert_eq!(game["ids"], json!([]), "{game}");
        assert!(game.get("focusLost").is_none(), "{game}");
        let announced = game["announced"].as_array().expect("announced");
        assert_eq!(
            Some(announced.len() as u64),
            game["botMoves"].as_u64(),
            "each of the bot's moves once: {game}"
        );
        assert!(
            announced
                .iter()
                .all(|a| a.as_str().is_some_and(|a| a.starts_with("bot-random "))),
            "{game}"
        );
        for heading in [
            "Your hand",
            "Players",
            "Draw pile and discard piles",
            "Last moves",
        ] {
            assert!(
                game["headings"]
                    .as_array()
                    .is_some_and(|h| h.iter().any(|x| x == heading)),
                "{heading}: {game}"
            );
        }
        assert_eq!(game["axe"], json!([]), "{game}");
    }
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// The browser tests, one a variant: `$name` runs `$scenario` on `$variant`.
macro_rules! browser_games {
    ($($name:ident: $scenario:ident($variant:literal);)*) => {
        $(
            #[test]
            #[cfg_attr(
                not(browser_tests),
                ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
            )]
            fn $name() {
                $scenario($variant)
            }
        )*
    };
}

browser_games! {
    keltis_card_through_the_command_line: a_whole_game_played_through_the_command_line("keltis-card");
    keltis_through_the_command_line: a_whole_game_played_through_the_command_line("keltis");
    neue_wege_through_the_command_line: a_whole_game_played_through_the_command_line("neue-wege");
    keltis_card_at_the_text_table_by_keyboard: a_whole_game_at_the_text_table_by_keyboard("keltis-card");
    keltis_at_the_text_table_by_keyboard: a_whole_game_at_the_text_table_by_keyboard("keltis");
    neue_wege_at_the_text_table_by_keyboard: a_whole_game_at_the_text_table_by_keyboard("neue-wege");
}
