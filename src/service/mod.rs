//! What the server does, independent of HTTP. Handlers call one function here; these call the
//! engine and the storage. One room per concern:
//!
//! - `accounts/`: registration, login, sessions, API tokens, who a bearer is;
//! - `play/`: the lobby, the decisions the engine validates, the event log, records, bots;
//! - `correspondence/`: time controls, deadlines, vacation, the games waiting for you;
//! - `notify/`: the outbox of notices and its channels (email, Web Push, webhooks, live streams);
//! - `ratings/`: results, ratings, profiles, history and leaderboards;
//! - `social/`: table chat, private notes, blocks;
//! - `i18n/`: every word the server and its web client say, one Fluent catalogue per language;
//! - `maintenance`: what expires, and when it is deleted.

pub mod accounts;
pub mod correspondence;
pub mod events;
pub mod i18n;
pub mod maintenance;
pub mod notify;
pub mod pairing;
pub mod plans;
pub mod play;
pub mod ratings;
pub mod review;
pub mod social;
pub mod words;

use crate::engine::RuleError;
use crate::storage::StorageError;

/// Why a request could not be served. Mapped to HTTP in one place (`api::error`).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{message}")]
    Invalid { code: &'static str, message: String },
    /// A query parameter is out of range or unknown (400 `invalid_query`).
    #[error("{0}")]
    BadQuery(String),
    #[error("{0}")]
    Unauthorized(&'static str),
    /// The password was right, and the account asks for a second factor (401
    /// `two_factor_required`).
    #[error(
        "this account signs in with a code from its authenticator app (or a recovery code) too"
    )]
    TwoFactorRequired,
    /// The caller is known but may not do this: `not_seated`, `invite_only`.
    #[error("{message}")]
    Forbidden {
        code: &'static str,
        message: &'static str,
    },
    /// An API token lacks what the request needs (403 `insufficient_scope`): `scope` names the
    /// scope that would do, `None` where only a signed-in session does.
    #[error("{message}")]
    InsufficientScope {
        scope: Option<&'static str>,
        message: &'static str,
    },
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    #[error("the game has moved on: its version is {current}")]
    StaleVersion { current: i64 },
    #[error("{0}")]
    Rule(#[from] RuleError),
    #[error("too many attempts: retry in {retry_after} s")]
    RateLimited { retry_after: u64 },
    /// A moderator restricted the account until `until` (milliseconds since the Unix epoch):
    /// `muted` (no chat) or `suspended` (no sign-in, no new games).
    #[error("{}", restriction_text(code, *until))]
    Restricted { code: &'static str, until: i64 },
    /// Words typed as a move named no choice, or several: nothing was played (422, with the
    /// choices in words).
    #[error("{message}")]
    NotUnderstood {
        code: &'static str,
        message: String,
        choices: Box<Vec<crate::service::words::moves::ChoiceInWords>>,
    },
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("internal error: {0}")]
    Internal(String),
}

/// A time (milliseconds since the Unix epoch) as RFC 3339, in UTC.
pub(crate) fn utc_text(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| ms.to_string())
}

/// What a restriction says to the player: what, and until when (UTC).
fn restriction_text(code: &str, until: i64) -> String {
    let when = utc_text(until);
    match code {
        "muted" => format!("a moderator muted you: you cannot write at tables until {when}"),
        _ => format!("a moderator suspended this account until {when}"),
    }
}

impl ServiceError {
    /// What a log line may say of this error: a refusal by the rules by its code alone, since
    /// its message can name a card of the hand it was decided from.
    pub fn for_log(&self) -> String {
        match self {
            ServiceError::Rule(rule) => format!("refused by the rules ({})", rule.code()),
            other => other.to_string(),
        }
    }

    pub fn invalid(code: &'static str, message: impl Into<String>) -> ServiceError {
        ServiceError::Invalid {
            code,
            message: message.into(),
        }
    }

    pub fn forbidden(code: &'static str, message: &'static str) -> ServiceError {
        ServiceError::Forbidden { code, message }
    }

    /// A signed-in session is needed: no API token's scope will do.
    pub fn session_only(message: &'static str) -> ServiceError {
        ServiceError::InsufficientScope {
            scope: None,
            message,
        }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> ServiceError {
        ServiceError::Conflict {
            code,
            message: message.into(),
        }
    }
}

impl crate::storage::ConnectionLoss for ServiceError {
    fn is_connection_loss(&self) -> bool {
        matches!(self, ServiceError::Storage(e) if e.is_connection_loss())
    }
    fn is_contention(&self) -> bool {
        matches!(self, ServiceError::Storage(e) if e.is_contention())
    }
}

impl From<diesel::result::Error> for ServiceError {
    /// The transaction's own statements (BEGIN, COMMIT) fail like any storage call: a lost
    /// connection is the database being unavailable (503), not a bug.
    fn from(e: diesel::result::Error) -> Self {
        ServiceError::Storage(StorageError::from(e))
    }
}

pub type ServiceResult<T> = Result<T, ServiceError>;

/// A page's cursor, `<a>.<b>`: the ordering pair of the previous page's last item, each 1 to 18
/// decimal digits (the document's pattern; a sign, a space or a longer number is refused).
pub(super) fn parse_cursor(cursor: &str) -> ServiceResult<(i64, i64)> {
    let (a, b) = cursor.split_once('.').ok_or_else(bad_cursor)?;
    Ok((cursor_number(a)?, cursor_number(b)?))
}

/// One number of a cursor: 1 to 18 decimal digits, nothing else.
pub(super) fn cursor_number(text: &str) -> ServiceResult<i64> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_cursor());
    }
    text.parse().map_err(|_| bad_cursor())
}

/// The refusal of a cursor no page gave.
pub(super) fn bad_cursor() -> ServiceError {
    ServiceError::BadQuery("unknown cursor: pass the next_cursor of a previous page".into())
}

/// A time in milliseconds since the Unix epoch, in UTC, written in `format` (the number itself
/// when it is out of range).
pub fn format_millis(ms: i64, format: &(impl time::formatting::Formattable + ?Sized)) -> String {
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(format).ok())
        .unwrap_or_else(|| ms.to_string())
}

/// Random bytes from the operating system, as hex.
pub fn random_hex(bytes: usize) -> ServiceResult<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::getrandom(&mut buf).map_err(|e| ServiceError::Internal(e.to_string()))?;
    Ok(hex::encode(buf))
}

/// A random u64 from the operating system (game seeds: never stored, never shown).
pub fn random_u64() -> ServiceResult<u64> {
    let mut buf = [0u8; 8];
    getrandom::getrandom(&mut buf).map_err(|e| ServiceError::Internal(e.to_string()))?;
    Ok(u64::from_le_bytes(buf))
}

/// SHA-256 as hex: how refresh and API tokens are stored (the tokens themselves never are).
pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::ServiceError;
    use crate::engine::{Card, Color, RuleError};

    /// Logged errors never name a card: a refusal by the rules is logged by its code, while the
    /// player who made the decision is told the card (it was theirs).
    #[test]
    fn a_refusal_is_logged_by_its_code_only() {
        let card = Card::number(Color::Blue, 7);
        let e = ServiceError::Rule(RuleError::CardNotInHand { card });
        assert!(e.to_string().contains(&card.to_string()));
        assert_eq!(e.for_log(), "refused by the rules (card_not_in_hand)");
    }
}
