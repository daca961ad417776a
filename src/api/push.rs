//! Web Push: the server's VAPID key, and an account's devices (`/api/v1/me/push-subscriptions`).

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::notify::push::{self, NewPushSubscription, PushDevice, VapidKey};

/// The server's VAPID public key: pass it as `applicationServerKey` to `pushManager.subscribe`
/// (or to a UnifiedPush distributor), then register the subscription.
#[utoipa::path(operation_id = "getVapidKey", tag = "push", responses(
    (status = 200, body = VapidKey),
))]
#[get("/push/vapid-public-key")]
pub async fn vapid_key(state: web::Data<AppState>) -> web::Json<VapidKey> {
    web::Json(VapidKey {
        public_key: state.vapid_public_key.clone(),
    })
}

/// Register a device for pushes: the subscription as `PushSubscription.toJSON()` gives it. Every
/// notice told live (`your_turn`, `deadline_reminder`, `invitation`, `game_started`,
/// `game_over`) that the email preferences do not turn off is pushed to each of the account's
/// devices: encrypted as RFC 8291 says (aes128gcm), signed with VAPID (RFC 8292), `TTL` up to the
/// deadline, `Urgency: high` for the last reminder, `Topic` per game so that a newer "your turn"
/// replaces an older one not yet delivered. The decrypted message is JSON: `kind`, `game_id`,
/// `title` and `body` in the player's language, `url` (the game's page), `tag` (per game). A
/// push service that answers 404 or 410 removes the device; 429 and 5xx are retried.
#[utoipa::path(operation_id = "createPushSubscription", tag = "push", security(("bearer" = [])), request_body = NewPushSubscription, responses(
    (status = 201, body = PushDevice),
    (status = 409, description = "`too_many_push_devices`: an account has at most 10", body = Problem),
    (status = 422, description = "`invalid_push_endpoint`, `private_push_endpoint`, `invalid_push_keys`", body = Problem),
))]
#[post("/me/push-subscriptions")]
pub async fn subscribe(
    state: web::Data<AppState>,
    req: HttpRequest,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewPushSubscription>,
) -> Result<HttpResponse, ApiError> {
    let agent = req
        .headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    let device = web::block(move || {
        push::subscribe(
            &state.db,
            state.push,
            &caller,
            &body.into_inner(),
            agent.as_deref(),
        )
    })
    .await??;
    Ok(HttpResponse::Created().json(device))
}

/// The caller's devices.
#[utoipa::path(operation_id = "listPushSubscriptions", tag = "push", security(("bearer" = [])), responses(
    (status = 200, body = [PushDevice]),
))]
#[get("/me/push-subscriptions")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<PushDevice>>, ApiError> {
    Ok(web::Json(
        web::block(move || push::list(&state.db, &caller)).await??,
    ))
}

/// Remove a device (its pending pushes go with it).
#[utoipa::path(operation_id = "deletePushSubscription", tag = "push", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204, description = "Removed"),
))]
#[delete("/me/push-subscriptions/{id}")]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || push::unsubscribe(&state.db, &caller, id)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Send a test push to a device ("do my notifications work?"); it arrives within seconds.
#[utoipa::path(operation_id = "testPushSubscription", tag = "push", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 202, description = "Queued"),
))]
#[post("/me/push-subscriptions/{id}/test")]
pub async fn test(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || push::test(&state.db, &caller, id)).await??;
    Ok(HttpResponse::Accepted().finish())
}
