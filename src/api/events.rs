//! `/api/v1/events`: tournaments. A player (or an operator, for recurring ones) makes an event;
//! players enter and withdraw; the server deals its rounds and keeps its standings.

use actix_web::{delete, get, post, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::events::entries::{self, NewEntry};
use crate::service::events::{self, EventDetail, EventState, EventSummary, NewEvent};

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// `registering` (default), `running`, `finished` (the latest 50) or `cancelled` (the latest
    /// 50).
    #[param(inline)]
    pub state: Option<EventState>,
}

/// Make an event. It takes entries at once, and starts at `starts_at` (or once full): with fewer
/// than `min_players` entered then, it is cancelled.
#[utoipa::path(operation_id = "createEvent", tag = "events", security(("bearer" = [])), request_body = NewEvent, responses(
    (status = 201, body = EventDetail),
    (status = 403, description = "`operators_only`: recurring events are made by operators (moderators)", body = Problem),
    (status = 409, description = "`too_many_events`: you have five events waiting to start", body = Problem),
    (status = 422, description = "`invalid_name`, `invalid_table_size`, `invalid_rounds`, `invalid_group_size`, `invalid_points`, `invalid_players`, `invalid_entry_conditions`, `invalid_late_entry`, `invalid_round_hours`, `invalid_start`, `invalid_registration_window`, `invalid_time_control`", body = Problem),
))]
#[post("/events")]
pub async fn create(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewEvent>,
) -> Result<HttpResponse, ApiError> {
    let event = web::block(move || events::create(&state.db, &caller, &body)).await??;
    Ok(HttpResponse::Created().json(event))
}

/// Events by where they stand: those registering (soonest to start first), running, finished or
/// cancelled.
#[utoipa::path(operation_id = "listEvents", tag = "events", security(("bearer" = [])), params(EventsQuery), responses(
    (status = 200, body = Vec<EventSummary>),
))]
#[get("/events")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<EventsQuery>,
) -> Result<web::Json<Vec<EventSummary>>, ApiError> {
    let wanted = query.into_inner().state.unwrap_or(EventState::Registering);
    Ok(web::Json(
        web::block(move || events::list(&state.db, &caller, wanted)).await??,
    ))
}

/// An event: its settings, entries, standings (with named tie-breaks), crosstable, and each
/// round's games and byes.
#[utoipa::path(operation_id = "getEvent", tag = "events", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = EventDetail),
    (status = 404, description = "`not_found`", body = Problem),
))]
#[get("/events/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<EventDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || events::get(&state.db, &caller, id)).await??,
    ))
}

/// Call off an event that has not started (its maker, or a moderator); those entered are told.
#[utoipa::path(operation_id = "cancelEvent", tag = "events", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = EventDetail),
    (status = 403, description = "`not_event_maker`", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`event_started`: it has started or ended", body = Problem),
))]
#[delete("/events/{id}")]
pub async fn cancel(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<EventDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || events::cancel(&state.db, &caller, id)).await??,
    ))
}

/// Enter an event (or, its maker, enter one of the server's bots). Entries are taken while it
/// registers, and by a Swiss until its late-entry round (a half bye for each round missed). An
/// event that starts once full starts with the entry that fills it.
#[utoipa::path(operation_id = "enterEvent", tag = "events", security(("bearer" = [])), params(("id" = i64, Path)), request_body = NewEntry, responses(
    (status = 201, body = EventDetail),
    (status = 403, description = "`suspended` (with `until`); `not_event_maker`: only the maker enters bots", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`registration_not_open`: entries open later (`registration_opens_at`); `entries_closed`; `event_full`; `already_entered`; `entry_conditions`: your rating, finished games or time-outs do not meet the event's conditions (the message says which)", body = Problem),
    (status = 422, description = "`unknown_bot`", body = Problem),
))]
#[post("/events/{id}/entries")]
pub async fn enter(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<NewEntry>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let event =
        web::block(move || entries::enter(&state.db, &caller, id, &body, &state.events)).await??;
    Ok(HttpResponse::Created().json(event))
}

/// Withdraw from an event: yourself by your name (or, the maker, a bot you entered). Before the
/// start the entry is taken back; after, you are dealt no more rounds, and your games under way
/// are resigned (lost; at three or four seats the stand-in bot plays on).
#[utoipa::path(operation_id = "withdrawFromEvent", tag = "events", security(("bearer" = [])), params(("id" = i64, Path), ("name" = String, Path)), responses(
    (status = 200, body = EventDetail),
    (status = 403, description = "`not_your_entry`", body = Problem),
    (status = 404, description = "`not_found`: no such event or entry", body = Problem),
    (status = 409, description = "`withdrawn`: already; `event_over`", body = Problem),
))]
#[delete("/events/{id}/entries/{name}")]
pub async fn withdraw(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    path: web::Path<(i64, String)>,
) -> Result<web::Json<EventDetail>, ApiError> {
    let (id, name) = path.into_inner();
    Ok(web::Json(
        web::block(move || entries::withdraw(&state.db, &caller, id, &name, &state.events))
            .await??,
    ))
}
