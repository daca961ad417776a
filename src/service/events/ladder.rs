//! Standing ladders, one per variant at two seats (the rules: `crate::tournaments::ladder`): a
//! player joins at the bottom and challenges a little above; the game starts at once (the
//! defender moving first, three days a turn, rated), and the events pass applies each decided
//! challenge: the challenger who won takes the defender's rung, and whoever let their clock run
//! out leaves the ladder.

use std::collections::hash_map::{Entry, HashMap};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::Variant;
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::play::games::{parse_event, GameEvent};
use crate::service::play::lobby::seat_together;
use crate::service::social::fair_use::not_suspended;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::events::lock;
use crate::storage::ladders::{self as store, ChallengeRow};
use crate::storage::{Database, DbConnection};
use crate::tournaments::ladder::{Ladder, Refused, MAX_OPEN};

/// A ladder game's time control: three days a turn.
pub const LADDER_TIME_CONTROL: TimeControl = TimeControl::PerTurn {
    seconds: 3 * 86_400,
};
/// How long decided challenges stay listed (a week).
const DECIDED_KEPT_MS: i64 = 7 * 86_400_000;

/// A rung of the ladder.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RungView {
    /// 1 is the top.
    pub rung: u32,
    pub name: String,
    /// Open challenges this player made, and those made against them.
    pub challenges_out: u32,
    pub challenges_in: u32,
}

/// A challenge: its game, and what it did once decided.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChallengeView {
    pub id: i64,
    pub challenger: String,
    pub defender: String,
    pub game_id: i64,
    /// `open` while the game runs, then `decided`.
    pub state: String,
    /// `climbed` (the challenger took the defender's rung), `held`, or `timed_out` (whoever let
    /// their clock run out left the ladder).
    #[schema(required = true)]
    pub outcome: Option<String>,
    pub created_at: i64,
    #[schema(required = true)]
    pub decided_at: Option<i64>,
}

/// A variant's ladder: the rungs, top first, and the challenges open or decided this week.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LadderView {
    pub variant: Variant,
    pub rungs: Vec<RungView>,
    pub challenges: Vec<ChallengeView>,
    /// The time control of ladder games.
    pub time_control: TimeControl,
    /// Challenges open at once, out and in, per player.
    pub max_open: u32,
}

/// A challenge to make.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The player challenged: above you, within two fifths of your rung.
    pub defender: String,
}

fn variant_of(name: &str) -> ServiceResult<Variant> {
    Variant::parse(name).ok_or(ServiceError::NotFound("ladder"))
}

fn open_pairs(challenges: &[ChallengeRow]) -> Vec<(i64, i64)> {
    challenges
        .iter()
        .filter(|c| c.state == "open")
        .map(|c| (c.challenger_id, c.defender_id))
        .collect()
}

fn view(conn: &mut DbConnection, variant: Variant, now: i64) -> ServiceResult<LadderView> {
    // The challenges before the rungs: a pass deciding a challenge writes both in one transaction,
    // and these are two reads outside one, so a challenge seen decided has its rungs seen too
    // (read the other way round, the rungs could be from before the pass and the challenge after).
    let challenges = store::challenges(conn, variant.name(), now - DECIDED_KEPT_MS)?;
    let rungs = store::rungs(conn, variant.name())?;
    let open = open_pairs(&challenges);
    let mut names = HashMap::new();
    for (id, n) in &rungs {
        names.insert(*id, n.clone());
    }
    name_challengers(conn, &mut names, &challenges)?;
    let name_of = |id: i64| names.get(&id).cloned().unwrap_or_default();
    Ok(LadderView {
        variant,
        rungs: rungs
            .iter()
            .enumerate()
            .map(|(i, (id, n))| RungView {
                rung: i as u32 + 1,
                name: n.clone(),
                challenges_out: open.iter().filter(|(a, _)| a == id).count() as u32,
                challenges_in: open.iter().filter(|(_, b)| b == id).count() as u32,
            })
            .collect(),
        challenges: challenges
            .iter()
            .map(|c| challenge_view(c, &name_of))
            .collect(),
        time_control: LADDER_TIME_CONTROL,
        max_open: MAX_OPEN as u32,
    })
}

/// Add the names of both sides of these challenges to `names` (a user deleted since: empty).
fn name_challengers(
    conn: &mut DbConnection,
    names: &mut HashMap<i64, String>,
    challenges: &[ChallengeRow],
) -> ServiceResult<()> {
    for c in challenges {
        for id in [c.challenger_id, c.defender_id] {
            if let Entry::Vacant(slot) = names.entry(id) {
                let user = crate::storage::accounts::user_by_id(conn, id)?;
                slot.insert(user.map(|u| u.name).unwrap_or_default());
            }
        }
    }
    Ok(())
}

fn challenge_view(c: &ChallengeRow, name_of: &impl Fn(i64) -> String) -> ChallengeView {
    ChallengeView {
        id: c.id,
        challenger: name_of(c.challenger_id),
        defender: name_of(c.defender_id),
        game_id: c.game_id,
        state: c.state.clone(),
        outcome: c.outcome.clone(),
        created_at: c.created_at,
        decided_at: c.decided_at,
    }
}

/// A player's place on the ladders and every challenge they made or received (their data
/// export).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MyLadders {
    /// The variants whose ladder they are on, with their rung.
    pub rungs: Vec<MyRung>,
    /// Newest first.
    pub challenges: Vec<ChallengeView>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MyRung {
    pub variant: Variant,
    /// 1 is the top.
    pub rung: u32,
}

/// The caller's rungs and challenges.
pub fn mine(db: &Database, caller: &Caller) -> ServiceResult<MyLadders> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let mut rungs = Vec::new();
        for variant in Variant::ALL {
            let ladder = store::rungs(conn, variant.name())?;
            if let Some(at) = ladder.iter().position(|(id, _)| *id == caller.user_id) {
                rungs.push(MyRung {
                    variant,
                    rung: at as u32 + 1,
                });
            }
        }
        let rows = store::challenges_of(conn, caller.user_id)?;
        let mut names = HashMap::new();
        name_challengers(conn, &mut names, &rows)?;
        let name_of = |id: i64| names.get(&id).cloned().unwrap_or_default();
        Ok(MyLadders {
            rungs,
            challenges: rows.iter().map(|c| challenge_view(c, &name_of)).collect(),
        })
    })
}

/// A variant's ladder.
pub fn show(db: &Database, caller: &Caller, variant: &str) -> ServiceResult<LadderView> {
    caller.require(Scope::Read)?;
    let variant = variant_of(variant)?;
    let now = db.now();
    db.read(|conn| view(conn, variant, now))
}

/// Join a ladder at the bottom (a player on it stays where they are).
pub fn join(db: &Database, caller: &Caller, variant: &str) -> ServiceResult<LadderView> {
    caller.require(Scope::Play)?;
    let variant = variant_of(variant)?;
    let now = db.now();
    db.write(|conn| {
        lock(conn)?;
        not_suspended(conn, caller.user_id, now)?;
        let mut ladder = ladder_of(conn, variant)?;
        ladder.join(caller.user_id);
        store::write_rungs(conn, variant.name(), &ladder.rungs, now)?;
        view(conn, variant, now)
    })
}

/// Leave a ladder (yourself, by your name); the rungs below close up. Open challenges play on,
/// and move nobody once decided.
pub fn leave(
    db: &Database,
    caller: &Caller,
    variant: &str,
    name: &str,
) -> ServiceResult<LadderView> {
    caller.require(Scope::Play)?;
    let variant = variant_of(variant)?;
    if !name.eq_ignore_ascii_case(&caller.name) {
        return Err(ServiceError::forbidden(
            "not_your_rung",
            "you take yourself off a ladder, nobody else",
        ));
    }
    let now = db.now();
    db.write(|conn| {
        lock(conn)?;
        let mut ladder = ladder_of(conn, variant)?;
        if !ladder.leave(caller.user_id) {
            return Err(ServiceError::NotFound("rung"));
        }
        store::write_rungs(conn, variant.name(), &ladder.rungs, now)?;
        view(conn, variant, now)
    })
}

/// Challenge a player a little above: the game starts at once.
pub fn challenge(
    db: &Database,
    caller: &Caller,
    variant: &str,
    new: &NewChallenge,
) -> ServiceResult<ChallengeView> {
    caller.require(Scope::Play)?;
    let variant = variant_of(variant)?;
    let now = db.now();
    db.write(|conn| {
        lock(conn)?;
        not_suspended(conn, caller.user_id, now)?;
        let rungs = store::rungs(conn, variant.name())?;
        let (defender, defender_name) = rungs
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(&new.defender))
            .cloned()
            .ok_or_else(|| refused(Refused::NotOnLadder))?;
        let ladder = Ladder {
            rungs: rungs.iter().map(|(id, _)| *id).collect(),
        };
        let open = open_pairs(&store::challenges(conn, variant.name(), now)?);
        ladder
            .may_challenge(caller.user_id, defender, &open)
            .map_err(refused)?;
        let blocks = crate::storage::pairing::blocks_among(conn, &[caller.user_id, defender])?;
        if !blocks.is_empty() {
            return Err(ServiceError::forbidden(
                "blocked",
                "one of you blocked the other",
            ));
        }
        let players = [
            (defender, defender_name),
            (caller.user_id, caller.name.clone()),
        ];
        let game_id = seat_together(
            conn,
            variant,
            true,
            LADDER_TIME_CONTROL,
            &players,
            Some(0),
            now,
        )?;
        let id =
            store::insert_challenge(conn, variant.name(), caller.user_id, defender, game_id, now)?;
        view(conn, variant, now)?
            .challenges
            .into_iter()
            .find(|c| c.id == id)
            .ok_or_else(|| ServiceError::Internal("a challenge just made is missing".into()))
    })
}

fn refused(why: Refused) -> ServiceError {
    let code = match why {
        Refused::NotOnLadder => "not_on_ladder",
        Refused::NotAbove => "not_above",
        Refused::OutOfReach => "out_of_reach",
        Refused::TooManyOut => "too_many_challenges",
        Refused::TooManyIn => "defender_too_challenged",
        Refused::AlreadyOpen => "already_challenged",
    };
    ServiceError::conflict(code, why.to_string())
}

fn ladder_of(conn: &mut DbConnection, variant: Variant) -> ServiceResult<Ladder> {
    Ok(Ladder {
        rungs: store::rungs(conn, variant.name())?
            .into_iter()
            .map(|(id, _)| id)
            .collect(),
    })
}

/// Apply every challenge whose game has ended (the events pass, under its lock): how many.
pub(crate) fn apply_decided(conn: &mut DbConnection, now: i64) -> ServiceResult<usize> {
    let mut applied = 0;
    for (challenge, _status) in store::ended_open(conn)? {
        let Some(variant) = Variant::parse(&challenge.variant) else {
            continue;
        };
        // Seat 0 is the defender's, seat 1 the challenger's.
        let mut out_of_time = vec![];
        for row in crate::storage::logs::events_after(conn, challenge.game_id, 0, i64::MAX)? {
            match parse_event(&row.payload)? {
                GameEvent::TimedOut { seat, .. } | GameEvent::Aborted { seat } => {
                    out_of_time.push(if seat == 0 {
                        challenge.defender_id
                    } else {
                        challenge.challenger_id
                    });
                }
                _ => {}
            }
        }
        let places = store::places_of_game(conn, challenge.game_id)?;
        let place = |seat: i32| places.iter().find(|(s, _)| *s == seat).map(|(_, p)| *p);
        let won = matches!((place(1), place(0)), (Some(1), Some(d)) if d > 1);
        let mut ladder = ladder_of(conn, variant)?;
        if won && !out_of_time.contains(&challenge.challenger_id) {
            ladder.challenger_won(challenge.challenger_id, challenge.defender_id);
        }
        for player in &out_of_time {
            ladder.leave(*player);
        }
        let outcome = if !out_of_time.is_empty() {
            "timed_out"
        } else if won {
            "climbed"
        } else {
            "held"
        };
        if store::decide(conn, challenge.id, outcome, now)? {
            store::write_rungs(conn, variant.name(), &ladder.rungs, now)?;
            applied += 1;
        }
    }
    Ok(applied)
}
