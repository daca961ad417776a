//! Building and running the server.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{middleware, web, App, HttpResponse};
use utoipa_swagger_ui::SwaggerUi;

use crate::api::{self, error, AppState};
use crate::config::Config;
use crate::service::accounts::TokenKeys;
use crate::storage::Database;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Storage(#[from] crate::storage::StorageError),
    #[error("bots: {0}")]
    Bots(String),
    #[error("email: {0}")]
    Mail(String),
    #[error("web push: {0}")]
    Push(String),
    #[error("cannot start the {name} worker: {error}")]
    Worker {
        name: &'static str,
        error: std::io::Error,
    },
    #[error("cannot listen on {addr}: {error}")]
    Bind { addr: String, error: std::io::Error },
}

/// A server bound to its address, ready to run.
pub struct Running {
    pub server: Server,
    pub port: u16,
    /// The background workers: `stop()` them before the process ends.
    pub workers: crate::workers::Workers,
    /// Stops the server gracefully.
    pub stopper: Stopper,
}

/// Open the database (migrating it), bind, and build the server.
pub fn build(config: &Config) -> Result<Running, StartupError> {
    build_with_clock(config, crate::clock::Clock::system())
}

/// The server, its games played by `clock` (tests pass a manual one).
pub fn build_with_clock(
    config: &Config,
    clock: crate::clock::Clock,
) -> Result<Running, StartupError> {
    if let Some(warning) = config.public_url_warning() {
        tracing::warn!("{warning}");
    }
    let secret = config.jwt_secret()?;
    // One set of keys, derived once, for everything that signs or seals with the server's secret.
    let keys = TokenKeys::new(&secret);
    let db = Database::open_with(
        &config.database_url(),
        config.pool_size,
        config.sqlite_synchronous,
    )?
    .with_clock(clock);
    if db.backend() == crate::storage::Backend::Sqlite {
        let cores = crate::limits::cores();
        tracing::info!(
            "SQLite durability: {} ({cores} cores; --sqlite-synchronous {})",
            config.sqlite_synchronous.for_cores(cores).name(),
            config.sqlite_synchronous.name()
        );
    }
    for option in db.sqlite_build_options_missing()? {
        tracing::warn!(
            "SQLite was built without SQLITE_{option} (see .cargo/config.toml), which makes the \
             server slower"
        );
    }
    let listener = TcpListener::bind(&config.bind).map_err(|error| StartupError::Bind {
        addr: config.bind.clone(),
        error,
    })?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let bots = crate::service::play::bots::ensure_bot_accounts(
        &db,
        config.bot_mcts_ms,
        config.bot_strong_ms,
    )
    .map_err(|e| StartupError::Bots(e.to_string()))?;
    let workers = crate::workers::Workers::default();
    if config.bots {
        crate::workers::bots::spawn(
            &workers,
            db.clone(),
            bots.clone(),
            config.rating_parameters(),
            std::time::Duration::from_millis(100),
        )
        .map_err(|error| StartupError::Worker { name: "bot", error })?;
    }
    crate::workers::clocks::spawn(
        &workers,
        db.clone(),
        config.rating_parameters(),
        std::time::Duration::from_millis(config.clock_interval_ms.max(10)),
    )
    .map_err(|error| StartupError::Worker {
        name: "clock",
        error,
    })?;
    let pairing = crate::service::pairing::PairingPolicy::new(
        crate::service::social::fair_use::FairUse {
            max_running_games: config.max_running_games,
        },
        config.rating_parameters().initial.rating,
        &bots,
    );
    crate::workers::pairing::spawn(
        &workers,
        db.clone(),
        pairing.clone(),
        std::time::Duration::from_millis(config.pairing_interval_ms.max(10)),
    )
    .map_err(|error| StartupError::Worker {
        name: "pairing",
        error,
    })?;
    let events = crate::service::events::EventsPolicy {
        initial_rating: config.rating_parameters().initial.rating,
        bots: bots.iter().map(|b| (b.user_id, b.name.clone())).collect(),
        ratings: config.rating_parameters(),
    };
    crate::workers::events::spawn(
        &workers,
        db.clone(),
        std::time::Duration::from_millis(config.events_interval_ms.max(10)),
    )
    .map_err(|error| StartupError::Worker {
        name: "events",
        error,
    })?;
    match config.smtp() {
        Some(smtp) => {
            let mailer = crate::service::notify::mail::delivery::Mailer::new(&smtp, keys.clone())
                .map_err(StartupError::Mail)?;
            tracing::info!(relay = %smtp.host, "notification emails go through this SMTP relay");
            crate::workers::mail::spawn(
                &workers,
                db.clone(),
                mailer,
                std::time::Duration::from_millis(config.mail_interval_ms.max(10)),
            )
            .map_err(|error| StartupError::Worker { name: "mail", error })?;
        }
        None => tracing::info!(
            "no SMTP relay configured (--smtp-host): notifications are kept in the outbox, not emailed"
        ),
    }
    crate::workers::listener::spawn(&workers, db.clone()).map_err(|error| {
        StartupError::Worker {
            name: "wake-up listener",
            error,
        }
    })?;
    crate::workers::notifier::spawn(&workers, db.clone()).map_err(|error| {
        StartupError::Worker {
            name: "wake-up notifier",
            error,
        }
    })?;
    let webhook_policy = crate::service::notify::webhooks::WebhookPolicy {
        allow_private: config.webhooks_allow_private,
    };
    match crate::service::notify::webhooks::seal_kept_secrets(&db, &keys) {
        Ok(0) => {}
        Ok(sealed) => tracing::info!(sealed, "webhook signing secrets sealed"),
        Err(e) => tracing::warn!(error = %e, "sealing webhook signing secrets failed"),
    }
    crate::workers::webhooks::spawn(
        &workers,
        db.clone(),
        webhook_policy,
        keys.clone(),
        std::time::Duration::from_millis(config.webhook_interval_ms.max(10)),
    )
    .map_err(|error| StartupError::Worker {
        name: "webhook",
        error,
    })?;
    let vapid_private_key = match config.vapid_private_key()? {
        Some(key) => key,
        None => crate::service::notify::push::kept_private_key(&db, &keys)
            .map_err(|e| StartupError::Push(e.to_string()))?,
    };
    let push_keys = crate::service::notify::push::PushKeys::from_private(
        &vapid_private_key,
        &config.vapid_subject(),
    )
    .map_err(StartupError::Push)?;
    let vapid_public_key = push_keys.public_key().to_string();
    let push_policy = crate::service::notify::outbound::OutboundPolicy {
        allow_private: config.push_allow_private,
    };
    crate::workers::push::spawn(
        &workers,
        db.clone(),
        push_keys,
        push_policy,
        std::time::Duration::from_millis(config.push_interval_ms.max(10)),
    )
    .map_err(|error| StartupError::Worker {
        name: "push",
        error,
    })?;
    if config.reviews {
        crate::workers::reviews::spawn(
            &workers,
            db.clone(),
            config.review_rated,
            std::time::Duration::from_millis(500),
        )
        .map_err(|error| StartupError::Worker {
            name: "reviews",
            error,
        })?;
    }
    crate::workers::packing::spawn(&workers, db.clone()).map_err(|error| StartupError::Worker {
        name: "packing",
        error,
    })?;
    crate::workers::checkpoints::spawn(&workers, db.clone()).map_err(|error| {
        StartupError::Worker {
            name: "checkpoint",
            error,
        }
    })?;
    crate::workers::maintenance::spawn(
        &workers,
        db.clone(),
        std::time::Duration::from_secs(config.maintenance_interval_seconds.max(1)),
    )
    .map_err(|error| StartupError::Worker {
        name: "maintenance",
        error,
    })?;
    let inbound = match &config.reply_address {
        Some(address) => Some(crate::service::correspondence::by_mail::Inbound {
            reply: crate::service::correspondence::by_mail::token::ReplyAddress::parse(address)
                .map_err(StartupError::Mail)?,
            keys: keys.clone(),
            authserv_id: config.inbound_authserv_id.clone(),
            ratings: config.rating_parameters(),
        }),
        None => None,
    };
    match (&inbound, &config.inbound_smtp) {
        (Some(inbound), Some(bind)) => {
            let bound = crate::workers::inbound_smtp::spawn(db.clone(), inbound.clone(), bind)
                .map_err(|error| StartupError::Bind {
                    addr: bind.clone(),
                    error,
                })?;
            tracing::info!(address = %bound, "receiving replies by email (SMTP)");
        }
        (None, Some(_)) => {
            return Err(StartupError::Mail(
                "--inbound-smtp needs --reply-address (the address replies go to)".into(),
            ))
        }
        _ => {}
    }
    let draining = api::Draining::default();
    let state = web::Data::new(AppState {
        inbound,
        inbound_webhook_secret: config.inbound_webhook_secret.clone(),
        db: db.clone(),
        keys: keys.clone(),
        public_url: config.public_url.trim_end_matches('/').to_string(),
        bots,
        pairing,
        events,
        fair_use: crate::service::social::fair_use::FairUse {
            max_running_games: config.max_running_games,
        },
        limiter: api::rate_limit::RateLimiter::new(config.auth_rate_limit),
        token_limiter: api::rate_limit::TokenLimiter::new(config.token_rate_limit),
        proxies: api::client_address::TrustedProxies::new(config.trusted_proxies.clone()),
        long_poll_max_seconds: config.long_poll_max_seconds,
        ratings: config.rating_parameters(),
        vacation: crate::service::correspondence::vacations::VacationPolicy {
            days_per_year: config.vacation_days_per_year,
        },
        webhooks: webhook_policy,
        push: push_policy,
        vapid_public_key,
        metrics: Default::default(),
        draining: draining.clone(),
        open_streams: Default::default(),
        stream_slots: api::rate_limit::StreamSlots::new(config.max_streams_per_player),
        stream_heartbeat: std::time::Duration::from_secs(config.stream_heartbeat_seconds.max(1)),
        stream_lifetime: std::time::Duration::from_secs(config.stream_max_seconds.max(1)),
    });
    let body_timeout = std::time::Duration::from_secs(config.body_timeout_seconds.max(1));
    let app = move || {
        App::new()
            .app_data(state.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(api::MAX_BODY_BYTES)
                    .error_handler(error::json_error),
            )
            .app_data(web::QueryConfig::default().error_handler(error::query_error))
            .app_data(web::PathConfig::default().error_handler(error::path_error))
            .wrap_fn(move |mut req, srv| {
                api::body_timeout::limit_body(&mut req, body_timeout);
                api::head::as_get(&mut req);
                actix_web::dev::Service::call(srv, req)
            })
            // Preflights answered, cross-origin answers marked (inside the next layer, so
            // that a refused preflight gets a problem body too).
            .wrap(api::cors::policy())
            // Refuse paths and queries no route may see; every error answer is a problem.
            .wrap_fn(|req, srv| {
                use futures_util::future::{ready, Either};
                let answer = match api::input_guard::check(&req) {
                    Ok(()) => Either::Left(futures_util::FutureExt::map(
                        actix_web::dev::Service::call(srv, req),
                        |answer| answer.map(|res| res.map_into_boxed_body()),
                    )),
                    Err(refusal) => {
                        Either::Right(ready(Ok(req.error_response(refusal).map_into_boxed_body())))
                    }
                };
                async move {
                    answer
                        .await
                        .map(|res| error::with_problem_body(res.map_into_boxed_body()))
                }
            })
            // gzip, brotli or zstd when the client accepts it. Event streams opt out with
            // `Content-Encoding: identity`, which is for the compressor only (RFC 9110 keeps
            // it out of answers).
            .wrap(middleware::Compress::default())
            .wrap_fn(|req, srv| {
                let answer = actix_web::dev::Service::call(srv, req);
                async move {
                    let mut res = answer.await?;
                    api::head::drop_identity_encoding(res.headers_mut());
                    Ok(res)
                }
            })
            .wrap(crate::telemetry::request_log())
            .wrap_fn(|req, srv| {
                let observation = api::metrics::Observation::start(&req);
                let answer = actix_web::dev::Service::call(srv, req);
                async move {
                    let res = answer.await?;
                    observation.finish(&res);
                    Ok(res)
                }
            })
            .service(api::health::healthz)
            .service(api::metrics::scrape)
            .service(api::health::readyz)
            .route(
                "/openapi.json",
                web::get().to(|| async {
                    HttpResponse::Ok()
                        .content_type("application/json")
                        .body(api::openapi_json())
                }),
            )
            .route(
                "/docs",
                web::get().to(|| async {
                    HttpResponse::PermanentRedirect()
                        .insert_header((actix_web::http::header::LOCATION, "/docs/"))
                        .finish()
                }),
            )
            // The refined document at /openapi.json; no request leaves for an online validator.
            // "Authorize" runs the authorization code flow with PKCE against this server.
            .service(
                SwaggerUi::new("/docs/{_:.*}").config(
                    utoipa_swagger_ui::Config::with_oauth_config(
                        ["/openapi.json"],
                        utoipa_swagger_ui::oauth::Config::new()
                            .client_id("Swagger UI")
                            .app_name("Keltis API docs")
                            .scopes(vec!["read".into()])
                            .use_pkce_with_authorization_code_grant(true),
                    )
                    .validator_url("none"),
                ),
            )
            .service(web::scope("/api/v1").configure(api::routes))
            .service(api::oauth::token)
            .service(api::oauth::revoke)
            .service(api::oauth::introspect)
            .service(api::oauth::metadata)
            .service(api::oauth::consent_page)
            .service(api::client::index)
            .service(api::client::screen)
            .service(api::client::text_table_screen)
            .service(api::client::settings_screen)
            .service(api::client::people_screen)
            .service(api::client::join_screen)
            .service(api::client::root_file)
            .service(api::client::file)
            .default_service(web::to(error::no_route))
    };
    // Blocking work (database calls) waits for a pooled connection anyway: threads beyond a few
    // per connection only add memory (actix would grow to 512 under a burst of requests).
    // Signals are ours (see `Stopper`): streams must end before the server waits for requests.
    let settings = api::connection::ServerSettings {
        workers: config.workers,
        max_blocking_threads: (config.pool_size as usize * 2).max(8),
        h2c: config.h2c,
    };
    let server =
        api::connection::serve(listener, app, settings).map_err(|error| StartupError::Bind {
            addr: config.bind.clone(),
            error,
        })?;
    Ok(Running {
        stopper: Stopper {
            server: server.handle(),
            draining,
            workers: workers.clone(),
            db: db.clone(),
        },
        workers,
        server,
        port,
    })
}

/// Stops a running server gracefully: open event streams end, requests in flight finish (up to
/// actix's shutdown timeout), then the background workers finish their pass, then the last
/// wake-ups are sent.
#[derive(Clone)]
pub struct Stopper {
    server: actix_web::dev::ServerHandle,
    draining: api::Draining,
    workers: crate::workers::Workers,
    db: Database,
}

impl Stopper {
    pub async fn stop(&self) {
        self.draining.start();
        self.server.stop(true).await;
        let (workers, db) = (self.workers.clone(), self.db.clone());
        // Joining the worker threads blocks: not on the server's runtime.
        let _ = actix_web::rt::task::spawn_blocking(move || {
            workers.stop();
            crate::workers::notifier::flush(&db);
            db.release();
        })
        .await;
    }

    /// Stop when the process is asked to (SIGINT, SIGTERM).
    pub async fn stop_on_signal(self) {
        wait_for_signal().await;
        tracing::info!("stopping: ending streams, finishing requests");
        self.stop().await;
    }
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = actix_web::rt::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = actix_web::rt::signal::ctrl_c().await;
}
