//! The one move language: the game said in words from the catalogue ([`saying`]), and a
//! player's words read back into the choices of the moment ([`grammar`]), in English, French and
//! German. Email replies, the API's moves in words and the web client's command line all read
//! through here, and every choice is said the way it is read.

pub mod grammar;
pub mod moves;
pub mod reading;
pub mod saying;

use crate::engine::game::START;
use crate::engine::{DecisionJson, DecisionOf, Game};
use crate::service::i18n::Language;
use saying::PawnPlaces;

/// The choices offered to `seat` (the engine's legal decisions, in its order, resigning left
/// out: that is done by a button or the API's own call, never by a stray word); a number typed
/// or replied counts in this list, from 1.
pub fn offered(game: &Game, seat: u8) -> Vec<DecisionJson> {
    if game.to_act() != Some(seat) {
        return Vec::new();
    }
    game.legal_decisions()
        .into_iter()
        .filter(|d| !matches!(d, DecisionOf::Resign | DecisionOf::TimeOut))
        .map(|d| d.to_json(game.board()))
        .collect()
}

/// Where `seat`'s pawns stand, to name them in its choices ([`saying::choice_in_words`]).
pub fn pawn_places(game: &Game, seat: u8) -> Vec<Option<String>> {
    let Some(board) = game.board() else {
        return Vec::new();
    };
    game.pawns(seat)
        .iter()
        .map(|&at| (at != START).then(|| board.space(at).id.clone()))
        .collect()
}

/// Each choice's phrasings, one per language (the same words once), for
/// [`reading::Reading::next_step`]; `places` as [`pawn_places`] gives them.
pub fn phrases(choices: &[DecisionJson], places: &PawnPlaces) -> Vec<Vec<Vec<String>>> {
    choices
        .iter()
        .map(|c| {
            let mut phrasings: Vec<Vec<String>> = Vec::new();
            for language in Language::ALL {
                let p = reading::phrase(&saying::choice_in_words(language, c, places));
                if !phrasings.contains(&p) {
                    phrasings.push(p);
                }
            }
            phrasings
        })
        .collect()
}

#[cfg(test)]
mod tests;
