//! The HTTP API, versioned under `/api/v1`. Handlers extract, call one service function, and map
//! the result; errors become JSON problems in `error`.

pub mod accounts;
pub mod auth;
pub mod error;
pub mod games;
pub mod health;
pub mod rate_limit;

use actix_web::web;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::service::accounts::TokenKeys;
use crate::storage::Database;

/// What every handler shares.
pub struct AppState {
    pub db: Database,
    pub keys: TokenKeys,
    pub limiter: rate_limit::RateLimiter,
    pub bots: Vec<crate::service::bots::ServerBot>,
}

/// Largest JSON body accepted.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The whole document: health at the root, the API nested under `/api/v1`.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Keltis server API",
        description = "Play Reiner Knizia's Keltis (keltis, neue-wege, keltis-card) by correspondence. Every error is a JSON `Problem` with a stable `code`.",
        version = "1.0.0",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(health::healthz, health::readyz),
    nest((path = "/api/v1", api = ApiV1)),
    components(schemas(error::Problem)),
    modifiers(&BearerAuth),
    tags(
        (name = "accounts", description = "Registration, login, tokens"),
        (name = "lobby", description = "Creating and joining games"),
                (name = "play", description = "Views, decisions, events, records"),
        (name = "bots", description = "The server's computer opponents"),
        (name = "health", description = "Liveness and readiness"),
    )
)]
pub struct ApiDoc;

/// The versioned API.
#[derive(OpenApi)]
#[openapi(paths(
    accounts::register,
    accounts::login,
    accounts::refresh,
    accounts::me,
    accounts::list_tokens,
    accounts::create_token,
    accounts::revoke_token,
    games::list,
    games::create,
    games::get,
    games::join,
    games::leave,
    games::invite,
    games::decide,
    games::resign,
    games::events,
    games::record,
    games::bots,
))]
struct ApiV1;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A JWT access token from /auth/login, or a personal API token (kt_...)",
                    ))
                    .build(),
            ),
        );
    }
}

/// The OpenAPI document, as committed in `openapi/keltis.json`.
pub fn openapi_json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Routes under `/api/v1`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(accounts::register)
        .service(accounts::login)
        .service(accounts::refresh)
        .service(accounts::me)
        .service(accounts::list_tokens)
        .service(accounts::create_token)
        .service(accounts::revoke_token)
        .service(games::list)
        .service(games::create)
        .service(games::get)
        .service(games::join)
        .service(games::leave)
        .service(games::invite)
        .service(games::decide)
        .service(games::resign)
        .service(games::events)
        .service(games::record)
        .service(games::bots);
}
