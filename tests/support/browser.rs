//! Running a browser script of `tests/browser/` (node, playwright-core, Debian's chromium): its
//! one JSON line of report.

use std::process::Command;

use serde_json::Value;

/// Runs one of `tests/browser/`'s scripts against `base`; its one JSON line.
pub fn run(script: &str, args: &[&str]) -> Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser");
    let out = Command::new("node")
        .current_dir(dir)
        .arg(script)
        .args(args)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{script}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    eprintln!("{script}: {report}");
    report
}
