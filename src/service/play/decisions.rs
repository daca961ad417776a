//! Play: the caller's view, and decisions validated by the engine and appended on the version
//! the caller saw (optimistic concurrency), with idempotent retries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::{DecisionJson, DecisionOf};
use crate::ratings::RatingParameters;
use crate::service::accounts::{Caller, Scope};
use crate::service::play::games::{load_row, GameDetail};
use crate::service::play::loading::{keep, reloaded_detail};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games::{self as store, StoredAnswer};
use crate::storage::{Database, StorageError};

pub(in crate::service) use crate::service::play::appending::{apply_decision, Actor, Applied};
use crate::service::play::appending::{commit, prepare};

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 7, "decision": {"type": "draw_deck"}}))]
pub struct DecisionRequest {
    /// The version the decision was made on (from the game's `version`).
    pub expected_version: i64,
    #[serde(deserialize_with = "crate::service::play::strict::tagged")]
    pub decision: DecisionJson,
}

pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    caller.require(Scope::Read)?;
    let now = db.now();
    db.read(|conn| reloaded_detail(conn, game_id, caller, now, db.memo()))
}

/// How long the answer to an `Idempotency-Key` is kept: a retry within it gets the first answer;
/// after it, the key is free again.
pub const IDEMPOTENCY_KEY_MILLIS: i64 = 24 * 3600 * 1000;

/// Play one decision on the version the caller saw.
pub fn decide(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    request: &DecisionRequest,
    idempotency_key: Option<&str>,
    ratings: &RatingParameters,
) -> ServiceResult<DecisionAnswer> {
    caller.require(Scope::Play)?;
    // The Idempotency-Key with the request's hash, which a repeated key is compared by (only
    // hashed when there is a key).
    let keyed = match idempotency_key {
        Some(key) => Some((
            key,
            crate::service::sha256_hex(
                &serde_json::to_string(&(game_id, request))
                    .map_err(|e| ServiceError::Internal(e.to_string()))?,
            ),
        )),
        None => None,
    };
    let repeated = |db: &Database| -> ServiceResult<Option<DecisionAnswer>> {
        let Some((key, request_hash)) = &keyed else {
            return Ok(None);
        };
        let since = db.now() - IDEMPOTENCY_KEY_MILLIS;
        match db.read(|c| store::idempotent_answer(c, caller.user_id, key, since))? {
            None => Ok(None),
            Some(a) if &a.request_hash == request_hash => Ok(Some(DecisionAnswer::Repeated {
                status: a.status as u16,
                body: a.body,
            })),
            Some(_) => Err(ServiceError::invalid(
                "idempotency_key_reused",
                "this Idempotency-Key was used for another request",
            )),
        }
    };
    if let Some(answer) = repeated(db)? {
        return Ok(answer);
    }
    if request.decision == DecisionOf::TimeOut {
        return Err(ServiceError::invalid(
            "reserved_decision",
            "time_out is applied by the server's clock, not sent by players",
        ));
    }
    let now = db.now();
    // Everything but the append happens before the write transaction: on SQLite, writes queue
    // one at a time, so only the append is in that queue. The append's version check is what
    // makes the decision safe: a move that slipped in between makes it stale.
    let result = (|| {
        // Taken before the game is read: its seats are kept after the append only if no
        // renaming cleared the memo in between.
        let read_at = db.memo().generation();
        let prepared = db.read(|conn| {
            prepare(
                conn,
                db.memo(),
                game_id,
                Actor::Player(caller.user_id),
                request.expected_version,
                &request.decision,
                now,
            )
        })?;
        let answer = prepared.answer(now)?;
        let stored = match &keyed {
            Some((key, request_hash)) => Some((
                *key,
                StoredAnswer {
                    request_hash: request_hash.clone(),
                    status: 200,
                    body: serde_json::to_string(&answer)
                        .map_err(|e| ServiceError::Internal(e.to_string()))?,
                },
            )),
            None => None,
        };
        if prepared.is_one_append() && stored.is_none() {
            db.write_atomic(|conn| commit(conn, &prepared, now, ratings))?;
        } else {
            db.write(|conn| {
                commit(conn, &prepared, now, ratings)?;
                if let Some((key, stored)) = &stored {
                    store::store_idempotent_answer(
                        conn,
                        caller.user_id,
                        key,
                        stored,
                        now,
                        now - IDEMPOTENCY_KEY_MILLIS,
                    )?;
                }
                Ok::<_, ServiceError>(())
            })?;
        }
        let ended = prepared.game.is_over();
        // Plans matter where the turn passed to another seat, the game ended, or a seat left;
        // within a turn there is nothing to read.
        let plans_due = ended
            || prepared.game.to_act() != Some(prepared.seat)
            || request.decision == DecisionOf::Resign;
        keep(
            db.memo(),
            read_at,
            prepared.names_at,
            &prepared.row_after(now),
            Arc::new(prepared.game),
            prepared.seats,
        );
        if ended {
            crate::service::play::packing::game_ended(db, game_id);
        }
        if plans_due {
            crate::service::plans::playing::after_decision(db, game_id, caller.user_id, ratings);
        }
        Ok(answer)
    })();
    match result {
        Ok(answer) => Ok(DecisionAnswer::Fresh(Box::new(answer))),
        // A concurrent retry of the same request may have won: answer as it did.
        Err(ServiceError::StaleVersion { current }) => match repeated(db)? {
            Some(answer) => Ok(answer),
            None => Err(ServiceError::StaleVersion {
                current: db.read(|c| load_row(c, game_id))?.version.max(current),
            }),
        },
        // The same key stored meanwhile by a request at the same moment, for this game or
        // another: its answer, or `idempotency_key_reused` (nothing of this one was written).
        Err(ServiceError::Storage(StorageError::Conflict)) if keyed.is_some() => {
            repeated(db)?.ok_or(ServiceError::Storage(StorageError::Conflict))
        }
        Err(e) => Err(e),
    }
}

/// Resign on whatever the current version is: tried again while other seats' moves (bots move
/// back to back) keep moving the version on (five tries lost that race on a loaded machine).
pub fn resign(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    ratings: &RatingParameters,
) -> ServiceResult<GameDetail> {
    for _ in 0..RESIGN_TRIES {
        let version = db.read(|c| load_row(c, game_id))?.version;
        let request = DecisionRequest {
            expected_version: version,
            decision: DecisionOf::Resign,
        };
        match decide(db, caller, game_id, &request, None, ratings) {
            Ok(DecisionAnswer::Fresh(detail)) => return Ok(*detail),
            Ok(DecisionAnswer::Repeated { .. }) => {}
            Err(ServiceError::StaleVersion { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(ServiceError::conflict(
        "busy",
        "the game keeps changing: try again",
    ))
}

const RESIGN_TRIES: usize = 50;

/// The answer to a decision: fresh, or the first answer again for a repeated Idempotency-Key.
pub enum DecisionAnswer {
    Fresh(Box<GameDetail>),
    Repeated { status: u16, body: String },
}
