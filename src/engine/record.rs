//! Full records: the seed-free setup and every decision with its seat. A record replays to the
//! identical state.

use serde::{Deserialize, Serialize};

use super::decision::{Decision, DecisionJson};
use super::error::{RuleError, SetupError};
use super::game::Game;
use super::scoring::GameResult;
use super::setup::Setup;
use super::RULESET_VERSION;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RecordedDecision {
    pub seat: u8,
    pub decision: DecisionJson,
}

/// A game from its deal to its end (or to where it stands).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Record {
    /// The rules version the game was played under.
    pub ruleset_version: u32,
    pub setup: Setup,
    pub decisions: Vec<RecordedDecision>,
    /// Final scores, winners and end reason, once the game is over.
    #[schema(required = true)]
    pub result: Option<GameResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the record was played under ruleset {found}; this engine plays {RULESET_VERSION}")]
    RulesetVersion { found: u32 },
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// By the refusal's code: its message may name a card of a hand, and this error is logged.
    #[error("decision {index} was refused ({})", error.code())]
    Decision { index: usize, error: RuleError },
    #[error("the recorded result differs from the replayed one")]
    ResultDiffers,
}

impl Record {
    pub fn new(setup: Setup) -> Record {
        Record {
            ruleset_version: RULESET_VERSION,
            setup,
            decisions: Vec::new(),
            result: None,
        }
    }

    /// Note a decision that `game` accepted, and the result once the game is over.
    pub fn push(&mut self, game: &Game, seat: u8, decision: Decision) {
        self.decisions.push(RecordedDecision {
            seat,
            decision: decision.normalized().to_json(game.board()),
        });
        self.result = game.result();
    }

    /// Play the record again from its setup.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let game = self.replay_to(self.decisions.len())?;
        if self.result.is_some() && self.result != game.result() {
            return Err(ReplayError::ResultDiffers);
        }
        Ok(game)
    }

    /// The game as it stood after its first `steps` decisions (all of them if there are fewer).
    pub fn replay_to(&self, steps: usize) -> Result<Game, ReplayError> {
        if self.ruleset_version != RULESET_VERSION {
            return Err(ReplayError::RulesetVersion {
                found: self.ruleset_version,
            });
        }
        let mut game = Game::from_setup(&self.setup)?;
        for (index, d) in self.decisions.iter().take(steps).enumerate() {
            d.apply_to(&mut game)
                .map_err(|error| ReplayError::Decision { index, error })?;
        }
        Ok(game)
    }
}

impl RecordedDecision {
    /// Play this decision again on `game`.
    pub fn apply_to(&self, game: &mut Game) -> Result<(), RuleError> {
        let decision = self.decision.clone().resolve(game.board())?;
        game.apply(self.seat, decision)
    }
}
