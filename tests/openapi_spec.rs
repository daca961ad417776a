//! The OpenAPI document is generated from the code and committed: this fails when they differ.
//! Regenerate with `cargo run -- openapi > openapi/keltis.json`.

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
    for r in found {
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
