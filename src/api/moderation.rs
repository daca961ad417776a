//! `/api/v1/reports` (anyone) and `/api/v1/moderation/*` (moderators, from a signed-in session).

use actix_web::{get, post, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::games::page;
use super::json_body::JsonObject;
use super::AppState;
use crate::service::social::moderation::{
    self, AuditEntry, Dismissal, NewReport, ReportFiled, ReportView, Sanction,
};

/// Largest page of reports or audit entries.
const MAX_PAGE: i64 = 100;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ReportsQuery {
    /// Only reports after this id (the last `id` of the previous page).
    #[param(minimum = 1)]
    pub after: Option<i64>,
    /// Reports per page (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    /// Only entries older than this id (the last `id` of the previous page).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// Entries per page (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// Report a player, or one of their messages at a table you sit at, to the moderators.
#[utoipa::path(operation_id = "createReport", tag = "moderation", security(("bearer" = [])), request_body = NewReport, responses(
    (status = 201, body = ReportFiled),
    (status = 404, description = "`not_found`: no such player, or no such message of theirs at a table you sit at", body = Problem),
    (status = 422, description = "`invalid_reason`, `cannot_report_self`", body = Problem),
))]
#[post("/reports")]
pub async fn create_report(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewReport>,
) -> Result<HttpResponse, ApiError> {
    let filed = web::block(move || moderation::report(&state.db, &caller, &body)).await??;
    Ok(HttpResponse::Created().json(filed))
}

/// The open reports, oldest first, each with the messages around the one reported.
#[utoipa::path(operation_id = "listReports", tag = "moderation", security(("bearer" = [])), params(ReportsQuery), responses(
    (status = 200, body = [ReportView]),
    (status = 403, description = "`not_moderator`; `insufficient_scope` with a token", body = Problem),
))]
#[get("/moderation/reports")]
pub async fn list_reports(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<ReportsQuery>,
) -> Result<web::Json<Vec<ReportView>>, ApiError> {
    let (after, limit) = page(query.after, query.limit, 50, MAX_PAGE)?;
    Ok(web::Json(
        web::block(move || moderation::open_reports(&state.db, &caller, after, limit)).await??,
    ))
}

/// Close a report without action (kept in the audit log).
#[utoipa::path(operation_id = "dismissReport", tag = "moderation", security(("bearer" = [])), params(("id" = i64, Path)), request_body = Dismissal, responses(
    (status = 204, description = "Dismissed"),
    (status = 403, description = "`not_moderator`; `insufficient_scope` with a token", body = Problem),
    (status = 404, description = "`not_found`: no such report", body = Problem),
    (status = 409, description = "`report_closed`: already handled", body = Problem),
    (status = 422, description = "`invalid_reason`", body = Problem),
))]
#[post("/moderation/reports/{id}/dismiss")]
pub async fn dismiss_report(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<Dismissal>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || moderation::dismiss(&state.db, &caller, id, &body)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Mute a player: no chat for `hours` (their messages are refused with 403 `muted` and the time
/// it ends). Closes `report_id` as actioned; kept in the audit log.
#[utoipa::path(operation_id = "mutePlayer", tag = "moderation", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), request_body = Sanction, responses(
    (status = 204, description = "Muted"),
    (status = 403, description = "`not_moderator`; `insufficient_scope` with a token", body = Problem),
    (status = 404, description = "`not_found`: no such player or report", body = Problem),
    (status = 422, description = "`invalid_reason`, `invalid_sanction`", body = Problem),
))]
#[post("/moderation/players/{name}/mute")]
pub async fn mute(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
    body: JsonObject<Sanction>,
) -> Result<HttpResponse, ApiError> {
    web::block(move || moderation::mute(&state.db, &caller, &name, &body)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Suspend a player for `hours`: no sign-in (403 `suspended` with the time it ends) and no new
/// games; their sessions end, their open games are left and their games under way resigned (with
/// 3 or 4 players the stand-in bot plays on, as after a time-out). Closes `report_id` as
/// actioned; kept in the audit log.
#[utoipa::path(operation_id = "suspendPlayer", tag = "moderation", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), request_body = Sanction, responses(
    (status = 204, description = "Suspended"),
    (status = 403, description = "`not_moderator`; `insufficient_scope` with a token", body = Problem),
    (status = 404, description = "`not_found`: no such player or report", body = Problem),
    (status = 409, description = "`busy`: the player's games kept changing while they were left; the suspension holds, try again to leave them", body = Problem),
    (status = 422, description = "`invalid_reason`, `invalid_sanction`", body = Problem),
))]
#[post("/moderation/players/{name}/suspend")]
pub async fn suspend(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
    body: JsonObject<Sanction>,
) -> Result<HttpResponse, ApiError> {
    web::block(move || moderation::suspend(&state.db, &caller, &name, &body, &state.ratings))
        .await??;
    Ok(HttpResponse::NoContent().finish())
}

/// What moderators did, newest first.
#[utoipa::path(operation_id = "listModerationActions", tag = "moderation", security(("bearer" = [])), params(AuditQuery), responses(
    (status = 200, body = [AuditEntry]),
    (status = 403, description = "`not_moderator`; `insufficient_scope` with a token", body = Problem),
))]
#[get("/moderation/audit")]
pub async fn audit(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<AuditQuery>,
) -> Result<web::Json<Vec<AuditEntry>>, ApiError> {
    let (before, limit) = page(query.before, query.limit, 50, MAX_PAGE)?;
    Ok(web::Json(
        web::block(move || moderation::audit(&state.db, &caller, before, limit)).await??,
    ))
}
