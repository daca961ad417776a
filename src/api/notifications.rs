//! `/api/v1/me/notifications`: what the server has queued for the caller, and its delivery.

use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::ApiError;
use super::games::page;
use super::AppState;
use crate::service::notify::notifications::{self, NotificationView};

/// Largest page of notifications.
const MAX_PAGE: i64 = 200;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NotificationsQuery {
    /// Only notifications older than this id (the last `id` of the previous page).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// Notifications per page (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// The caller's notifications (deadline reminders, ...), newest first, each with its delivery
/// status: `pending`, `sent` or `failed`.
#[utoipa::path(operation_id = "listNotifications", tag = "correspondence", security(("bearer" = [])), params(NotificationsQuery), responses(
    (status = 200, body = [NotificationView]),
))]
#[get("/me/notifications")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<NotificationsQuery>,
) -> Result<web::Json<Vec<NotificationView>>, ApiError> {
    let (before, limit) = page(query.before, query.limit, 50, MAX_PAGE)?;
    Ok(web::Json(
        web::block(move || notifications::list(&state.db, &caller, before, limit)).await??,
    ))
}
