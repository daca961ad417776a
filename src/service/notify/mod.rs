//! Telling players and their programs what happened: the transactional outbox of notices
//! (`notifications`), and its channels: email (`mail`), Web Push (`push`), webhooks (`webhooks`)
//! and live streams and long polls (`live`); every call out to an address a user gave goes
//! through one guarded client (`outbound`).

pub mod event_news;
pub mod live;
pub mod mail;
pub mod notifications;
pub mod outbound;
pub mod push;
pub mod webhooks;
