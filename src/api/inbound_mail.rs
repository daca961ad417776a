//! `/api/v1/inbound/mail`: replies by email handed over by a mail provider's inbound webhook.

use actix_web::{post, web, HttpRequest, HttpResponse};

use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::correspondence::by_mail::{self, Received, Signature};

/// Receive one email (moves by email reply) from a mail provider's inbound webhook: the body is
/// the raw message (RFC 5322, up to 256 KiB), signed as Standard Webhooks says with the server's
/// inbound webhook secret (`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature`).
/// The answer says what became of the message, for the provider's log: `played`, `answered` (the
/// player is told why nothing was played) or `dropped` (no answer is sent: the message named none
/// of the server's turns, its sender was not the seat's confirmed address, it failed the
/// authentication required, it came before, or the player sent too many).
#[utoipa::path(operation_id = "receiveInboundMail", tag = "correspondence",
    request_body(content = String, content_type = "text/plain", description = "The raw message as RFC 5322 writes it; any content type is read the same (`message/rfc822` is usual)"),
    responses(
        (status = 200, body = Received),
        (status = 401, description = "`unauthorized`: not signed with the inbound webhook secret, or the timestamp is too far from now", body = Problem),
        (status = 404, description = "`not_found`: the server receives no mail by webhook", body = Problem),
        (status = 413, description = "`body_too_large`: the message is over 256 KiB", body = Problem),
    ))]
#[post("/inbound/mail")]
pub async fn receive(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    let (id, timestamp, signatures) = (
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
    );
    let received: Received = web::block(move || {
        by_mail::receive_signed(
            &state.db,
            state.inbound.as_ref(),
            state.inbound_webhook_secret.as_deref(),
            &Signature {
                id: &id,
                timestamp: &timestamp,
                signatures: &signatures,
            },
            &body,
        )
    })
    .await??;
    Ok(HttpResponse::Ok().json(received))
}
