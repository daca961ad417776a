//! `/api/v1/me/email*`: a player's address and email preferences; `/api/v1/email/*`: the links
//! in emails (confirm an address, one-click unsubscribe), which work without logging in.

use super::json_body::JsonObject;
use actix_web::{get, post, put, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::i18n::Language;
use crate::service::notify::mail::pages::{self, Page};
use crate::service::notify::mail::{self, MailSettings, Preferences, SetEmail};

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinkQuery {
    /// The signed token from the email's link.
    #[param(max_length = 2048)]
    pub token: String,
}

/// The caller's email address (never shown to others), whether it is confirmed, and which
/// emails they want.
#[utoipa::path(operation_id = "getEmailSettings", tag = "email", security(("bearer" = [])), responses(
    (status = 200, body = MailSettings),
))]
#[get("/me/email")]
pub async fn settings(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<MailSettings>, ApiError> {
    Ok(web::Json(
        web::block(move || mail::settings(&state.db, &caller, state.inbound.is_some())).await??,
    ))
}

/// Set or remove the caller's address. A new address gets a confirmation link and nothing else
/// until it is confirmed. Only from a signed-in session (not with an API token).
#[utoipa::path(operation_id = "setEmail", tag = "email", security(("bearer" = [])), request_body = SetEmail, responses(
    (status = 200, body = MailSettings),
    (status = 422, description = "`invalid_email`", body = Problem),
))]
#[put("/me/email")]
pub async fn set_email(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<SetEmail>,
) -> Result<web::Json<MailSettings>, ApiError> {
    Ok(web::Json(
        web::block(move || mail::set_email(&state.db, &caller, &body, state.inbound.is_some()))
            .await??,
    ))
}

/// Choose the language of emails and which ones to receive (or a digest instead of one email per
/// turn). Only from a signed-in session. The settings are replaced as a whole: send every field
/// (read them with `GET /me/email` first, change one, send them back); a missing one is refused
/// (422 `invalid_body`), except `push` and `moves_by_reply`, which are kept as they are when left
/// out.
#[utoipa::path(operation_id = "setEmailPreferences", tag = "email", security(("bearer" = [])), request_body = Preferences, responses(
    (status = 200, body = MailSettings),
    (status = 422, description = "`invalid_digest`", body = Problem),
))]
#[put("/me/email/preferences")]
pub async fn set_preferences(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<Preferences>,
) -> Result<web::Json<MailSettings>, ApiError> {
    Ok(web::Json(
        web::block(move || {
            mail::set_preferences(&state.db, &caller, &body, state.inbound.is_some())
        })
        .await??,
    ))
}

/// Longest link token accepted.
const MAX_TOKEN: usize = 2048;

fn check_token(query: &LinkQuery) -> Result<(), ApiError> {
    if query.token.len() > MAX_TOKEN {
        return Err(super::games::out_of_range(
            "token",
            "at most 2048 characters",
        ));
    }
    Ok(())
}

/// A page in the language of the account the link was made for.
fn page(language: Language, which: Page<'_>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(pages::page(language, which))
}

/// Confirm an address: the link from the confirmation email.
#[utoipa::path(operation_id = "verifyEmail", tag = "email", params(LinkQuery), responses(
    (status = 200, description = "A page saying the address is confirmed", content_type = "text/html", body = String),
    (status = 422, description = "`invalid_link`: unknown, expired, or for an address no longer set", body = Problem),
))]
#[get("/email/verify")]
pub async fn verify(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    check_token(&query)?;
    let language = web::block(move || mail::verify(&state.db, &state.keys, &query.token)).await??;
    Ok(page(language, Page::Confirmed))
}

/// The unsubscribe link opened in a browser: a page with a button (opening the link changes
/// nothing, so that mail scanners that follow links unsubscribe no one).
#[utoipa::path(operation_id = "unsubscribePage", tag = "email", params(LinkQuery), responses(
    (status = 200, description = "A page with the unsubscribe button", content_type = "text/html", body = String),
    (status = 400, description = "`invalid_query`: the token is too long", body = Problem),
))]
#[get("/email/unsubscribe")]
pub async fn unsubscribe_page(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    check_token(&query)?;
    let token: String = query
        .token
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    let language =
        web::block(move || mail::link_language(&state.db, &state.keys, &query.token)).await?;
    Ok(page(language, Page::Unsubscribe { token: &token }))
}

/// One-click unsubscribe (RFC 8058: `List-Unsubscribe-Post: List-Unsubscribe=One-Click`): turns
/// that kind of email off for the link's account, without logging in.
#[utoipa::path(operation_id = "unsubscribe", tag = "email", params(LinkQuery), responses(
    (status = 200, description = "A page saying it is done", content_type = "text/html", body = String),
    (status = 422, description = "`invalid_link`", body = Problem),
))]
#[post("/email/unsubscribe")]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let (kind, language) =
        web::block(move || mail::unsubscribe(&state.db, &state.keys, &query.token)).await??;
    Ok(page(language, Page::Unsubscribed { kind: &kind }))
}
