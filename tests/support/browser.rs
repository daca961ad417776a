//! Running a browser script of `tests/browser/` (node, playwright-core, Debian's chromium): its
//! one JSON line of report.

use std::process::Command;
use std::sync::{Condvar, Mutex};

use serde_json::Value;

/// Browsers running now. A chromium playing a game keeps a core busy, and the harness runs more
/// tests than there are cores (most of them wait on servers): at most one browser a core, so that
/// the scripts' own timeouts are never spent waiting for a core.
static RUNNING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

struct Slot;

impl Slot {
    fn take() -> Slot {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (running, freed) = &RUNNING;
        let mut n = running.lock().unwrap_or_else(|e| e.into_inner());
        while *n >= cores {
            n = freed.wait(n).unwrap_or_else(|e| e.into_inner());
        }
        *n += 1;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let (running, freed) = &RUNNING;
        *running.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        freed.notify_one();
    }
}

/// Runs one of `tests/browser/`'s scripts against `base`; its one JSON line.
pub fn run(script: &str, args: &[&str]) -> Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser");
    let slot = Slot::take();
    let out = Command::new("node")
        .current_dir(dir)
        .arg(script)
        .args(args)
        .output()
        .expect("node runs");
    drop(slot);
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
