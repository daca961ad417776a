//! `/api/v1/auth/*` and `/api/v1/me*`.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::{self, ApiTokenInfo, NewApiToken, Scope, Session};
use crate::service::ServiceError;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 32 characters: letters, digits, `_` or `-`.
    pub name: String,
    /// 8 to 128 characters.
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefreshRequest {
    pub refresh_token: String,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct Me {
    pub user_id: i64,
    pub name: String,
    pub scopes: Vec<Scope>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenRequest {
    pub name: String,
    pub scopes: Vec<Scope>,
}

fn limit(state: &AppState, req: &HttpRequest, action: &'static str) -> Result<(), ApiError> {
    let ip = req
        .peer_addr()
        .map(|a| a.ip())
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    state
        .limiter
        .check(ip, action)
        .map_err(|retry_after| ServiceError::RateLimited { retry_after }.into())
}

/// Create an account and log in.
#[utoipa::path(tag = "accounts", request_body = Credentials, responses(
    (status = 201, body = Session),
    (status = 409, description = "`name_taken`", body = Problem),
    (status = 422, description = "`invalid_name`, `invalid_password`", body = Problem),
    (status = 429, description = "`rate_limited`, with Retry-After", body = Problem),
))]
#[post("/auth/register")]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "register")?;
    let session =
        web::block(move || accounts::register(&state.db, &state.keys, &body.name, &body.password))
            .await??;
    Ok(HttpResponse::Created().json(session))
}

/// Log in with name and password.
#[utoipa::path(tag = "accounts", request_body = Credentials, responses(
    (status = 200, body = Session),
    (status = 401, description = "`unauthorized`", body = Problem),
    (status = 429, description = "`rate_limited`, with Retry-After", body = Problem),
))]
#[post("/auth/login")]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<Credentials>,
) -> Result<web::Json<Session>, ApiError> {
    limit(&state, &req, "login")?;
    Ok(web::Json(
        web::block(move || accounts::login(&state.db, &state.keys, &body.name, &body.password))
            .await??,
    ))
}

/// Exchange a refresh token (once) for a new session.
#[utoipa::path(tag = "accounts", request_body = RefreshRequest, responses(
    (status = 200, body = Session),
    (status = 401, description = "`unauthorized`", body = Problem),
))]
#[post("/auth/refresh")]
pub async fn refresh(
    state: web::Data<AppState>,
    body: web::Json<RefreshRequest>,
) -> Result<web::Json<Session>, ApiError> {
    Ok(web::Json(
        web::block(move || accounts::refresh(&state.db, &state.keys, &body.refresh_token))
            .await??,
    ))
}

/// Who the token belongs to, and what it may do.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = Me),
    (status = 401, body = Problem),
))]
#[get("/me")]
pub async fn me(Authenticated(caller): Authenticated) -> web::Json<Me> {
    web::Json(Me {
        user_id: caller.user_id,
        name: caller.name,
        scopes: caller.scopes,
    })
}

/// The caller's personal API tokens.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = [ApiTokenInfo]),
    (status = 401, body = Problem),
))]
#[get("/me/tokens")]
pub async fn list_tokens(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<ApiTokenInfo>>, ApiError> {
    Ok(web::Json(
        web::block(move || accounts::list_api_tokens(&state.db, &caller)).await??,
    ))
}

/// Create a personal API token for a bot or a third-party client. The token is shown once.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), request_body = NewTokenRequest, responses(
    (status = 201, body = NewApiToken),
    (status = 401, body = Problem),
    (status = 403, description = "a token cannot grant more than it has", body = Problem),
    (status = 422, description = "`invalid_token_name`, `invalid_scopes`", body = Problem),
))]
#[post("/me/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: web::Json<NewTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = web::block(move || {
        accounts::create_api_token(&state.db, &caller, &body.name, &body.scopes)
    })
    .await??;
    Ok(HttpResponse::Created().json(token))
}

/// Revoke one of the caller's API tokens.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 401, body = Problem),
    (status = 404, body = Problem),
))]
#[delete("/me/tokens/{id}")]
pub async fn revoke_token(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || accounts::revoke_api_token(&state.db, &caller, id)).await??;
    Ok(HttpResponse::NoContent().finish())
}
