//! The web client: served from the binary at `/`, and played in a real browser (Debian's
//! chromium driven by playwright-core from `tests/browser/`) when `KELTIS_BROWSER_TESTS` is set.

mod support;

use std::process::Command;

use serde_json::{json, Value};
use support::browser::run as browser;
use support::Db;

/// The page, its modules, stylesheet and layouts come from the binary, with a policy that lets
/// nothing else load; a file we do not have is a JSON 404.
#[test]
fn the_client_is_served_from_the_binary() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let a = s.get("/", None);
    assert_eq!(a.status, 200);
    assert!(
        a.text
            .contains("<script type=\"module\" src=\"/web/app.js\">"),
        "{}",
        a.text
    );
    let header = |a: &support::Answer, name: &str| {
        a.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    assert!(header(&a, "content-type").starts_with("text/html"));
    assert!(header(&a, "content-security-policy").contains("default-src 'self'"));
    for (path, kind) in [
        ("/web/app.js", "text/javascript"),
        ("/web/replay.js", "text/javascript"),
        ("/web/style.css", "text/css"),
        ("/web/boards/keltis-base.json", "application/json"),
        ("/web/boards/neue-wege.json", "application/json"),
    ] {
        let a = s.get(path, None);
        assert_eq!(a.status, 200, "{path}");
        assert!(header(&a, "content-type").starts_with(kind), "{path}");
    }
    // Every module in web/ is served, and so is every module it imports.
    let web = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/web")).expect("web/");
    let modules: Vec<String> = web
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".js"))
        .collect();
    assert!(modules.len() >= 10, "{modules:?}");
    for module in &modules {
        let a = s.get(&format!("/web/{module}"), None);
        assert_eq!(a.status, 200, "{module}");
        for line in a.text.lines().filter(|l| l.starts_with("import ")) {
            let Some(file) = line.split("'./").nth(1).and_then(|r| r.split('\'').next()) else {
                continue;
            };
            if file.ends_with(".js") {
                assert_eq!(
                    s.get(&format!("/web/{file}"), None).status,
                    200,
                    "{module} imports {file}"
                );
            }
        }
    }
    let layout: Value = serde_json::from_str(&s.get("/web/boards/neue-wege.json", None).text)
        .expect("the layout is JSON");
    assert_eq!(layout["spaces"].as_array().map(Vec::len), Some(48));
    let a = s.get("/web/secret.txt", None);
    assert_eq!((a.status, a.code()), (404, "not_found".into()));
    let a = s.get("/web/../Cargo.toml", None);
    assert_ne!(a.status, 200);
    // Everything the game page loads, uncompressed.
    assert!(keltis::api::client::client_bytes() < 300 * 1024);
}

/// Static files carry an entity tag (a reload gets 304 for what it holds), go out compressed to a
/// browser that accepts it, and answer `HEAD` as `GET` does (headers, no body); so does the API.
/// Event streams are not compressed.
#[test]
fn files_have_tags_compression_and_head() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let header = |r: &reqwest::blocking::Response, name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    for path in [
        "/",
        "/web/app.js",
        "/web/messages/de.json",
        "/games/3",
        "/settings",
    ] {
        let first = s.client.get(s.url(path)).send().expect("GET");
        assert_eq!(first.status(), 200, "{path}");
        let tag = header(&first, "etag");
        assert!(tag.starts_with('"') && tag.len() > 10, "{path}: {tag}");
        let again = s
            .client
            .get(s.url(path))
            .header("If-None-Match", &tag)
            .send()
            .expect("GET");
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(header(&again, "etag"), tag, "{path}");
        assert!(again.bytes().expect("body").is_empty(), "{path}");
        let other = s
            .client
            .get(s.url(path))
            .header("If-None-Match", "\"stale\"")
            .send()
            .expect("GET");
        assert_eq!(other.status(), 200, "{path}");
        // HEAD: the same status and type, no body.
        let head = s.client.head(s.url(path)).send().expect("HEAD");
        assert_eq!(head.status(), 200, "{path}");
        assert_eq!(
            header(&head, "content-type"),
            header(&first, "content-type")
        );
        assert!(head.bytes().expect("body").is_empty(), "{path}");
    }
    // Compressed for a client that accepts it; the same bytes once decompressed.
    let plain = s.get("/web/game.js", None).text;
    let gzipped = s
        .client
        .get(s.url("/web/game.js"))
        .header("Accept-Encoding", "gzip")
        .send()
        .expect("GET");
    assert_eq!(header(&gzipped, "content-encoding"), "gzip");
    let packed = gzipped.bytes().expect("body");
    assert!(
        packed.len() < plain.len() / 2,
        "{} of {}",
        packed.len(),
        plain.len()
    );
    // The API answers HEAD too.
    let anna = s.register("anna");
    let head = s
        .client
        .head(s.url("/api/v1/me"))
        .bearer_auth(&anna.token)
        .send()
        .expect("HEAD");
    assert_eq!(head.status(), 200);
    assert!(header(&head, "content-type").starts_with("application/json"));
    // An event stream is not compressed, and says no encoding at all.
    let ticket = s.post("/api/v1/stream-tickets", Some(&anna.token), json!({}));
    assert_eq!(ticket.status, 201, "{}", ticket.text);
    let ticket = ticket.json()["ticket"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let stream = s
        .client
        .get(s.url(&format!("/api/v1/me/stream?ticket={ticket}")))
        .header("Accept-Encoding", "gzip")
        .send()
        .expect("stream");
    assert_eq!(stream.status(), 200);
    assert!(header(&stream, "content-type").starts_with("text/event-stream"));
    assert_eq!(header(&stream, "content-encoding"), "");
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
    assert!(result.contains("Game over"), "{report}");
    // Played by keyboard alone, the focus never fell to the page's body after an action.
    assert_eq!(report["clicks"]["lostFocus"], json!(0), "{report}");
    let first_load = report["firstLoadBytes"].as_u64().unwrap_or_default();
    // Compressed, with an empty cache: under 150 KB.
    assert!((10_000..150 * 1024).contains(&first_load), "{report}");
    assert_eq!(report["outside"], json!([]), "{report}");
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
    assert!(
        seen[1..]
            .iter()
            .all(|m| m.as_str().is_some_and(|m| m.contains(": "))),
        "{report}"
    );
    assert_eq!(report["replayResult"], report["result"], "{report}");
    // The profile, reached from the player's name: the finished game and the rating it gave.
    assert_eq!(report["profile"]["heading"], json!(player), "{report}");
    assert_eq!(report["profile"]["finished"], json!(1), "{report}");
    assert_eq!(report["profile"]["ratings"], json!(1), "{report}");
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
            .all(|s| s.as_str().is_some_and(|s| s.starts_with("bot-greedy: "))),
        "{report}"
    );
    assert_eq!(log["marked"], json!(1), "{report}");
    // The log by keyboard: each step back lands on an entry of the log.
    let keys = &report["logKeys"];
    assert!(keys["entries"].as_u64() > Some(8), "{report}");
    assert!(keys["presses"].as_u64() >= Some(8), "{report}");
    assert_eq!(keys["focusedEntry"], keys["presses"], "{report}");
    assert_eq!(keys["stepped"], keys["presses"], "{report}");
    if report["keyboard"] == json!(true) {
        // On a board, the entries of moves to a space show it.
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

/// The correspondence loop: a game's link (as in an email) opened without a session logs in and
/// shows that game; the lobby lists the games waiting first and the title counts them; an
/// opponent's move updates both live; after a turn the game page offers the next game waiting.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn the_loop_from_an_email_link_to_the_next_game() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let anna = s.register("anna");
    let bert = s.register("bert");
    let pair = [anna.clone(), bert.clone()];
    // Anna's turn in `game`; bert's in `other` (it becomes hers during the test); finished and
    // waiting games besides.
    let until = |id: i64, seat: u64, mine: bool| {
        for _ in 0..6 {
            if (s.game(id, &anna)["state"]["to_act"] == seat) == mine {
                return;
            }
            s.finish_turn(id, &pair);
        }
        panic!("never");
    };
    let game = s.started_game("keltis-card", &pair);
    until(game, 0, true);
    let other = s.started_game("keltis-card", &pair);
    until(other, 0, false);
    for _ in 0..3 {
        let id = s.started_game("keltis-card", &pair);
        until(id, 0, false);
    }
    let report = browser(
        "waiting_loop.mjs",
        &[
            &s.base,
            "anna",
            "correct horse",
            &game.to_string(),
            &bert.token,
            &other.to_string(),
        ],
    );
    assert!(
        report["deepLink"]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with(&format!("/games/{game}"))),
        "{report}"
    );
    // The game's title names the variant and the players, not ids.
    assert_eq!(
        report["deepLink"]["heading"],
        json!("Keltis Card · anna, bert"),
        "{report}"
    );
    assert_eq!(report["deepLink"]["turn"], json!("Your turn"), "{report}");
    assert_eq!(report["lobby"]["title"], json!("(1) Keltis"), "{report}");
    let first = report["lobby"]["first"].as_str().unwrap_or_default();
    assert!(first.starts_with("Your turn"), "{report}");
    assert!(first.contains(&format!("#{game} ")), "{report}");
    assert_eq!(report["live"]["title"], json!("(2) Keltis"), "{report}");
    assert!(
        report["offered"]
            .as_str()
            .is_some_and(|o| o.contains(&format!("#{other}"))),
        "{report}"
    );
    assert_eq!(report["next"]["turn"], json!("Your turn"), "{report}");
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// On a phone (360 x 740 and 412 x 915), every variant: during a turn the page is never wider
/// than the screen, the hand and the choices are in view without scrolling, and no visible text
/// or accessible name shows an internal id.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn the_table_fits_a_phone_and_speaks_in_words() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("phone.mjs", &[&s.base, "phone"]);
    let seen = report["report"].as_array().cloned().unwrap_or_default();
    assert_eq!(seen.len(), 6, "{report}");
    for case in &seen {
        assert!(case["turns"].as_u64() >= Some(3), "{case}");
        assert_eq!(case["overflow"], json!(0), "wider than the screen: {case}");
        assert_eq!(
            case["lobbyOverflow"],
            json!(0),
            "the lobby is wider: {case}"
        );
        assert_eq!(
            case["outOfView"],
            json!(0),
            "hand or choices out of view: {case}"
        );
        assert_eq!(case["ids"], json!([]), "internal ids shown: {case}");
        assert_eq!(
            case["pileOutOfView"],
            json!(0),
            "draw pile out of view: {case}"
        );
        assert_eq!(case["litHidden"], json!(0), "lit spaces off screen: {case}");
        assert_eq!(
            case["litMissing"],
            json!(0),
            "a card with a space to go to lit none: {case}"
        );
        if case["variant"] != json!("keltis-card") {
            assert!(case["litChecked"].as_u64() >= Some(1), "{case}");
        }
    }
    // On a touch screen a move waits for a second tap.
    assert!(report["confirmations"].as_u64() > Some(10), "{report}");
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// Two-factor sign-in from the settings screen: the secret read from the page, a first code
/// computed by the test as an authenticator app would; then logging in asks for a code and signs
/// in with one. Then the account is deleted from the settings (password, code, the box ticked):
/// the page is signed out, and the server knows the name no more.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn two_factor_is_turned_on_in_the_settings_and_asked_at_login_then_the_account_deleted() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let now = s.clock.now().to_string();
    let report = browser("two_factor.mjs", &[&s.base, "guarded", &now]);
    assert_eq!(report["qr"], json!(1), "{report}");
    assert_eq!(report["secretLength"], json!(32), "{report}");
    assert_eq!(
        report["recovery"].as_array().map(Vec::len),
        Some(10),
        "{report}"
    );
    assert!(
        report["state"]
            .as_str()
            .is_some_and(|t| t.contains("10 recovery codes")),
        "{report}"
    );
    assert_eq!(report["asked"], json!("code"), "{report}");
    assert_eq!(report["signedIn"], json!("guarded"), "{report}");
    assert_eq!(
        report["farewell"],
        json!("Your account is deleted. Goodbye!"),
        "{report}"
    );
    assert_eq!(report["outside"], json!([]), "{report}");
    let login = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "guarded", "password": "browser-test-password"}),
    );
    assert_eq!(login.code(), "unauthorized", "{}", login.text);
    assert_eq!(
        s.count("SELECT COUNT(*) AS n FROM users WHERE deleted_at IS NOT NULL"),
        1
    );
}

/// The settings screen sets the address, the notices per kind and channel, the digest and the
/// notices' language, creates and revokes an API token and starts and ends a vacation: the
/// server holds what the screen showed.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn the_settings_screen_sets_what_the_server_keeps() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let report = browser("settings.mjs", &[&s.base, "setter"]);
    assert!(
        report["emailState"]
            .as_str()
            .is_some_and(|t| t.starts_with("Not confirmed")),
        "{report}"
    );
    assert_eq!(
        report["kept"],
        json!({"address": "setter@example.org", "emailGameOver": false, "emailYourTurn": true,
            "pushYourTurn": false, "digest": "24", "language": "fr"}),
        "{report}"
    );
    assert!(
        report["onVacation"]
            .as_str()
            .is_some_and(|t| t.contains("On vacation until")),
        "{report}"
    );
    let devices = report["devices"].as_array().cloned().unwrap_or_default();
    assert_eq!(devices.len(), 1, "{report}");
    assert!(
        devices[0]
            .as_str()
            .is_some_and(|d| d.contains("this device")),
        "{report}"
    );
    assert_eq!(report["outside"], json!([]), "{report}");
    // The data, downloaded from the settings: the player's own, with the token made above.
    assert_eq!(
        report["exportedFile"],
        json!("keltis-setter.json"),
        "{report}"
    );
    assert_eq!(report["exportedName"], json!("setter"), "{report}");
    assert_eq!(report["exportedTokens"], json!(1), "{report}");
    // The password's repeat was checked by the form; the reset's answer was shown.
    assert_eq!(
        report["mismatch"],
        json!("The two passwords differ."),
        "{report}"
    );
    assert!(
        report["resetAsked"]
            .as_str()
            .is_some_and(|t| t.starts_with("If an account")),
        "{report}"
    );
    // What the server holds: the new password, not the old one.
    let old = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "setter", "password": "browser-test-password"}),
    );
    assert_eq!(old.status, 401, "{}", old.text);
    let login = s.post(
        "/api/v1/auth/login",
        None,
        json!({"name": "setter", "password": "browser-new-password"}),
    );
    assert_eq!(login.status, 200, "{}", login.text);
    let token = login.json()["access_token"].as_str().unwrap().to_string();
    let mail = s.get("/api/v1/me/email", Some(&token)).json();
    assert_eq!(mail["email"], "setter@example.org", "{mail}");
    assert_eq!(mail["verified"], false, "{mail}");
    let p = &mail["preferences"];
    assert_eq!(
        (
            &p["game_over"],
            &p["your_turn"],
            &p["digest_hours"],
            &p["language"]
        ),
        (&json!(false), &json!(true), &json!(24), &json!("fr")),
        "{mail}"
    );
    assert_eq!(p["push"]["your_turn"], false, "{mail}");
    assert_eq!(p["push"]["game_over"], true, "{mail}");
    let tokens = s.get("/api/v1/me/tokens", Some(&token)).json();
    assert_eq!(tokens[0]["name"], "my bot", "{tokens}");
    assert_eq!(tokens[0]["scopes"], json!(["read"]), "{tokens}");
    assert!(tokens[0]["revoked_at"].is_i64(), "{tokens}");
    // The token the screen showed once was real, and is revoked.
    let shown = report["token"].as_str().unwrap_or_default();
    assert!(shown.len() > 20, "{report}");
    assert_eq!(s.get("/api/v1/me", Some(shown)).status, 401);
    let vacation = s.get("/api/v1/me/vacation", Some(&token)).json();
    assert!(vacation["current"].is_null(), "{vacation}");
    assert!(vacation["used_ms"].as_i64().is_some(), "{vacation}");
}

/// The installable web app: a manifest without installability errors, a service worker that
/// controls the page, shows pushes as notifications grouped per game with the game's page, and
/// serves the shell offline, saying so.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn the_client_installs_and_works_offline() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    // A game the notification leads to (someone else's, open to spectators).
    let host = s.register("host");
    let guest = s.register("guest");
    let game = s.started_game("keltis", &[host, guest]).to_string();
    let report = browser("installable.mjs", &[&s.base, "pwa", &game]);
    assert_eq!(report["controlled"], json!(true), "{report}");
    assert_eq!(report["manifestErrors"], json!([]), "{report}");
    assert!(
        report["manifestUrl"]
            .as_str()
            .is_some_and(|u| u.ends_with("/manifest.webmanifest")),
        "{report}"
    );
    // A test browser's contexts are private windows, where nothing installs ("in-incognito"):
    // every other error would be the app's.
    let errors: Vec<&Value> = report["installability"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|e| e["errorId"] != "in-incognito")
                .collect()
        })
        .unwrap_or_default();
    assert!(errors.is_empty(), "{report}");
    let notifications = report["notifications"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(notifications.len(), 1, "{report}");
    assert_eq!(
        notifications[0]["title"],
        json!(format!("Your turn in game {game}")),
        "{report}"
    );
    assert_eq!(
        notifications[0]["tag"],
        json!(format!("game-{game}")),
        "{report}"
    );
    assert_eq!(
        notifications[0]["url"],
        json!(format!("/games/{game}")),
        "{report}"
    );
    // Its click led the window to the game.
    assert!(
        report["afterClick"]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with(&format!("/games/{game}"))),
        "{report}"
    );
    assert!(
        report["offline"]["status"]
            .as_str()
            .is_some_and(|t| t.starts_with("You are offline")),
        "{report}"
    );
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// The client's modules type-check (`tsc --checkJs`, strict) against the types openapi-typescript
/// makes of the committed spec, and the committed types are those of the spec.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn the_client_type_checks_against_the_spec() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser");
    let fresh = std::env::temp_dir().join(format!("keltis-api-{}.d.ts", std::process::id()));
    let run = |args: &[&str]| {
        let out = Command::new("npx")
            .current_dir(dir)
            .args(args)
            .output()
            .expect("npx runs");
        assert!(
            out.status.success(),
            "{args:?}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let fresh_path = fresh.to_string_lossy().to_string();
    run(&[
        "openapi-typescript",
        "../../openapi/keltis.json",
        "-o",
        &fresh_path,
    ]);
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/web/types/api.d.ts"))
            .expect("web/types/api.d.ts");
    let generated = std::fs::read_to_string(&fresh).expect("generated types");
    let _ = std::fs::remove_file(&fresh);
    assert!(
        committed == generated,
        "web/types/api.d.ts is not the spec's: run `npx openapi-typescript ../../openapi/keltis.json -o ../../web/types/api.d.ts` in tests/browser"
    );
    run(&["tsc", "-p", "../../web/tsconfig.json"]);
}
