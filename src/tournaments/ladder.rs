//! A standing ladder, per variant, after OGS's: a player joins at the bottom and climbs by
//! challenging those a little above; the challenger who wins takes the defender's rung and
//! everyone from there down to the challenger's old rung steps down one. A draw or a loss changes
//! nothing. Each player has at most three challenges out and three in, so nobody is swamped; a
//! player who loses a ladder game on time leaves the ladder (the rungs below close up).
//!
//! How far up: a player on rung r (1 is the top) may challenge up to two fifths of r rungs above,
//! at least one: from rung 10, rungs 6 to 9; from rung 2, rung 1.

use super::Entrant;

/// Challenges open at once, out and in, per player.
pub const MAX_OPEN: usize = 3;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ladder {
    /// Top first.
    pub rungs: Vec<Entrant>,
}

/// Why a challenge may not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("only players on the ladder challenge and are challenged")]
    NotOnLadder,
    #[error("a challenge goes to a player above")]
    NotAbove,
    #[error("that rung is out of reach: a player challenges at most two fifths of its rung above")]
    OutOfReach,
    #[error("the challenger already has three challenges open")]
    TooManyOut,
    #[error("that player already has three challenges open against them")]
    TooManyIn,
    #[error("these two already have a challenge open")]
    AlreadyOpen,
}

impl Ladder {
    /// The rung of an entrant, 1 for the top.
    pub fn rung(&self, entrant: Entrant) -> Option<usize> {
        self.rungs.iter().position(|&e| e == entrant).map(|i| i + 1)
    }

    /// Join at the bottom (a player already on the ladder stays where it is); its rung.
    pub fn join(&mut self, entrant: Entrant) -> usize {
        if let Some(rung) = self.rung(entrant) {
            return rung;
        }
        self.rungs.push(entrant);
        self.rungs.len()
    }

    /// Leave; the rungs below close up. Whether it was on the ladder.
    pub fn leave(&mut self, entrant: Entrant) -> bool {
        let before = self.rungs.len();
        self.rungs.retain(|&e| e != entrant);
        self.rungs.len() < before
    }

    /// How many rungs above a player on `rung` may challenge.
    pub fn reach(rung: usize) -> usize {
        (rung * 2).div_ceil(5).max(1)
    }

    /// Whether `challenger` may challenge `defender`, given the challenges open now (challenger,
    /// defender).
    pub fn may_challenge(
        &self,
        challenger: Entrant,
        defender: Entrant,
        open: &[(Entrant, Entrant)],
    ) -> Result<(), Refused> {
        let (Some(from), Some(to)) = (self.rung(challenger), self.rung(defender)) else {
            return Err(Refused::NotOnLadder);
        };
        if to >= from {
            return Err(Refused::NotAbove);
        }
        if from - to > Ladder::reach(from) {
            return Err(Refused::OutOfReach);
        }
        if open
            .iter()
            .any(|&(a, b)| (a, b) == (challenger, defender) || (a, b) == (defender, challenger))
        {
            return Err(Refused::AlreadyOpen);
        }
        if open.iter().filter(|(a, _)| *a == challenger).count() >= MAX_OPEN {
            return Err(Refused::TooManyOut);
        }
        if open.iter().filter(|(_, b)| *b == defender).count() >= MAX_OPEN {
            return Err(Refused::TooManyIn);
        }
        Ok(())
    }

    /// A challenger won: it takes the defender's rung if it is still below it, and everyone from
    /// that rung to its old one steps down one.
    pub fn challenger_won(&mut self, challenger: Entrant, defender: Entrant) {
        let (Some(from), Some(to)) = (self.rung(challenger), self.rung(defender)) else {
            return;
        };
        if to < from {
            let climber = self.rungs.remove(from - 1);
            self.rungs.insert(to - 1, climber);
        }
    }
}
