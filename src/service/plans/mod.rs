//! Plans for the next turn (correspondence play): while the others move, a player leaves the
//! steps of their next turn, as decisions or in words, with the conditions they care about and
//! alternatives in order. When that turn begins the server plays the first alternative whose
//! conditions hold and whose every step is legal, through the same validated, versioned path as
//! any decision ([`playing`]), or drops the plan and tells the player why. A plan is its owner's
//! alone until its steps are played: no other seat, stream, event, email, webhook or review
//! learns of it, or that one exists. The rehearsal and the checks are the engine's
//! (`engine::planning`).

pub mod choices;
pub mod playing;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::planning::{rehearse, Condition, Seen};
use crate::engine::{Decision, DecisionJson, Game, RuleError};
use crate::service::accounts::{Caller, Scope};
use crate::service::i18n::Language;
use crate::service::play::games::{not_seated, seat_of, GameStatus};
use crate::service::play::loading::load_game;
use crate::service::words::moves::{account_language, check_text, read_steps};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::plans::{self as store, OutcomeRow, PlanRow};
use crate::storage::Database;

/// Alternatives one plan may hold.
pub const MAX_ALTERNATIVES: usize = 4;

/// A plan for the caller's next turn.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 12, "alternatives": [
    {"text": "take the blue 7 then draw deck", "conditions": ["piles_unchanged"]},
    {"text": "discard green 4 then draw deck"}
]}))]
pub struct PlanRequest {
    /// The game's version the plan is made on (the game's `version`): what it saw is kept from
    /// there.
    pub expected_version: i64,
    /// Tried in order when the turn begins: the first whose conditions hold and whose steps are
    /// all legal is played. One to four.
    #[schema(min_items = 1, max_items = 4)]
    pub alternatives: Vec<AlternativeRequest>,
}

/// One way to play the next turn: its steps (as decisions, or in words), and what must not
/// have changed for it to be played.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AlternativeRequest {
    /// The steps as decisions, in order (as `POST /games/{id}/decisions` takes them). Give
    /// `steps` or `text`, not both.
    #[serde(
        default,
        deserialize_with = "crate::service::play::strict::tagged_list"
    )]
    pub steps: Option<Vec<DecisionJson>>,
    /// The steps in words, read as a typed move is ("lay blue 4 pawn 2 then deck"), on the turn
    /// as it would begin if the others changed nothing. At most 500 characters.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub text: Option<String>,
    /// Played only if these still hold (none: whatever the others did, as long as every step
    /// is legal).
    #[serde(default)]
    pub conditions: Vec<Condition>,
}

/// An alternative as kept: its steps, its conditions and what it saw.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlannedAlternative {
    pub steps: Vec<DecisionJson>,
    /// The words it was given in, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub conditions: Vec<Condition>,
    /// The piles its steps draw from and the spaces its pawns reach, as they were when it was
    /// made: what its conditions compare.
    pub seen: Seen,
    /// Whether its steps end the turn as it was rehearsed; if not, the rest of the turn is yours
    /// to play once they are played.
    #[serde(default)]
    pub ends_turn: bool,
}

/// The plan waiting for the caller's next turn.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlanView {
    /// The game's version it was made on.
    pub made_on_version: i64,
    /// When it was made (milliseconds since the Unix epoch).
    pub made_at: i64,
    pub alternatives: Vec<PlannedAlternative>,
}

/// What became of one of the caller's plans.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlanOutcome {
    /// The game's version when it was played or dropped: its steps made the versions after it.
    pub version: i64,
    /// Whether its steps were played.
    pub played: bool,
    /// The alternative played (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative: Option<u32>,
    /// Decisions it played.
    pub steps: u32,
    /// Why it was dropped: `pile_changed`, `space_changed`, `step_refused`, `turn_over`,
    /// `not_turn_start`, `game_over` (the game ended, or you left it), `played_yourself`,
    /// `deadline_passed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Why, in words (in your language).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When (milliseconds since the Unix epoch).
    pub at: i64,
}

/// The caller's plan in a game: the one waiting, and what became of the earlier ones (latest
/// first). Nobody else ever reads it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PlanState {
    pub game_id: i64,
    /// The plan waiting for your next turn, if any.
    pub plan: Option<PlanView>,
    pub outcomes: Vec<PlanOutcome>,
}

/// The alternatives as stored in a plan's row.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct StoredPlan {
    pub alternatives: Vec<PlannedAlternative>,
}

fn stored(row: &PlanRow) -> ServiceResult<StoredPlan> {
    serde_json::from_str(&row.plan).map_err(|e| {
        ServiceError::Storage(crate::storage::StorageError::Corrupt(format!(
            "plan of game {}: {e}",
            row.game_id
        )))
    })
}

fn outcome_view(row: OutcomeRow) -> PlanOutcome {
    PlanOutcome {
        version: row.version,
        played: row.alternative.is_some(),
        alternative: row.alternative.map(|a| a as u32),
        steps: row.steps as u32,
        code: row.code,
        reason: row.reason,
        at: row.at,
    }
}

/// The caller's seat in the game, and the game (started, not over).
fn seated(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<(Game, i64, u8)> {
    let memo = db.memo();
    let loaded = db.read(|conn| load_game(conn, game_id, memo))?;
    let seat = seat_of(&loaded.seats, caller.user_id).ok_or_else(not_seated)?;
    match GameStatus::parse(&loaded.row.status) {
        GameStatus::Open | GameStatus::Cancelled => Err(ServiceError::conflict(
            "not_started",
            "the game has not started",
        )),
        GameStatus::Over | GameStatus::Aborted => Err(RuleError::GameOver.into()),
        GameStatus::Active => match &loaded.game {
            Some(game) => Ok((Game::clone(game), loaded.row.version, seat)),
            None => Err(ServiceError::Internal(
                "a started game without a state".into(),
            )),
        },
    }
}

/// The caller's plan in a game.
pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<PlanState> {
    caller.require(Scope::Read)?;
    let memo = db.memo();
    let loaded = db.read(|conn| load_game(conn, game_id, memo))?;
    seat_of(&loaded.seats, caller.user_id).ok_or_else(not_seated)?;
    state(db, caller.user_id, game_id)
}

/// `user_id`'s plan in a game, for their own export.
pub(crate) fn of_owner(db: &Database, user_id: i64, game_id: i64) -> ServiceResult<PlanState> {
    state(db, user_id, game_id)
}

fn state(db: &Database, user_id: i64, game_id: i64) -> ServiceResult<PlanState> {
    let (plan, outcomes) = db.read(|conn| {
        Ok::<_, ServiceError>((
            store::find(conn, game_id, user_id)?,
            store::outcomes(conn, game_id, user_id)?,
        ))
    })?;
    let plan = match plan {
        Some(row) => Some(PlanView {
            made_on_version: row.made_on,
            made_at: row.made_at,
            alternatives: stored(&row)?.alternatives,
        }),
        None => None,
    };
    Ok(PlanState {
        game_id,
        plan,
        outcomes: outcomes.into_iter().map(outcome_view).collect(),
    })
}

/// Keep a plan for the caller's next turn, replacing any: every alternative is rehearsed on
/// the turn as it would begin if the others changed nothing, and refused unless every step is
/// legal there.
pub fn put(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    request: &PlanRequest,
) -> ServiceResult<PlanState> {
    caller.require(Scope::Play)?;
    if request.alternatives.is_empty() || request.alternatives.len() > MAX_ALTERNATIVES {
        return Err(ServiceError::invalid(
            "invalid_body",
            format!("a plan has one to {MAX_ALTERNATIVES} alternatives"),
        ));
    }
    let (game, version, seat) = seated(db, caller, game_id)?;
    if version != request.expected_version {
        return Err(ServiceError::StaleVersion { current: version });
    }
    let language = account_language(db, caller.user_id)?;
    let row = plan_row(
        PlanFor {
            game: &game,
            game_id,
            version,
            seat,
            user_id: caller.user_id,
            now: db.now(),
        },
        &request.alternatives,
        language,
    )?;
    if !db.write(|conn| store::put(conn, &row))? {
        let current = db.read(|c| crate::service::play::games::load_row(c, game_id))?;
        return Err(ServiceError::StaleVersion {
            current: current.version,
        });
    }
    state(db, caller.user_id, game_id)
}

/// Where a plan is made: the game as it stands at `version`, the owner's seat, and when.
pub(crate) struct PlanFor<'a> {
    pub game: &'a Game,
    pub game_id: i64,
    pub version: i64,
    pub seat: u8,
    pub user_id: i64,
    pub now: i64,
}

/// A plan's row, its alternatives read (`language`: the words') and rehearsed on the owner's next
/// turn; refused unless every step of each is legal there (for the API, and a reply by email).
pub(crate) fn plan_row(
    at: PlanFor<'_>,
    alternatives: &[AlternativeRequest],
    language: Language,
) -> ServiceResult<PlanRow> {
    let PlanFor { game, seat, .. } = at;
    if alternatives.is_empty() || alternatives.len() > MAX_ALTERNATIVES {
        return Err(ServiceError::invalid(
            "invalid_body",
            format!("a plan has one to {MAX_ALTERNATIVES} alternatives"),
        ));
    }
    let next = next_turn(game, seat)?;
    let mut planned_ones = Vec::new();
    for (i, alternative) in alternatives.iter().enumerate() {
        planned_ones.push(
            planned(&next, seat, alternative, language)
                .map_err(|e| in_alternative(e, i, alternatives.len()))?,
        );
    }
    Ok(PlanRow {
        game_id: at.game_id,
        user_id: at.user_id,
        seat: seat as i32,
        made_on: at.version,
        made_at: at.now,
        plan: serde_json::to_string(&StoredPlan {
            alternatives: planned_ones,
        })
        .map_err(|e| ServiceError::Internal(e.to_string()))?,
    })
}

/// `seat`'s next turn as it would begin if the others changed nothing: what a plan is made for.
fn next_turn(game: &Game, seat: u8) -> ServiceResult<Game> {
    if game.retired(seat).is_some() {
        return Err(RuleError::SeatRetired { seat }.into());
    }
    game.next_turn_of(seat).ok_or_else(|| {
        if game.to_act() == Some(seat) {
            ServiceError::conflict("plan_on_your_turn", "it is your turn: play it")
        } else {
            ServiceError::conflict("no_next_turn", "you have no turn left in this game")
        }
    })
}

/// Drop the caller's waiting plan (nothing to drop is no error).
pub fn delete(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<()> {
    caller.require(Scope::Play)?;
    let memo = db.memo();
    let loaded = db.read(|conn| load_game(conn, game_id, memo))?;
    seat_of(&loaded.seats, caller.user_id).ok_or_else(not_seated)?;
    db.write(|conn| store::delete(conn, game_id, caller.user_id))?;
    Ok(())
}

/// Name the alternative in a refusal's message when there are several.
fn in_alternative(e: ServiceError, i: usize, of: usize) -> ServiceError {
    if of < 2 {
        return e;
    }
    match e {
        ServiceError::Invalid { code, message } => ServiceError::Invalid {
            code,
            message: format!("alternative {}: {message}", i + 1),
        },
        ServiceError::NotUnderstood {
            code,
            message,
            choices,
        } => ServiceError::NotUnderstood {
            code,
            message: format!("alternative {}: {message}", i + 1),
            choices,
        },
        e => e,
    }
}

/// One alternative, read and rehearsed on `next` (the turn as it would begin).
fn planned(
    next: &Game,
    seat: u8,
    alternative: &AlternativeRequest,
    language: Language,
) -> ServiceResult<PlannedAlternative> {
    let steps: Vec<DecisionJson> = match (&alternative.steps, &alternative.text) {
        (Some(steps), None) => steps.clone(),
        (None, Some(text)) => {
            check_text(text)?;
            read_steps(&mut next.clone(), seat, text, language)?
        }
        _ => {
            return Err(ServiceError::invalid(
                "invalid_body",
                "an alternative gives its steps as `steps` or as `text`, one of them",
            ))
        }
    };
    let decisions = steps
        .iter()
        .map(|d| d.clone().resolve(next.board()))
        .collect::<Result<Vec<Decision>, _>>()?;
    let (after, seen) = rehearse(next, seat, &decisions).map_err(|miss| {
        ServiceError::invalid(
            "plan_not_playable",
            format!("this plan could not be played on your next turn: {miss}"),
        )
    })?;
    let mut conditions = alternative.conditions.clone();
    conditions.sort_by_key(|c| *c as u8);
    conditions.dedup();
    Ok(PlannedAlternative {
        steps: decisions.iter().map(|d| d.to_json(next.board())).collect(),
        text: alternative.text.clone(),
        conditions,
        seen,
        ends_turn: after.to_act() != Some(seat),
    })
}
