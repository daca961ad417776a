//! Every failure becomes one JSON body shape, here and only here.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::words::moves::ChoiceInWords;
use crate::service::ServiceError;
use crate::storage::StorageError;

/// What a 503 asks clients to wait before retrying, in seconds.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// The body of every error response.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// Stable, machine-readable: e.g. `stale_version`, `row_order`, `unauthorized`.
    pub code: String,
    /// For people; may change between versions.
    pub message: String,
    /// On `stale_version`: the game's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
    /// On `muted` and `suspended`: until when (milliseconds since the Unix epoch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<i64>,
    /// On `words_*` (a typed move not understood): the choices of the moment in words (those
    /// the words fit, when they fit several).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<Box<Vec<ChoiceInWords>>>,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub problem: Problem,
    pub retry_after: Option<u64>,
    /// A header the problem carries: on 405 `Allow` (the methods the path answers), on 403
    /// `insufficient_scope` `WWW-Authenticate` (the Bearer challenge, RFC 6750 §3.1). Boxed: an
    /// error stays small.
    pub header: Option<Box<(header::HeaderName, String)>>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            problem: Problem {
                code: code.to_string(),
                message: message.into(),
                current_version: None,
                until: None,
                choices: None,
            },
            retry_after: None,
            header: None,
        }
    }
}

impl ApiError {
    /// 503 with `Retry-After`: nothing is wrong with the request, the server cannot serve it now.
    fn try_again_shortly(code: &str, message: &str) -> ApiError {
        let mut err = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, code, message);
        err.retry_after = Some(RETRY_AFTER_SECONDS);
        err
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.problem.code, self.problem.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(seconds) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, seconds.to_string()));
        }
        if let Some((name, value)) = self.header.as_deref() {
            response.insert_header((name.clone(), value.as_str()));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        response.json(&self.problem)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        let message = e.to_string();
        match e {
            ServiceError::Invalid { code, .. } => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
            }
            ServiceError::BadQuery(_) => {
                ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", message)
            }
            ServiceError::Unauthorized(_) => {
                ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
            }
            ServiceError::TwoFactorRequired => {
                ApiError::new(StatusCode::UNAUTHORIZED, "two_factor_required", message)
            }
            ServiceError::Forbidden { code, .. } => {
                ApiError::new(StatusCode::FORBIDDEN, code, message)
            }
            ServiceError::InsufficientScope { scope, message } => {
                let mut err = ApiError::new(StatusCode::FORBIDDEN, "insufficient_scope", message);
                // RFC 6750 §3.1: the scope that would do, or (a session needed) words alone.
                let challenge = match scope {
                    Some(scope) => {
                        format!("Bearer error=\"insufficient_scope\", scope=\"{scope}\"")
                    }
                    None => format!(
                        "Bearer error=\"insufficient_scope\", error_description=\"{message}\""
                    ),
                };
                err.header = Some(Box::new((header::WWW_AUTHENTICATE, challenge)));
                err
            }
            ServiceError::NotFound(_) => ApiError::new(StatusCode::NOT_FOUND, "not_found", message),
            ServiceError::Conflict { code, .. } => {
                ApiError::new(StatusCode::CONFLICT, code, message)
            }
            ServiceError::StaleVersion { current } => {
                let mut err = ApiError::new(StatusCode::CONFLICT, "stale_version", message);
                err.problem.current_version = Some(current);
                err
            }
            ServiceError::NotUnderstood { code, choices, .. } => {
                let mut err = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message);
                err.problem.choices = Some(choices);
                err
            }
            ServiceError::Rule(rule) => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, rule.code(), message)
            }
            ServiceError::Restricted { code, until } => {
                let mut err = ApiError::new(StatusCode::FORBIDDEN, code, message);
                err.problem.until = Some(until);
                err
            }
            ServiceError::RateLimited { retry_after } => {
                let mut err = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message);
                err.retry_after = Some(retry_after);
                err
            }
            ServiceError::Storage(StorageError::Unavailable(detail)) => {
                crate::warn_throttled!(%detail, "database unavailable");
                ApiError::try_again_shortly(
                    "database_unavailable",
                    "the database is unavailable: try again shortly",
                )
            }
            ServiceError::Storage(StorageError::Contended(detail)) => {
                // Run again `WRITE_TRIES` times already (`storage::Database::write`).
                crate::warn_throttled!(%detail, "a write still met others after its tries");
                ApiError::try_again_shortly(
                    "contended",
                    "other requests are changing the same things: try again shortly",
                )
            }
            ServiceError::Storage(StorageError::Conflict) => {
                // Every write that can meet another at a unique key says so in its own words
                // (docs/architecture.md, "Writes that race"): one that reaches here is a bug.
                tracing::error!("a unique key clashed where no service expected it: a bug to fix");
                ApiError::new(
                    StatusCode::CONFLICT,
                    "write_conflict",
                    "another request wrote the same thing at the same moment: look again, then retry",
                )
            }
            ServiceError::Storage(other) => {
                tracing::error!(error = %other, "storage error");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "internal error",
                )
            }
            ServiceError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "internal error",
                )
            }
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(_: actix_web::error::BlockingError) -> ApiError {
        ApiError::try_again_shortly("overloaded", "the server is overloaded: try again shortly")
    }
}

/// Malformed, oversized or wrongly typed JSON bodies.
pub fn json_error(
    err: actix_web::error::JsonPayloadError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as J;
    let e = match &err {
        J::OverflowKnownLength { .. } | J::Overflow { .. } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            err.to_string(),
        ),
        J::Payload(p) if super::body_timeout::is_timeout(p) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "body_timeout",
            "the request body did not arrive in time",
        ),
        J::ContentType => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the body as application/json",
        ),
        J::Deserialize(inner) if inner.is_data() => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            inner.to_string(),
        ),
        _ => ApiError::new(StatusCode::BAD_REQUEST, "malformed_json", err.to_string()),
    };
    e.into()
}

pub fn query_error(
    err: actix_web::error::QueryPayloadError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", err.to_string()).into()
}

pub fn path_error(
    err: actix_web::error::PathError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", err.to_string()).into()
}

/// No route answered: 405 with `Allow` for a known path, 404 otherwise.
pub async fn no_route(req: actix_web::HttpRequest) -> Result<HttpResponse, ApiError> {
    match super::openapi::allowed_methods(req.path()) {
        Some(methods) if !methods.is_empty() => {
            let mut err = ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                format!(
                    "{} is not allowed here: {}",
                    req.method(),
                    methods.join(", ")
                ),
            );
            err.header = Some(Box::new((header::ALLOW, methods.join(", "))));
            Err(err)
        }
        _ => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such route",
        )),
    }
}

/// The code an answer of `status` carries when nothing more precise said one.
fn code_of_status(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "body_timeout",
        413 => "body_too_large",
        414 => "uri_too_long",
        415 => "unsupported_media_type",
        422 => "invalid_body",
        429 => "rate_limited",
        431 => "headers_too_large",
        503 => "overloaded",
        _ if status.is_client_error() => "bad_request",
        _ => "internal",
    }
}

/// The problem an answer of `status` carries when nothing more precise said one.
fn problem_of_status(status: StatusCode) -> ApiError {
    let message = status.canonical_reason().unwrap_or("error").to_lowercase();
    ApiError::new(status, code_of_status(status), message)
}

/// The JSON text of a problem body (for answers written below actix-web).
pub fn problem_json(status: StatusCode, message: &str) -> String {
    let problem = ApiError::new(status, code_of_status(status), message).problem;
    serde_json::to_string(&problem).unwrap_or_default()
}

/// An error answer that is not a problem body (the Swagger UI's own 404, a refusal made by actix
/// before a handler ran) gets one, with the code of its status; its other headers stay.
pub fn with_problem_body(res: actix_web::dev::ServiceResponse) -> actix_web::dev::ServiceResponse {
    let status = res.status();
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if status.as_u16() < 400 || is_problem {
        return res;
    }
    let mut problem = problem_of_status(status).error_response();
    for (name, value) in res.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            problem.headers_mut().append(name.clone(), value.clone());
        }
    }
    res.into_response(problem)
}
