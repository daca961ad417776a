//! The refinements of the generated document: what utoipa cannot say from the types alone (see
//! the module above).

use serde_json::{json, Map, Value};

/// Tagged unions and the suffix of their variants' names: `Decision`'s `draw_deck` becomes
/// `DrawDeck`, `Phase`'s `draw` becomes `DrawPhase`, `EventView`'s `decided` `DecidedEvent`.
const UNIONS: &[(&str, &str)] = &[
    ("Decision", ""),
    ("Phase", "Phase"),
    ("EndReason", "End"),
    ("EventView", "Event"),
    ("TimeControl", "TimeControl"),
    ("Notice", "Notice"),
];

pub(super) fn refine(mut doc: Value) -> Value {
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return doc;
    };
    for (union, suffix) in UNIONS {
        name_union_variants(schemas, union, suffix);
    }
    add_schema_details(schemas);
    add_shared_responses(&mut doc);
    headers_never_null(&mut doc);
    text_parameters_without_controls(&mut doc);
    super::scopes::add_scopes(&mut doc);
    doc
}

/// A text in a path or a query holds no control character (`api::input_guard` refuses it): said
/// by a pattern on every text parameter that has none of its own.
fn text_parameters_without_controls(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for op in item.values_mut() {
            let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) else {
                continue;
            };
            for p in params
                .iter_mut()
                .filter(|p| p["in"] == "query" || p["in"] == "path")
            {
                let Some(schema) = p.get_mut("schema").and_then(Value::as_object_mut) else {
                    continue;
                };
                let text = schema.get("type") == Some(&json!("string"))
                    || schema
                        .get("type")
                        .and_then(Value::as_array)
                        .is_some_and(|t| t.contains(&json!("string")));
                if text && !schema.contains_key("pattern") && !schema.contains_key("enum") {
                    schema.insert("pattern".into(), json!(r"^[^\u0000-\u001F\u007F-\u009F]*$"));
                }
            }
        }
    }
}

/// An optional header is absent or has a value: never `null` (utoipa makes `Option` nullable).
fn headers_never_null(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for op in paths.values_mut().filter_map(Value::as_object_mut) {
        for op in op.values_mut() {
            let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) else {
                continue;
            };
            for p in params.iter_mut().filter(|p| p["in"] == "header") {
                if let Some(types) = p.pointer_mut("/schema/type") {
                    if let Some(list) = types.as_array() {
                        let kept: Vec<Value> =
                            list.iter().filter(|t| *t != "null").cloned().collect();
                        if kept.len() == 1 {
                            *types = kept[0].clone();
                        }
                    }
                }
            }
        }
    }
}

fn pascal_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// A `oneOf` of inline objects that each fix one string property to one value becomes a `oneOf`
/// of named schemas with a `discriminator` on that property.
fn name_union_variants(schemas: &mut Map<String, Value>, union: &str, suffix: &str) {
    let Some(variants) = schemas
        .get(union)
        .and_then(|u| u.get("oneOf"))
        .and_then(Value::as_array)
        .cloned()
    else {
        return;
    };
    let tag_of = |variant: &Value| -> Option<(String, String)> {
        variant
            .get("properties")?
            .as_object()?
            .iter()
            .find_map(|(name, prop)| {
                let values = prop.get("enum")?.as_array()?;
                (values.len() == 1 && prop.get("type") == Some(&json!("string")))
                    .then(|| Some((name.clone(), values[0].as_str()?.to_string())))
                    .flatten()
            })
    };
    let mut property = None;
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    for variant in variants {
        let Some((tag, value)) = tag_of(&variant) else {
            return;
        };
        property.get_or_insert(tag);
        let name = format!("{}{suffix}", pascal_case(&value));
        let reference = format!("#/components/schemas/{name}");
        let mut named = variant;
        if let Some(obj) = named.as_object_mut() {
            obj.insert("title".into(), json!(name));
            if let Some(example) = decision_example(union, &value) {
                obj.insert("examples".into(), json!([example]));
            }
        }
        schemas.insert(name, named);
        refs.push(json!({ "$ref": reference }));
        mapping.insert(value, json!(reference));
    }
    if let Some(obj) = schemas.get_mut(union).and_then(Value::as_object_mut) {
        obj.insert("oneOf".into(), Value::Array(refs));
        obj.insert(
            "discriminator".into(),
            json!({ "propertyName": property, "mapping": mapping }),
        );
    }
}

/// One example of every decision kind.
fn decision_example(union: &str, kind: &str) -> Option<Value> {
    if union != "Decision" {
        return None;
    }
    Some(match kind {
        "lay" => {
            json!({"type": "lay", "card": {"color": "blue", "value": 4}, "pawn": 0, "to": "blue-1"})
        }
        "discard" => json!({"type": "discard", "card": {"color": "green", "value": 7}}),
        "step" => json!({"type": "step", "pawn": 2, "to": "r4c2"}),
        "skip" => json!({"type": "skip"}),
        "discard_from_hand" => {
            json!({"type": "discard_from_hand", "card": {"color": "pink", "value": 8}})
        }
        "discard_from_row" => json!({"type": "discard_from_row", "color": "blue"}),
        "draw_deck" => json!({"type": "draw_deck"}),
        "draw_pile" => json!({"type": "draw_pile", "color": "pink"}),
        "take_stone" => {
            json!({"type": "take_stone", "cards": [{"color": "green", "value": 4}, {"color": "gray", "value": 4}]})
        }
        "pass" => json!({"type": "pass"}),
        "resign" => json!({"type": "resign"}),
        "time_out" => json!({"type": "time_out"}),
        _ => return None,
    })
}

/// The schema of one property of a named schema.
fn field<'a>(
    schemas: &'a mut Map<String, Value>,
    schema: &str,
    name: &str,
) -> Option<&'a mut Value> {
    schemas
        .get_mut(schema)?
        .get_mut("properties")?
        .get_mut(name)
}

/// Limits the types cannot carry: take_stone's two cards, players per variant.
fn add_schema_details(schemas: &mut Map<String, Value>) {
    if let Some(card) = schemas.get_mut("Card").and_then(Value::as_object_mut) {
        // A number card has a value; an end card has `"end": true`, no value, and is not gray.
        card.insert(
            "if".into(),
            json!({"properties": {"end": {"const": true}}, "required": ["end"]}),
        );
        card.insert(
            "then".into(),
            json!({"not": {"required": ["value"]}, "properties": {"color": {"not": {"const": "gray"}}}}),
        );
        card.insert("else".into(), json!({"required": ["value"]}));
    }
    if let Some(cards) = field(schemas, "TakeStone", "cards") {
        if let Some(obj) = cards.as_object_mut() {
            obj.insert("minItems".into(), json!(2));
            obj.insert("maxItems".into(), json!(2));
        }
    }
    if let Some(bots) = field(schemas, "NewGame", "bots") {
        // A bot takes one seat per game.
        bots["uniqueItems"] = json!(true);
    }
    if let Some(new_game) = schemas.get_mut("NewGame").and_then(Value::as_object_mut) {
        // keltis-card is for two players only.
        new_game.insert(
            "if".into(),
            json!({"properties": {"variant": {"const": "keltis-card"}}, "required": ["variant"]}),
        );
        new_game.insert(
            "then".into(),
            json!({"properties": {"players": {"const": 2}}}),
        );
    }
}

/// The problem responses many operations share, by name: status, codes, response headers.
fn shared_responses() -> Value {
    let problem = |description: &str, headers: Value| {
        let mut r = json!({
            "description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        });
        if headers != Value::Null {
            r["headers"] = headers;
        }
        r
    };
    let retry_after = json!({"Retry-After": {
        "description": "Seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 0}
    }});
    json!({
        "BadRequest": problem("`malformed_json`: the body is not JSON; `invalid_query`: a query parameter is unknown (but on `reviewAuthorization`, which ignores those as RFC 6749 asks), malformed or out of range, or the query holds a control character or invalid UTF-8 (on every operation, whether it takes parameters or not); `invalid_idempotency_key`; `bad_request`: the request is not HTTP/1.1 as the server reads it (refused before any route runs)", Value::Null),
        "Unauthorized": problem("`unauthorized`: no bearer token, or one that is unknown, expired or signed out", json!({"WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}}})),
        "Forbidden": problem("`insufficient_scope`: the API token lacks the scope", json!({"WWW-Authenticate": {"description": "On `insufficient_scope` (RFC 6750 §3.1): `Bearer error=\"insufficient_scope\", scope=\"play\"` names the scope that would do; where only a signed-in session does, `error_description` says so instead of `scope`", "schema": {"type": "string"}}})),
        "NotFound": problem("`not_found`", Value::Null),
        "RequestTimeout": problem("`body_timeout`: the request's head or body did not arrive in time", Value::Null),
        "RequestHeaderFieldsTooLarge": problem("`headers_too_large`: the request's head is over 128 KiB or has more than 96 headers", Value::Null),
        "PayloadTooLarge": problem("`body_too_large`: the body is over 64 KiB", Value::Null),
        "UnsupportedMediaType": problem("`unsupported_media_type`: send the body as application/json", Value::Null),
        "UnprocessableEntity": problem("`invalid_body`: the body does not fit the schema, or a text field holds control characters", Value::Null),
        "TooManyRequests": problem("`rate_limited`: too many attempts from this address (logins, registrations), or too many requests with this API or app token", retry_after.clone()),
        "Conflict": problem("`write_conflict`: another request wrote the same thing at the same moment, in a way the server did not foresee (it logs it as a bug): look again, then retry", Value::Null),
        "ServiceUnavailable": problem("`database_unavailable`, `overloaded`; `contended`: other requests kept changing the same things; try again after Retry-After", retry_after),
    })
}

/// Add each operation's shared problem responses; where the operation already lists that status,
/// its description gains the shared codes.
fn add_shared_responses(doc: &mut Value) {
    let shared = shared_responses();
    let statuses: &[(&str, &str)] = &[
        ("400", "BadRequest"),
        ("401", "Unauthorized"),
        ("403", "Forbidden"),
        ("404", "NotFound"),
        ("408", "RequestTimeout"),
        ("413", "PayloadTooLarge"),
        ("415", "UnsupportedMediaType"),
        ("422", "UnprocessableEntity"),
        ("409", "Conflict"),
        ("429", "TooManyRequests"),
        ("431", "RequestHeaderFieldsTooLarge"),
        ("503", "ServiceUnavailable"),
    ];
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(ops) = item.as_object_mut() else {
            continue;
        };
        for (method, op) in ops.iter_mut() {
            let Some(op) = op.as_object_mut() else {
                continue;
            };
            let params = op
                .get("parameters")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let has_body = op.contains_key("requestBody");
            let has_path_param = params.iter().any(|p| p["in"] == "path");
            let secured = op
                .get("security")
                .and_then(Value::as_array)
                .is_some_and(|s| !s.is_empty());
            if !secured {
                op.insert("security".into(), json!([]));
            }
            // Logins and registrations per address; every request with a bearer token per token
            // (`api::rate_limit`).
            let rate_limited =
                secured || path.ends_with("/auth/login") || path.ends_with("/auth/register");
            let uses_database = path != "/healthz";
            let writes = matches!(method.as_str(), "post" | "put" | "patch" | "delete");
            let wanted = |status: &str| match status {
                // The query's text is checked on every route (`api::input_guard`).
                "400" => true,
                "401" | "403" => secured,
                "404" => has_path_param,
                // Answered by the HTTP layer to any request (`api::connection`).
                "408" | "431" => true,
                "413" | "415" | "422" => has_body,
                // A write can meet another's (`api::error`, `write_conflict`).
                "409" => writes,
                "429" => rate_limited,
                "503" => uses_database,
                _ => false,
            };
            let responses = op
                .entry("responses")
                .or_insert_with(|| json!({}))
                .as_object_mut();
            let Some(responses) = responses else {
                continue;
            };
            for (status, response) in responses.iter_mut() {
                if response.get("description") == Some(&json!("")) {
                    response["description"] = json!(match status.as_str() {
                        "201" => "Created",
                        "204" => "No content",
                        _ => "OK",
                    });
                }
            }
            for (status, name) in statuses {
                if !wanted(status) {
                    continue;
                }
                match responses.get_mut(*status) {
                    None => {
                        responses.insert(
                            status.to_string(),
                            json!({ "$ref": format!("#/components/responses/{name}") }),
                        );
                    }
                    Some(own) => {
                        let extra = shared[name]["description"].as_str().unwrap_or_default();
                        let mine = own["description"].as_str().unwrap_or_default();
                        own["description"] = json!(if mine.is_empty() {
                            extra.to_string()
                        } else {
                            format!("{mine}; {extra}")
                        });
                        if let Some(headers) = shared[name].get("headers") {
                            own["headers"] = headers.clone();
                        }
                    }
                }
            }
        }
    }
    if let Some(components) = doc.get_mut("components").and_then(Value::as_object_mut) {
        components.insert("responses".into(), shared);
    }
}
