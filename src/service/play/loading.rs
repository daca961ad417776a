//! A game loaded for a request: its row, seats and state, from this process's memo when it holds
//! the version the request needs (see `storage::memo`), else read and decoded, then kept there.

use std::sync::Arc;

use crate::engine::{Game, ENGINE_VERSION};
use crate::service::accounts::Caller;
use crate::service::play::games::{
    detail_of, is_started, load_row, load_state, seat_of, GameDetail,
};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games::{self as store, GameRow, SeatRow};
use crate::storage::memo::Memo;
use crate::storage::DbConnection;

/// A game as loaded for a request: its row, its seats and, once started, its state.
pub(in crate::service) struct Loaded {
    pub row: GameRow,
    pub seats: Arc<Vec<SeatRow>>,
    pub game: Option<Arc<Game>>,
    /// The count of name changes the seats were read at (see [`Kept`]).
    pub names_at: i64,
}

/// What this process keeps of a started game between requests, by version: its row (without the
/// snapshot), its state and its seats (which no longer change once the game has started, but for
/// the name of an account deleted: `names_at` is the count of name changes they were read at).
pub(in crate::service) struct Kept {
    pub row: GameRow,
    pub game: Arc<Game>,
    pub seats: Arc<Vec<SeatRow>>,
    pub names_at: i64,
}

/// The game's row, seats and, once it has started, its state: from this process's memo when it
/// holds the row's version (the row is then read without its snapshot, and the seats not at
/// all), else read, decoded and kept there.
pub(in crate::service) fn load_game(
    conn: &mut DbConnection,
    id: i64,
    memo: &Memo,
) -> ServiceResult<Loaded> {
    // Before any read: what is read is kept only if no renaming cleared the memo meanwhile.
    let read_at = memo.generation();
    let (head, names_at) = store::game_head(conn, id)?.ok_or(ServiceError::NotFound("game"))?;
    if !is_started(&head) {
        return Ok(Loaded {
            seats: Arc::new(store::seats(conn, id)?),
            row: head,
            game: None,
            names_at,
        });
    }
    // A snapshot of another engine version is rebuilt from the log (and stored) first.
    if head.state_engine_version == ENGINE_VERSION {
        // Seats read before a name changed (an account deleted through another instance, whose
        // notice may not have come yet) are read again.
        let kept = memo.get::<Kept>(id, head.version);
        if let Some(kept) = kept.filter(|k| k.names_at == names_at) {
            return Ok(Loaded {
                row: head,
                seats: kept.seats.clone(),
                game: Some(kept.game.clone()),
                names_at,
            });
        }
    }
    // The whole row again: a move may have come in between, and row and state must agree.
    let row = load_row(conn, id)?;
    let seats = Arc::new(store::seats(conn, id)?);
    let game = Arc::new(load_state(conn, &row)?);
    keep(memo, read_at, names_at, &row, game.clone(), seats.clone());
    Ok(Loaded {
        row,
        seats,
        game: Some(game),
        names_at,
    })
}

/// The game as it stood at `version`, to decide on: straight from this process's memo when it
/// holds that version (no read: the append that follows is checked against the database's
/// version, which stays the authority, so a game that moved on meanwhile makes it stale), else
/// as [`load_game`] reads it. (Its seats' names may be a moment behind a deletion through another
/// instance: a decision needs only who sits where, and its answer is read by [`load_game`].)
pub(in crate::service) fn load_game_at(
    conn: &mut DbConnection,
    id: i64,
    version: i64,
    memo: &Memo,
) -> ServiceResult<Loaded> {
    if let Some(kept) = memo.get::<Kept>(id, version) {
        return Ok(Loaded {
            row: kept.row.clone(),
            seats: kept.seats.clone(),
            game: Some(kept.game.clone()),
            names_at: kept.names_at,
        });
    }
    load_game(conn, id, memo)
}

/// Keep a started game's row (its snapshot left out), state and seats, at the row's version, in
/// this process's memo, unless the memo was cleared since generation `read_at` (taken before
/// they were read); `names_at`: the count of name changes read with the row.
pub(in crate::service) fn keep(
    memo: &Memo,
    read_at: u64,
    names_at: i64,
    row: &GameRow,
    game: Arc<Game>,
    seats: Arc<Vec<SeatRow>>,
) {
    let row = GameRow {
        state: None,
        ..row.clone()
    };
    memo.put(
        row.id,
        row.version,
        Arc::new(Kept {
            row,
            game,
            seats,
            names_at,
        }),
        read_at,
    );
}

/// The game as the caller sees it after a change.
pub(in crate::service) fn reloaded_detail(
    conn: &mut DbConnection,
    game_id: i64,
    caller: &Caller,
    now: i64,
    memo: &Memo,
) -> ServiceResult<GameDetail> {
    let loaded = load_game(conn, game_id, memo)?;
    let your_seat = seat_of(&loaded.seats, caller.user_id);
    detail_of(
        &loaded.row,
        &loaded.seats,
        loaded.game.as_deref(),
        your_seat,
        now,
    )
}
