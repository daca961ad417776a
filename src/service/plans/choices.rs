//! The choices a plan can make: those of the caller's next turn as it would begin if the others
//! changed nothing, after the steps chosen so far, in words (what the web client's "Plan my next
//! turn" lists, one step after another). Only what the caller may see: the turn ends its list at
//! a draw from the deck, whose card nobody knows yet.

use crate::engine::DecisionOf;
use crate::service::accounts::{Caller, Scope};
use crate::service::i18n::Language;
use crate::service::words::moves::{
    account_language, check_text, in_words, read_steps, TurnInWords,
};
use crate::service::words::{offered, pawn_places};
use crate::service::ServiceResult;
use crate::storage::Database;

/// The choices of the caller's next turn after the steps `after` (words, as a plan's text; none:
/// its first step). Empty once those steps end the turn or draw from the deck.
pub fn next_choices(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    language: Option<Language>,
    after: Option<&str>,
) -> ServiceResult<TurnInWords> {
    caller.require(Scope::Read)?;
    let language = match language {
        Some(l) => l,
        None => account_language(db, caller.user_id)?,
    };
    let (game, version, seat) = super::seated(db, caller, game_id)?;
    let mut next = super::next_turn(&game, seat)?;
    let mut drew_from_deck = false;
    if let Some(text) = after.filter(|t| !t.trim().is_empty()) {
        check_text(text)?;
        let steps = read_steps(&mut next, seat, text, language)?;
        drew_from_deck = steps.iter().any(|d| matches!(d, DecisionOf::DrawDeck));
    }
    let choices = if drew_from_deck {
        Vec::new()
    } else {
        in_words(language, &offered(&next, seat), &pawn_places(&next, seat))
    };
    Ok(TurnInWords {
        game_id,
        version,
        language,
        choices,
    })
}
