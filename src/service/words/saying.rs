//! Saying the game in words, from the one catalogue (`service/i18n`): colours, cards, pawns,
//! spaces, a turn's choices ("lay blue 4, the big pawn to blue path, step 1") and what a player
//! did ("anna lays blue 4"). Email, push, the move log and the API all say them so, and
//! [`super::grammar`] reads every choice back from these very words.

use crate::engine::{Card, Color, DecisionJson};
use crate::service::i18n::{self, Arg, Language};

pub fn color_id(c: Color) -> &'static str {
    ["green", "yellow", "brown", "blue", "pink", "gray"][c as usize]
}

pub fn color_word(language: Language, c: Color) -> String {
    i18n::word(language, &format!("color-{}", color_id(c)))
}

/// A colour's word, and its id for the languages whose adjectives agree.
pub fn color_args(language: Language, c: Color) -> Vec<Arg<'static>> {
    vec![
        ("color", color_word(language, c).into()),
        ("color_id", color_id(c).into()),
    ]
}

pub fn card(language: Language, c: Card) -> String {
    let color = color_word(language, c.color());
    match c.value() {
        Some(v) => i18n::text(
            language,
            "card",
            &[("color", color.into()), ("value", i64::from(v).into())],
        ),
        None => i18n::text(language, "card-end", &[("color", color.into())]),
    }
}

/// A decision in words. A draw from the deck never names the card.
pub fn decision_in_words(language: Language, who: &str, decision: &DecisionJson) -> String {
    let (id, args): (&str, Vec<Arg<'_>>) = match decision {
        DecisionJson::Lay {
            card: c,
            path: Some(p),
            ..
        } => (
            "mail-lay-path",
            vec![
                ("card", card(language, *c).into()),
                ("path", color_word(language, *p).into()),
                ("path_id", color_id(*p).into()),
            ],
        ),
        DecisionJson::Lay { card: c, .. } => {
            ("mail-lay", vec![("card", card(language, *c).into())])
        }
        DecisionJson::Discard { card: c } | DecisionJson::DiscardFromHand { card: c } => {
            ("mail-discard", vec![("card", card(language, *c).into())])
        }
        DecisionJson::Step { .. } => ("mail-step", vec![]),
        DecisionJson::Skip => ("mail-skip", vec![]),
        DecisionJson::DiscardFromRow { color } => {
            ("mail-discard-row", color_args(language, *color))
        }
        DecisionJson::DrawDeck => ("mail-draw-deck", vec![]),
        DecisionJson::DrawPile { color } => ("mail-draw-pile", color_args(language, *color)),
        DecisionJson::TakeStone { .. } => ("mail-take-stone", vec![]),
        DecisionJson::Pass => ("mail-pass", vec![]),
        DecisionJson::Resign => ("mail-resign", vec![]),
        DecisionJson::TimeOut => ("mail-time-out", vec![]),
    };
    let mut args = args;
    args.push(("who", who.into()));
    i18n::text(language, id, &args)
}

pub fn pawn(language: Language, pawn: u8) -> String {
    if pawn == 0 {
        i18n::word(language, "mail-pawn-big")
    } else {
        i18n::text(language, "mail-pawn", &[("n", i64::from(pawn).into())])
    }
}

/// A space as players say it, with the web client's words (`web/words.js`, `spaceName`): "blue
/// path, step 3" (Keltis), "row 3, column 2" (Neue Wege); never the layout's id.
pub fn space(language: Language, id: &str) -> String {
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
pub fn choice_in_words(language: Language, choice: &DecisionJson) -> String {
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
