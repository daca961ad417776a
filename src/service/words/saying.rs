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

/// What a player did, in words ("anna laid blue 4, a pawn to blue path, step 1"). A draw from
/// the deck never names the card.
pub fn decision_in_words(language: Language, who: &str, decision: &DecisionJson) -> String {
    let (name, mut args) = words_of(language, decision, |p| pawn(language, p));
    args.push(("who", who.into()));
    i18n::text(language, &format!("did-{name}"), &args)
}

/// A decision's arguments, and the end of its message's name (after `move-` for a choice,
/// `did-` for what was done): the web client's `wordsOf` (`web/words.js`) says them alike.
fn words_of<'a>(
    language: Language,
    decision: &DecisionJson,
    pawn_word: impl Fn(u8) -> String,
) -> (&'static str, Vec<Arg<'a>>) {
    use crate::engine::DecisionOf as D;
    let card_args = |c: &Card| vec![("card", card(language, *c).into())];
    match decision {
        D::Lay {
            card: c,
            pawn: Some(p),
            to: Some(to),
            ..
        } => (
            "lay-pawn",
            vec![
                ("card", card(language, *c).into()),
                ("pawn", pawn_word(*p).into()),
                ("to", space(language, to).into()),
            ],
        ),
        D::Lay {
            card: c,
            path: Some(p),
            ..
        } => ("lay-path", [card_args(c), path_args(language, *p)].concat()),
        D::Lay { card: c, .. } => ("lay", card_args(c)),
        D::Discard { card: c } | D::DiscardFromHand { card: c } => ("discard", card_args(c)),
        D::Step { pawn: p, to } => (
            "step",
            vec![
                ("pawn", pawn_word(*p).into()),
                ("to", space(language, to).into()),
            ],
        ),
        D::Skip => ("skip", vec![]),
        D::DiscardFromRow { color } => ("discard-row", color_args(language, *color)),
        D::DrawDeck => ("draw-deck", vec![]),
        D::DrawPile { color } => ("draw-pile", color_args(language, *color)),
        D::TakeStone { cards: [a, b] } => (
            "take-stone",
            vec![
                ("value", i64::from(a.value().unwrap_or(0)).into()),
                ("card", card(language, *a).into()),
                ("card2", card(language, *b).into()),
            ],
        ),
        D::Pass => ("pass", vec![]),
        D::Resign => ("resign", vec![]),
        D::TimeOut => ("time-out", vec![]),
    }
}

/// A path's colour word, and its id for the languages whose adjectives agree.
fn path_args(language: Language, p: Color) -> Vec<Arg<'static>> {
    vec![
        ("path", color_word(language, p).into()),
        ("path_id", color_id(p).into()),
    ]
}

/// Where a seat's pawns stand, by pawn number (`None`: on the start); empty in Keltis Card.
pub type PawnPlaces = [Option<String>];

/// A pawn in what was done, by size: "the big pawn", "a pawn".
pub fn pawn(language: Language, pawn: u8) -> String {
    i18n::word(
        language,
        if pawn == 0 {
            "did-pawn-big"
        } else {
            "did-pawn"
        },
    )
}

/// A pawn in a choice, by size and place: "the big pawn from the start", "the pawn on blue path,
/// step 2" (small pawns on one space are alike, and the engine names only one of them).
pub fn pawn_at(language: Language, p: u8, places: &PawnPlaces) -> String {
    let big = p == 0;
    match places.get(usize::from(p)) {
        Some(Some(at)) => i18n::text(
            language,
            if big {
                "move-pawn-big-on"
            } else {
                "move-pawn-on"
            },
            &[("space", space(language, at).into())],
        ),
        Some(None) => i18n::word(
            language,
            if big {
                "move-pawn-big-start"
            } else {
                "move-pawn-start"
            },
        ),
        None => pawn(language, p),
    }
}

/// A space as players say it (the web client's `spaceName` says it with the same message): "blue
/// path, step 3" (Keltis), "row 3, column 2" (Neue Wege); never the layout's id.
pub fn space(language: Language, id: &str) -> String {
    if let Some((color, step)) = id.split_once('-') {
        if let (Some(color), Ok(step)) = (crate::engine::Color::parse(color), step.parse::<i64>()) {
            return i18n::text(
                language,
                "space-path",
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
            "space-grid",
            &[("row", row.into()), ("column", (column + 1).into())],
        ),
        None => id.to_string(),
    }
}

/// One choice in words, its pawn named by where it stands (`places`: the deciding seat's).
pub fn choice_in_words(language: Language, choice: &DecisionJson, places: &PawnPlaces) -> String {
    let (name, args) = words_of(language, choice, |p| pawn_at(language, p, places));
    // Resigning and timing out are never offered as choices (`offered`).
    let name = match name {
        "resign" | "time-out" => "skip",
        name => name,
    };
    i18n::text(language, &format!("move-{name}"), &args)
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
        let words = choice_in_words(en, &lay, &[None]);
        assert_eq!(
            words,
            "lay blue 4, the big pawn from the start to blue path, step 1"
        );
        let on = [Some("blue-1".to_string()), None, Some("r4c2".into())];
        let step = DecisionJson::Step {
            pawn: 2,
            to: "r4c3".into(),
        };
        assert_eq!(
            choice_in_words(en, &step, &on),
            "free step: the pawn on row 4, column 3 to row 4, column 4"
        );
        assert_eq!(
            decision_in_words(en, "anna", &step),
            "anna moved a pawn to row 4, column 4"
        );
        assert!(!words.contains("blue-1"));
        let de = Language::parse("de");
        assert_eq!(space(de, "r4c2"), "Reihe 4, Spalte 3");
    }
}
