//! Ladders: each variant's rungs and the challenges between them. Changes are made under the
//! events lock (`events::lock`), so that two instances never move one ladder at once.

use diesel::prelude::*;

use super::schema::{games, ladder_challenges, ladder_rungs, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = ladder_challenges)]
pub struct ChallengeRow {
    pub id: i64,
    pub variant: String,
    pub challenger_id: i64,
    pub defender_id: i64,
    pub game_id: i64,
    pub state: String,
    pub outcome: Option<String>,
    pub created_at: i64,
    pub decided_at: Option<i64>,
}

/// A variant's ladder, top first: each player's id and name.
pub fn rungs(conn: &mut DbConnection, variant: &str) -> Result<Vec<(i64, String)>, StorageError> {
    Ok(ladder_rungs::table
        .inner_join(users::table.on(users::id.eq(ladder_rungs::user_id)))
        .filter(ladder_rungs::variant.eq(variant))
        .order(ladder_rungs::rung.asc())
        .select((ladder_rungs::user_id, users::name))
        .load(conn)?)
}

/// Write a variant's ladder as `order` says (top first): rungs renumbered, players gone removed,
/// newcomers added.
pub fn write_rungs(
    conn: &mut DbConnection,
    variant: &str,
    order: &[i64],
    now: i64,
) -> Result<(), StorageError> {
    diesel::delete(
        ladder_rungs::table
            .filter(ladder_rungs::variant.eq(variant))
            .filter(ladder_rungs::user_id.ne_all(order)),
    )
    .execute(conn)?;
    for (i, &user_id) in order.iter().enumerate() {
        let rung = i as i32 + 1;
        let changed = diesel::update(
            ladder_rungs::table
                .filter(ladder_rungs::variant.eq(variant))
                .filter(ladder_rungs::user_id.eq(user_id)),
        )
        .set(ladder_rungs::rung.eq(rung))
        .execute(conn)?;
        if changed == 0 {
            diesel::insert_into(ladder_rungs::table)
                .values((
                    ladder_rungs::variant.eq(variant),
                    ladder_rungs::user_id.eq(user_id),
                    ladder_rungs::rung.eq(rung),
                    ladder_rungs::joined_at.eq(now),
                ))
                .execute(conn)?;
        }
    }
    Ok(())
}

pub fn insert_challenge(
    conn: &mut DbConnection,
    variant: &str,
    challenger_id: i64,
    defender_id: i64,
    game_id: i64,
    now: i64,
) -> Result<i64, StorageError> {
    Ok(diesel::insert_into(ladder_challenges::table)
        .values((
            ladder_challenges::variant.eq(variant),
            ladder_challenges::challenger_id.eq(challenger_id),
            ladder_challenges::defender_id.eq(defender_id),
            ladder_challenges::game_id.eq(game_id),
            ladder_challenges::state.eq("open"),
            ladder_challenges::created_at.eq(now),
        ))
        .returning(ladder_challenges::id)
        .get_result(conn)?)
}

/// A variant's open challenges, and those decided since `since`, newest first.
pub fn challenges(
    conn: &mut DbConnection,
    variant: &str,
    since: i64,
) -> Result<Vec<ChallengeRow>, StorageError> {
    Ok(ladder_challenges::table
        .filter(ladder_challenges::variant.eq(variant))
        .filter(
            ladder_challenges::state
                .eq("open")
                .or(ladder_challenges::decided_at.ge(since)),
        )
        .order(ladder_challenges::id.desc())
        .select(ChallengeRow::as_select())
        .load(conn)?)
}

/// Every challenge a player made or received, newest first.
pub fn challenges_of(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<ChallengeRow>, StorageError> {
    Ok(ladder_challenges::table
        .filter(
            ladder_challenges::challenger_id
                .eq(user_id)
                .or(ladder_challenges::defender_id.eq(user_id)),
        )
        .order(ladder_challenges::id.desc())
        .select(ChallengeRow::as_select())
        .load(conn)?)
}

/// Open challenges whose game has ended, with the game's status, oldest first.
pub fn ended_open(conn: &mut DbConnection) -> Result<Vec<(ChallengeRow, String)>, StorageError> {
    Ok(ladder_challenges::table
        .inner_join(games::table.on(games::id.eq(ladder_challenges::game_id)))
        .filter(ladder_challenges::state.eq("open"))
        .filter(games::status.ne_all(["open", "active"]))
        .order(ladder_challenges::id.asc())
        .select((ChallengeRow::as_select(), games::status))
        .load(conn)?)
}

/// Whether any challenge is open (the pass reads nothing more when none is).
pub fn any_open(conn: &mut DbConnection) -> Result<bool, StorageError> {
    Ok(diesel::select(diesel::dsl::exists(
        ladder_challenges::table.filter(ladder_challenges::state.eq("open")),
    ))
    .get_result(conn)?)
}

/// Mark a challenge decided (only once: false when it already was).
pub fn decide(
    conn: &mut DbConnection,
    id: i64,
    outcome: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let changed = diesel::update(
        ladder_challenges::table
            .find(id)
            .filter(ladder_challenges::state.eq("open")),
    )
    .set((
        ladder_challenges::state.eq("decided"),
        ladder_challenges::outcome.eq(outcome),
        ladder_challenges::decided_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Each seat's place in a decided game (seat, place).
pub fn places_of_game(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Vec<(i32, i32)>, StorageError> {
    use super::schema::game_results;
    Ok(game_results::table
        .filter(game_results::game_id.eq(game_id))
        .select((game_results::seat, game_results::place))
        .load(conn)?)
}

/// A deleted account leaves every ladder (the rungs below close up).
pub fn erase_user(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    let variants: Vec<String> = ladder_rungs::table
        .filter(ladder_rungs::user_id.eq(user_id))
        .select(ladder_rungs::variant)
        .load(conn)?;
    for variant in variants {
        let gone: i32 = ladder_rungs::table
            .filter(ladder_rungs::variant.eq(&variant))
            .filter(ladder_rungs::user_id.eq(user_id))
            .select(ladder_rungs::rung)
            .first(conn)?;
        diesel::delete(
            ladder_rungs::table
                .filter(ladder_rungs::variant.eq(&variant))
                .filter(ladder_rungs::user_id.eq(user_id)),
        )
        .execute(conn)?;
        diesel::update(
            ladder_rungs::table
                .filter(ladder_rungs::variant.eq(&variant))
                .filter(ladder_rungs::rung.gt(gone)),
        )
        .set(ladder_rungs::rung.eq(ladder_rungs::rung - 1))
        .execute(conn)?;
    }
    Ok(())
}
