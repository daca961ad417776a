//! Moves by email, the outgoing half: the turn's choices in words, numbered as a reply names
//! them, with the reader's hand (their own cards only: the email goes to the seat's player); and
//! the answer to a reply (what was played, why the rest was not).

use serde::Serialize;

use super::messages::{card, color_args, color_word, decision_in_words};
use crate::engine::{Card, DecisionJson};
use crate::service::i18n::{self, Arg, Language};

/// What the seat to act may do now, for a "your turn" email or an answer to a reply.
#[derive(Clone, Debug)]
pub struct TurnOffer {
    pub seat: u8,
    /// The game's version: the turn a reply to this email answers.
    pub version: i64,
    pub hand: Vec<Card>,
    /// As `service::correspondence::by_mail::offered` lists them: a reply's numbers count here.
    pub choices: Vec<DecisionJson>,
}

/// The offer as the templates show it.
#[derive(Default, Serialize)]
pub(super) struct OfferText {
    pub hand: String,
    pub choices_label: String,
    pub choices: Vec<String>,
    pub how: String,
}

fn pawn(language: Language, pawn: u8) -> String {
    if pawn == 0 {
        i18n::word(language, "mail-pawn-big")
    } else {
        i18n::text(language, "mail-pawn", &[("n", i64::from(pawn).into())])
    }
}

/// A space as players say it, with the web client's words (`web/words.js`, `spaceName`): "blue
/// path, step 3" (Keltis), "row 3, column 2" (Neue Wege); never the layout's id.
fn space(language: Language, id: &str) -> String {
    if let Some((color, step)) = id.split_once('-') {
        if let (Some(color), Ok(step)) = (crate::engine::Color::parse(color), step.parse::<i64>()) {
            return i18n::text(
                language,
                "web-space-path",
                &[
                    ("color", color_word(language, color).into()),
                    ("step", step.into()),
                ],
            );
        }
    }
    let grid = id
        .strip_prefix('r')
        .and_then(|rest| rest.split_once('c'))
        .and_then(|(r, c)| Some((r.parse::<i64>().ok()?, c.parse::<i64>().ok()?)));
    match grid {
        Some((row, column)) => i18n::text(
            language,
            "web-space-grid",
            &[("row", row.into()), ("column", (column + 1).into())],
        ),
        None => id.to_string(),
    }
}

/// One choice in words.
pub(super) fn choice_in_words(language: Language, choice: &DecisionJson) -> String {
    use crate::engine::DecisionOf as D;
    let (id, args): (&str, Vec<Arg<'_>>) = match choice {
        D::Lay {
            card: c,
            pawn: Some(p),
            to: Some(to),
            ..
        } => (
            "mail-choice-lay-pawn",
            vec![
                ("card", card(language, *c).into()),
                ("pawn", pawn(language, *p).into()),
                ("to", space(language, to).into()),
            ],
        ),
        D::Lay {
            card: c,
            path: Some(path),
            ..
        } => (
            "mail-choice-lay-path",
            vec![
                ("card", card(language, *c).into()),
                ("path", color_word(language, *path).into()),
            ],
        ),
        D::Lay { card: c, .. } => ("mail-choice-lay", vec![("card", card(language, *c).into())]),
        D::Discard { card: c } | D::DiscardFromHand { card: c } => (
            "mail-choice-discard",
            vec![("card", card(language, *c).into())],
        ),
        D::Step { pawn: p, to } => (
            "mail-choice-step",
            vec![
                ("pawn", pawn(language, *p).into()),
                ("to", space(language, to).into()),
            ],
        ),
        D::Skip => ("mail-choice-skip", vec![]),
        D::DiscardFromRow { color } => ("mail-choice-discard-row", color_args(language, *color)),
        D::DrawDeck => ("mail-choice-draw-deck", vec![]),
        D::DrawPile { color } => ("mail-choice-draw-pile", color_args(language, *color)),
        D::TakeStone { cards: [a, b] } => (
            "mail-choice-stone",
            vec![
                ("value", i64::from(a.value().unwrap_or(0)).into()),
                ("card", card(language, *a).into()),
                ("card2", card(language, *b).into()),
            ],
        ),
        D::Pass => ("mail-choice-pass", vec![]),
        D::Resign | D::TimeOut => ("mail-choice-skip", vec![]),
    };
    i18n::text(language, id, &args)
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
            .map(|c| choice_in_words(language, c))
            .collect(),
        how: i18n::word(language, "mail-reply-how"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_space_is_said_in_words_never_as_its_id() {
        let en = Language::parse("en");
        assert_eq!(space(en, "blue-3"), "blue path, step 3");
        assert_eq!(space(en, "r4c2"), "row 4, column 3");
        let lay = DecisionJson::Lay {
            card: Card::number(crate::engine::Color::Blue, 4),
            pawn: Some(0),
            to: Some("blue-1".into()),
            path: None,
        };
        let words = choice_in_words(en, &lay);
        assert_eq!(words, "lay blue 4, the big pawn to blue path, step 1");
        assert!(!words.contains("blue-1"));
        let de = Language::parse("de");
        assert_eq!(space(de, "r4c2"), "Reihe 4, Spalte 3");
    }
}
