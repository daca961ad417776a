//! Every integration test in one binary: each file under `tests/` is a module of this crate, so
//! the crate and its dependencies are linked once and the shared helpers (`support/`) compiled
//! once, instead of once for each of 52 binaries; and the test harness spreads all the tests over
//! its threads instead of running the files one after another (issue 67).
//!
//! One file's tests alone: `cargo test --test integration http_live::` (a test's full name
//! starts with its file's).

#[macro_use]
mod support;

mod backup_drill;
mod behind_proxy;
mod bench_scripts;
mod browser_oauth;
mod browser_social;
mod contract_tools;
mod crash_drill;
mod docs_links;
mod engine_properties;
mod http_account_deletion;
mod http_accounts;
mod http_api;
mod http_bulk;
mod http_client;
mod http_contract;
mod http_correspondence;
mod http_cors;
mod http_event_mail;
mod http_event_rules;
mod http_events;
mod http_export;
mod http_hardening;
mod http_ladder;
mod http_live;
mod http_mail;
mod http_mail_plans;
mod http_mail_replies_refused;
mod http_moderation;
mod http_moves_by_mail;
mod http_my_games;
mod http_oauth;
mod http_pairing;
mod http_passwords;
mod http_plan_choices;
mod http_plan_rules;
mod http_plans;
mod http_push;
mod http_races;
mod http_ratings;
mod http_rematch;
mod http_replay;
mod http_review;
mod http_robustness;
mod http_scopes;
mod http_social;
mod http_two_factor;
mod http_typed_moves;
mod http_vacation;
mod http_webhooks;
mod load_tool;
mod open_files;
mod openapi_spec;
mod outside_bots;
mod pairing_properties;
mod ratings_cli;
mod request_log;
mod selfplay_cli;
mod upgrade_from_release;
