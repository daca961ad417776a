//! The web client's messages, as JSON it can use without a Fluent library: its own (`web-*` in
//! the catalogues, without the prefix) and, under their own names, the game's words that it
//! shares with email, push and the API (`card`, `space-*`, `move-*`, `did-*`), so that every
//! client names cards, spaces and moves alike. A message is a string whose `{name}` marks take
//! arguments, or, when it holds one selector, an object `{"$": "n", "*": "other", "one": "...",
//! "other": "..."}` whose key the client picks by the argument's own value, else its plural
//! category; the text around the selector is copied into each variant. References to other
//! messages are resolved here. Anything else is refused by the test below, not at run time.

use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_bundle::FluentResource;
use fluent_syntax::ast::VariantKey;
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Message, PatternElement};
use serde_json::{Map, Value};

use super::Language;

static MESSAGES: LazyLock<Vec<String>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .map(|language| match convert(language.source()) {
            Ok(messages) => Value::Object(messages).to_string(),
            Err(why) => {
                tracing::error!(language = language.code(), why, "the web client's messages");
                "{}".to_string()
            }
        })
        .collect()
});

/// The web client's messages in `language`, as a JSON object.
pub fn web_messages(language: Language) -> &'static str {
    &MESSAGES[language as usize]
}

/// The name the web client knows a message by, if it gets it at all.
fn client_key(id: &str) -> Option<&str> {
    if let Some(own) = id.strip_prefix("web-") {
        return Some(own);
    }
    let shared = id == "card"
        || ["card-", "space-", "move-", "did-"]
            .iter()
            .any(|p| id.starts_with(p));
    shared.then_some(id)
}

/// Every message the web client gets, by the name it knows it by.
fn convert(source: &str) -> Result<Map<String, Value>, String> {
    let resource =
        FluentResource::try_new(source.to_string()).map_err(|(_, errors)| format!("{errors:?}"))?;
    let messages: HashMap<&str, &Message<&str>> = resource
        .entries()
        .filter_map(|e| match e {
            Entry::Message(m) => Some((m.id.name, m)),
            _ => None,
        })
        .collect();
    let mut out = Map::new();
    for (id, message) in &messages {
        let Some(key) = client_key(id) else {
            continue;
        };
        let pattern = message
            .value
            .as_ref()
            .ok_or_else(|| format!("{id} has no value"))?;
        let value = message_value(&pattern.elements, &messages, id)?;
        if out.insert(key.to_string(), value).is_some() {
            return Err(format!("{id}: the web client already has a message {key}"));
        }
    }
    Ok(out)
}

/// A message: a string, or one selector with the text around it copied into each variant.
fn message_value(
    elements: &[PatternElement<&str>],
    messages: &HashMap<&str, &Message<&str>>,
    id: &str,
) -> Result<Value, String> {
    let selectors: Vec<usize> = (0..elements.len())
        .filter(|&i| {
            matches!(
                elements[i],
                PatternElement::Placeable {
                    expression: Expression::Select { .. }
                }
            )
        })
        .collect();
    let at = match selectors.as_slice() {
        [] => return Ok(Value::String(string(elements, messages, id)?)),
        [at] => *at,
        _ => return Err(format!("{id}: the web client takes one selector at most")),
    };
    let PatternElement::Placeable {
        expression: Expression::Select { selector, variants },
    } = &elements[at]
    else {
        return Err(format!("{id}: not a selector"));
    };
    let InlineExpression::VariableReference { id: variable } = selector else {
        return Err(format!("{id}: the selector is not a variable"));
    };
    let before = string(&elements[..at], messages, id)?;
    let after = string(&elements[at + 1..], messages, id)?;
    let mut object = Map::new();
    object.insert("$".into(), Value::String(variable.name.to_string()));
    for variant in variants {
        let key = match &variant.key {
            VariantKey::Identifier { name } => name.to_string(),
            VariantKey::NumberLiteral { value } => value.to_string(),
        };
        if variant.default {
            object.insert("*".into(), Value::String(key.clone()));
        }
        let text = string(&variant.value.elements, messages, id)?;
        object.insert(key, Value::String(format!("{before}{text}{after}")));
    }
    Ok(Value::Object(object))
}

/// Text, `{ $name }` and references to other such messages.
fn string(
    elements: &[PatternElement<&str>],
    messages: &HashMap<&str, &Message<&str>>,
    id: &str,
) -> Result<String, String> {
    let mut out = String::new();
    for element in elements {
        match element {
            PatternElement::TextElement { value } => out.push_str(value),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id: v }),
            } => out.push_str(&format!("{{{}}}", v.name)),
            PatternElement::Placeable {
                expression:
                    Expression::Inline(InlineExpression::MessageReference {
                        id: other,
                        attribute: None,
                    }),
            } => {
                let referenced = messages
                    .get(other.name)
                    .and_then(|m| m.value.as_ref())
                    .ok_or_else(|| format!("{id} refers to {}, which has no value", other.name))?;
                out.push_str(&string(&referenced.elements, messages, other.name)?);
            }
            PatternElement::Placeable { .. } => {
                return Err(format!(
                    "{id}: the web client takes only text, {{ $name }}, message references \
                     and one selector"
                ))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::Arg;
    use super::*;

    #[test]
    fn every_web_message_converts_in_every_language() {
        for language in Language::ALL {
            let messages = convert(language.source()).unwrap_or_else(|e| panic!("{e}"));
            assert!(messages.len() > 90, "{}", messages.len());
            let parsed: Value = serde_json::from_str(web_messages(language)).expect("JSON");
            assert_eq!(parsed.as_object().map(Map::len), Some(messages.len()));
        }
        let en: Value = serde_json::from_str(web_messages(Language::En)).expect("JSON");
        assert_eq!(en["deadline"], "Deadline: {when} ({left} left)");
        assert_eq!(en["blue"], "blue");
        assert_eq!(en["hand-size"]["$"], "n");
        assert_eq!(en["hand-size"]["*"], "other");
        assert_eq!(en["hand-size"]["other"], "{n} cards");
    }

    /// The game's words the web client shares with the server come out alike: each message,
    /// with each of its selector's values and one it does not list, filled as `web/i18n.js`
    /// fills it, equals the server's own text.
    #[test]
    fn the_shared_words_read_alike_on_the_web_and_on_the_server() {
        const NAMES: [&str; 15] = [
            "who", "card", "card2", "pawn", "to", "path", "path_id", "color", "color_id", "value",
            "step", "row", "column", "n", "space",
        ];
        for language in Language::ALL {
            let messages = convert(language.source()).unwrap_or_else(|e| panic!("{e}"));
            let shared: Vec<_> = messages
                .iter()
                .filter(|(key, _)| client_key(key) == Some(key.as_str()))
                .collect();
            assert!(shared.len() > 25, "{}", shared.len());
            for (key, message) in shared {
                let selector = message.get("$").and_then(Value::as_str);
                let mut cases: Vec<String> = message
                    .as_object()
                    .map(|o| {
                        o.keys()
                            .filter(|k| *k != "$" && *k != "*")
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                cases.push("unlisted".into());
                for case in cases {
                    let args: Vec<(&'static str, String)> = NAMES
                        .iter()
                        .map(|&name| {
                            let value = if Some(name) == selector {
                                case.clone()
                            } else {
                                format!("<{name}>")
                            };
                            (name, value)
                        })
                        .collect();
                    let fluent: Vec<Arg<'_>> =
                        args.iter().map(|(n, v)| (*n, v.as_str().into())).collect();
                    assert_eq!(
                        fill_like_the_client(message, &args),
                        super::super::text(language, key, &fluent),
                        "{} {key} with {case}",
                        language.code()
                    );
                }
            }
        }
    }

    /// A message filled as `web/i18n.js` fills it (string arguments).
    fn fill_like_the_client(message: &Value, args: &[(&str, String)]) -> String {
        let arg = |name: &str| {
            args.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.as_str())
        };
        let text = match message {
            Value::Object(o) => {
                let value = o["$"].as_str().and_then(arg).unwrap_or_default();
                let default = o["*"].as_str().unwrap_or_default();
                o.get(value)
                    .or_else(|| o.get(default))
                    .and_then(Value::as_str)
            }
            other => other.as_str(),
        }
        .unwrap_or_default();
        let mut out = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c);
            out.push_str(arg(&rest[open + 1..close]).unwrap_or_default());
            rest = rest.get(close + 1..).unwrap_or_default();
        }
        out + rest
    }

    /// Every key the web client asks for with a literal (`t('key')`) or one of its prefixes
    /// (`t(`status-${...}`)`) is a message.
    #[test]
    fn every_word_the_web_client_uses_exists() {
        let en: Value = serde_json::from_str(web_messages(Language::En)).expect("JSON");
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/web");
        let mut used = 0;
        for entry in std::fs::read_dir(dir).expect("web/").flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "js") {
                continue;
            }
            let code = std::fs::read_to_string(&path).expect("a module");
            for (key, literal) in calls_of_t(&code) {
                if literal {
                    used += 1;
                    assert!(
                        en.get(key).is_some(),
                        "{}: t('{key}') is no message",
                        path.display()
                    );
                } else {
                    let any = en
                        .as_object()
                        .is_some_and(|m| m.keys().any(|k| k.starts_with(key)));
                    assert!(any, "{}: no message starts with {key}", path.display());
                }
            }
        }
        assert!(used > 60, "{used}");
    }

    /// The keys of `t('key')` (true) and the prefixes of `t(`prefix${...}`)` (false) in a module.
    fn calls_of_t(code: &str) -> Vec<(&str, bool)> {
        let mut calls = Vec::new();
        for (at, _) in code.match_indices("t(") {
            let before = code[..at].chars().next_back().unwrap_or(' ');
            if before.is_alphanumeric() || before == '_' || before == '.' {
                continue;
            }
            let rest = &code[at + 2..];
            if let Some(literal) = rest.strip_prefix('\'') {
                calls.push((literal.split('\'').next().unwrap_or_default(), true));
            } else if let Some(template) = rest.strip_prefix('`') {
                calls.push((template.split("${").next().unwrap_or_default(), false));
            }
        }
        calls
    }
}
