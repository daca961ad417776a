//! A web app on another origin, in Chromium, gets a token through OAuth with PKCE (the consent
//! answered in the web client) and plays a move with it through the API: CORS preflights are
//! answered, no console error, and the move is the game's. Swagger UI's "Authorize" runs the same
//! flow.

use crate::support;

use serde_json::json;
use support::browser::run as browser;
use support::Db;

#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn a_web_app_on_another_origin_plays_through_oauth() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let anna = s.register("anna");
    let ben = s.register("ben");
    let id = s.started_game("keltis-card", &[anna.clone(), ben.clone()]);
    if s.game(id, &anna)["state"]["to_act"] != 0 {
        s.finish_turn(id, &[anna.clone(), ben.clone()]);
    }
    let before = s.game(id, &anna)["version"].as_i64().unwrap();

    let report = browser("oauth_app.mjs", &[&s.base, "anna", &id.to_string()]);
    assert!(
        report["who"].as_str().unwrap().contains("Table Helper"),
        "{report}"
    );
    assert_eq!(
        report["scopes"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );
    assert!(
        report["where"].as_str().unwrap().contains("127.0.0.1"),
        "{report}"
    );
    assert_eq!(report["result"]["scope"], "play read", "{report}");
    assert_eq!(report["result"]["status"], 200, "{report}");
    assert_eq!(report["result"]["before"], before, "{report}");
    assert_eq!(report["errors"], json!([]), "{report}");
    // The server saw the move, made by anna through the app's token.
    let after = s.game(id, &anna);
    assert!(after["version"].as_i64().unwrap() > before, "{after}");
    let tokens = s.get("/api/v1/me/tokens", Some(&anna.token)).json();
    assert_eq!(tokens[0]["client_id"], "Table Helper", "{tokens}");
    assert!(tokens[0]["last_used_at"].is_i64(), "{tokens}");
}

/// Swagger UI's "Authorize" runs the PKCE flow against the server (the consent answered in the
/// web client, in its popup), and "Try it out" then calls the API with the token it got.
#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn swagger_ui_authorizes_through_oauth() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let anna = s.register("anna");
    let report = browser("swagger_authorize.mjs", &[&s.base, "anna"]);
    assert!(
        report["who"].as_str().unwrap().contains("Swagger UI"),
        "{report}"
    );
    assert_eq!(report["me"]["name"], "anna", "{report}");
    assert_eq!(report["me"]["scopes"], json!(["read"]), "{report}");
    assert_eq!(report["errors"], json!([]), "{report}");
    let tokens = s.get("/api/v1/me/tokens", Some(&anna.token)).json();
    assert_eq!(tokens[0]["client_id"], "Swagger UI", "{tokens}");
}
