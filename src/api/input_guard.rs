//! Text in a request's path and query reaches queries (a player's name, a cursor), and the two
//! databases disagree on some of it: PostgreSQL refuses a NUL in any text (SQLite would look for
//! it and answer 404), and neither stores invalid UTF-8. So before any route runs, the path and
//! the query are percent-decoded and refused when they are not UTF-8 or hold a control character:
//! the same answer on both databases, and nothing of the kind ever reaches storage.
//! A path so refused names nothing (404 `not_found`); a query, 400 `invalid_query`.

use actix_web::dev::ServiceRequest;
use actix_web::http::StatusCode;
use percent_encoding::percent_decode_str;

use super::error::ApiError;

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
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::clean;

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
