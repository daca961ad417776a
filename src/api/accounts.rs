//! `/api/v1/auth/*` and `/api/v1/me*`.

use super::json_body::JsonObject;
use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::export::AccountExport;
use crate::service::accounts::sessions::{self, Session, SessionInfo};
use crate::service::accounts::{self, ApiTokenInfo, NewApiToken, Scope};
use crate::service::ServiceError;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "anna", "password": "correct horse battery"}))]
pub struct Credentials {
    /// 3 to 32 characters: letters, digits, `_` or `-`. Names are unique whatever their case;
    /// the spelling given at registration is the one shown.
    #[schema(min_length = 3, max_length = 32, pattern = r"^[A-Za-z0-9_-]+$")]
    pub name: String,
    /// 8 to 128 characters, no control characters.
    #[schema(
        min_length = 8,
        max_length = 128,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]+$"
    )]
    pub password: String,
}

/// Name and password, and the second factor when the account has two-factor sign-in on.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "anna", "password": "correct horse battery"}))]
pub struct LoginRequest {
    #[schema(min_length = 3, max_length = 32, pattern = r"^[A-Za-z0-9_-]+$")]
    pub name: String,
    #[schema(
        min_length = 8,
        max_length = 128,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]+$"
    )]
    pub password: String,
    /// The 6-digit code of the authenticator app, or a recovery code (`xxxxx-xxxxx`): needed when
    /// two-factor sign-in is on (without it: 401 `two_factor_required`).
    #[schema(max_length = 32, pattern = r"^[^\x00-\x1F\x7F-\x9F]*$")]
    #[serde(default)]
    pub code: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"refresh_token": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}))]
pub struct RefreshRequest {
    #[schema(max_length = 256)]
    pub refresh_token: String,
}

/// The password again, and a code when two-factor sign-in is on: what an operation that cannot
/// be undone asks for.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"password": "correct horse battery"}))]
pub struct PasswordConfirmation {
    /// The account's password.
    #[schema(max_length = 128)]
    pub password: String,
    /// When two-factor sign-in is on: a code of the authenticator app, or a recovery code.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 32, pattern = r"^[^\x00-\x1F\x7F-\x9F]+$")]
    pub code: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct Me {
    pub user_id: i64,
    pub name: String,
    pub scopes: Vec<Scope>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "my bot", "scopes": ["read", "play"]}))]
pub struct NewTokenRequest {
    /// 1 to 64 characters, not only spaces, no control characters.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$"
    )]
    pub name: String,
    #[schema(min_items = 1)]
    pub scopes: Vec<Scope>,
}

/// The client's `User-Agent`, to tell sessions apart in the list of signed-in devices.
fn user_agent(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(String::from)
}

pub(super) fn limit(
    state: &AppState,
    req: &HttpRequest,
    action: &'static str,
) -> Result<(), ApiError> {
    let peer = req
        .peer_addr()
        .map(|a| a.ip())
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let ip = state.proxies.client(peer, req.headers());
    state
        .limiter
        .check(ip, action)
        .map_err(|retry_after| ServiceError::RateLimited { retry_after }.into())
}

/// Create an account and log in.
#[utoipa::path(operation_id = "register", tag = "accounts", request_body = Credentials, responses(
    (status = 201, body = Session),
    (status = 409, description = "`name_taken`", body = Problem),
    (status = 422, description = "`invalid_name`, `invalid_password`", body = Problem),
))]
#[post("/auth/register")]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: JsonObject<Credentials>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "register")?;
    let agent = user_agent(&req);
    // Emails are written in the language the browser prefers, until the player chooses.
    let language = crate::service::i18n::Language::from_accept_language(
        req.headers()
            .get(actix_web::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    let session = web::block(move || {
        accounts::register(
            &state.db,
            &state.keys,
            &body.name,
            &body.password,
            agent.as_deref(),
            language,
        )
    })
    .await??;
    Ok(HttpResponse::Created().json(session))
}

/// Log in with name and password (and a code, when two-factor sign-in is on).
#[utoipa::path(operation_id = "login", tag = "accounts", request_body = LoginRequest, responses(
    (status = 200, body = Session),
    (status = 401, description = "`unauthorized` (wrong name, password or code); `two_factor_required`: send `code` too", body = Problem),
    (status = 403, description = "`suspended`: a moderator suspended the account (`until` says until when; said only with the right password)", body = Problem),
    (status = 422, description = "`invalid_name`, `invalid_code` (longer than 32 characters, or control characters)", body = Problem),
))]
#[post("/auth/login")]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: JsonObject<LoginRequest>,
) -> Result<web::Json<Session>, ApiError> {
    limit(&state, &req, "login")?;
    let agent = user_agent(&req);
    Ok(web::Json(
        web::block(move || {
            accounts::login(
                &state.db,
                &state.keys,
                &body.name,
                &body.password,
                body.code.as_deref(),
                agent.as_deref(),
            )
        })
        .await??,
    ))
}

/// Exchange a refresh token, once, for new tokens of the same session. A refresh token presented
/// a second time signs its whole session out (its other tokens stop working too).
#[utoipa::path(operation_id = "refreshSession", tag = "accounts", request_body = RefreshRequest, responses(
    (status = 200, body = Session),
    (status = 401, description = "`unauthorized`: unknown, expired or reused", body = Problem),
))]
#[post("/auth/refresh")]
pub async fn refresh(
    state: web::Data<AppState>,
    body: JsonObject<RefreshRequest>,
) -> Result<web::Json<Session>, ApiError> {
    Ok(web::Json(
        web::block(move || sessions::refresh(&state.db, &state.keys, &body.refresh_token))
            .await??,
    ))
}

/// Who the token belongs to, and what it may do.
#[utoipa::path(operation_id = "getMe", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = Me),
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
#[utoipa::path(operation_id = "listApiTokens", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = [ApiTokenInfo]),
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
#[utoipa::path(operation_id = "createApiToken", tag = "accounts", security(("bearer" = [])), request_body = NewTokenRequest, responses(
    (status = 201, body = NewApiToken),
    (status = 403, description = "a token cannot grant more than it has", body = Problem),
    (status = 422, description = "`invalid_token_name`, `invalid_scopes`", body = Problem),
))]
#[post("/me/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = web::block(move || {
        accounts::create_api_token(&state.db, &caller, &body.name, &body.scopes)
    })
    .await??;
    Ok(HttpResponse::Created().json(token))
}

/// Revoke one of the caller's API tokens.
#[utoipa::path(operation_id = "revokeApiToken", tag = "accounts", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
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

/// The caller's signed-in devices (sessions), most recently used first.
#[utoipa::path(operation_id = "listSessions", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = [SessionInfo]),
))]
#[get("/me/sessions")]
pub async fn list_sessions(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<SessionInfo>>, ApiError> {
    Ok(web::Json(
        web::block(move || sessions::list(&state.db, &caller)).await??,
    ))
}

/// Sign out of every session: their refresh and access tokens stop working at once (personal
/// API tokens are revoked one by one under `/me/tokens`).
#[utoipa::path(operation_id = "signOutEverywhere", tag = "accounts", security(("bearer" = [])), responses(
    (status = 204, description = "Signed out"),
))]
#[delete("/me/sessions")]
pub async fn sign_out_everywhere(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<HttpResponse, ApiError> {
    web::block(move || sessions::sign_out(&state.db, &caller, None)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Sign out of one session (a device).
#[utoipa::path(operation_id = "signOut", tag = "accounts", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204, description = "Signed out"),
))]
#[delete("/me/sessions/{id}")]
pub async fn sign_out(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || sessions::sign_out(&state.db, &caller, Some(id))).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Everything the server holds about the caller, as one JSON document to download (from a
/// signed-in session): account, profile and ratings with their history, email settings,
/// two-factor status, vacation, sessions, API tokens and webhooks without their secrets, push
/// devices, notifications, and each game with its events as the caller sees them.
#[utoipa::path(operation_id = "exportAccount", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = AccountExport, headers(("Content-Disposition" = String, description = "`attachment; filename=\"keltis-<name>.json\"`"))),
    (status = 403, description = "`insufficient_scope` with an API token", body = Problem),
))]
#[get("/me/export")]
pub async fn export(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<HttpResponse, ApiError> {
    let file = format!("attachment; filename=\"keltis-{}.json\"", caller.name);
    let document = web::block(move || {
        accounts::export::export(
            &state.db,
            &caller,
            state.vacation,
            &state.ratings,
            state.inbound.is_some(),
        )
    })
    .await??;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CONTENT_DISPOSITION, file))
        .json(document))
}
