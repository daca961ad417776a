//! Building and running the server.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{middleware, web, App, HttpResponse, HttpServer};
use utoipa::OpenApi;
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
    #[error("cannot listen on {addr}: {error}")]
    Bind { addr: String, error: std::io::Error },
}

/// A server bound to its address, ready to run.
pub struct Running {
    pub server: Server,
    pub port: u16,
}

/// Open the database (migrating it), bind, and build the server.
pub fn build(config: &Config) -> Result<Running, StartupError> {
    let secret = config.jwt_secret()?;
    let db = Database::open(&config.database_url(), config.pool_size)?;
    let listener = TcpListener::bind(&config.bind).map_err(|error| StartupError::Bind {
        addr: config.bind.clone(),
        error,
    })?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let bots = crate::service::bots::ensure_bot_accounts(&db, config.bot_mcts_ms)
        .map_err(|e| StartupError::Bots(e.to_string()))?;
    if config.bots {
        crate::service::bots::spawn_worker(
            db.clone(),
            bots.clone(),
            std::time::Duration::from_millis(100),
        )
        .map_err(|e| StartupError::Bots(e.to_string()))?;
    }
    let state = web::Data::new(AppState {
        db,
        keys: TokenKeys::new(&secret),
        bots,
        limiter: api::rate_limit::RateLimiter::new(config.auth_rate_limit),
    });
    let spec = api::ApiDoc::openapi();
    let mut server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(api::MAX_BODY_BYTES)
                    .error_handler(error::json_error),
            )
            .app_data(web::QueryConfig::default().error_handler(error::query_error))
            .app_data(web::PathConfig::default().error_handler(error::path_error))
            .wrap(middleware::Logger::new("%r %s %Dms").exclude("/healthz"))
            .service(api::health::healthz)
            .service(api::health::readyz)
            .route(
                "/openapi.json",
                web::get().to(|| async {
                    HttpResponse::Ok()
                        .content_type("application/json")
                        .body(api::openapi_json())
                }),
            )
            .service(SwaggerUi::new("/docs/{_:.*}").url("/docs/openapi.json", spec.clone()))
            .service(web::scope("/api/v1").configure(api::routes))
            .default_service(web::to(error::not_found))
    })
    .listen(listener)
    .map_err(|error| StartupError::Bind {
        addr: config.bind.clone(),
        error,
    })?;
    if let Some(workers) = config.workers {
        server = server.workers(workers);
    }
    Ok(Running {
        server: server.run(),
        port,
    })
}
