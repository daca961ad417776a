//! `/healthz` (the process answers) and `/readyz` (the database answers).

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::ServiceError;

/// What the health endpoints answer when all is well.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` (healthz) or `ready` (readyz).
    #[schema(example = "ok")]
    pub status: String,
    /// The server's version (as `keltis --version` and the OpenAPI document's `info.version`).
    #[schema(example = "0.1.0")]
    pub version: String,
}

/// The process is up.
#[utoipa::path(operation_id = "getHealth", tag = "health", responses(
    (status = 200, description = "up", body = Health),
))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// The database is reachable (answers within about a second either way).
#[utoipa::path(operation_id = "getReadiness", tag = "health", responses(
    (status = 200, description = "ready", body = Health),
    (status = 503, description = "`database_unavailable`, with Retry-After", body = Problem),
))]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    web::block(move || state.db.ping().map_err(ServiceError::from)).await??;
    Ok(HttpResponse::Ok().json(Health {
        status: "ready".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    }))
}
