//! The HTML (and plain text) around the catalogue's words: templates in `templates/` that escape
//! every value for HTML (`.html`) by themselves, rendered by minijinja.

use std::sync::LazyLock;

use minijinja::Environment;
use serde::Serialize;

static TEMPLATES: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    for (name, source) in [
        ("email.html", include_str!("templates/email.html")),
        ("email.txt", include_str!("templates/email.txt")),
        ("page.html", include_str!("templates/page.html")),
    ] {
        // Ours and compiled in: the tests render each.
        if let Err(e) = env.add_template(name, source) {
            tracing::error!(name, error = %e, "a template does not parse");
        }
    }
    env
});

/// A template, filled with `context`. A failure (ruled out by the tests) renders as nothing and
/// is logged.
pub fn render(name: &str, context: impl Serialize) -> String {
    TEMPLATES
        .get_template(name)
        .and_then(|t| t.render(minijinja::value::Serde(context)))
        .unwrap_or_else(|e| {
            tracing::error!(name, error = %e, "a template");
            String::new()
        })
}
