//! The OpenAPI document is generated from the code and committed: this fails when they differ.
//! Regenerate with `cargo run -- openapi > openapi/keltis.json`.

use crate::support;

#[test]
fn committed_openapi_document_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/keltis.json");
    let committed = std::fs::read_to_string(path).expect("openapi/keltis.json is committed");
    let generated = keltis::api::openapi_json();
    let a: serde_json::Value = serde_json::from_str(&committed).expect("committed spec is JSON");
    let b: serde_json::Value = serde_json::from_str(&generated).expect("generated spec is JSON");
    assert!(
        a == b,
        "openapi/keltis.json is stale: run `cargo run -- openapi > openapi/keltis.json`"
    );
}

#[test]
fn every_route_is_described_with_its_errors_and_security() {
    let spec_paths: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    for health in ["/healthz", "/readyz"] {
        assert!(spec_paths["paths"][health]["get"].is_object(), "{health}");
    }
    let spec: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    assert!(spec["components"]["securitySchemes"]["bearer"].is_object());
    let paths = spec["paths"].as_object().unwrap();
    for route in [
        "/auth/register",
        "/auth/login",
        "/auth/refresh",
        "/me",
        "/me/tokens",
        "/me/tokens/{id}",
        "/games",
        "/games/{id}",
        "/games/{id}/join",
        "/games/{id}/leave",
        "/games/{id}/invites",
        "/games/{id}/decisions",
        "/games/{id}/resign",
        "/games/{id}/events",
        "/games/{id}/record",
    ] {
        let route = format!("/api/v1{route}");
        let item = paths
            .get(&route)
            .unwrap_or_else(|| panic!("{route} is not in the spec"));
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let documents_an_error = responses.keys().any(|k| k.starts_with('4'));
            assert!(
                documents_an_error,
                "{method} {route} documents no error response"
            );
        }
    }
}

#[test]
fn every_schema_reference_resolves() {
    let spec: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    fn refs(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v.as_str()) {
                        ("$ref", Some(r)) => out.push(r.to_string()),
                        _ => refs(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    refs(&spec, &mut found);
    assert!(found.len() > 20);
    let responses = spec["components"]["responses"].as_object().unwrap();
    for r in found {
        if let Some(name) = r.strip_prefix("#/components/responses/") {
            assert!(responses.contains_key(name), "{r} does not resolve");
            continue;
        }
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("unexpected reference {r}"));
        assert!(schemas.contains_key(name), "{r} does not resolve");
    }
    // The engine's types are described, not left as free-form objects.
    for name in ["View", "Decision", "Card", "Record", "GameResult", "Setup"] {
        assert!(schemas.contains_key(name), "schema {name} missing");
    }
    let decision_request = &schemas["DecisionRequest"]["properties"]["decision"];
    assert_eq!(decision_request["$ref"], "#/components/schemas/Decision");
}

#[test]
fn unions_have_named_variants_and_a_discriminator() {
    let spec: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    for (union, tag, variant) in [
        ("Decision", "type", "DrawDeck"),
        ("Phase", "type", "FinalPlayPhase"),
        ("EndReason", "reason", "ResignedEnd"),
        ("EventView", "kind", "DecidedEvent"),
    ] {
        let u = &schemas[union];
        assert_eq!(u["discriminator"]["propertyName"], tag, "{union}");
        for item in u["oneOf"].as_array().unwrap() {
            let r = item["$ref"]
                .as_str()
                .unwrap_or_else(|| panic!("{union}: inline variant"));
            let name = r.trim_start_matches("#/components/schemas/");
            assert!(schemas[name]["required"]
                .as_array()
                .unwrap()
                .contains(&tag.into()));
        }
        assert!(schemas.contains_key(variant), "{variant}");
    }
    // Every decision kind carries an example.
    for item in schemas["Decision"]["oneOf"].as_array().unwrap() {
        let name = item["$ref"]
            .as_str()
            .unwrap()
            .trim_start_matches("#/components/schemas/");
        assert!(
            schemas[name]["examples"].is_array(),
            "{name} has no example"
        );
    }
}

#[test]
fn operations_read_on_their_own_and_say_who_may_call_them() {
    let spec: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    let mut ids = std::collections::HashSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap();
            assert!(
                id.chars().next().unwrap().is_ascii_lowercase() && !id.contains('_'),
                "{method} {path}: operationId {id} is not camelCase"
            );
            assert!(ids.insert(id.to_string()), "duplicate operationId {id}");
            assert!(op["security"].is_array(), "{method} {path} has no security");
            let responses = op["responses"].as_object().unwrap();
            if path != "/healthz" {
                assert!(responses.contains_key("503"), "{method} {path}: no 503");
            }
            if !op["security"].as_array().unwrap().is_empty() {
                assert!(responses.contains_key("401"), "{method} {path}: no 401");
            }
            if op.get("requestBody").is_some() {
                for status in ["400", "413", "415", "422"] {
                    assert!(
                        responses.contains_key(status),
                        "{method} {path}: no {status}"
                    );
                }
            }
        }
    }
    // The event streams take a ticket in the query as the alternative to a bearer token, and
    // declare it as such: no operation says it needs no authentication when it does.
    assert_eq!(
        spec["components"]["securitySchemes"]["stream_ticket"],
        serde_json::json!({"type": "apiKey", "in": "query", "name": "ticket",
            "description": spec["components"]["securitySchemes"]["stream_ticket"]["description"]})
    );
    for stream in ["/api/v1/me/stream", "/api/v1/games/{id}/stream"] {
        assert_eq!(
            spec["paths"][stream]["get"]["security"],
            serde_json::json!([{"bearer": []}, {"oauth2": ["read"]}, {"stream_ticket": []}]),
            "{stream}"
        );
    }
    for public in [
        "/api/v1/auth/login",
        "/api/v1/auth/register",
        "/api/v1/auth/refresh",
    ] {
        assert_eq!(
            spec["paths"][public]["post"]["security"],
            serde_json::json!([])
        );
    }
    assert_eq!(
        spec["paths"]["/api/v1/games"]["get"]["operationId"],
        "listGames"
    );
    assert_eq!(
        spec["paths"]["/api/v1/games/{id}/decisions"]["post"]["operationId"],
        "postDecision"
    );
    assert!(spec["servers"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(spec["info"]["license"]["identifier"].is_string());
    let retry_after =
        &spec["components"]["responses"]["ServiceUnavailable"]["headers"]["Retry-After"];
    assert!(retry_after.is_object());
}

/// One version, said three ways: `keltis --version`, `/healthz` and the document's `info.version`
/// are Cargo's, changed together with the changelog.
#[test]
fn the_version_is_the_same_everywhere() {
    let version = env!("CARGO_PKG_VERSION");
    let spec: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    assert_eq!(spec["info"]["version"], version);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_keltis"))
        .arg("--version")
        .output()
        .expect("keltis --version");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("keltis {version}")
    );
    let s = support::spawn(support::Db::Sqlite, |_| {}).expect("a SQLite server");
    let health = s.get("/healthz", None).json();
    assert_eq!(health["version"], version);
    assert_eq!(s.get("/readyz", None).json()["version"], version);
    let changelog = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md"))
        .expect("CHANGELOG.md");
    assert!(
        changelog.contains("## [Unreleased]"),
        "the changelog gathers what comes next"
    );
}

/// Answers the server gives that third parties found missing from the document: each is now in
/// its operation's responses, under its status.
#[test]
fn the_answers_found_missing_are_documented() {
    let spec: serde_json::Value = serde_json::from_str(&keltis::api::openapi_json()).unwrap();
    let operation = |id: &str| {
        spec["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|p| p.as_object().unwrap().values())
            .find(|op| op["operationId"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("no operation {id}"))
    };
    for (id, status, code) in [
        ("postDecision", "409", "deadline_passed"),
        ("postDecision", "422", "seat_retired"),
        ("resignGame", "409", "deadline_passed"),
        ("resignGame", "422", "seat_retired"),
        ("createGame", "422", "invalid_time_control"),
        ("deleteAccount", "403", "code_required"),
    ] {
        let description = operation(id)["responses"][status]["description"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            description.contains(&format!("`{code}`")),
            "{id} {status}: {description}"
        );
    }
    let resign = operation("resignGame");
    let resign = format!("{} {}", resign["summary"], resign["description"]);
    assert!(
        resign.contains("3 or 4"),
        "resigning with more players: {resign}"
    );
    let fischer = spec.to_string();
    assert!(
        fischer.contains("at least `initial_seconds`"),
        "the Fischer maximum's rule"
    );
}

/// Every error code the server's code can answer is in the document: the codes are collected from
/// the sources (the services' refusals, the HTTP layer's, the engine's rule codes) and each must
/// appear, as `` `code` ``, in some description.
#[test]
fn every_error_code_in_the_code_is_documented() {
    let spec = keltis::api::openapi_json();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut codes = std::collections::BTreeMap::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let engine_errors = path.ends_with("engine/error.rs");
            for code in codes_in(&text, engine_errors) {
                codes
                    .entry(code)
                    .or_insert_with(|| path.display().to_string());
            }
        }
    }
    assert!(
        codes.len() > 60,
        "the sweep found only {} codes",
        codes.len()
    );
    let missing: Vec<String> = codes
        .iter()
        .filter(|(code, _)| !spec.contains(&format!("`{code}`")))
        .map(|(code, file)| format!("{code} ({file})"))
        .collect();
    assert!(missing.is_empty(), "undocumented codes: {missing:?}");
}

/// The codes a source file answers with: the first string of `invalid(`, `forbidden(`,
/// `conflict(` and `ApiError::new(_, ...)`, and, in the engine's errors, each `=> "code"`.
fn codes_in(text: &str, engine_errors: bool) -> Vec<String> {
    let quoted_after = |from: &str| -> Option<String> {
        let start = from.find('"')? + 1;
        let end = start + from[start..].find('"')?;
        let code = &from[start..end];
        (!code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
            .then(|| code.to_string())
    };
    let mut found = Vec::new();
    for marker in ["invalid(", "forbidden(", "conflict("] {
        for (at, _) in text.match_indices(marker) {
            let rest = text[at + marker.len()..].trim_start();
            if rest.starts_with('"') {
                found.extend(quoted_after(rest));
            }
        }
    }
    for (at, _) in text.match_indices("ApiError::new(") {
        let rest = &text[at..];
        if let Some(comma) = rest.find(',') {
            let after = rest[comma + 1..].trim_start();
            if after.starts_with('"') {
                found.extend(quoted_after(after));
            }
        }
    }
    if engine_errors {
        for (at, _) in text.match_indices("=> \"") {
            found.extend(quoted_after(&text[at..]));
        }
    }
    found
}
