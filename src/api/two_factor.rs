//! `/api/v1/me/two-factor*`: two-factor sign-in (TOTP) for the caller's account.

use super::json_body::JsonObject;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use super::accounts::limit;
use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::two_factor::{self, Enrolment, RecoveryCodes, TwoFactorStatus};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"code": "287082"}))]
pub struct TwoFactorCode {
    /// The 6-digit code of the authenticator app (or, to turn it off, a recovery code).
    #[schema(min_length = 1, max_length = 32, pattern = r"^[^\x00-\x1F\x7F-\x9F]+$")]
    pub code: String,
}

/// Whether two-factor sign-in is on, and how many recovery codes are left.
#[utoipa::path(operation_id = "getTwoFactor", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = TwoFactorStatus),
))]
#[get("/me/two-factor")]
pub async fn status(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<TwoFactorStatus>, ApiError> {
    Ok(web::Json(
        web::block(move || two_factor::status(&state.db, &caller)).await??,
    ))
}

/// Start enrolling (from a signed-in session): a new secret, shown once as a QR code and in text.
/// Nothing changes at sign-in until a first code confirms it.
#[utoipa::path(operation_id = "startTwoFactor", tag = "accounts", security(("bearer" = [])), responses(
    (status = 201, body = Enrolment),
    (status = 403, description = "`insufficient_scope` with an API token", body = Problem),
    (status = 409, description = "`two_factor_on`: turn it off first", body = Problem),
))]
#[post("/me/two-factor")]
pub async fn start(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<HttpResponse, ApiError> {
    let enrolment =
        web::block(move || two_factor::start(&state.db, &state.keys, &caller)).await??;
    Ok(HttpResponse::Created().json(enrolment))
}

/// Turn two-factor sign-in on with a first code; answers the ten recovery codes, shown once.
#[utoipa::path(operation_id = "confirmTwoFactor", tag = "accounts", security(("bearer" = [])), request_body = TwoFactorCode, responses(
    (status = 200, body = RecoveryCodes),
    (status = 403, description = "`insufficient_scope` with an API token", body = Problem),
    (status = 409, description = "`no_enrolment`: start enrolling first", body = Problem),
    (status = 422, description = "`invalid_code`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/me/two-factor/confirm")]
pub async fn confirm(
    state: web::Data<AppState>,
    req: HttpRequest,
    Authenticated(caller): Authenticated,
    body: JsonObject<TwoFactorCode>,
) -> Result<web::Json<RecoveryCodes>, ApiError> {
    limit(&state, &req, "two-factor")?;
    Ok(web::Json(
        web::block(move || two_factor::confirm(&state.db, &state.keys, &caller, &body.code))
            .await??,
    ))
}

/// Turn two-factor sign-in off with a code or a recovery code.
#[utoipa::path(operation_id = "disableTwoFactor", tag = "accounts", security(("bearer" = [])), request_body = TwoFactorCode, responses(
    (status = 204, description = "Off"),
    (status = 403, description = "`insufficient_scope` with an API token", body = Problem),
    (status = 409, description = "`two_factor_off`: it is not on", body = Problem),
    (status = 422, description = "`invalid_code`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/me/two-factor/disable")]
pub async fn disable(
    state: web::Data<AppState>,
    req: HttpRequest,
    Authenticated(caller): Authenticated,
    body: JsonObject<TwoFactorCode>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "two-factor")?;
    web::block(move || two_factor::disable(&state.db, &state.keys, &caller, &body.code)).await??;
    Ok(HttpResponse::NoContent().finish())
}
