//! `/healthz` (the process answers) and `/readyz` (the database answers).

use actix_web::{get, web, HttpResponse};

use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::ServiceError;

/// The process is up.
#[utoipa::path(tag = "health", responses((status = 200, description = "up")))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// The database is reachable.
#[utoipa::path(tag = "health", responses(
    (status = 200, description = "ready"),
    (status = 503, description = "`database_unavailable`", body = Problem),
))]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    web::block(move || state.db.ping().map_err(ServiceError::from)).await??;
    Ok(HttpResponse::Ok().json(serde_json::json!({ "status": "ready" })))
}
