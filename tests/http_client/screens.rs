//! The screens around a game: from an email's link to the next game, the table on a phone, the
//! settings (two-factor, deleting the account, what the server keeps).

use super::*;

/// The correspondence loop: a game's link (as in an email) opened without a session logs in and
/// shows that game; the lobby lists the games waiting first and the title counts them; an
/// opponent's move updates both live; after a turn the game page offers the next game waiting.
/// And (issue 69) the command line leaves the next turn as a plan, which the opponent's move plays.
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
    // Issue 69: the plan made at the command line, read back, played by the opponent's move.
    let lines = |key: &str| -> Vec<String> {
        report["plan"][key]
            .as_str()
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .filter(|l| !l.trim().is_empty())
            .collect()
    };
    let made = lines("made");
    assert_eq!(made.len(), 3, "the heading and two steps: {report}");
    assert_eq!(made[0], "Your plan for your next turn:", "{report}");
    assert!(made[1..].iter().all(|l| l.starts_with("anna ")), "{report}");
    assert_eq!(lines("asked"), made, "{report}");
    assert_eq!(
        lines("after"),
        vec![
            "No plan waits for your next turn.",
            "Your last plan was played (2 steps)."
        ],
        "{report}"
    );
    assert_eq!(
        lines("again")[0],
        "Your plan for your next turn:",
        "{report}"
    );
    assert_eq!(lines("dropped"), vec!["Your plan is dropped."], "{report}");
    assert_eq!(
        lines("none")[0],
        "No plan waits for your next turn.",
        "{report}"
    );
    // And from the "Plan my next turn" panel.
    let panel = &report["panel"];
    assert!(panel["first"].as_u64().is_some_and(|n| n > 0), "{report}");
    assert!(
        panel["ends"]
            .as_str()
            .is_some_and(|t| t.contains("Your turn ends here.")),
        "{report}"
    );
    assert_eq!(panel["steps"], 2, "{report}");
    assert!(
        panel["waiting"].as_str().is_some_and(
            |t| t.contains("the discard piles it draws from still show the same cards")
        ),
        "{report}"
    );
    assert_eq!(
        panel["kept"],
        json!("The plan is kept: it is played when your turn comes."),
        "{report}"
    );
    assert_eq!(panel["dropped"], json!("The plan is dropped."), "{report}");
    let plan = s.get(&format!("/api/v1/games/{game}/plan"), Some(&anna.token));
    assert_eq!(plan.json()["outcomes"][0]["played"], true, "{}", plan.text);
    assert!(plan.json()["plan"].is_null(), "{}", plan.text);
    assert_eq!(
        s.game(game, &anna)["state"]["to_act"],
        1,
        "bert's turn again"
    );
}

/// The command line's completions are the turn's own when the server's answers misbehave: a
/// failed answer is asked again at the page's next redraw, and an older turn's answer arriving
/// after the newer one's does not replace it (the race behind a CI failure of
/// `keltis_card_at_the_text_table_by_keyboard`, pinned here by holding one answer back).
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn the_text_tables_completions_survive_a_failed_and_a_late_answer() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let anna = s.register("anna");
    let bert = s.register("bert");
    let pair = [anna.clone(), bert.clone()];
    let game = s.started_game("keltis-card", &pair);
    // Anna's turn, from its start: she lays or discards a card first.
    if s.game(game, &anna)["state"]["to_act"] != 0 {
        s.finish_turn(game, &pair);
    }
    assert_eq!(s.game(game, &anna)["state"]["to_act"], 0, "anna's turn");
    let report = browser(
        "crossed_choices.mjs",
        &[&s.base, "anna", "correct horse", &game.to_string()],
    );
    assert_eq!(report["first"], true, "{report}");
    assert_eq!(report["retried"], true, "asked again: {report}");
    assert_eq!(report["latestListed"], true, "{report}");
    let latest = report["latest"].as_array().cloned().unwrap_or_default();
    assert!(!latest.is_empty(), "{report}");
    assert_ne!(
        report["stale"], report["latest"],
        "the answers differ: {report}"
    );
    assert_eq!(report["listed"], json!(latest), "still the draws: {report}");
    // The draws are what the server offers now.
    let now = s.get(
        &format!("/api/v1/games/{game}/choices?language=en"),
        Some(&anna.token),
    );
    let offered: Vec<Value> = now.json()["choices"]
        .as_array()
        .map(|c| c.iter().map(|c| c["words"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(json!(offered), json!(latest), "{}", now.text);
    assert_eq!(report["outside"], json!([]), "{report}");
}

/// On a phone (360 x 740 and 412 x 915), every variant: during a turn the page is never wider
/// than the screen, the hand and the choices are in view without scrolling, and no visible text
/// or accessible name shows an internal id; the hand stays on one line and the dock under a
/// quarter of the screen; the discard piles show above the dock when they may be drawn from;
/// the seats' rows have the screen's width.
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
        // The whole hand (eight cards at a turn's start) on one line, the dock holding it under
        // a quarter of the screen.
        assert!(case["handSize"].as_u64() >= Some(8), "{case}");
        assert!(case["dockMeasured"].as_u64() >= Some(1), "{case}");
        assert_eq!(case["handWrapped"], json!(0), "the hand wraps: {case}");
        assert!(
            case["dockShare"].as_f64() < Some(0.25),
            "the dock takes a quarter of the screen or more: {case}"
        );
        // Whenever a draw from a discard pile was offered, the piles showed above the dock.
        assert_eq!(
            case["pilesHidden"],
            json!(0),
            "piles under the dock: {case}"
        );
        // The seats' rows get the screen's width, not a narrow column.
        assert!(case["rowsShare"].as_f64() > Some(0.8), "{case}");
        // Resigned, the finished game's page fits, without a dock, the room kept for one, or
        // the command line (issue 68: a blank band of about 500 px).
        assert_eq!(
            case["finished"],
            json!({"overflow": 0, "dock": false, "padding": "0px", "commandLine": false}),
            "{case}"
        );
    }
    // Draws from the piles were offered (turns 1 and 3 discard; the bot may take a card back,
    // so not in every case).
    let piles: u64 = seen.iter().filter_map(|c| c["pilesChecked"].as_u64()).sum();
    assert!(piles >= 3, "{report}");
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
