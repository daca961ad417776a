//! Reading a player's moves: the words of a step ("3", "lay blue 4 pawn 1", "draw blue", in
//! English, French or German) matched against the choices of the moment. A step names one choice or none: when it fits several, or none, the player is asked
//! again; nothing is ever guessed.

use crate::engine::{Card, Color, DecisionJson, DecisionOf};

/// What one step of a reply asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// The number of a choice as the email listed them (1 is the first).
    Code(usize),
    /// A choice in words.
    Words(Words),
    /// Words that name a move but could not be read: the player is told, nothing is played.
    Unreadable,
}

/// What a step said, word by word.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    verb: Option<Verb>,
    colors: Vec<Color>,
    /// A card's value (`None` in the list for an end card).
    values: Vec<Option<u8>>,
    pawn: Option<u8>,
    deck: bool,
    /// "pioche" or "Stapel" without a colour: the deck.
    deck_unless_color: bool,
    row: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Lay,
    Discard,
    Draw,
    Step,
    /// Decline (a free step, a tile) or, in Keltis Card's last round, play nothing.
    PassOrSkip,
    Stone,
}

/// One step: what the player wrote, and what it asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub said: String,
    pub want: Want,
}

/// Why a step was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// It names no choice of the moment.
    NotAChoice,
    /// It fits these choices (1-based, as listed): the player must say which.
    Ambiguous(Vec<usize>),
    /// Its words could not be read.
    Unreadable,
}

pub(super) const SEPARATORS: &[&str] = &[
    "then", "and", "puis", "ensuite", "et", "dann", "danach", "und",
];

/// Words that carry no meaning for the move: left out.
const FILLERS: &[&str] = &[
    "the",
    "a",
    "an",
    "my",
    "card",
    "from",
    "on",
    "of",
    "to",
    "with",
    "please",
    "ok",
    "okay",
    "i",
    "la",
    "le",
    "les",
    "l",
    "de",
    "du",
    "des",
    "ma",
    "mon",
    "carte",
    "sur",
    "une",
    "un",
    "à",
    "avec",
    "je",
    "s'il",
    "plait",
    "plaît",
    "vous",
    "die",
    "der",
    "das",
    "den",
    "dem",
    "meine",
    "meinen",
    "karte",
    "von",
    "vom",
    "auf",
    "mit",
    "eine",
    "einen",
    "ein",
    "in",
    "ins",
    "bitte",
    "ich",
    "pile",
    "ablagestapel",
    "path",
    "chemin",
    "pfad",
    "weg",
    "top",
    "space",
    "case",
    "feld",
    "ab",
    "aus",
    "zum",
];

fn color_word(word: &str) -> Option<Color> {
    const STEMS: &[(&str, Color)] = &[
        ("green", Color::Green),
        ("grün", Color::Green),
        ("gruen", Color::Green),
        ("vert", Color::Green),
        ("yellow", Color::Yellow),
        ("gelb", Color::Yellow),
        ("jaune", Color::Yellow),
        ("brown", Color::Brown),
        ("braun", Color::Brown),
        ("brun", Color::Brown),
        ("marron", Color::Brown),
        ("blue", Color::Blue),
        ("blau", Color::Blue),
        ("bleu", Color::Blue),
        ("pink", Color::Pink),
        ("rosa", Color::Pink),
        ("rose", Color::Pink),
        ("gray", Color::Gray),
        ("grey", Color::Gray),
        ("grau", Color::Gray),
        ("gris", Color::Gray),
    ];
    // Adjectives agree: "bleue", "blauen", "grise".
    STEMS
        .iter()
        .find(|(stem, _)| {
            word.starts_with(stem) && word.chars().count() <= stem.chars().count() + 2
        })
        .map(|&(_, c)| c)
}

fn verb_word(word: &str) -> Option<Verb> {
    let verb = match word {
        "lay" | "play" | "place" | "put" | "pose" | "poser" | "posez" | "joue" | "jouer"
        | "jouez" | "lege" | "legen" | "leg" | "auslegen" | "anlegen" | "spiele" | "spielen"
        | "spiel" => Verb::Lay,
        "discard" | "défausse" | "défausser" | "defausse" | "defausser" | "défaussez" | "jette"
        | "jeter" | "abwerfen" | "wirf" | "werfe" | "ablegen" | "abwerfe" => Verb::Discard,
        "draw" | "pick" | "take" | "piocher" | "piochez" | "prendre" | "prenez" | "prends"
        | "tire" | "tirer" | "ziehe" | "ziehen" | "zieh" | "nehme" | "nehmen" | "nimm" => {
            Verb::Draw
        }
        "step" | "advance" | "avance" | "avancer" | "avancez" | "schritt" | "vor" | "bewege"
        | "rücke" | "ruecke" => Verb::Step,
        "skip" | "pass" | "no" | "none" | "passe" | "passer" | "passez" | "non" | "aucun"
        | "sauter" | "nein" | "passen" | "überspringen" | "ueberspringen" | "weiter" | "nichts"
        | "auslassen" => Verb::PassOrSkip,
        "stone" | "wish" | "pierre" | "souhait" | "stein" | "wunschstein" => Verb::Stone,
        _ => return None,
    };
    Some(verb)
}

/// One step's words read.
pub(super) fn read_step(said: &str) -> Option<Want> {
    let words: Vec<&str> = said.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    if let [only] = words.as_slice() {
        if let Ok(code) = only.parse::<usize>() {
            return Some(Want::Code(code));
        }
    }
    let mut w = Words::default();
    let mut meaningful = false;
    let mut unknown = false;
    let mut pawn_next = false;
    for word in words {
        if pawn_next {
            pawn_next = false;
            if let Ok(n) = word.parse::<u8>() {
                w.pawn = Some(n);
                continue;
            }
        }
        if let Ok(n) = word.parse::<u8>() {
            w.values.push(Some(n));
            meaningful = true;
        } else if let Some(c) = color_word(word) {
            w.colors.push(c);
            meaningful = true;
        } else if matches!(word, "pioche" | "stapel") {
            // The French verb and noun ("pioche bleu", "la pioche"); the German pile or deck.
            w.verb.get_or_insert(Verb::Draw);
            w.deck_unless_color = true;
            meaningful = true;
        } else if let Some(v) = verb_word(word) {
            // The first verb is the move's ("pioche la défausse bleue" draws), but a wish stone
            // is taken whatever verb comes with it ("take stone 3").
            if v == Verb::Stone {
                w.verb = Some(v);
            } else {
                w.verb.get_or_insert(v);
            }
            meaningful = true;
        } else if matches!(word, "deck" | "nachziehstapel" | "talon" | "stack") {
            w.deck = true;
            meaningful = true;
        } else if matches!(word, "pawn" | "pion" | "figur" | "spielfigur") {
            pawn_next = true;
            meaningful = true;
        } else if matches!(
            word,
            "big" | "large" | "grand" | "gros" | "grosse" | "groß" | "große" | "gross" | "großen"
        ) {
            w.pawn = Some(0);
            meaningful = true;
        } else if matches!(word, "end" | "fin" | "ende") {
            w.values.push(None);
            meaningful = true;
        } else if matches!(word, "row" | "rangée" | "rangee" | "reihe") {
            w.row = true;
            meaningful = true;
        } else if !FILLERS.contains(&word) {
            unknown = true;
        }
    }
    match (meaningful, unknown) {
        // Greetings and thanks: no step.
        (false, _) => None,
        (true, true) => Some(Want::Unreadable),
        (true, false) => Some(Want::Words(w)),
    }
}

/// Greetings, thanks and sign-offs in three languages: a line of these alone is no attempt at a
/// move.
const COURTESIES: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "thanks",
    "thank",
    "you",
    "cheers",
    "regards",
    "best",
    "bye",
    "bonjour",
    "salut",
    "merci",
    "cordialement",
    "bien",
    "à",
    "bientôt",
    "hallo",
    "danke",
    "gruß",
    "grüße",
    "viele",
    "liebe",
    "lg",
    "tschüss",
    "ciao",
];

/// Whether a step's words are all fillers and courtesies ("please", "thanks"): no attempt at a
/// move, even where every word must be read.
pub(super) fn only_fillers(said: &str) -> bool {
    said.split_whitespace()
        .all(|w| FILLERS.contains(&w) || COURTESIES.contains(&w))
}

/// Whether `line` holds courtesies only ("Thanks!", only the listed words count).
pub fn courtesy_only(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    !words.is_empty() && words.iter().all(|w| COURTESIES.contains(w))
}

/// The steps of a text, in order, read without the choices of the moment: lines, then commas,
/// semicolons, full stops and "then" (see [`super::reading::Reading`] for the reading that also
/// knows the choices' own words).
pub fn steps(text: &str) -> Vec<Step> {
    let mut reading = super::reading::Reading::new(text);
    std::iter::from_fn(|| reading.next_step(&[])).collect()
}

fn verb_of(d: &DecisionJson) -> Option<Verb> {
    Some(match d {
        DecisionOf::Lay { .. } => Verb::Lay,
        DecisionOf::Discard { .. }
        | DecisionOf::DiscardFromHand { .. }
        | DecisionOf::DiscardFromRow { .. } => Verb::Discard,
        DecisionOf::DrawDeck | DecisionOf::DrawPile { .. } => Verb::Draw,
        DecisionOf::Step { .. } => Verb::Step,
        DecisionOf::Skip | DecisionOf::Pass => Verb::PassOrSkip,
        DecisionOf::TakeStone { .. } => Verb::Stone,
        DecisionOf::Resign | DecisionOf::TimeOut => return None,
    })
}

fn fits(w: &Words, d: &DecisionJson) -> bool {
    let Some(verb) = verb_of(d) else {
        return false;
    };
    // "The blue discard", "la défausse bleue": the discard word names the pile drawn from.
    let pile_named = w.verb == Some(Verb::Discard)
        && matches!(d, DecisionOf::DrawPile { .. })
        && w.values.is_empty();
    if w.verb.is_some_and(|v| v != verb) && !pile_named {
        return false;
    }
    let deck = w.deck || (w.deck_unless_color && w.colors.is_empty());
    if deck != matches!(d, DecisionOf::DrawDeck) {
        return false;
    }
    if w.row != matches!(d, DecisionOf::DiscardFromRow { .. }) {
        return false;
    }
    let card_fits = |card: &Card, colors: &[Color]| {
        colors.first().is_none_or(|&c| c == card.color())
            && w.values.len() <= 1
            && w.values.first().is_none_or(|&v| v == card.value())
    };
    match d {
        DecisionOf::Lay {
            card, pawn, path, ..
        } => {
            card_fits(card, &w.colors)
                && w.colors.len() <= 2
                && w.colors.get(1).is_none_or(|&c| Some(c) == *path)
                && w.pawn.is_none_or(|p| Some(p) == *pawn)
        }
        DecisionOf::Discard { card } | DecisionOf::DiscardFromHand { card } => {
            card_fits(card, &w.colors) && w.colors.len() <= 1 && w.pawn.is_none()
        }
        DecisionOf::Step { pawn, .. } => {
            w.colors.is_empty() && w.values.is_empty() && w.pawn.is_none_or(|p| p == *pawn)
        }
        DecisionOf::DiscardFromRow { color } | DecisionOf::DrawPile { color } => {
            w.colors.len() == 1 && w.colors[0] == *color && w.values.is_empty() && w.pawn.is_none()
        }
        DecisionOf::TakeStone { cards } => {
            w.colors
                .iter()
                .all(|c| cards.iter().any(|k| k.color() == *c))
                && w.values.iter().all(|v| *v == cards[0].value())
                && w.pawn.is_none()
        }
        DecisionOf::DrawDeck | DecisionOf::Skip | DecisionOf::Pass => {
            w.colors.is_empty() && w.values.is_empty() && w.pawn.is_none()
        }
        DecisionOf::Resign | DecisionOf::TimeOut => false,
    }
}

/// The choice a step names among `offered` (as the email lists them).
pub fn choose(want: &Want, offered: &[DecisionJson]) -> Result<DecisionJson, Miss> {
    match want {
        Want::Unreadable => Err(Miss::Unreadable),
        Want::Code(n) => n
            .checked_sub(1)
            .and_then(|i| offered.get(i))
            .cloned()
            .ok_or(Miss::NotAChoice),
        Want::Words(w) => {
            let fitting: Vec<usize> = (0..offered.len())
                .filter(|&i| fits(w, &offered[i]))
                .collect();
            match fitting.as_slice() {
                [] => Err(Miss::NotAChoice),
                [one] => Ok(offered[*one].clone()),
                many => Err(Miss::Ambiguous(many.iter().map(|i| i + 1).collect())),
            }
        }
    }
}

#[cfg(test)]
mod tests;
