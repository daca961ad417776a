//! What every answer goes through on its way out, whatever the route: `HEAD` wherever `GET`
//! works, and the compressor's opt-out taken back out of the headers.
//!
//! `HEAD` wherever `GET` works (RFC 9110, section 9.3.2): a `HEAD` request is routed as a `GET`,
//! and the connection sends the answer's headers only (actix-http's encoder leaves out the body
//! of an answer to a `HEAD`, by the request line it read, whatever the routing saw).

use actix_web::dev::ServiceRequest;
use actix_web::http::header::{HeaderMap, CONTENT_ENCODING};
use actix_web::http::Method;

/// Route a `HEAD` as a `GET`.
pub fn as_get(req: &mut ServiceRequest) {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
}

/// `Content-Encoding: identity` tells the compressor to leave an answer alone (event streams);
/// it is not for clients.
pub fn drop_identity_encoding(headers: &mut HeaderMap) {
    if headers
        .get(CONTENT_ENCODING)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"identity"))
    {
        headers.remove(CONTENT_ENCODING);
    }
}
