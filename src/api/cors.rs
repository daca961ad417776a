//! Cross-origin calls: web apps served from other origins (a community client, a tournament site,
//! a stats page) call the API with a bearer token. Any origin may: no cookie is involved, so a
//! page of another site cannot act with a visitor's credentials (no cross-site request forgery),
//! and what a token allows is the same from any origin. Preflights are answered for a day; the
//! headers clients need are exposed.

use actix_cors::Cors;
use actix_web::http::header;

pub fn policy() -> Cors {
    Cors::default()
        .allow_any_origin()
        .send_wildcard()
        .allowed_methods(["GET", "HEAD", "POST", "PUT", "DELETE"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::ACCEPT_LANGUAGE,
            header::HeaderName::from_static("idempotency-key"),
            header::HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::RETRY_AFTER,
            header::WWW_AUTHENTICATE,
            header::LOCATION,
            header::CONTENT_DISPOSITION,
            header::HeaderName::from_static("idempotent-replayed"),
        ])
        .max_age(86_400)
}
