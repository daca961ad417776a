//! Moves by email, the outgoing half: the turn's choices in words, numbered as a reply names
//! them, with the reader's hand (their own cards only: the email goes to the seat's player); and
//! the answer to a reply (what was played, why the rest was not).

use serde::Serialize;

use crate::engine::{Card, DecisionJson};
use crate::service::i18n::{self, Language};
use crate::service::notify::notifications::MailPlan;
use crate::service::words::saying::{card, choice_in_words, decision_in_words};

/// What the seat to act may do now, for a "your turn" email or an answer to a reply.
#[derive(Clone, Debug)]
pub struct TurnOffer {
    pub seat: u8,
    /// The game's version: the turn a reply to this email answers.
    pub version: i64,
    pub hand: Vec<Card>,
    /// As `service::correspondence::by_mail::offered` lists them: a reply's numbers count here.
    pub choices: Vec<DecisionJson>,
    /// Where the seat's pawns stand, to name them in the choices.
    pub pawns: Vec<Option<String>>,
}

/// The offer as the templates show it.
#[derive(Default, Serialize)]
pub(super) struct OfferText {
    pub hand: String,
    pub choices_label: String,
    pub choices: Vec<String>,
    pub how: String,
}

/// "Your hand: ...": the reader's own cards.
pub(super) fn hand_text(language: Language, hand: &[Card]) -> String {
    let cards: Vec<String> = hand.iter().map(|c| card(language, *c)).collect();
    i18n::text(language, "mail-hand", &[("cards", cards.join(", ").into())])
}

pub(super) fn offer_text(language: Language, offer: &TurnOffer) -> OfferText {
    OfferText {
        hand: hand_text(language, &offer.hand),
        choices_label: i18n::word(language, "mail-choices"),
        choices: offer
            .choices
            .iter()
            .map(|c| choice_in_words(language, c, &offer.pawns))
            .collect(),
        how: format!(
            "{} {}",
            i18n::word(language, "mail-reply-how"),
            i18n::word(language, "mail-reply-plan-how")
        ),
    }
}

/// What the answer to a reply tells: what it played (by `reader`), why the rest was not, and
/// the choices when the turn goes on, or the reader's hand when it is over.
pub struct ReplyAnswer<'a> {
    pub reader: &'a str,
    pub played: &'a [DecisionJson],
    pub problem: Option<&'a str>,
    pub said: Option<&'a str>,
    pub offer: Option<&'a TurnOffer>,
    pub hand: &'a [Card],
    /// The plan for the next turn the reply carried.
    pub plan: Option<&'a MailPlan>,
}

/// The answer as the templates show it.
pub(super) struct AnswerText {
    pub subject: &'static str,
    pub lines: Vec<String>,
    pub played: Vec<String>,
    pub offer: OfferText,
}

/// The answer's words around `game_lines` (players, whose turn).
pub(super) fn answer_text(
    language: Language,
    answer: &ReplyAnswer<'_>,
    game_lines: Vec<String>,
) -> AnswerText {
    let mut lines = Vec::new();
    if let Some(problem) = answer.problem {
        let id = match problem {
            "stale" | "no_move" | "unreadable" | "not_a_choice" | "ambiguous" | "turn_over"
            | "game_over" => format!("mail-reply-problem-{problem}"),
            _ => "mail-reply-problem-other".to_string(),
        };
        let said = answer.said.unwrap_or_default();
        lines.push(i18n::text(language, &id, &[("said", said.into())]));
    } else if answer.offer.is_some() {
        lines.push(i18n::word(language, "mail-reply-turn-goes-on"));
    }
    if let Some(plan) = answer.plan {
        let id = match (plan.kept, plan.code.as_deref()) {
            (true, _) => "mail-reply-plan-kept".to_string(),
            (
                false,
                Some(
                    code @ ("reply_not_played" | "plan_on_your_turn" | "no_next_turn"
                    | "plan_not_playable"),
                ),
            ) => format!("mail-reply-plan-{code}"),
            (false, _) => "mail-reply-plan-unreadable".to_string(),
        };
        lines.push(i18n::text(
            language,
            &id,
            &[("said", plan.said.as_str().into())],
        ));
    }
    lines.extend(game_lines);
    if answer.offer.is_none() && !answer.hand.is_empty() {
        lines.push(hand_text(language, answer.hand));
    }
    AnswerText {
        subject: if answer.played.is_empty() {
            "mail-reply-problem-subject"
        } else {
            "mail-reply-played-subject"
        },
        lines,
        played: answer
            .played
            .iter()
            .map(|d| decision_in_words(language, answer.reader, d))
            .collect(),
        offer: answer
            .offer
            .map(|o| offer_text(language, o))
            .unwrap_or_default(),
    }
}
