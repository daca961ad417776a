//! Games that ended on this instance, waiting for the packing worker: a game's log is packed
//! after the move that ends it has been answered, not in that move's write. Kept in memory only:
//! a game that is lost from here (the instance stops first, or too many wait) is packed by the
//! maintenance worker's pass over unpacked finished games.

use std::sync::Mutex;

/// More than this waiting means nobody drains the queue (a process without the packing worker):
/// the games beyond it are left to the maintenance pass.
const MOST_WAITING: usize = 10_000;

#[derive(Default)]
pub struct EndedGames {
    waiting: Mutex<Vec<i64>>,
}

impl EndedGames {
    /// `game_id` has just ended here.
    pub fn push(&self, game_id: i64) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|p| p.into_inner());
        if waiting.len() < MOST_WAITING {
            waiting.push(game_id);
        }
    }

    /// The games waiting, oldest first; the queue is empty after.
    pub fn take(&self) -> Vec<i64> {
        std::mem::take(&mut *self.waiting.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_taken_once_in_the_order_they_ended_and_a_full_queue_drops_the_rest() {
        let ended = EndedGames::default();
        ended.push(3);
        ended.push(1);
        assert_eq!(ended.take(), vec![3, 1]);
        assert!(ended.take().is_empty());
        for id in 0..MOST_WAITING as i64 + 5 {
            ended.push(id);
        }
        assert_eq!(ended.take().len(), MOST_WAITING);
    }
}
