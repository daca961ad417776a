//! Plans played or dropped: right after a decision that passes the turn (by the request that
//! made it), and by the bot worker's pass for any turn that began otherwise (a move by email,
//! the clock, a stand-in, another instance). Either way one transaction deletes the plan and
//! appends its steps on the version it was checked on, so a plan is played once, by one
//! instance; a plan that cannot be played is dropped and its owner told why, with their turn.

use crate::engine::planning::{check, PlanMiss};
use crate::engine::{Decision, Game};
use crate::ratings::RatingParameters;
use crate::service::i18n::{self, Language};
use crate::service::notify::notifications::{queue, Notice, PlanNotPlayed};
use crate::service::play::decisions::{apply_decision, Actor, DecisionRequest};
use crate::service::play::games::{GameEvent, GameStatus};
use crate::service::play::loading::load_game;
use crate::service::words::moves::account_language;
use crate::service::words::saying;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::plans::{self as store, NewOutcome, PlanRow};
use crate::storage::{Database, DbConnection};

use super::{stored, StoredPlan};

/// Games the worker's pass takes up at once.
const BATCH: i64 = 32;

/// After `user_id`'s decision in `game_id` (committed): drop their own waiting plan (they played
/// this turn themselves), then play the plans of the turns it passed to. Errors are logged: the
/// decision stands, and the worker's pass tries again.
pub(crate) fn after_decision(
    db: &Database,
    game_id: i64,
    user_id: i64,
    ratings: &RatingParameters,
) {
    if let Err(e) = play_due(db, game_id, Some(user_id), ratings) {
        tracing::warn!(game_id, error = %e.for_log(), "plans after a decision");
    }
}

/// The worker's pass: every game whose player to act has a waiting plan (up to a batch), and
/// plans left in games that ended. Returns how many plans were played or dropped.
pub fn play_waiting(db: &Database, ratings: &RatingParameters) -> ServiceResult<usize> {
    let due = db.read(|c| store::due(c, BATCH))?;
    let mut done = 0;
    for (game_id, _) in due {
        match play_due(db, game_id, None, ratings) {
            Ok(n) => done += n,
            Err(e) => tracing::warn!(game_id, error = %e.for_log(), "plan not played"),
        }
    }
    let left = db.read(|c| store::in_ended_games(c, BATCH))?;
    for plan in left {
        if drop_quietly(db, &plan, "game_over")? {
            done += 1;
        }
    }
    Ok(done)
}

/// Play or drop the waiting plans in `game_id` that are due (each as it was read: one that
/// replaced it meanwhile is left alone, `storage::plans::delete_exact`): `decided_by`'s own (it played by
/// hand), a seat's that left the game, every one once the game is over, and that of the player
/// to act, again while a plan played passes the turn to another plan. Returns how many were
/// played or dropped.
fn play_due(
    db: &Database,
    game_id: i64,
    decided_by: Option<i64>,
    ratings: &RatingParameters,
) -> ServiceResult<usize> {
    let mut done = 0;
    // One plan a seat at most: four seats bound the chain.
    for _ in 0..5 {
        let plans = db.read(|c| store::in_game(c, game_id))?;
        if plans.is_empty() {
            break;
        }
        let memo = db.memo();
        let loaded = db.read(|conn| load_game(conn, game_id, memo))?;
        let active = GameStatus::parse(&loaded.row.status) == GameStatus::Active;
        let Some(game) = loaded.game.filter(|_| active) else {
            for plan in &plans {
                done += usize::from(drop_quietly(db, plan, "game_over")?);
            }
            break;
        };
        let version = loaded.row.version;
        let mut acted = false;
        for plan in &plans {
            let seat = plan.seat as u8;
            if game.retired(seat).is_some() {
                done += usize::from(drop_quietly(db, plan, "game_over")?);
            } else if decided_by == Some(plan.user_id) && plan.made_on < version {
                let dropped = drop_quietly(db, plan, "played_yourself")?;
                done += usize::from(dropped);
            } else if loaded.row.to_act_user == Some(plan.user_id) && plan.made_on < version {
                acted = play_or_drop(db, plan, &game, version, ratings)?;
                done += usize::from(acted);
            }
        }
        if !acted {
            break;
        }
    }
    Ok(done)
}

/// Play `plan` at the start of its owner's turn in `game` (at `version`), or drop it and tell
/// them why; false when another writer came first (the game moved on, or the plan was taken).
fn play_or_drop(
    db: &Database,
    plan: &PlanRow,
    game: &Game,
    version: i64,
    ratings: &RatingParameters,
) -> ServiceResult<bool> {
    let seat = plan.seat as u8;
    // A turn of its owner's since it was made (a pass that came late): it was not for this one.
    let decided = db.read(|c| store::decisions_after(c, plan.game_id, plan.made_on))?;
    if decided.iter().any(|payload| {
        matches!(serde_json::from_str(payload), Ok(GameEvent::Decided { seat: s, .. }) if s == seat)
    }) {
        return drop_quietly(db, plan, "played_yourself");
    }
    let StoredPlan { alternatives } = stored(plan)?;
    let mut first_miss = None;
    let mut chosen = None;
    for (i, alternative) in alternatives.iter().enumerate() {
        let steps = alternative
            .steps
            .iter()
            .map(|d| d.clone().resolve(game.board()))
            .collect::<Result<Vec<Decision>, _>>();
        let outcome = match steps {
            Ok(steps) => check(
                game,
                seat,
                &steps,
                &alternative.conditions,
                &alternative.seen,
            )
            .map(|()| steps),
            Err(error) => Err(PlanMiss::StepRefused { step: 0, error }),
        };
        match outcome {
            Ok(steps) => {
                chosen = Some((i, steps));
                break;
            }
            Err(miss) => {
                first_miss.get_or_insert(miss);
            }
        }
    }
    let Some((alternative, steps)) = chosen else {
        let miss = first_miss.unwrap_or(PlanMiss::NoSteps);
        let reason = |language| miss_in_words(language, &miss);
        return drop_plan(db, plan, Some(version), miss.code(), &reason, true);
    };
    let now = db.now();
    let memo = db.memo();
    let played = db.write(|conn| {
        if !store::delete_exact(conn, plan)? {
            return Ok(None);
        }
        let mut at = version;
        let mut ended = false;
        for step in &steps {
            let request = DecisionRequest {
                expected_version: at,
                decision: step.to_json(game.board()),
            };
            let applied = apply_decision(
                conn,
                memo,
                plan.game_id,
                Actor::Plan(plan.user_id),
                &request,
                now,
                ratings,
            )?;
            at = applied.version;
            ended = applied.game.is_over();
        }
        store::record_outcome(
            conn,
            &NewOutcome {
                game_id: plan.game_id,
                user_id: plan.user_id,
                version,
                alternative: Some(alternative as i32 + 1),
                steps: steps.len() as i32,
                code: None,
                reason: None,
                at: now,
            },
        )?;
        Ok::<_, ServiceError>(Some(ended))
    });
    match played {
        Ok(Some(ended)) => {
            if ended {
                crate::service::play::packing::game_ended(db, plan.game_id);
            }
            Ok(true)
        }
        Ok(None) | Err(ServiceError::StaleVersion { .. }) => Ok(false),
        // Checked on this very version, a step the rules still refuse (or a deadline passed):
        // dropped rather than tried again at every pass.
        Err(ServiceError::Rule(error)) => {
            let miss = PlanMiss::StepRefused { step: 0, error };
            let reason = |language| miss_in_words(language, &miss);
            drop_plan(db, plan, Some(version), miss.code(), &reason, true)
        }
        Err(ServiceError::Conflict { code, .. }) => {
            let reason = |language| i18n::word(language, "plan-miss-deadline");
            drop_plan(db, plan, Some(version), code, &reason, true)
        }
        Err(e) => Err(e),
    }
}

/// Drop `plan` with why (`reason` in its owner's language), if it is still there and, with
/// `at_version`, the game is still at that version; with `tell`, the owner's turn is told again
/// with why. Whether this dropped it.
fn drop_plan(
    db: &Database,
    plan: &PlanRow,
    at_version: Option<i64>,
    code: &str,
    reason: &dyn Fn(Language) -> String,
    tell: bool,
) -> ServiceResult<bool> {
    let language = account_language(db, plan.user_id)?;
    let reason = reason(language);
    let now = db.now();
    db.write(|conn| {
        if let Some(version) = at_version {
            if !store::game_at_version(conn, plan.game_id, version)? {
                return Ok(false);
            }
        }
        if !store::delete_exact(conn, plan)? {
            return Ok(false);
        }
        let version = match at_version {
            Some(v) => v,
            None => crate::service::play::games::load_row(conn, plan.game_id)?.version,
        };
        store::record_outcome(
            conn,
            &NewOutcome {
                game_id: plan.game_id,
                user_id: plan.user_id,
                version,
                alternative: None,
                steps: 0,
                code: Some(code),
                reason: Some(&reason),
                at: now,
            },
        )?;
        if tell {
            tell_turn(conn, plan, version, code, &reason, now)?;
        }
        Ok::<_, ServiceError>(true)
    })
}

/// Drop `plan` without telling its owner (the game ended, they left it, or they played the turn
/// themselves), its outcome saying why under `code` (`game_over`, `played_yourself`).
fn drop_quietly(db: &Database, plan: &PlanRow, code: &'static str) -> ServiceResult<bool> {
    let id = format!("plan-miss-{}", code.replace('_', "-"));
    drop_plan(
        db,
        plan,
        None,
        code,
        &|language| i18n::word(language, &id),
        false,
    )
}

/// The owner's turn notice again, saying why their plan was not played.
fn tell_turn(
    conn: &mut DbConnection,
    plan: &PlanRow,
    version: i64,
    code: &str,
    reason: &str,
    now: i64,
) -> ServiceResult<()> {
    let notice = Notice::YourTurn {
        game_id: plan.game_id,
        seat: plan.seat as u8,
        version,
        plan_not_played: Some(PlanNotPlayed {
            code: code.to_string(),
            reason: reason.to_string(),
        }),
    };
    queue(conn, plan.user_id, &notice, now)?;
    Ok(())
}

/// Why a plan was not played, in words.
fn miss_in_words(language: Language, miss: &PlanMiss) -> String {
    let top = |card: &Option<crate::engine::Card>| match card {
        Some(c) => saying::card(language, *c),
        None => i18n::word(language, "plan-pile-empty"),
    };
    match miss {
        PlanMiss::PileChanged { color, was, now } => {
            let mut args = saying::color_args(language, *color);
            args.push(("was", top(was).into()));
            args.push(("now", top(now).into()));
            i18n::text(language, "plan-miss-pile-changed", &args)
        }
        PlanMiss::SpaceChanged { space } => i18n::text(
            language,
            "plan-miss-space-changed",
            &[("space", saying::space(language, space).into())],
        ),
        PlanMiss::StepRefused { step, .. } => i18n::text(
            language,
            "plan-miss-step-refused",
            &[("step", (*step as i64 + 1).into())],
        ),
        PlanMiss::TurnOver { step } => i18n::text(
            language,
            "plan-miss-turn-over",
            &[("step", (*step as i64 + 1).into())],
        ),
        PlanMiss::GameOver => i18n::word(language, "plan-miss-game-over"),
        PlanMiss::NotTurnStart | PlanMiss::NoSteps => {
            i18n::word(language, "plan-miss-not-turn-start")
        }
    }
}
