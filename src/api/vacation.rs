//! `/api/v1/me/vacation`: a player's vacation (their clocks stand still in all their games).

use actix_web::{delete, get, post, web};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::correspondence::vacations::{self, VacationStatus};

/// The caller's vacation allowance for this year, what is used and left, and the running
/// vacation if they are away.
#[utoipa::path(operation_id = "getVacation", tag = "correspondence", security(("bearer" = [])), responses(
    (status = 200, body = VacationStatus),
))]
#[get("/me/vacation")]
pub async fn status(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<VacationStatus>, ApiError> {
    Ok(web::Json(
        web::block(move || vacations::status(&state.db, &caller, state.vacation)).await??,
    ))
}

/// Go on vacation: the caller's clocks stop in every game, and the other players see the seat
/// as away. The vacation ends when the caller comes back (`DELETE`) or when this year's
/// allowance runs out.
#[utoipa::path(operation_id = "startVacation", tag = "correspondence", security(("bearer" = [])), responses(
    (status = 200, body = VacationStatus),
    (status = 409, description = "`already_on_vacation`, `no_vacation_left`", body = Problem),
))]
#[post("/me/vacation")]
pub async fn start(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<VacationStatus>, ApiError> {
    Ok(web::Json(
        web::block(move || vacations::start(&state.db, &caller, state.vacation)).await??,
    ))
}

/// Come back from vacation: the caller's clocks run again in every game.
#[utoipa::path(operation_id = "stopVacation", tag = "correspondence", security(("bearer" = [])), responses(
    (status = 200, body = VacationStatus),
    (status = 409, description = "`not_on_vacation`", body = Problem),
))]
#[delete("/me/vacation")]
pub async fn stop(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<VacationStatus>, ApiError> {
    Ok(web::Json(
        web::block(move || vacations::stop(&state.db, &caller, state.vacation)).await??,
    ))
}
