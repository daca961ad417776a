//! The pages the links in emails open (the address confirmed, unsubscribing), in the reader's
//! language (the account's, which the signed link names): the catalogue's `page-*` words in
//! `templates/page.html`.

use serde::Serialize;

use super::templates;
use crate::service::i18n::{self, Language};

/// Which page.
pub enum Page<'a> {
    Confirmed,
    /// The button that unsubscribes (`token`: the link's).
    Unsubscribe {
        token: &'a str,
    },
    /// Done, for this kind of email.
    Unsubscribed {
        kind: &'a str,
    },
}

#[derive(Serialize)]
struct Context<'a> {
    lang: &'static str,
    title: String,
    text: Option<String>,
    button: Option<String>,
    token: Option<&'a str>,
}

/// The page, as an HTML document.
pub fn page(language: Language, page: Page<'_>) -> String {
    let word = |id| i18n::word(language, id);
    let context = match page {
        Page::Confirmed => Context {
            lang: language.code(),
            title: word("page-confirmed"),
            text: Some(word("page-confirmed-body")),
            button: None,
            token: None,
        },
        Page::Unsubscribe { token } => Context {
            lang: language.code(),
            title: word("page-unsubscribe"),
            text: None,
            button: Some(word("page-unsubscribe-button")),
            token: Some(token),
        },
        Page::Unsubscribed { kind } => Context {
            lang: language.code(),
            title: word("page-unsubscribed"),
            text: Some(i18n::text(
                language,
                "page-unsubscribed-body",
                &[("kind", kind.into())],
            )),
            button: None,
            token: None,
        },
    };
    templates::render("page.html", &context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_renders_in_every_language() {
        for language in Language::ALL {
            let html = page(language, Page::Unsubscribe { token: "a.b\"c" });
            assert!(
                html.contains(&format!("lang=\"{}\"", language.code())),
                "{html}"
            );
            assert!(html.contains("?token=a.b&quot;c"), "{html}");
            let html = page(language, Page::Unsubscribed { kind: "your_turn" });
            assert!(!html.contains("your_turn"), "{html}");
            assert!(page(language, Page::Confirmed).contains("<h1>"));
        }
    }
}
