//! Every word the server says, in English, French and German: one Fluent catalogue per language
//! (`en.ftl`, `fr.ftl`, `de.ftl` beside this file), compiled into the binary and read once.
//! Emails (`mail-*`), pushes (`push-*`) and the pages email links open (`page-*`) are formatted
//! here; the web client gets its messages (`web-*`) from `web_messages`, as JSON (see `client`).

mod client;

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use client::web_messages;

/// The languages the server speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    Fr,
    De,
}

impl Language {
    pub const ALL: [Language; 3] = [Language::En, Language::Fr, Language::De];

    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
            Language::De => "de",
        }
    }

    /// A language by its code; English for any other.
    pub fn parse(code: &str) -> Language {
        match code {
            "fr" => Language::Fr,
            "de" => Language::De,
            _ => Language::En,
        }
    }

    /// A language by its code, if we speak it.
    pub fn known(code: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The first of our languages in an `Accept-Language` header (by order of preference),
    /// English when none is.
    pub fn from_accept_language(header: Option<&str>) -> Language {
        let mut tags: Vec<(f32, &str)> = header
            .unwrap_or("")
            .split(',')
            .filter_map(|part| {
                let mut bits = part.trim().split(';');
                let tag = bits.next()?.trim();
                let q = bits
                    .find_map(|b| b.trim().strip_prefix("q="))
                    .and_then(|q| q.parse().ok())
                    .unwrap_or(1.0);
                Some((q, tag))
            })
            .collect();
        tags.sort_by(|a, b| b.0.total_cmp(&a.0));
        tags.iter()
            .map(|(_, tag)| tag.split('-').next().unwrap_or("").to_ascii_lowercase())
            .find_map(|primary| Language::known(&primary))
            .unwrap_or_default()
    }

    /// The catalogue's source.
    fn source(self) -> &'static str {
        match self {
            Language::En => include_str!("en.ftl"),
            Language::Fr => include_str!("fr.ftl"),
            Language::De => include_str!("de.ftl"),
        }
    }
}

/// The three catalogues, parsed.
static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> =
    LazyLock::new(|| Language::ALL.into_iter().map(bundle).collect());

fn bundle(language: Language) -> FluentBundle<FluentResource> {
    // The catalogues are ours and compiled in: a syntax error is caught by the tests below.
    let resource = FluentResource::try_new(language.source().to_string())
        .unwrap_or_else(|(resource, _)| resource);
    let locale = language
        .code()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![locale]);
    // Emails' subjects and plain text would carry the invisible isolation marks.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        tracing::error!(
            language = language.code(),
            ?errors,
            "the catalogue has duplicates"
        );
    }
    bundle
}

/// A value for a message's `{ $name }`.
pub type Arg<'a> = (&'static str, FluentValue<'a>);

/// The message `id` in `language`, with its arguments filled in. A message missing from the
/// catalogue (which the tests rule out) reads as its id.
pub fn text(language: Language, id: &str, args: &[Arg<'_>]) -> String {
    let bundle = &BUNDLES[language as usize];
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        tracing::error!(language = language.code(), id, "no such message");
        return id.to_string();
    };
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    let mut errors = Vec::new();
    let out = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    if !errors.is_empty() {
        tracing::error!(
            language = language.code(),
            id,
            ?errors,
            "a message's arguments"
        );
    }
    out.into_owned()
}

/// The message `id`, without arguments.
pub fn word(language: Language, id: &str) -> String {
    text(language, id, &[])
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use fluent_syntax::ast::Entry;

    /// Every message and term id of a catalogue, in its order, repeats included.
    fn ids_in_order(language: Language) -> Vec<String> {
        let resource = match FluentResource::try_new(language.source().to_string()) {
            Ok(r) => r,
            Err((_, errors)) => panic!("{}.ftl does not parse: {errors:?}", language.code()),
        };
        resource
            .entries()
            .filter_map(|e| match e {
                Entry::Message(m) => Some(m.id.name.to_string()),
                Entry::Term(t) => Some(format!("-{}", t.id.name)),
                _ => None,
            })
            .collect()
    }

    /// Every message and term id of a catalogue.
    fn ids(language: Language) -> BTreeSet<String> {
        ids_in_order(language).into_iter().collect()
    }

    /// A message defined twice keeps its first definition, whatever the second meant (a score's
    /// label and a tile's points once shared an id).
    #[test]
    fn no_message_is_defined_twice() {
        for language in Language::ALL {
            let mut seen = BTreeSet::new();
            let twice: Vec<String> = ids_in_order(language)
                .into_iter()
                .filter(|id| !seen.insert(id.clone()))
                .collect();
            assert!(
                twice.is_empty(),
                "{}.ftl defines {twice:?} twice",
                language.code()
            );
            let resource =
                FluentResource::try_new(language.source().to_string()).unwrap_or_else(|(r, _)| r);
            let mut bundle = FluentBundle::new_concurrent(vec![]);
            assert!(bundle.add_resource(resource).is_ok(), "{}", language.code());
        }
    }

    #[test]
    fn every_message_exists_in_every_language() {
        let english = ids(Language::En);
        assert!(english.len() > 100, "{}", english.len());
        for language in [Language::Fr, Language::De] {
            let other = ids(language);
            let missing: Vec<_> = english.difference(&other).collect();
            let extra: Vec<_> = other.difference(&english).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{}.ftl lacks {missing:?} and has {extra:?} that en.ftl does not",
                language.code()
            );
        }
    }

    /// The ids the services ask for (string literals that look like ours) are in the
    /// catalogue.
    #[test]
    fn every_message_the_code_asks_for_exists() {
        let english = ids(Language::En);
        let mut asked = BTreeSet::new();
        let mut stack = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/service"
        ))];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("src/ is readable").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let code = std::fs::read_to_string(&path).expect("a source file");
                    for piece in code.split('"').skip(1).step_by(2) {
                        let ours = ["mail-", "push-", "page-", "move-", "did-", "space-"]
                            .iter()
                            .any(|p| piece.starts_with(p));
                        if ours
                            && !piece.ends_with('-')
                            && piece.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                        {
                            asked.insert(piece.to_string());
                        }
                    }
                }
            }
        }
        assert!(asked.len() > 20, "{asked:?}");
        let missing: Vec<_> = asked.difference(&english).collect();
        assert!(
            missing.is_empty(),
            "asked for but not in en.ftl: {missing:?}"
        );
    }

    #[test]
    fn plurals_and_agreement_are_fluents() {
        let hours = |language, n: i64| {
            text(
                language,
                "mail-reminder",
                &[("hours", n.into()), ("id", 7.into())],
            )
        };
        assert_eq!(
            hours(Language::En, 1),
            "One hour left for your turn in game 7"
        );
        assert_eq!(
            hours(Language::En, 24),
            "24 hours left for your turn in game 7"
        );
        assert_eq!(
            hours(Language::Fr, 1),
            "Plus qu'une heure pour jouer dans la partie 7"
        );
        let pile = |language| {
            text(
                language,
                "did-draw-pile",
                &[
                    ("who", "anna".into()),
                    ("color", word(language, "color-blue").into()),
                    ("color_id", "blue".into()),
                ],
            )
        };
        assert_eq!(pile(Language::En), "anna drew from the blue discard pile");
        assert_eq!(pile(Language::Fr), "anna a pris dans la défausse bleue");
        assert_eq!(
            pile(Language::De),
            "anna hat vom blauen Ablagestapel genommen"
        );
        assert_eq!(
            text(
                Language::De,
                "page-unsubscribed-body",
                &[("kind", "game_over".into())]
            ),
            "Du bekommst keine E-Mails dieser Art mehr: beendete Partien."
        );
    }

    #[test]
    fn the_accept_language_header_picks_the_first_language_we_speak() {
        let pick = |h| Language::from_accept_language(Some(h));
        assert_eq!(pick("de-CH, fr;q=0.9, en;q=0.8"), Language::De);
        assert_eq!(pick("es, fr-CA;q=0.5, de;q=0.3"), Language::Fr);
        assert_eq!(pick("en;q=0.2, de;q=0.9"), Language::De);
        assert_eq!(pick("ja"), Language::En);
        assert_eq!(Language::from_accept_language(None), Language::En);
    }
}
