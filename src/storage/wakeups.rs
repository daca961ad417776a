//! Wake-ups: a commit that appends a game's event or a user's notification wakes whoever waits
//! for that game or that user (long polls, event streams), without anyone polling the database.
//!
//! - SQLite (one process): the appending transaction notes what it touched; [`Database::write`]
//!   wakes the waiters once it has committed.
//! - PostgreSQL (any number of instances): the appending transaction notes what it touched too;
//!   once it has committed, the topics go to this instance's [`Outgoing`] queue, and the notifier
//!   worker sends them as `NOTIFY keltis_wake` on a connection of its own ([`Notifier`]), many
//!   commits' topics in one statement. PostgreSQL delivers them to every instance's [`Listener`],
//!   whose worker wakes that instance's waiters. The NOTIFY is not sent inside the appending
//!   transaction: PostgreSQL serialises the commits of every transaction that notifies (a global
//!   lock held through the commit's flush to disk), which halved the moves it could commit.
//!   A session's revocation is still notified by a trigger in its transaction (it is rare, and
//!   must not be missed).
//!
//! A waiter subscribes before it reads, so a commit between its read and its wait still wakes it.
//! A wake-up lost with an instance that stopped between its commit and its notice is made good
//! by the waiters themselves: event streams look again every few heartbeats, and a long poll ends
//! at its deadline.
//!
//! [`Database::write`]: super::Database::write

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::sql_types::{Array, Text};
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
    /// This user's account was deleted and renamed (nobody waits for it: instances forget the
    /// games they keep, whose seats carry names).
    Renamed(i64),
}

impl Topic {
    /// The NOTIFY payload: `g<game id>`, `u<user id>`, `s<user id>` or `r<user id>`.
    fn payload(self) -> String {
        match self {
            Topic::Game(id) => format!("g{id}"),
            Topic::User(id) => format!("u{id}"),
            Topic::Sessions(id) => format!("s{id}"),
            Topic::Renamed(id) => format!("r{id}"),
        }
    }

    /// A NOTIFY payload read back (see [`Topic::payload`]).
    fn parse(payload: &str) -> Option<Topic> {
        let (kind, id) = payload.split_at_checked(1)?;
        let id = id.parse().ok()?;
        match kind {
            "g" => Some(Topic::Game(id)),
            "u" => Some(Topic::User(id)),
            "s" => Some(Topic::Sessions(id)),
            "r" => Some(Topic::Renamed(id)),
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
    /// What the transaction running on this thread touched.
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

/// The PostgreSQL channel of wake-ups.
const CHANNEL: &str = "keltis_wake";

/// A connection outside the pool, for the notifier or the listener, set up by `setup` (SQL).
fn own_connection(url: &str, setup: &str) -> Result<PgConnection, StorageError> {
    let mut conn =
        PgConnection::establish(url).map_err(|e| StorageError::Unavailable(e.to_string()))?;
    conn.batch_execute(setup)?;
    Ok(conn)
}

/// Topics committed by this instance whose NOTIFY is not sent yet (PostgreSQL). A topic is kept
/// once however often it was touched meanwhile: a waiter reads everything new when it wakes.
#[derive(Default)]
pub struct Outgoing {
    topics: Mutex<HashSet<Topic>>,
    added: Condvar,
}

impl Outgoing {
    /// Topics to notify (committed ones, or ones whose NOTIFY failed, to be sent again).
    pub fn add(&self, topics: impl IntoIterator<Item = Topic>) {
        let mut pending = self.topics.lock().unwrap_or_else(|p| p.into_inner());
        let before = pending.len();
        pending.extend(topics);
        if pending.len() > before {
            self.added.notify_one();
        }
    }

    /// Everything pending, once there is something or `wait` has passed (then perhaps nothing).
    pub fn take(&self, wait: Duration) -> Vec<Topic> {
        let pending = self.topics.lock().unwrap_or_else(|p| p.into_inner());
        let (mut pending, _) = self
            .added
            .wait_timeout_while(pending, wait, |p| p.is_empty())
            .unwrap_or_else(|p| p.into_inner());
        pending.drain().collect()
    }
}

/// A connection of its own that sends this instance's wake-ups (PostgreSQL).
pub struct Notifier {
    conn: PgConnection,
}

impl Notifier {
    pub(super) fn connect(url: &str) -> Result<Notifier, StorageError> {
        // A NOTIFY makes a transaction whose commit PostgreSQL would flush to disk; nothing of
        // it needs to be durable, and not waiting for the flush keeps the notify lock brief.
        let conn = own_connection(url, "SET synchronous_commit = off")?;
        Ok(Notifier { conn })
    }

    /// Notify `topics` in one statement. An error means the connection is lost.
    pub fn send(&mut self, topics: &[Topic]) -> Result<(), StorageError> {
        let payloads: Vec<String> = topics.iter().map(|t| t.payload()).collect();
        diesel::sql_query(format!(
            "SELECT count(pg_notify('{CHANNEL}', t)) FROM unnest($1) AS t"
        ))
        .bind::<Array<Text>, _>(payloads)
        .execute(&mut self.conn)?;
        Ok(())
    }
}

/// A connection of its own that listens for the other instances' (and this one's) commits.
pub struct Listener {
    conn: PgConnection,
}

impl Listener {
    pub(super) fn connect(url: &str) -> Result<Listener, StorageError> {
        let conn = own_connection(url, &format!("LISTEN {CHANNEL}"))?;
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
    fn payloads_read_back_as_their_topics() {
        for topic in [
            Topic::Game(42),
            Topic::User(7),
            Topic::Sessions(3),
            Topic::Renamed(5),
        ] {
            assert_eq!(Topic::parse(&topic.payload()), Some(topic));
        }
        assert_eq!(Topic::parse("g42"), Some(Topic::Game(42)));
        assert_eq!(Topic::parse("u7"), Some(Topic::User(7)));
        assert_eq!(Topic::parse("s3"), Some(Topic::Sessions(3)));
        assert_eq!(Topic::parse("x1"), None);
        assert_eq!(Topic::parse(""), None);
    }
}
