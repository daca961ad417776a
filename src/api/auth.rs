//! The caller of a request, from its `Authorization: Bearer` header.

use std::future::Future;
use std::pin::Pin;

use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpRequest};

use super::error::ApiError;
use super::AppState;
use crate::service::accounts::{self, Caller};
use crate::service::ServiceError;

/// An authenticated caller: a JWT access token or a personal API token.
pub struct Authenticated(pub Caller);

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let caller = bearer_caller(req);
        Box::pin(async move { Ok(Authenticated(caller.await?)) })
    }
}

/// The caller of a request with `Authorization: Bearer <access token or API token>`.
pub(super) fn bearer_caller(
    req: &HttpRequest,
) -> impl Future<Output = Result<Caller, ApiError>> + 'static {
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let bearer = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(|t| t.trim().to_string());
    async move {
        let state = state.ok_or_else(|| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "no state")
        })?;
        let bearer = bearer.ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "send Authorization: Bearer <access token or API token>",
            )
        })?;
        // Most requests need no database read (their session was found live recently): they are
        // checked here, without a hop to a blocking thread.
        let caller = match accounts::authenticate_without_reading(&state.db, &state.keys, &bearer) {
            Some(checked) => checked?,
            None => {
                let (db, keys, bearer) = (state.db.clone(), state.keys.clone(), bearer.clone());
                web::block(move || accounts::authenticate(&db, &keys, &bearer)).await??
            }
        };
        // A token (a bot's, an app's) is counted; a signed-in person is not.
        if caller.session_id.is_none() {
            state
                .token_limiter
                .check(&bearer)
                .map_err(|retry_after| ServiceError::RateLimited { retry_after })?;
        }
        Ok(caller)
    }
}
