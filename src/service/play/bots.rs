//! The server's bots: built-in accounts (`bot-random`, `bot-greedy`, `bot-mcts`, `bot-strong`) that can be
//! seated at a game on creation or by invitation, and a background worker that plays their
//! turns through the same validated, versioned decision path as people. The list of bots also
//! names the outside bots (see `service::accounts::outside_bots`), which this worker never plays.

use crate::ratings::RatingParameters;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::bots::{Bot, BotKind, Budget};
use crate::engine::View;
use crate::service::accounts::{Caller, Scope};
use crate::service::play::decisions::{self, Actor, DecisionRequest};
use crate::service::play::games::{load_row, load_state, GameStatus};
use crate::service::{random_u64, ServiceError, ServiceResult};
use crate::storage::{accounts as users, games as store, now_millis, Database, StorageError};

/// User names starting with this are kept for bots.
pub const BOT_PREFIX: &str = "bot-";

/// The bot that plays on for a seat whose player resigned or timed out.
pub const STAND_IN: &str = "bot-greedy";
/// Games the worker takes up in one pass.
const BATCH: i64 = 32;

/// A bot account of this server.
#[derive(Clone, Debug)]
pub struct ServerBot {
    pub user_id: i64,
    pub name: String,
    pub kind: BotKind,
    pub description: String,
}

/// A bot one may seat or invite: one of the server's, or an outside bot.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = Bot)]
pub struct BotListing {
    /// The user name to invite (or, for the server's bots, to seat with `bots` on creation).
    pub name: String,
    /// `random`, `greedy`, `mcts:<budget>` or `rollout:<budget>` for the server's bots; `outside` for a bot its owner
    /// runs through the API.
    pub kind: String,
    pub description: String,
}

/// Outside bots listed at most.
const OUTSIDE_BOTS_LISTED: i64 = 200;

/// The server's bots, then the outside bots by name.
pub fn list(db: &Database, server: &[ServerBot]) -> ServiceResult<Vec<BotListing>> {
    let outside = db.read(|c| users::outside_bot_names(c, OUTSIDE_BOTS_LISTED))?;
    Ok(server
        .iter()
        .map(|b| BotListing {
            name: b.name.clone(),
            kind: b.kind.name(),
            description: b.description.clone(),
        })
        .chain(outside.into_iter().map(|name| BotListing {
            name,
            kind: "outside".into(),
            description: "run by its owner, playing through the API".into(),
        }))
        .collect())
}

/// Create the bot accounts that do not exist yet (several instances may race: that is fine).
pub fn ensure_bot_accounts(
    db: &Database,
    mcts_millis: u64,
    strong_millis: u64,
) -> ServiceResult<Vec<ServerBot>> {
    let wanted = [
        (
            "bot-random",
            BotKind::Random,
            "plays a legal decision at random",
        ),
        (
            "bot-greedy",
            BotKind::Greedy,
            "takes what looks best one step ahead",
        ),
        (
            "bot-mcts",
            BotKind::Mcts(Budget::Millis(mcts_millis)),
            "searches (information-set Monte Carlo tree search)",
        ),
        (
            "bot-strong",
            BotKind::Rollout(Budget::Millis(strong_millis)),
            "the strongest: plays its best few choices out on sampled games and takes the best",
        ),
    ];
    let mut bots = Vec::new();
    for (name, kind, description) in wanted {
        let existing = db.read(|c| users::user_by_name(c, name))?;
        let user = match existing {
            Some(u) => u,
            // "!" is no argon2 hash: nobody can log in as a bot.
            None => match db.write(|c| users::insert_user(c, name, "!", true, now_millis())) {
                Ok(u) => u,
                Err(StorageError::Conflict) => db
                    .read(|c| users::user_by_name(c, name))?
                    .ok_or(ServiceError::Internal("bot account vanished".into()))?,
                Err(e) => return Err(e.into()),
            },
        };
        bots.push(ServerBot {
            user_id: user.id,
            name: user.name,
            kind,
            description: description.into(),
        });
    }
    Ok(bots)
}

/// Play one decision in every game (up to a batch) where a bot is to act. Returns how many
/// decisions were played.
pub fn play_pending(
    db: &Database,
    bots: &[ServerBot],
    ratings: &RatingParameters,
) -> ServiceResult<usize> {
    let ids: Vec<i64> = bots.iter().map(|b| b.user_id).collect();
    let waiting = db.read(|c| store::games_awaiting(c, &ids, BATCH))?;
    let mut played = 0;
    for (game_id, user_id) in waiting {
        let Some(bot) = bots.iter().find(|b| b.user_id == user_id) else {
            continue;
        };
        match play_turn(db, bot, game_id, ratings) {
            Ok(true) => played += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(game_id, bot = %bot.name, error = %e.for_log(), "bot turn failed")
            }
        }
    }
    Ok(played)
}

/// One decision of `bot` in `game_id`; false when it was not the bot's turn after all (another
/// instance played it).
fn play_turn(
    db: &Database,
    bot: &ServerBot,
    game_id: i64,
    ratings: &RatingParameters,
) -> ServiceResult<bool> {
    let caller = Caller {
        user_id: bot.user_id,
        name: bot.name.clone(),
        scopes: vec![Scope::Read, Scope::Play],
        session_id: None,
    };
    // The bot's own seat, or a seat it stands in for (its player left the game).
    let detail = decisions::get(db, &caller, game_id)?;
    let own = detail
        .state
        .as_ref()
        .is_some_and(|v| v.to_act.is_some() && v.to_act == detail.your_seat);
    let (view, version, stand_in) = if own {
        match detail.state {
            Some(view) => (view, detail.summary.version, false),
            None => return Ok(false),
        }
    } else {
        match stand_in_view(db, bot.user_id, game_id)? {
            Some((view, version)) => (view, version, true),
            None => return Ok(false),
        }
    };
    let legal = view.legal_decisions.clone();
    let Some(fallback) = legal.first().cloned() else {
        return Ok(false);
    };
    let board = view.variant.board();
    let mut engine_bot = Bot::new(bot.kind, random_u64()?);
    let decision = match engine_bot.decide(&view) {
        Ok(d) => d.to_json(board.as_deref()),
        Err(e) => {
            tracing::warn!(game_id, bot = %bot.name, error = %e, "bot could not decide: playing its first legal decision");
            fallback.clone()
        }
    };
    let request = DecisionRequest {
        expected_version: version,
        decision,
    };
    let decide = |request: &DecisionRequest| -> ServiceResult<()> {
        if stand_in {
            decide_as_stand_in(db, bot.user_id, game_id, request, ratings)
        } else {
            decisions::decide(db, &caller, game_id, request, None, ratings).map(|_| ())
        }
    };
    match decide(&request) {
        Ok(()) => Ok(true),
        Err(ServiceError::StaleVersion { .. }) => Ok(false),
        Err(ServiceError::Rule(e)) => {
            tracing::warn!(game_id, bot = %bot.name, code = e.code(), "bot decision refused: playing its first legal decision");
            let request = DecisionRequest {
                expected_version: version,
                decision: fallback,
            };
            match decide(&request) {
                Ok(()) => Ok(true),
                Err(ServiceError::StaleVersion { .. }) => Ok(false),
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// The view of the seat to act, for the stand-in bot `bot_user_id`, when that seat has left the
/// game; with the game's version.
fn stand_in_view(
    db: &Database,
    bot_user_id: i64,
    game_id: i64,
) -> ServiceResult<Option<(View, i64)>> {
    db.read(|conn| {
        let row = load_row(conn, game_id)?;
        if GameStatus::parse(&row.status) != GameStatus::Active
            || row.to_act_user != Some(bot_user_id)
        {
            return Ok(None);
        }
        let game = load_state(conn, &row)?;
        Ok(game
            .to_act()
            .filter(|&seat| game.retired(seat).is_some())
            .map(|seat| (game.view(Some(seat)), row.version)))
    })
}

/// The stand-in bot plays the seat to act, which has left the game.
fn decide_as_stand_in(
    db: &Database,
    bot_user_id: i64,
    game_id: i64,
    request: &DecisionRequest,
    ratings: &RatingParameters,
) -> ServiceResult<()> {
    let ended = db.write(|conn| {
        decisions::apply_decision(
            conn,
            db.memo(),
            game_id,
            Actor::StandIn(bot_user_id),
            request,
            db.now(),
            ratings,
        )
        .map(|applied| applied.game.is_over())
    })?;
    if ended {
        crate::service::play::packing::game_ended(db, game_id);
    }
    Ok(())
}
