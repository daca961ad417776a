//! Plans for the next turn (correspondence play; docs/playing.md, "Plans"): the steps a player
//! leaves while the others move, rehearsed on the game as their turn would begin, and checked
//! again when it does begin. Pure, like the rest of the engine: the server stores a plan and
//! plays what [`check`] allows through the ordinary decision path.
//!
//! Between two of a player's turns the others' moves never change that player's hand, rows or
//! pawns; they change the discard piles, the stones and tiles on the board, Keltis Card's wish
//! stones, the draw pile and the end. So a plan rehearsed now is legal later unless one of those
//! changed, and the conditions a plan may set are about exactly those: what the piles it draws
//! from show ([`Condition::PilesUnchanged`]) and what the spaces its pawns reach hold
//! ([`Condition::SpacesUnchanged`]). Without a condition a plan plays whatever the others did,
//! as long as every step is still legal.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cards::{Card, Color};
use super::decision::{Decision, DecisionOf};
use super::error::RuleError;
use super::game::{Game, Phase, START};

/// What must still be as it was when the plan was made for it to be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Every discard pile a step draws from shows the card it showed.
    PilesUnchanged,
    /// Every space a pawn of the plan reaches holds the tile and wish stones it held.
    SpacesUnchanged,
}

/// A discard pile a plan draws from, with its top card as the plan saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PileSeen {
    pub color: Color,
    /// `None`: the pile was empty.
    pub top: Option<Card>,
}

/// A space a plan's pawn reaches, with what it held as the plan saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SpaceSeen {
    /// The space's id in the layout.
    pub space: String,
    /// The tile on it (`clover`, `points_4`, `wish_stone`...), if any was left.
    pub tile: Option<String>,
    /// Wish stones left on it (the expansion's pile spaces).
    pub stones: u8,
}

/// What a plan looked at: the piles its steps draw from and the spaces its pawns reach, as
/// they were at the start of the turn rehearsed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Seen {
    #[serde(default)]
    pub piles: Vec<PileSeen>,
    #[serde(default)]
    pub spaces: Vec<SpaceSeen>,
}

/// Why a plan (one of its alternatives) is not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanMiss {
    /// The game is over, or the seat has left it.
    GameOver,
    /// It is not the start of the seat's turn (the plan is played only there).
    NotTurnStart,
    /// A pile the plan draws from shows another card (`None`: it is empty).
    PileChanged {
        color: Color,
        was: Option<Card>,
        now: Option<Card>,
    },
    /// A space a pawn of the plan reaches holds something else now.
    SpaceChanged { space: String },
    /// Step `step` (from 0) is not legal at its moment.
    StepRefused { step: usize, error: RuleError },
    /// The turn is over before step `step` (from 0): a plan is one turn.
    TurnOver { step: usize },
    /// A plan has at least one step.
    NoSteps,
}

impl PlanMiss {
    /// A stable code, for the API and the notice that tells the player.
    pub fn code(&self) -> &'static str {
        match self {
            PlanMiss::GameOver => "game_over",
            PlanMiss::NotTurnStart => "not_turn_start",
            PlanMiss::PileChanged { .. } => "pile_changed",
            PlanMiss::SpaceChanged { .. } => "space_changed",
            PlanMiss::StepRefused { .. } => "step_refused",
            PlanMiss::TurnOver { .. } => "turn_over",
            PlanMiss::NoSteps => "no_steps",
        }
    }
}

impl std::fmt::Display for PlanMiss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let top = |c: &Option<Card>| match c {
            Some(card) => format!("the {card}"),
            None => "nothing".to_string(),
        };
        match self {
            PlanMiss::GameOver => write!(f, "the game is over"),
            PlanMiss::NotTurnStart => write!(f, "it is not the start of your turn"),
            PlanMiss::PileChanged { color, was, now } => write!(
                f,
                "the {} pile shows {} instead of {}",
                color.name(),
                top(now),
                top(was)
            ),
            PlanMiss::SpaceChanged { space } => {
                write!(f, "space {space} no longer holds what it held")
            }
            PlanMiss::StepRefused { step, error } => write!(f, "step {}: {error}", step + 1),
            PlanMiss::TurnOver { step } => {
                write!(f, "the turn is over before step {}", step + 1)
            }
            PlanMiss::NoSteps => write!(f, "a plan has at least one step"),
        }
    }
}

impl Game {
    /// The game as `seat`'s next turn would begin if the others' turns changed nothing: where a
    /// plan is rehearsed when it is made. `None` when there is no such turn to plan: the game is
    /// over, the seat has left it, it is the seat's turn now, or (Keltis Card's final phase, C9)
    /// the seat has no play left.
    pub fn next_turn_of(&self, seat: u8) -> Option<Game> {
        if self.is_over() || seat >= self.players || self.retired(seat).is_some() {
            return None;
        }
        if self.to_act == seat {
            return None;
        }
        let mut next = self.clone();
        match self.phase {
            // The other seat plays now; the seat plays next if a play is left after it.
            Phase::FinalPlay { left } if left >= 2 => {
                next.phase = Phase::FinalPlay { left: left - 1 };
                next.to_act = seat;
            }
            Phase::FinalPlay { .. } => return None,
            _ => {
                next.turn_player = seat;
                next.to_act = seat;
                next.phase = Phase::Play;
                next.discarded_this_turn = [false; super::game::PILES];
            }
        }
        Some(next)
    }

    /// Whether `seat` is at the very start of its turn: where a plan is played.
    pub fn at_turn_start_of(&self, seat: u8) -> bool {
        self.to_act == seat
            && !self.is_over()
            && match self.phase {
                // Play is a turn's first phase; a final-phase play is one decision.
                Phase::Play => self.turn_player == seat,
                Phase::FinalPlay { .. } => true,
                _ => false,
            }
    }
}

/// Play `steps` for `seat` on a copy of `game` (the start of its turn): every step must be legal
/// and within the turn. Returns the game after them and what they looked at.
pub fn rehearse(game: &Game, seat: u8, steps: &[Decision]) -> Result<(Game, Seen), PlanMiss> {
    if steps.is_empty() {
        return Err(PlanMiss::NoSteps);
    }
    if game.is_over() || game.retired(seat).is_some() {
        return Err(PlanMiss::GameOver);
    }
    let mut after = game.clone();
    let mut seen = Seen::default();
    for (step, &decision) in steps.iter().enumerate() {
        if after.to_act() != Some(seat) {
            return Err(PlanMiss::TurnOver { step });
        }
        if matches!(decision, DecisionOf::Resign | DecisionOf::TimeOut) {
            return Err(PlanMiss::StepRefused {
                step,
                error: RuleError::UnexpectedDecision {
                    got: decision.kind(),
                    phase: after.phase(),
                },
            });
        }
        if let DecisionOf::DrawPile { color } = decision {
            if !seen.piles.iter().any(|p| p.color == color) {
                seen.piles.push(PileSeen {
                    color,
                    top: game.pile(color).last().copied(),
                });
            }
        }
        let pawns_before = *after.pawns_or_none(seat);
        after
            .apply(seat, decision)
            .map_err(|error| PlanMiss::StepRefused { step, error })?;
        for (before, now) in pawns_before.iter().zip(after.pawns_or_none(seat).iter()) {
            if before != now && *now != START {
                if let Some(space) = space_seen(game, *now) {
                    if !seen.spaces.iter().any(|s| s.space == space.space) {
                        seen.spaces.push(space);
                    }
                }
            }
        }
    }
    Ok((after, seen))
}

/// What `space` holds in `game`.
fn space_seen(game: &Game, space: u8) -> Option<SpaceSeen> {
    let board = game.board()?;
    Some(SpaceSeen {
        space: board.space(space).id.clone(),
        tile: game.tile_at(space).map(|t| t.name()),
        stones: game.pile_stones.get(space as usize).copied().unwrap_or(0),
    })
}

/// Whether a plan made with `steps` and `conditions`, which saw `seen` when it was made, is
/// played now, at the start of `seat`'s turn in `game`: its conditions first (the player's own
/// reasons come before the rules'), then every step legal in its turn.
pub fn check(
    game: &Game,
    seat: u8,
    steps: &[Decision],
    conditions: &[Condition],
    seen: &Seen,
) -> Result<(), PlanMiss> {
    if game.is_over() || game.retired(seat).is_some() {
        return Err(PlanMiss::GameOver);
    }
    if !game.at_turn_start_of(seat) {
        return Err(PlanMiss::NotTurnStart);
    }
    if conditions.contains(&Condition::PilesUnchanged) {
        for pile in &seen.piles {
            let now = game.pile(pile.color).last().copied();
            if now != pile.top {
                return Err(PlanMiss::PileChanged {
                    color: pile.color,
                    was: pile.top,
                    now,
                });
            }
        }
    }
    if conditions.contains(&Condition::SpacesUnchanged) {
        if let Some(board) = game.board() {
            for was in &seen.spaces {
                let now = board.index_of(&was.space).and_then(|i| space_seen(game, i));
                if now.as_ref() != Some(was) {
                    return Err(PlanMiss::SpaceChanged {
                        space: was.space.clone(),
                    });
                }
            }
        }
    }
    rehearse(game, seat, steps).map(|_| ())
}

impl Game {
    /// A seat's pawns; all at the start in Keltis Card, which has none.
    fn pawns_or_none(&self, seat: u8) -> &[u8; super::game::PAWNS] {
        const NONE: [u8; super::game::PAWNS] = [START; super::game::PAWNS];
        self.pawns.get(seat as usize).unwrap_or(&NONE)
    }
}
