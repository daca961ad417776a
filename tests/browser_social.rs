//! Players together in Chromium (issue 33): two browsers chat at their table and see each
//! other's messages arrive; a note survives a reload; a player is blocked from their name.

mod support;

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
    let id = s.started_game("keltis-card", &[anna.clone(), ben.clone()]);
    let report = browser("table_talk.mjs", &[&s.base, "anna", "ben", &id.to_string()]);
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
        report["status"]
            .as_str()
            .unwrap()
            .contains("You blocked anna"),
        "{report}"
    );
    assert_eq!(report["errors"], json!([]), "{report}");
    // The block is the server's: ben no longer sees what anna says.
    let blocks = s.get("/api/v1/me/blocks", Some(&ben.token)).json();
    assert_eq!(blocks[0]["user"], "anna", "{blocks}");
    let a = s.post(
        &format!("/api/v1/games/{id}/chat"),
        Some(&anna.token),
        json!({"text": "after the block"}),
    );
    assert_eq!(a.status, 201);
    let chat = s
        .get(&format!("/api/v1/games/{id}/chat"), Some(&ben.token))
        .json();
    assert!(!chat.to_string().contains("after the block"), "{chat}");
}
