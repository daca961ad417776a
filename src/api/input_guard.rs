//! Text in a request's path and query reaches queries (a player's name, a cursor), and the two
//! databases disagree on some of it: PostgreSQL refuses a NUL in any text (SQLite would look for
//! it and answer 404), and neither stores invalid UTF-8. So before any route runs, the path and
//! the query are percent-decoded and refused when they are not UTF-8 or hold a control character:
//! the same answer on both databases, and nothing of the kind ever reaches storage.
//! A path so refused names nothing (404 `not_found`); a query, 400 `invalid_query`.
//!
//! A query parameter the operation does not take is refused too (400 `invalid_query`, naming
//! it), as the OpenAPI document says: a client's misspelt `lang=fr` silently ignored would answer
//! in another language than asked. The parameters are the document's own, so the two cannot
//! drift. OAuth's authorization page is the exception: RFC 6749 (3.1) says an authorization
//! server ignores parameters it does not know.

use actix_web::dev::ServiceRequest;
use actix_web::http::StatusCode;
use percent_encoding::percent_decode_str;

use super::error::ApiError;

/// The path whose operation ignores parameters it does not know (RFC 6749, 3.1).
const IGNORES_UNKNOWN_PARAMETERS: &str = "/api/v1/oauth/authorize";

/// Whether `text`, percent-decoded, is UTF-8 without control characters (C0, DEL, C1).
fn clean(text: &str) -> bool {
    percent_decode_str(text)
        .decode_utf8()
        .is_ok_and(|decoded| !decoded.chars().any(char::is_control))
}

/// Refuse the request if its path or query is not clean text (see the module's comment).
pub fn check(req: &ServiceRequest) -> Result<(), ApiError> {
    let uri = req.uri();
    if !clean(uri.path()) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such route: the path holds a control character or is not UTF-8",
        ));
    }
    if let Some(query) = uri.query() {
        if !clean(query) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                "the query holds a control character or is not UTF-8",
            ));
        }
        if uri.path() != IGNORES_UNKNOWN_PARAMETERS {
            if let Some(taken) = super::openapi::query_parameters(req.method().as_str(), uri.path())
            {
                if let Some(unknown) = unknown_parameter(query, &taken) {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "invalid_query",
                        match taken.as_slice() {
                            [] => format!(
                                "unknown query parameter `{unknown}`: this operation takes none"
                            ),
                            _ => format!(
                                "unknown query parameter `{unknown}`: this operation takes `{}`",
                                taken.join("`, `")
                            ),
                        },
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The first parameter of `query` (form-encoded, already found clean) not among `taken`.
fn unknown_parameter(query: &str, taken: &[&str]) -> Option<String> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let name = pair.split_once('=').map_or(pair, |(name, _)| name);
            percent_decode_str(&name.replace('+', " "))
                .decode_utf8_lossy()
                .into_owned()
        })
        .find(|name| !taken.contains(&name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::{clean, unknown_parameter};

    #[test]
    fn a_parameter_the_operation_does_not_take_is_named() {
        let taken = ["limit", "cursor"];
        assert_eq!(unknown_parameter("limit=5&cursor=a", &taken), None);
        assert_eq!(unknown_parameter("limit=5&&cursor", &taken), None);
        assert_eq!(
            unknown_parameter("limit=5&lang=fr", &taken).as_deref(),
            Some("lang")
        );
        assert_eq!(
            unknown_parameter("li%6Dit=5&x+y=1", &taken).as_deref(),
            Some("x y")
        );
        assert_eq!(unknown_parameter("foo", &[]).as_deref(), Some("foo"));
    }

    #[test]
    fn control_characters_and_invalid_utf8_are_not_clean() {
        for bad in [
            "%00", "a%00b", "%FF", "%C3", "%7F", "%C2%85", "a%0Ab", "%1b[31m",
        ] {
            assert!(!clean(bad), "{bad}");
        }
        for good in [
            "anna",
            "player=Zo%C3%AB",
            "cursor=12.34&limit=5",
            "%20x",
            "a+b",
        ] {
            assert!(clean(good), "{good}");
        }
    }
}
