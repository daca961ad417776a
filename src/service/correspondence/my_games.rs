//! The games waiting for you: a player's games in the order of the correspondence loop. First the
//! games where it is your turn, the most urgent deadline first (games without a deadline after
//! them, the longest waiting first); then the invitations; then the games where others are to act
//! (or players are awaited); then the finished games, the most recent first. Pages follow that
//! order with a keyset cursor, so the games waiting for you open the first page however many
//! other games you have. Each entry says your seat, the seats to act, whether it is your turn,
//! the deadline and time left of the seat to act, and when the game last moved.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope};
use crate::service::play::games::{clock_view, load_state, summary, GameSummary};
use crate::service::{bad_cursor, cursor_number, ServiceResult};
use crate::storage::games::{self as store, GameRow, SeatRow};
use crate::storage::shelves::{self, RecentShelf};
use crate::storage::social;
use crate::storage::{Database, DbConnection};

/// Where a game stands for you, in the list's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shelf {
    /// It is your turn.
    YourTurn,
    /// You are invited to join.
    Invited,
    /// Others are to act, or players are awaited.
    Waiting,
    /// Over, aborted or cancelled.
    Finished,
}

impl Shelf {
    const ALL: [Shelf; 4] = [
        Shelf::YourTurn,
        Shelf::Invited,
        Shelf::Waiting,
        Shelf::Finished,
    ];

    fn number(self) -> i64 {
        self as i64
    }

    fn recent(self) -> Option<RecentShelf> {
        match self {
            Shelf::YourTurn => None,
            Shelf::Invited => Some(RecentShelf::Invited),
            Shelf::Waiting => Some(RecentShelf::OthersToAct),
            Shelf::Finished => Some(RecentShelf::Finished),
        }
    }
}

/// One of your games, as the list shows it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MyGame {
    #[serde(flatten)]
    pub summary: GameSummary,
    pub shelf: Shelf,
    /// Your seat; `null` for an invitation.
    #[schema(required = true)]
    pub your_seat: Option<u8>,
    /// The seats whose decision the game waits for (empty unless it is being played).
    pub to_act: Vec<u8>,
    /// Whether the game waits for your decision.
    pub your_turn: bool,
    /// When the seat to act runs out of time (milliseconds since the Unix epoch); `null` without
    /// a running clock (as `clock.deadline` in the game's view).
    #[schema(required = true)]
    pub deadline: Option<i64>,
    /// The time the seat to act has left, in milliseconds; `null` without a running clock.
    #[schema(required = true)]
    pub time_left_ms: Option<i64>,
    /// When the game last changed: the last move, join, or end (milliseconds since the Unix
    /// epoch).
    pub last_move_at: i64,
    /// Messages of the table's chat you have not read (`PUT /games/{id}/chat/read`); 0 for an
    /// invitation.
    pub unread_messages: i64,
}

/// One page of your games, and how many wait for you.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MyGamesPage {
    pub games: Vec<MyGame>,
    /// How many games wait for your decision, whatever the page (for a badge).
    pub your_turn_count: i64,
    /// Pass as `cursor` to get the next page; `null` when there is none.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// "No deadline" in a cursor: after every deadline.
const NO_DEADLINE: i64 = 999_999_999_999_999_999;

/// Where a page ends: `<shelf>.<a>.<b>.<id>` of its last game, in the shelf's order: on your
/// turn the deadline (or [`NO_DEADLINE`]) and the last change, elsewhere the last change (and 0).
struct Cursor {
    shelf: Shelf,
    key: (i64, i64, i64),
}

impl Cursor {
    fn parse(text: &str) -> ServiceResult<Cursor> {
        let parts: Vec<&str> = text.split('.').collect();
        let [shelf, a, b, id] = parts[..] else {
            return Err(bad_cursor());
        };
        let shelf = match shelf {
            "0" => Shelf::YourTurn,
            "1" => Shelf::Invited,
            "2" => Shelf::Waiting,
            "3" => Shelf::Finished,
            _ => return Err(bad_cursor()),
        };
        Ok(Cursor {
            shelf,
            key: (cursor_number(a)?, cursor_number(b)?, cursor_number(id)?),
        })
    }

    fn of(shelf: Shelf, row: &GameRow) -> String {
        let (a, b, id) = match shelf {
            Shelf::YourTurn => your_turn_key(row),
            _ => (row.updated_at, 0, row.id),
        };
        format!("{}.{a}.{b}.{id}", shelf.number())
    }
}

/// The order of the games on your turn: the most urgent deadline first, then the longest
/// waiting.
fn your_turn_key(row: &GameRow) -> (i64, i64, i64) {
    (
        row.deadline_at.unwrap_or(NO_DEADLINE),
        row.updated_at,
        row.id,
    )
}

/// One page of the caller's games after `cursor`.
pub fn list(
    db: &Database,
    caller: &Caller,
    cursor: Option<&str>,
    limit: i64,
) -> ServiceResult<MyGamesPage> {
    caller.require(Scope::Read)?;
    let after = cursor.map(Cursor::parse).transpose()?;
    let now = db.now();
    db.read(|conn| {
        let mut your_turn = shelves::your_turn(conn, caller.user_id)?;
        your_turn.sort_by_key(your_turn_key);
        let your_turn_count = your_turn.len() as i64;
        // One game more than asked tells whether another page exists.
        let wanted = limit as usize + 1;
        let mut rows: Vec<(Shelf, GameRow)> = Vec::new();
        for shelf in Shelf::ALL {
            if rows.len() >= wanted || after.as_ref().is_some_and(|c| c.shelf > shelf) {
                continue;
            }
            let resume = after.as_ref().filter(|c| c.shelf == shelf);
            let left = (wanted - rows.len()) as i64;
            let found = match shelf.recent() {
                None => your_turn
                    .iter()
                    .filter(|row| resume.is_none_or(|c| your_turn_key(row) > c.key))
                    .take(left as usize)
                    .cloned()
                    .collect(),
                Some(recent) => shelves::recent(
                    conn,
                    caller.user_id,
                    recent,
                    resume.map(|c| (c.key.0, c.key.2)),
                    left,
                )?,
            };
            rows.extend(found.into_iter().map(|row| (shelf, row)));
        }
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        let next_cursor = rows
            .last()
            .filter(|_| more)
            .map(|(shelf, row)| Cursor::of(*shelf, row));
        let mut games = rows
            .iter()
            .map(|(shelf, row)| entry(conn, caller, *shelf, row, now))
            .collect::<ServiceResult<Vec<_>>>()?;
        let seated: Vec<i64> = games
            .iter()
            .filter(|g| g.your_seat.is_some())
            .map(|g| g.summary.id)
            .collect();
        let hidden = social::kept_apart(conn, caller.user_id)?;
        for (id, unread) in social::unread_counts(conn, caller.user_id, &seated, &hidden)? {
            if let Some(game) = games.iter_mut().find(|g| g.summary.id == id) {
                game.unread_messages = unread;
            }
        }
        Ok(MyGamesPage {
            games,
            your_turn_count,
            next_cursor,
        })
    })
}

/// A game as the list shows it to `caller`.
fn entry(
    conn: &mut DbConnection,
    caller: &Caller,
    shelf: Shelf,
    row: &GameRow,
    now: i64,
) -> ServiceResult<MyGame> {
    let seats = store::seats(conn, row.id)?;
    let seat_of = |user: i64| seats.iter().find(|s| s.user_id == user).map(seat_number);
    let to_act = match (row.status.as_str(), row.to_act_user) {
        ("active", Some(user)) => match seat_of(user) {
            Some(seat) => vec![seat],
            // A stand-in bot plays a seat that left: the state says which.
            None => load_state(conn, row)?.to_act().into_iter().collect(),
        },
        _ => Vec::new(),
    };
    let clock = (row.status == "active").then(|| clock_view(row, now));
    let deadline = clock.as_ref().and_then(|c| c.deadline);
    let time_left_ms = clock.as_ref().and_then(|c| {
        c.seats
            .iter()
            .find(|s| s.running && to_act.contains(&s.seat))
            .map(|s| s.remaining_ms)
    });
    Ok(MyGame {
        summary: summary(row, &seats)?,
        shelf,
        your_seat: seat_of(caller.user_id),
        your_turn: shelf == Shelf::YourTurn,
        to_act,
        deadline,
        time_left_ms: deadline.and(time_left_ms),
        last_move_at: row.updated_at,
        unread_messages: 0,
    })
}

fn seat_number(seat: &SeatRow) -> u8 {
    seat.seat as u8
}
