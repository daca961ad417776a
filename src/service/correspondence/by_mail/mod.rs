//! Moves by email reply: a player who turns it on gets the turn's choices in the "your turn"
//! email, with a reply address naming the game, the seat and the turn (`token`), and plays by
//! answering it from any mail program. A reply (from the server's SMTP listener or a mail
//! provider's signed webhook) is read (`reading`: the player's own words, quotes and signatures
//! cut), its steps matched against the choices (`service::words`: the one move language), and
//! played through the same validated, versioned decision path as the API, in one transaction
//! with the record of the message (a message delivered twice is played once) and the answer to the player (a
//! confirmation, or why nothing was played and the choices again). Mail that names none of our
//! turns, or whose sender is not the seat's confirmed address, is dropped without an answer.

mod plan_line;
pub mod reading;
pub mod token;

use mail_parser::{Message, MessageParser};
use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::{DecisionJson, Game};
use crate::ratings::RatingParameters;
use crate::service::accounts::sessions::TokenKeys;
use crate::service::notify::notifications::{queue, Notice};
use crate::service::play::decisions::{apply_decision, Actor, DecisionRequest};
use crate::service::play::games::GameStatus;
use crate::service::play::loading::load_game;
use crate::service::words::grammar::{self, choose, Miss};
pub use crate::service::words::offered;
use crate::service::words::reading::Reading;
use crate::service::words::{pawn_places, phrases};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::inbound_mail as store;
use crate::storage::memo::Memo;
use crate::storage::{Database, DbConnection, StorageError};
use token::{ReplyAddress, TurnToken};

/// The largest message read (a reply with its quoted email is a few kilobytes).
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;
/// Replies a player may send in [`RATE_WINDOW_MS`]; more are dropped.
const RATE_LIMIT: i64 = 120;
const RATE_WINDOW_MS: i64 = 3600 * 1000;
/// How long a received message is remembered (a copy delivered later than that is rare).
pub const REMEMBERED_MS: i64 = 30 * 24 * 3600 * 1000;
/// The player's text echoed in an answer, at most (characters).
const SAID_CHARS: usize = 120;

/// What receiving mail needs: the reply address and the server's key (the tokens), the trusted
/// mail server's id (`Authentication-Results`), and the rating parameters (a game may end).
#[derive(Clone)]
pub struct Inbound {
    pub reply: ReplyAddress,
    pub keys: TokenKeys,
    /// When set, the topmost `Authentication-Results` from this server must show DKIM or SPF
    /// pass.
    pub authserv_id: Option<String>,
    pub ratings: RatingParameters,
}

/// What became of a message, for the receiver's log (never told to the sender).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Moves were played; the player gets a confirmation.
    Played,
    /// Nothing was played; the player is told why, with the choices again.
    Answered,
    /// Dropped without an answer: it named none of our turns, its sender or its authentication
    /// did not hold, it came before, or the player sent too many.
    Dropped,
}

/// The outcome and a short reason (`no_token`, `wrong_sender`, `duplicate`...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Received {
    pub outcome: Outcome,
    pub reason: &'static str,
}

fn dropped(reason: &'static str) -> Received {
    tracing::info!(reason, "inbound mail dropped");
    Received {
        outcome: Outcome::Dropped,
        reason,
    }
}

/// The turn a message answers: the first of its recipients (the SMTP envelope's, then its
/// headers') that is one of our reply addresses.
fn turn_named(
    inbound: &Inbound,
    message: &Message<'_>,
    envelope_to: &[String],
) -> Option<(TurnToken, String)> {
    let mut candidates: Vec<String> = envelope_to.to_vec();
    for (name, value) in message.headers_raw() {
        if ["to", "cc", "delivered-to", "x-original-to"]
            .iter()
            .any(|h| name.eq_ignore_ascii_case(h))
        {
            candidates.extend(
                value
                    .split([',', ' ', '\t', '\r', '\n', '<', '>'])
                    .filter(|a| a.contains('@'))
                    .map(String::from),
            );
        }
    }
    candidates.iter().find_map(|a| inbound.reply.read(a))
}

/// Whether the topmost `Authentication-Results` of `authserv_id` shows DKIM or SPF pass (RFC
/// 8601).
fn authenticated(message: &Message<'_>, authserv_id: &str) -> bool {
    for (name, value) in message.headers_raw() {
        if !name.eq_ignore_ascii_case("authentication-results") {
            continue;
        }
        let mut parts = value.split(';');
        let id = parts
            .next()
            .and_then(|p| p.split_whitespace().next())
            .unwrap_or_default();
        if !id.eq_ignore_ascii_case(authserv_id) {
            continue;
        }
        return parts.any(|part| {
            let compact: String = part
                .split_whitespace()
                .collect::<String>()
                .to_ascii_lowercase();
            compact.starts_with("dkim=pass") || compact.starts_with("spf=pass")
        });
    }
    false
}

/// Read one message and act on it.
pub fn receive(
    db: &Database,
    inbound: &Inbound,
    raw: &[u8],
    envelope_to: &[String],
) -> ServiceResult<Received> {
    if raw.len() > MAX_MESSAGE_BYTES {
        return Ok(dropped("too_large"));
    }
    let Some(message) = MessageParser::default().parse(raw) else {
        return Ok(dropped("not_a_message"));
    };
    let Some((turn, mac)) = turn_named(inbound, &message, envelope_to) else {
        return Ok(dropped("no_token"));
    };
    let seats = db.read(|c| crate::storage::games::seats(c, turn.game_id))?;
    let Some(seat) = seats.iter().find(|s| s.seat == i32::from(turn.seat)) else {
        return Ok(dropped("no_token"));
    };
    let user_id = seat.user_id;
    if !ReplyAddress::verify(&inbound.keys, &turn, user_id, &mac) {
        return Ok(dropped("no_token"));
    }
    if let Some(id) = &inbound.authserv_id {
        if !authenticated(&message, id) {
            return Ok(dropped("not_authenticated"));
        }
    }
    let sender = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_string();
    let settings = db.read(|c| crate::storage::mail::settings(c, user_id))?;
    let confirmed = settings
        .as_ref()
        .and_then(|s| match (&s.email, s.verified_at) {
            (Some(email), Some(_)) => Some(email.clone()),
            _ => None,
        });
    if confirmed.is_none_or(|e| !e.eq_ignore_ascii_case(sender.trim())) {
        return Ok(dropped("wrong_sender"));
    }
    let message_hash = crate::service::sha256_hex(&match message.message_id() {
        Some(id) => format!("id:{id}"),
        None => format!("raw:{}", String::from_utf8_lossy(raw)),
    });
    let now = db.now();
    if db.read(|c| store::count_since(c, user_id, now - RATE_WINDOW_MS))? >= RATE_LIMIT {
        return Ok(dropped("rate_limited"));
    }
    let text = reading::own_words(&message.body_text(0).unwrap_or_default());
    let answered_id = message.message_id().map(String::from);
    let result = db.write(|conn| {
        if store::seen(conn, &message_hash)? {
            return Ok(None);
        }
        store::record(conn, &message_hash, user_id, turn.game_id, now, "received")?;
        let reply = play(conn, inbound, turn, user_id, &text, now)?;
        let outcome = if reply.played.is_empty() {
            Outcome::Answered
        } else {
            Outcome::Played
        };
        store::set_outcome(conn, &message_hash, outcome_name(outcome))?;
        let notice = Notice::MailReply {
            game_id: turn.game_id,
            played: reply.played,
            problem: reply.problem.map(String::from),
            said: reply.said,
            message_id: answered_id.clone(),
            plan: reply.plan,
        };
        queue(conn, user_id, &notice, now)?;
        Ok::<_, ServiceError>(Some((outcome, reply.ended)))
    });
    match result {
        Ok(None) | Err(ServiceError::Storage(StorageError::Conflict)) => Ok(dropped("duplicate")),
        Ok(Some((outcome, ended))) => {
            if ended {
                crate::service::play::packing::game_ended(db, turn.game_id);
            }
            tracing::info!(game = turn.game_id, ?outcome, "a reply by email");
            Ok(Received {
                outcome,
                reason: outcome_name(outcome),
            })
        }
        // Another move landed while this one was played: nothing of it was kept; the sender
        // tries again (SMTP 451, webhook 503) and then gets the game as it stands.
        Err(ServiceError::StaleVersion { .. }) => Err(ServiceError::Storage(
            StorageError::Unavailable("the game moved on meanwhile: try again".into()),
        )),
        Err(e) => Err(e),
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Played => "played",
        Outcome::Answered => "answered",
        Outcome::Dropped => "dropped",
    }
}

/// The headers of a signed delivery (Standard Webhooks).
pub struct Signature<'a> {
    pub id: &'a str,
    pub timestamp: &'a str,
    pub signatures: &'a str,
}

/// A message from a mail provider's inbound webhook: the raw message, signed with the inbound
/// webhook secret as Standard Webhooks says (as our own webhooks are).
pub fn receive_signed(
    db: &Database,
    inbound: Option<&Inbound>,
    secret: Option<&str>,
    signature: &Signature<'_>,
    raw: &[u8],
) -> ServiceResult<Received> {
    let (Some(inbound), Some(secret)) = (inbound, secret) else {
        return Err(ServiceError::NotFound("inbound mail"));
    };
    let now_seconds = db.now() / 1000;
    if !crate::service::notify::webhooks::signed_by(
        secret,
        signature.id,
        signature.timestamp,
        signature.signatures,
        raw,
        now_seconds,
    ) {
        return Err(ServiceError::Unauthorized(
            "the delivery is not signed with the inbound webhook secret, or its timestamp is too far from now",
        ));
    }
    // A larger body was refused (413) before the handler ran: actix's payload limit is 256 KiB.
    receive(db, inbound, raw, &[])
}

/// What a reply did.
struct Reply {
    played: Vec<DecisionJson>,
    /// Why the rest was not played (`stale`, `not_a_choice`, `ambiguous`...).
    problem: Option<&'static str>,
    /// The words of the step that was not played.
    said: Option<String>,
    ended: bool,
    /// The plan the reply carried, kept or not.
    plan: Option<crate::service::notify::notifications::MailPlan>,
}

/// Play the reply's steps on the turn it answers, one validated decision after another.
fn play(
    conn: &mut DbConnection,
    inbound: &Inbound,
    turn: TurnToken,
    user_id: i64,
    text: &str,
    now: i64,
) -> ServiceResult<Reply> {
    // Loaded states stay in this transaction's own memo: the shared one must never hold a
    // version that a rollback would undo.
    let memo = Memo::default();
    let mut reply = Reply {
        played: Vec::new(),
        problem: None,
        said: None,
        ended: false,
        plan: None,
    };
    let (text, plan_texts) = plan_line::split(text);
    let text = text.as_str();
    // Where the reply's move cannot be played, neither is its plan kept.
    reply.plan = plan_line::not_kept(&plan_texts, SAID_CHARS);
    let loaded = load_game(conn, turn.game_id, &memo)?;
    let status = GameStatus::parse(&loaded.row.status);
    if status != GameStatus::Active {
        reply.problem = Some("game_over");
        return Ok(reply);
    }
    if loaded.row.version != turn.version {
        reply.problem = Some("stale");
        return Ok(reply);
    }
    let Some(mut game) = loaded.game.map(|g| Game::clone(&g)) else {
        reply.problem = Some("game_over");
        return Ok(reply);
    };
    let mut version = loaded.row.version;
    let mut reading = Reading::new(text);
    let mut first = true;
    loop {
        let choices = offered(&game, turn.seat);
        let Some(step) = reading.next_step(&phrases(&choices, &pawn_places(&game, turn.seat)))
        else {
            if first {
                // The first line of words of their own that name no move ("Lorem ipsum") is
                // echoed as unreadable; a reply with none but courtesies ("Thanks!") had no move.
                let own = text
                    .lines()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                    .find(|l| !l.is_empty() && !grammar::courtesy_only(l));
                reply.problem = Some(if own.is_some() {
                    "unreadable"
                } else {
                    "no_move"
                });
                reply.said = own.map(|l| l.chars().take(SAID_CHARS).collect());
            }
            break;
        };
        first = false;
        let said = || Some(step.said.chars().take(SAID_CHARS).collect::<String>());
        if choices.is_empty() {
            reply.problem = Some(if game.is_over() {
                "game_over"
            } else {
                "turn_over"
            });
            reply.said = said();
            break;
        }
        let decision = match choose(&step.want, &choices) {
            Ok(d) => d,
            Err(miss) => {
                reply.problem = Some(match miss {
                    Miss::NotAChoice => "not_a_choice",
                    Miss::Ambiguous(_) => "ambiguous",
                    Miss::Unreadable => "unreadable",
                });
                reply.said = said();
                break;
            }
        };
        let request = DecisionRequest {
            expected_version: version,
            decision: decision.clone(),
        };
        match apply_decision(
            conn,
            &memo,
            turn.game_id,
            Actor::Player(user_id),
            &request,
            now,
            &inbound.ratings,
        ) {
            Ok(applied) => {
                game = applied.game;
                version = applied.version;
                reply.played.push(decision);
            }
            // What the database said (or another writer first): the whole message is undone
            // and, by SMTP, tried again by the sender's server.
            Err(
                e @ (ServiceError::Storage(_)
                | ServiceError::StaleVersion { .. }
                | ServiceError::Internal(_)),
            ) => return Err(e),
            Err(ServiceError::Conflict { code, .. }) => {
                reply.problem = Some(code);
                reply.said = said();
                break;
            }
            Err(_) => {
                reply.problem = Some("not_a_choice");
                reply.said = said();
                break;
            }
        }
    }
    reply.ended = game.is_over();
    if !plan_texts.is_empty() {
        let after = crate::service::plans::PlanFor {
            game: &game,
            game_id: turn.game_id,
            version,
            seat: turn.seat,
            user_id,
            now,
        };
        let move_played = !reply.played.is_empty() && reply.problem.is_none();
        reply.plan = Some(plan_line::keep(
            conn,
            after,
            &plan_texts,
            move_played,
            SAID_CHARS,
        )?);
    }
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_topmost_result_of_the_trusted_server_decides() {
        let parse = |headers: &str| {
            let raw = format!("{headers}From: a@example.org\r\nSubject: x\r\n\r\n3\r\n");
            let message = MessageParser::default()
                .parse(raw.as_bytes())
                .map(|m| authenticated(&m, "mx.keltis.test"));
            message.unwrap_or(false)
        };
        assert!(parse(
            "Authentication-Results: mx.keltis.test; dkim=pass header.d=example.org; spf=fail\r\n"
        ));
        assert!(parse(
            "Authentication-Results: mx.keltis.test;\r\n spf = pass smtp.mailfrom=example.org\r\n"
        ));
        assert!(!parse(
            "Authentication-Results: mx.keltis.test; dkim=fail; spf=softfail\r\n"
        ));
        // A forged header lower down does not count; another server's does not either.
        assert!(!parse(
            "Authentication-Results: mx.keltis.test; dkim=fail\r\nAuthentication-Results: mx.keltis.test; dkim=pass\r\n"
        ));
        assert!(!parse(
            "Authentication-Results: mx.other.test; dkim=pass\r\n"
        ));
        assert!(!parse(""));
    }
}
