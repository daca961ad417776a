//! The README and the guides in `docs/` link to each other: every relative link must lead to a
//! file that exists, and every `#anchor` to a heading of that file (GitHub's anchors: lower
//! case, punctuation dropped, spaces as hyphens).

use std::path::{Path, PathBuf};

fn markdown_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files
}

/// The anchor GitHub gives a heading.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors_of(text: &str) -> Vec<String> {
    let mut in_code = false;
    text.lines()
        .filter(|l| {
            if l.starts_with("```") {
                in_code = !in_code;
            }
            !in_code && l.starts_with('#')
        })
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of `[text](target)` links in `text`.
fn links_of(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            links.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    links
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).expect("readable");
        for link in links_of(&text) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            assert!(
                target.exists(),
                "{}: the link {link} leads nowhere",
                file.display()
            );
            if !fragment.is_empty() {
                let target_text = std::fs::read_to_string(&target).expect("readable");
                assert!(
                    anchors_of(&target_text).iter().any(|a| a == fragment),
                    "{}: no heading for #{fragment} in {}",
                    file.display(),
                    target.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} links checked");
}

#[test]
fn every_setting_of_serve_is_in_the_operating_guide() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_keltis"))
        .args(["serve", "--help"])
        .output()
        .expect("keltis serve --help");
    let help = String::from_utf8_lossy(&help.stdout);
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operating.md"))
        .expect("docs/operating.md");
    let flags: Vec<&str> = help
        .split_whitespace()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.trim_end_matches([',', '.', ')']))
        .filter(|w| *w != "--help")
        .collect();
    assert!(flags.len() > 20, "{flags:?}");
    let missing: Vec<&&str> = flags
        .iter()
        .filter(|f| !guide.contains(&format!("`{f}")))
        .collect();
    assert!(
        missing.is_empty(),
        "settings missing from docs/operating.md: {missing:?}"
    );
}
