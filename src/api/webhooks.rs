//! `/api/v1/me/webhooks`: an account's webhook endpoints and their delivery logs.

use super::json_body::JsonObject;
use actix_web::{delete, get, post, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::games::page;
use super::AppState;
use crate::service::notify::webhooks::{self, CreatedWebhook, NewWebhook, Webhook, WebhookAttempt};

/// Largest page of a delivery log.
const MAX_PAGE: i64 = 200;

/// Register an endpoint for kinds of notices. Each delivery is a JSON POST
/// (`{"type", "timestamp", "data"}`, `data` as in `GET /me/notifications`'s `notice`) signed as
/// Standard Webhooks says: headers `webhook-id` (the same on retries), `webhook-timestamp` and
/// `webhook-signature` (`v1,` base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key).
/// A delivery not answered 2xx is retried after 30 s, then four times longer each time (at most
/// 12 h), 10 attempts in all; an endpoint that fails 20 times in a row is disabled. The secret is
/// shown only in this answer.
#[utoipa::path(operation_id = "createWebhook", tag = "webhooks", security(("bearer" = [])), request_body = NewWebhook, responses(
    (status = 201, body = CreatedWebhook),
    (status = 409, description = "`too_many_webhooks`: an account has at most 10", body = Problem),
    (status = 422, description = "`invalid_webhook_url`, `private_webhook_address`, `invalid_webhook_kinds`", body = Problem),
))]
#[post("/me/webhooks")]
pub async fn create(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewWebhook>,
) -> Result<HttpResponse, ApiError> {
    let created = web::block(move || {
        webhooks::create(
            &state.db,
            state.webhooks,
            &state.keys,
            &caller,
            &body.into_inner(),
        )
    })
    .await??;
    Ok(HttpResponse::Created().json(created))
}

/// The caller's endpoints (without their secrets).
#[utoipa::path(operation_id = "listWebhooks", tag = "webhooks", security(("bearer" = [])), responses(
    (status = 200, body = [Webhook]),
))]
#[get("/me/webhooks")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<Webhook>>, ApiError> {
    Ok(web::Json(
        web::block(move || webhooks::list(&state.db, &caller)).await??,
    ))
}

/// Remove an endpoint with its pending deliveries and its log.
#[utoipa::path(operation_id = "deleteWebhook", tag = "webhooks", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204, description = "Removed"),
))]
#[delete("/me/webhooks/{id}")]
pub async fn delete(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || webhooks::delete(&state.db, &caller, id)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Turn an endpoint that was disabled after failures on again.
#[utoipa::path(operation_id = "enableWebhook", tag = "webhooks", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Webhook),
))]
#[post("/me/webhooks/{id}/enable")]
pub async fn enable(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<Webhook>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || webhooks::enable(&state.db, &caller, id)).await??,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AttemptsQuery {
    /// Only attempts older than this id (the last `id` of the previous page).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// Attempts per page (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// An endpoint's delivery log: every attempt, newest first, with the endpoint's answer.
#[utoipa::path(operation_id = "listWebhookAttempts", tag = "webhooks", security(("bearer" = [])), params(("id" = i64, Path), AttemptsQuery), responses(
    (status = 200, body = [WebhookAttempt]),
))]
#[get("/me/webhooks/{id}/attempts")]
pub async fn attempts(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    query: web::Query<AttemptsQuery>,
) -> Result<web::Json<Vec<WebhookAttempt>>, ApiError> {
    let (before, limit) = page(query.before, query.limit, 50, MAX_PAGE)?;
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || webhooks::attempts(&state.db, &caller, id, before, limit)).await??,
    ))
}
