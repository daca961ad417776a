//! The client as the binary serves it: its files, their tags and compression, installing it and
//! working offline, and its types checked against the spec.

use super::*;

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
