//! Which OAuth scope each operation needs, said in the document beside the bearer scheme: the
//! services enforce them (`Caller::require`, `Caller::require_session`), and
//! `tests/http_scopes.rs` calls the operations with tokens that lack them.

use serde_json::{json, Value};

/// The account's own business: a signed-in session only, never a token (no OAuth scope opens it).
const SESSION_ONLY: &[&str] = &[
    "changePassword",
    "getTwoFactor",
    "startTwoFactor",
    "confirmTwoFactor",
    "disableTwoFactor",
    "exportAccount",
    "deleteAccount",
    "markAccountAsBot",
    "listApiTokens",
    "createApiToken",
    "revokeApiToken",
    "listSessions",
    "signOut",
    "signOutEverywhere",
    "setEmail",
    "setEmailPreferences",
    "reviewAuthorization",
    "answerAuthorization",
    "listReports",
    "dismissReport",
    "mutePlayer",
    "suspendPlayer",
    "listModerationActions",
];

/// The scope `operation` (`method` on `path`) needs; `Some(None)` for any token (`getMe`),
/// `None` for a signed-in session only.
pub(super) fn scope_of(method: &str, path: &str, operation: &str) -> Option<Option<&'static str>> {
    if SESSION_ONLY.contains(&operation) {
        return None;
    }
    if operation == "getMe" {
        return Some(None);
    }
    let under = |prefix: &str| path.starts_with(prefix);
    Some(Some(if under("/api/v1/me/email") {
        "email"
    } else if under("/api/v1/me/webhooks") {
        "webhooks"
    } else if under("/api/v1/me/push-subscriptions") {
        "push"
    } else if under("/api/v1/bulk-pairings") {
        "organize"
    } else if method != "get"
        && (under("/api/v1/games")
            || under("/api/v1/me/vacation")
            || under("/api/v1/me/blocks")
            || under("/api/v1/me/following")
            || under("/api/v1/reports")
            || under("/api/v1/pairing")
            || under("/api/v1/events")
            || under("/api/v1/ladders")
            || under("/api/v1/challenges"))
    {
        "play"
    } else {
        "read"
    }))
}

/// Every operation that takes a bearer token also names its OAuth scope (an app's token is a
/// bearer token too); session-only operations say so in their description.
pub(super) fn add_scopes(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in item.iter_mut() {
            let takes_bearer = operation["security"]
                .as_array()
                .is_some_and(|s| s.iter().any(|r| r.get("bearer").is_some()));
            if !takes_bearer {
                continue;
            }
            let id = operation["operationId"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            match scope_of(method, path, &id) {
                Some(scope) => {
                    let scopes: Vec<&str> = scope.into_iter().collect();
                    // Other ways in that an operation declares (the streams' ticket) stay.
                    let others: Vec<Value> = operation["security"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|r| {
                            r.as_object().is_some_and(|o| {
                                !o.is_empty()
                                    && !o.contains_key("bearer")
                                    && !o.contains_key("oauth2")
                            })
                        })
                        .cloned()
                        .collect();
                    let mut security = vec![json!({"bearer": []}), json!({"oauth2": scopes})];
                    security.extend(others);
                    operation["security"] = Value::Array(security);
                }
                None => {
                    let said = operation["description"].as_str().unwrap_or_default();
                    operation["description"] = json!(format!(
                        "{said}{}From a signed-in session only: an API token or an app's token \
                         gets 403 `insufficient_scope`.",
                        if said.is_empty() { "" } else { "\n\n" }
                    ));
                }
            }
        }
    }
}
