//! The web client's messages (`web-*` in the catalogues), as JSON it can use without a Fluent
//! library: a message is a string whose `{name}` marks take arguments, or, when the whole message
//! is one selector, an object `{"$": "n", "*": "other", "one": "...", "other": "..."}` whose key
//! the client picks with `Intl.PluralRules` (or the argument's own value). References to other
//! messages are resolved here. Anything else is refused by the test below, not at run time.

use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_bundle::FluentResource;
use fluent_syntax::ast::VariantKey;
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Message, Pattern, PatternElement};
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

/// Every `web-` message of a catalogue, without the prefix.
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
        let Some(key) = id.strip_prefix("web-") else {
            continue;
        };
        let pattern = message
            .value
            .as_ref()
            .ok_or_else(|| format!("{id} has no value"))?;
        out.insert(key.to_string(), message_value(pattern, &messages, id)?);
    }
    Ok(out)
}

/// A message: one selector, or a string.
fn message_value(
    pattern: &Pattern<&str>,
    messages: &HashMap<&str, &Message<&str>>,
    id: &str,
) -> Result<Value, String> {
    if let [PatternElement::Placeable {
        expression: Expression::Select { selector, variants },
    }] = pattern.elements.as_slice()
    {
        let InlineExpression::VariableReference { id: variable } = selector else {
            return Err(format!("{id}: the selector is not a variable"));
        };
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
            object.insert(key, Value::String(string(&variant.value, messages, id)?));
        }
        return Ok(Value::Object(object));
    }
    Ok(Value::String(string(pattern, messages, id)?))
}

/// A pattern of text, `{ $name }` and references to other such messages.
fn string(
    pattern: &Pattern<&str>,
    messages: &HashMap<&str, &Message<&str>>,
    id: &str,
) -> Result<String, String> {
    let mut out = String::new();
    for element in &pattern.elements {
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
                out.push_str(&string(referenced, messages, other.name)?);
            }
            PatternElement::Placeable { .. } => {
                return Err(format!(
                    "{id}: the web client takes only text, {{ $name }}, message references \
                     and one selector that is the whole message"
                ))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
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
