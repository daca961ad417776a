//! Wake-ups: a commit that appends a game's event or a user's notification wakes whoever waits
//! for that game or that user (long polls, event streams), without anyone polling the database.
//!
//! - SQLite (one process): the appending transaction notes what it touched; [`Database::write`]
//!   wakes the waiters once it has committed.
//! - PostgreSQL (any number of instances): triggers on `game_events` and `notifications` send a
//!   `NOTIFY keltis_wake` in the appending transaction, which PostgreSQL delivers at commit to
//!   every instance's [`Listener`]; the listener worker wakes that instance's waiters.
//!
//! A waiter subscribes before it reads, so a commit between its read and its wait still wakes it.
//!
//! [`Database::write`]: super::Database::write

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Mutex;

use diesel::pg::PgConnection;
use diesel::{Connection, RunQueryDsl};
use tokio::sync::watch;

use super::StorageError;

/// What a waiter waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// A new event of this game.
    Game(i64),
    /// A new notification for this user (your turn, invitation, game started or over...).
    User(i64),
    /// A session of this user was revoked or deleted (nobody waits for it: instances forget
    /// the sessions they found live).
    Sessions(i64),
}

impl Topic {
    /// The NOTIFY payload the PostgreSQL triggers send: `g<game id>`, `u<user id>` or
    /// `s<user id>`.
    fn parse(payload: &str) -> Option<Topic> {
        let (kind, id) = payload.split_at_checked(1)?;
        let id = id.parse().ok()?;
        match kind {
            "g" => Some(Topic::Game(id)),
            "u" => Some(Topic::User(id)),
            "s" => Some(Topic::Sessions(id)),
            _ => None,
        }
    }
}

/// The waiters of this process, by topic. Each topic has a counter that every wake-up bumps; a
/// waiter holds a receiver and is woken when the counter moves.
#[derive(Default)]
pub struct Wakeups {
    topics: Mutex<HashMap<Topic, watch::Sender<u64>>>,
}

/// Topics kept before a subscription sweeps away those nobody waits for any more.
const SWEEP_ABOVE: usize = 4096;

impl Wakeups {
    /// Wait for `topic`: the receiver's `changed()` completes at the next wake-up.
    pub fn subscribe(&self, topic: Topic) -> watch::Receiver<u64> {
        let mut topics = self.topics.lock().unwrap_or_else(|p| p.into_inner());
        if topics.len() > SWEEP_ABOVE {
            topics.retain(|_, tx| tx.receiver_count() > 0);
        }
        topics
            .entry(topic)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// Wake every waiter of `topic`.
    pub fn wake(&self, topic: Topic) {
        let mut topics = self.topics.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tx) = topics.get(&topic) {
            if tx.receiver_count() == 0 {
                topics.remove(&topic);
            } else {
                tx.send_modify(|n| *n = n.wrapping_add(1));
            }
        }
    }

    /// Wake everyone (after the listener lost its connection: what it missed is unknown).
    pub fn wake_all(&self) {
        let topics = self.topics.lock().unwrap_or_else(|p| p.into_inner());
        for tx in topics.values() {
            tx.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// How many waiters there are (for the metrics).
    pub fn waiters(&self) -> usize {
        let topics = self.topics.lock().unwrap_or_else(|p| p.into_inner());
        topics.values().map(|tx| tx.receiver_count()).sum()
    }
}

thread_local! {
    /// What the transaction running on this thread touched (SQLite only).
    static TOUCHED: RefCell<Vec<Topic>> = const { RefCell::new(Vec::new()) };
}

/// Note that the running transaction touched `topic` (its waiters are woken after the commit).
pub(super) fn touched(topic: Topic) {
    TOUCHED.with(|t| t.borrow_mut().push(topic));
}

/// Take (and forget) what the transaction on this thread touched.
pub(super) fn take_touched() -> Vec<Topic> {
    TOUCHED.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

/// The PostgreSQL channel the triggers notify.
const CHANNEL: &str = "keltis_wake";

/// A connection of its own that listens for the other instances' (and this one's) commits.
pub struct Listener {
    conn: PgConnection,
}

impl Listener {
    pub(super) fn connect(url: &str) -> Result<Listener, StorageError> {
        let mut conn =
            PgConnection::establish(url).map_err(|e| StorageError::Unavailable(e.to_string()))?;
        diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut conn)?;
        Ok(Listener { conn })
    }

    /// The topics notified since the last call; reads what the socket holds, never waits and
    /// sends no query. An error means the connection is lost.
    pub fn received(&mut self) -> Result<Vec<Topic>, StorageError> {
        let mut topics = Vec::new();
        for n in self.conn.notifications_iter() {
            let n = n.map_err(|e| StorageError::Unavailable(e.to_string()))?;
            if n.channel == CHANNEL {
                topics.extend(Topic::parse(&n.payload));
            }
        }
        Ok(topics)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wake_up_reaches_the_waiters_of_its_topic_only() {
        let w = Wakeups::default();
        let mut game = w.subscribe(Topic::Game(1));
        let user = w.subscribe(Topic::User(1));
        w.wake(Topic::Game(1));
        assert!(game.has_changed().unwrap());
        assert!(!user.has_changed().unwrap());
        game.borrow_and_update();
        w.wake_all();
        assert!(game.has_changed().unwrap() && user.has_changed().unwrap());
        assert_eq!(w.waiters(), 2);
        drop(game);
        w.wake(Topic::Game(1));
        assert_eq!(w.waiters(), 1, "a topic nobody waits for is dropped");
    }

    #[test]
    fn payloads_of_the_triggers_parse() {
        assert_eq!(Topic::parse("g42"), Some(Topic::Game(42)));
        assert_eq!(Topic::parse("u7"), Some(Topic::User(7)));
        assert_eq!(Topic::parse("s3"), Some(Topic::Sessions(3)));
        assert_eq!(Topic::parse("x1"), None);
        assert_eq!(Topic::parse(""), None);
    }
}
