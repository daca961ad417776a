//! OAuth 2.0 for third-party apps: the consent screen's two calls under `/api/v1/oauth/authorize`
//! (a signed-in session), and at the site's root the endpoints apps call: `/oauth/token`,
//! `/oauth/revoke`, `/oauth/introspect` (forms, RFC 6749, 7009, 7662) and the metadata at
//! `/.well-known/oauth-authorization-server` (RFC 8414). `/oauth/authorize` itself is the web
//! client's consent screen.

use actix_web::http::header;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::oauth::{
    self, Answered, AuthorizationRequest, Introspection, Metadata, OAuthError, Review, TokenAnswer,
    TokenRequest,
};

/// The player's answer to an app's request.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AuthorizationAnswer {
    /// The authorization request's parameters, as the app sent them.
    pub request: AuthorizationRequest,
    /// Yes (a code for the app) or no (`access_denied`).
    pub approve: bool,
}

/// A token to revoke or check (`application/x-www-form-urlencoded`).
#[derive(Deserialize, ToSchema)]
pub struct TokenForm {
    pub token: Option<String>,
    /// Accepted and ignored (RFC 7009 §2.1).
    pub token_type_hint: Option<String>,
}

/// What the consent screen shows for an app's request (the parameters of `/oauth/authorize`):
/// who asks, for which scopes, where the answer goes; or, when the request is wrong in a way the
/// app must hear of, where to send the browser. A wrong `client_id` or `redirect_uri` is told to
/// the player only (the browser goes nowhere).
#[utoipa::path(operation_id = "reviewAuthorization", tag = "oauth", security(("bearer" = [])), params(AuthorizationRequest), responses(
    (status = 200, body = Review),
    (status = 403, description = "`insufficient_scope`: an app's token cannot answer for the player", body = Problem),
    (status = 422, description = "`invalid_client`, `invalid_redirect_uri`", body = Problem),
))]
#[get("/oauth/authorize")]
pub async fn review(
    Authenticated(caller): Authenticated,
    req: web::Query<AuthorizationRequest>,
) -> Result<web::Json<Review>, ApiError> {
    Ok(web::Json(oauth::review(&caller, &req)?))
}

/// The player's answer: with `approve`, a single-use code for the app (60 seconds) in the
/// redirect; without, `error=access_denied`. `state` is passed back as the app sent it.
#[utoipa::path(operation_id = "answerAuthorization", tag = "oauth", security(("bearer" = [])), request_body = AuthorizationAnswer, responses(
    (status = 200, body = Answered),
    (status = 403, description = "`insufficient_scope`: an app's token cannot answer for the player", body = Problem),
    (status = 422, description = "`invalid_client`, `invalid_redirect_uri`", body = Problem),
))]
#[post("/oauth/authorize")]
pub async fn answer(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: super::json_body::JsonObject<AuthorizationAnswer>,
) -> Result<web::Json<Answered>, ApiError> {
    let body = body.into_inner();
    Ok(web::Json(
        web::block(move || oauth::answer(&state.db, &caller, &body.request, body.approve))
            .await??,
    ))
}

fn no_store(mut res: HttpResponse) -> HttpResponse {
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    res
}

/// The token endpoint (RFC 6749 §4.1.3, with PKCE): a code, the same `redirect_uri` and
/// `client_id`, and the `code_verifier` for an API token with the scopes the player granted. A
/// code works once: when it comes back, the token it gave is revoked.
#[utoipa::path(operation_id = "exchangeToken", tag = "oauth", request_body(content = TokenRequest, content_type = "application/x-www-form-urlencoded"), responses(
    (status = 200, body = TokenAnswer),
    (status = 400, description = "RFC 6749's error: `invalid_request`, `invalid_grant` (unknown, used or expired code, another redirect_uri or client_id, a wrong verifier), `unsupported_grant_type`", body = OAuthError),
))]
#[post("/oauth/token")]
pub async fn token(
    state: web::Data<AppState>,
    form: web::Form<TokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let form = form.into_inner();
    let exchanged = web::block(move || oauth::exchange(&state.db, &form)).await??;
    Ok(no_store(match exchanged {
        Ok(token) => HttpResponse::Ok().json(token),
        Err(e) => HttpResponse::BadRequest().json(e),
    }))
}

/// Revoke a token (RFC 7009): 200 whether it was live, unknown or already revoked.
#[utoipa::path(operation_id = "revokeToken", tag = "oauth", request_body(content = TokenForm, content_type = "application/x-www-form-urlencoded"), responses(
    (status = 200, description = "The token no longer works (if it ever did)"),
))]
#[post("/oauth/revoke")]
pub async fn revoke(
    state: web::Data<AppState>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, ApiError> {
    let presented = form.into_inner().token.unwrap_or_default();
    web::block(move || oauth::revoke(&state.db, &presented)).await??;
    Ok(HttpResponse::Ok().finish())
}

/// Check a token (RFC 7662's shape): `active: false`, never an error, for a token that is
/// unknown, revoked or not a token; else its scope, app and player.
#[utoipa::path(operation_id = "introspectToken", tag = "oauth", request_body(content = TokenForm, content_type = "application/x-www-form-urlencoded"), responses(
    (status = 200, body = Introspection),
))]
#[post("/oauth/introspect")]
pub async fn introspect(
    state: web::Data<AppState>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, ApiError> {
    let presented = form.into_inner().token.unwrap_or_default();
    let checked = web::block(move || oauth::introspect(&state.db, &presented)).await??;
    Ok(no_store(HttpResponse::Ok().json(checked)))
}

/// The server's OAuth metadata (RFC 8414).
#[utoipa::path(operation_id = "getOAuthMetadata", tag = "oauth", responses(
    (status = 200, body = Metadata),
))]
#[get("/.well-known/oauth-authorization-server")]
pub async fn metadata(state: web::Data<AppState>) -> web::Json<Metadata> {
    web::Json(oauth::metadata(&state.public_url))
}

/// The consent screen (the web client's page).
#[get("/oauth/authorize")]
pub async fn consent_page(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    super::client::page(&req)
}
