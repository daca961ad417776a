//! Players together in Chromium (issue 33): two browsers chat at their table and see each
//! other's messages arrive; a note survives a reload; a message reported is muted by a moderator
//! from the moderation page; a player is followed and blocked from their name, and a followed
//! player invited from the lobby.

use crate::support;

use serde_json::json;
use support::browser::run as browser;
use support::Db;

#[test]
#[cfg_attr(
    not(browser_tests),
    ignore = "browser: set KELTIS_BROWSER_TESTS=1 with chromium and `npm ci` in tests/browser"
)]
fn two_browsers_talk_and_one_blocks_the_other() {
    let s = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let anna = s.register("anna");
    let ben = s.register("ben");
    s.register("mia");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["moderator", "mia", "--database-url", &s.database_url])
        .output()
        .expect("keltis runs");
    assert!(out.status.success());
    let id = s.started_game("keltis-card", &[anna.clone(), ben.clone()]);
    let report = browser(
        "table_talk.mjs",
        &[&s.base, "anna", "ben", &id.to_string(), "mia"],
    );
    let line = |who: &str, text: &str| json!(format!("{who}: {text}"));
    for seen in [&report["seenByA"], &report["seenByB"]] {
        assert_eq!(
            seen,
            &json!([line("anna", "Good luck!"), line("ben", "Thanks, you too")]),
            "{report}"
        );
    }
    assert_eq!(report["note"], "Watch the blue pile", "{report}");
    assert!(
        report["reported"].as_str().unwrap().contains("Good luck!"),
        "{report}"
    );
    assert!(
        report["audit"][0]
            .as_str()
            .unwrap()
            .contains("mia: mute anna"),
        "{report}"
    );
    assert!(
        report["muted"].as_str().unwrap().contains("until"),
        "{report}"
    );
    // The followed player was invited to the game ben created from the lobby.
    let invited = report["invitedTo"].as_i64().unwrap();
    let annas = s.get("/api/v1/me/games", Some(&anna.token)).json();
    assert!(
        annas["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == invited && g["shelf"] == "invited"),
        "{annas}"
    );
    assert!(
        report["status"]
            .as_str()
            .unwrap()
            .contains("You blocked anna"),
        "{report}"
    );
    assert_eq!(report["errors"], json!([]), "{report}");
    // The block was the server's, and undone.
    let blocks = s.get("/api/v1/me/blocks", Some(&ben.token)).json();
    assert_eq!(blocks, json!([]), "undone before the invitation");
    // Anna is muted: the server refuses her message too.
    let a = s.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&anna.token),
        json!({"text": "still muted?"}),
    );
    assert_eq!((a.status, a.code()), (403, "muted".into()));
}
