//! A deadline for request bodies: a client that starts a request and then sends its body slowly
//! (or never) is answered 408 `body_timeout` instead of holding a connection open.

use std::time::Duration;

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::HttpMessage;
use futures_util::StreamExt;

/// Give the request's body until `limit` from now to arrive. Requests without a body are left
/// as they are.
pub fn limit_body(req: &mut ServiceRequest, limit: Duration) {
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0");
    if !has_body {
        return;
    }
    let deadline = tokio::time::Instant::now() + limit;
    let payload = req.take_payload();
    let timed = futures_util::stream::unfold(Some(payload), move |state| async move {
        let mut payload = state?;
        match tokio::time::timeout_at(deadline, payload.next()).await {
            Ok(Some(chunk)) => Some((chunk, Some(payload))),
            Ok(None) => None,
            Err(_) => Some((Err(timed_out()), None)),
        }
    });
    let boxed: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = Result<actix_web::web::Bytes, PayloadError>>>,
    > = Box::pin(timed);
    req.set_payload(Payload::from(boxed));
}

fn timed_out() -> PayloadError {
    PayloadError::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "the request body did not arrive in time",
    ))
}

/// Whether a payload error is this deadline passing.
pub fn is_timeout(err: &PayloadError) -> bool {
    matches!(err, PayloadError::Io(e) if e.kind() == std::io::ErrorKind::TimedOut)
}
