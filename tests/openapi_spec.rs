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
        let item = paths
            .get(route)
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
