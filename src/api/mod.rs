//! The HTTP API, versioned under `/api/v1`. Handlers extract, call one service function, and map
//! the result; errors become JSON problems in `error`.

pub mod accounts;
pub mod auth;
pub mod body_timeout;
pub mod client;
pub mod client_address;
pub mod connection;
pub mod cors;
pub mod deletion;
pub mod email;
pub mod error;
pub mod events;
pub mod games;
pub mod head;
pub mod health;
pub mod inbound_mail;
pub mod input_guard;
pub mod json_body;
pub mod ladders;
pub mod metrics;
pub mod moderation;
pub mod my_games;
pub mod notifications;
pub mod oauth;
pub mod openapi;
pub mod outside_bots;
pub mod pairing;
pub mod passwords;
pub mod plans;
pub mod players;
pub mod push;
pub mod rate_limit;
pub mod reviews;
pub mod social;
pub mod streams;
pub mod two_factor;
pub mod vacation;
pub mod webhooks;
pub mod words;

use actix_web::web;

use crate::service::accounts::TokenKeys;
use crate::storage::Database;

/// What every handler shares.
pub struct AppState {
    pub db: Database,
    pub keys: TokenKeys,
    /// Where players reach the server (the OAuth issuer, links in emails).
    pub public_url: String,
    pub limiter: rate_limit::RateLimiter,
    /// Requests per API or app token.
    pub token_limiter: rate_limit::TokenLimiter,
    /// Whose `Forwarded` headers name the client (the rate limits' address).
    pub proxies: client_address::TrustedProxies,
    pub bots: Vec<crate::service::play::bots::ServerBot>,
    /// What pairing passes need (the cap, the newcomers' rating, the bots that fill seats).
    pub pairing: crate::service::pairing::PairingPolicy,
    pub events: crate::service::events::EventsPolicy,
    /// The cap on games running at once.
    pub fair_use: crate::service::social::fair_use::FairUse,
    /// The longest a long poll of events is held, in seconds.
    pub long_poll_max_seconds: u64,
    pub vacation: crate::service::correspondence::vacations::VacationPolicy,
    pub webhooks: crate::service::notify::webhooks::WebhookPolicy,
    /// Whether push endpoints may be private addresses.
    pub push: crate::service::notify::outbound::OutboundPolicy,
    /// The server's VAPID public key (base64url), for clients subscribing to pushes.
    pub vapid_public_key: String,
    /// The rating system's parameters.
    pub ratings: crate::ratings::RatingParameters,
    /// Moves by email: what receiving a reply needs (`None` without `--reply-address`).
    pub inbound: Option<crate::service::correspondence::by_mail::Inbound>,
    /// The secret a mail provider's inbound webhook signs with (`None`: that endpoint is off).
    pub inbound_webhook_secret: Option<String>,
    pub metrics: std::sync::Arc<metrics::Metrics>,
    /// Set when the server begins to stop: open streams end.
    pub draining: Draining,
    /// How many event streams are open (metrics).
    pub open_streams: std::sync::Arc<std::sync::atomic::AtomicI64>,
    /// The event streams each player holds open here, capped.
    pub stream_slots: std::sync::Arc<rate_limit::StreamSlots>,
    /// How long a stream stays silent before it sends a heartbeat comment.
    pub stream_heartbeat: std::time::Duration,
    /// How long a stream lasts before the server ends it (the client resumes).
    pub stream_lifetime: std::time::Duration,
}

/// Set when the server begins to stop, so that open event streams end and the stop does not
/// wait for them.
#[derive(Clone)]
pub struct Draining(std::sync::Arc<tokio::sync::watch::Sender<bool>>);

impl Default for Draining {
    fn default() -> Draining {
        Draining(std::sync::Arc::new(tokio::sync::watch::channel(false).0))
    }
}

impl Draining {
    /// Begin: every stream ends after what it is sending.
    pub fn start(&self) {
        self.0.send_replace(true);
    }

    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<bool> {
        self.0.subscribe()
    }
}

pub use openapi::openapi_json;

/// Largest JSON body accepted.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Routes under `/api/v1`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(accounts::register)
        .service(accounts::login)
        .service(accounts::refresh)
        .service(accounts::me)
        .service(accounts::list_tokens)
        .service(accounts::create_token)
        .service(accounts::revoke_token)
        .service(accounts::list_sessions)
        .service(accounts::sign_out_everywhere)
        .service(accounts::sign_out)
        .service(accounts::export)
        .service(passwords::change_password)
        .service(passwords::request_reset)
        .service(passwords::reset_password)
        .service(two_factor::status)
        .service(two_factor::start)
        .service(two_factor::confirm)
        .service(two_factor::disable)
        .service(deletion::delete_account)
        .service(outside_bots::mark_as_bot)
        .service(inbound_mail::receive)
        .service(social::list_chat)
        .service(social::post_chat)
        .service(social::mark_chat_read)
        .service(social::get_note)
        .service(social::set_note)
        .service(plans::get_plan_choices)
        .service(plans::get_plan)
        .service(plans::put_plan)
        .service(plans::delete_plan)
        .service(social::list_blocks)
        .service(social::block)
        .service(social::unblock)
        .service(social::list_following)
        .service(social::follow)
        .service(social::unfollow)
        .service(moderation::create_report)
        .service(moderation::list_reports)
        .service(moderation::dismiss_report)
        .service(moderation::mute)
        .service(moderation::suspend)
        .service(moderation::audit)
        .service(oauth::review)
        .service(oauth::answer)
        .service(games::list)
        .service(my_games::list)
        .service(games::create)
        .service(games::get)
        .service(games::join)
        .service(games::leave)
        .service(games::invite)
        .service(games::decide)
        .service(games::resign)
        .service(words::choices)
        .service(words::play)
        .service(games::events)
        .service(streams::game_stream)
        .service(streams::my_stream)
        .service(streams::create_ticket)
        .service(webhooks::list)
        .service(push::vapid_key)
        .service(push::subscribe)
        .service(push::list)
        .service(push::unsubscribe)
        .service(push::test)
        .service(webhooks::create)
        .service(webhooks::delete)
        .service(webhooks::enable)
        .service(webhooks::attempts)
        .service(games::record)
        .service(reviews::request)
        .service(reviews::get)
        .service(games::replay_step)
        .service(games::bots)
        .service(players::profile)
        .service(players::history)
        .service(players::leaderboard)
        .service(pairing::file)
        .service(pairing::list)
        .service(pairing::get)
        .service(pairing::cancel)
        .service(pairing::get_rematch)
        .service(pairing::offer_rematch)
        .service(pairing::decline_rematch)
        .service(pairing::challenge_link)
        .service(pairing::accept_challenge)
        .service(pairing::create_bulk)
        .service(pairing::get_bulk)
        .service(pairing::cancel_bulk)
        .service(events::create)
        .service(events::list)
        .service(events::get)
        .service(events::cancel)
        .service(events::enter)
        .service(events::withdraw)
        .service(ladders::get)
        .service(ladders::join)
        .service(ladders::leave)
        .service(ladders::challenge)
        .service(vacation::status)
        .service(vacation::start)
        .service(vacation::stop)
        .service(notifications::list)
        .service(email::settings)
        .service(email::set_email)
        .service(email::set_preferences)
        .service(email::verify)
        .service(email::unsubscribe_page)
        .service(email::unsubscribe);
}
