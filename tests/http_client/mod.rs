//! The web client: served from the binary at `/`, and played in a real browser (Debian's
//! chromium driven by playwright-core from `tests/browser/`) when `KELTIS_BROWSER_TESTS` is set.

mod screens;
mod serving;
use crate::support;
mod whole_games;

use std::process::Command;

use serde_json::{json, Value};
use support::browser::run as browser;
use support::Db;
