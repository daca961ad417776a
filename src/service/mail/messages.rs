//! The emails, in English, French and German, as plain text and HTML. They say only what every
//! seat may see (a card drawn from the deck is never named), and link to the game.

use super::Language;
use crate::engine::{Card, Color, DecisionJson, Variant};

/// What a game email needs to know about its game: public facts only.
#[derive(Clone, Debug, Default)]
pub struct GameFacts {
    pub id: i64,
    pub variant: Option<Variant>,
    /// Player names by seat.
    pub players: Vec<String>,
    /// The name of whoever is to act.
    pub to_act: Option<String>,
    /// Whether that is the email's reader.
    pub reader_to_act: bool,
    /// The deadline of the seat to act (milliseconds since the Unix epoch): told only to that
    /// seat's player.
    pub deadline: Option<i64>,
    /// Decisions since the recipient's last turn, with the deciding player's name.
    pub last_moves: Vec<(String, DecisionJson)>,
    /// Once over: who won and every player's total; `None` while playing or when the game was
    /// aborted.
    pub result: Option<Outcome>,
    pub aborted: bool,
}

/// How a game ended, by player name.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub winners: Vec<String>,
    pub totals: Vec<(String, i32)>,
}

/// A rendered email.
#[derive(Clone, Debug)]
pub struct Email {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// What the email is about, with what it needs.
pub enum Subject<'a> {
    YourTurn(&'a GameFacts),
    Reminder {
        game: &'a GameFacts,
        lead_ms: i64,
    },
    Invitation {
        game: &'a GameFacts,
        by: &'a str,
    },
    Started(&'a GameFacts),
    Over(&'a GameFacts),
    /// The games waiting, with their links.
    Digest(&'a [(GameFacts, String)]),
    Verify,
}

/// Links the email carries.
pub struct Links<'a> {
    /// The game (or, for a verification, the confirmation link).
    pub main: &'a str,
    /// One-click unsubscribe from this kind of email.
    pub unsubscribe: Option<&'a str>,
}

struct Words {
    your_turn: &'static str,
    reminder: &'static str,
    invitation: &'static str,
    started: &'static str,
    over: &'static str,
    aborted: &'static str,
    digest: &'static str,
    verify_subject: &'static str,
    verify_body: &'static str,
    against: &'static str,
    to_play: &'static str,
    you_play: &'static str,
    deadline: &'static str,
    since: &'static str,
    winners: &'static str,
    scores: &'static str,
    open: &'static str,
    unsubscribe: &'static str,
    hours_left: &'static str,
    colors: [&'static str; 6],
    lay: &'static str,
    lay_path: &'static str,
    discard: &'static str,
    step: &'static str,
    skip: &'static str,
    draw_deck: &'static str,
    draw_pile: &'static str,
    discard_row: &'static str,
    take_stone: &'static str,
    pass: &'static str,
    resign: &'static str,
    time_out: &'static str,
}

const EN: Words = Words {
    your_turn: "Your turn in game {id} ({variant})",
    reminder: "{left} left for your turn in game {id}",
    invitation: "{by} invited you to a game of {variant} (game {id})",
    started: "Game {id} ({variant}) has started",
    over: "Game {id} ({variant}) is over",
    aborted: "Game {id} ({variant}) was aborted: its first turn was never played",
    digest: "{n} games are waiting for you",
    verify_subject: "Confirm your email address",
    verify_body: "Please confirm that this address is yours, so that the Keltis server may send you notices about your games:",
    against: "Players",
    to_play: "To play: {name}",
    you_play: "It is your turn.",
    deadline: "Deadline",
    since: "Since your last turn",
    winners: "Won by",
    scores: "Scores",
    open: "Open the game",
    unsubscribe: "No more emails of this kind",
    hours_left: "{h} hours",
    colors: ["green", "yellow", "brown", "blue", "pink", "gray"],
    lay: "{who} laid {card}",
    lay_path: "{who} laid {card} on the {path} path",
    discard: "{who} discarded {card}",
    step: "{who} moved a pawn",
    skip: "{who} passed up a move",
    draw_deck: "{who} drew from the deck",
    draw_pile: "{who} drew from the {color} discard pile",
    discard_row: "{who} discarded from the {color} row",
    take_stone: "{who} took a wish stone",
    pass: "{who} passed",
    resign: "{who} resigned",
    time_out: "{who} ran out of time",
};

const FR: Words = Words {
    your_turn: "À vous de jouer dans la partie {id} ({variant})",
    reminder: "Plus que {left} pour jouer dans la partie {id}",
    invitation: "{by} vous invite à une partie de {variant} (partie {id})",
    started: "La partie {id} ({variant}) a commencé",
    over: "La partie {id} ({variant}) est terminée",
    aborted: "La partie {id} ({variant}) est annulée : son premier tour n'a jamais été joué",
    digest: "{n} parties vous attendent",
    verify_subject: "Confirmez votre adresse e-mail",
    verify_body: "Confirmez que cette adresse est bien la vôtre, pour que le serveur Keltis puisse vous écrire au sujet de vos parties :",
    against: "Joueurs",
    to_play: "À jouer : {name}",
    you_play: "C'est à vous de jouer.",
    deadline: "Date limite",
    since: "Depuis votre dernier tour",
    winners: "Gagnée par",
    scores: "Scores",
    open: "Ouvrir la partie",
    unsubscribe: "Ne plus recevoir ce type d'e-mail",
    hours_left: "{h} heures",
    colors: ["vert", "jaune", "marron", "bleu", "rose", "gris"],
    lay: "{who} a posé {card}",
    lay_path: "{who} a posé {card} sur le chemin {path}",
    discard: "{who} a défaussé {card}",
    step: "{who} a avancé un pion",
    skip: "{who} a renoncé à avancer",
    draw_deck: "{who} a pioché",
    draw_pile: "{who} a pris dans la défausse {color}",
    discard_row: "{who} a défaussé de la rangée {color}",
    take_stone: "{who} a pris une pierre à souhait",
    pass: "{who} a passé",
    resign: "{who} a abandonné",
    time_out: "{who} a dépassé son temps",
};

const DE: Words = Words {
    your_turn: "Du bist am Zug in Partie {id} ({variant})",
    reminder: "Noch {left} für deinen Zug in Partie {id}",
    invitation: "{by} lädt dich zu einer Partie {variant} ein (Partie {id})",
    started: "Partie {id} ({variant}) hat begonnen",
    over: "Partie {id} ({variant}) ist beendet",
    aborted: "Partie {id} ({variant}) wurde abgebrochen: ihr erster Zug wurde nie gespielt",
    digest: "{n} Partien warten auf dich",
    verify_subject: "Bestätige deine E-Mail-Adresse",
    verify_body: "Bitte bestätige, dass diese Adresse dir gehört, damit der Keltis-Server dir über deine Partien schreiben darf:",
    against: "Spieler",
    to_play: "Am Zug: {name}",
    you_play: "Du bist am Zug.",
    deadline: "Frist",
    since: "Seit deinem letzten Zug",
    winners: "Gewonnen von",
    scores: "Punkte",
    open: "Zur Partie",
    unsubscribe: "Keine E-Mails dieser Art mehr",
    hours_left: "{h} Stunden",
    colors: ["grün", "gelb", "braun", "blau", "rosa", "grau"],
    lay: "{who} hat {card} ausgelegt",
    lay_path: "{who} hat {card} auf den {path} Pfad gelegt",
    discard: "{who} hat {card} abgeworfen",
    step: "{who} hat eine Figur gezogen",
    skip: "{who} hat auf den Zug verzichtet",
    draw_deck: "{who} hat vom Stapel gezogen",
    draw_pile: "{who} hat vom {color} Ablagestapel genommen",
    discard_row: "{who} hat aus der {color} Reihe abgeworfen",
    take_stone: "{who} hat einen Wunschstein genommen",
    pass: "{who} hat gepasst",
    resign: "{who} hat aufgegeben",
    time_out: "{who} hat die Zeit überschritten",
};

fn words(language: Language) -> &'static Words {
    match language {
        Language::En => &EN,
        Language::Fr => &FR,
        Language::De => &DE,
    }
}

fn variant_name(variant: Option<Variant>) -> &'static str {
    match variant {
        Some(Variant::Keltis) | None => "Keltis",
        Some(Variant::NeueWege) => "Keltis Neue Wege",
        Some(Variant::KeltisCard) => "Keltis Card",
    }
}

fn color(w: &Words, c: Color) -> &'static str {
    w.colors[c as usize]
}

fn card(w: &Words, c: Card) -> String {
    match c.value() {
        Some(v) => format!("{} {v}", color(w, c.color())),
        None => format!("{} ∎", color(w, c.color())),
    }
}

/// A decision in words. A draw from the deck never names the card.
pub fn decision_in_words(language: Language, who: &str, decision: &DecisionJson) -> String {
    let w = words(language);
    let template = match decision {
        DecisionJson::Lay { path: Some(_), .. } => w.lay_path,
        DecisionJson::Lay { .. } => w.lay,
        DecisionJson::Discard { .. } | DecisionJson::DiscardFromHand { .. } => w.discard,
        DecisionJson::Step { .. } => w.step,
        DecisionJson::Skip => w.skip,
        DecisionJson::DiscardFromRow { .. } => w.discard_row,
        DecisionJson::DrawDeck => w.draw_deck,
        DecisionJson::DrawPile { .. } => w.draw_pile,
        DecisionJson::TakeStone { .. } => w.take_stone,
        DecisionJson::Pass => w.pass,
        DecisionJson::Resign => w.resign,
        DecisionJson::TimeOut => w.time_out,
    };
    let mut out = template.replace("{who}", who);
    match decision {
        DecisionJson::Lay { card: c, path, .. } => {
            out = out.replace("{card}", &card(w, *c));
            if let Some(p) = path {
                out = out.replace("{path}", color(w, *p));
            }
        }
        DecisionJson::Discard { card: c } | DecisionJson::DiscardFromHand { card: c } => {
            out = out.replace("{card}", &card(w, *c));
        }
        DecisionJson::DrawPile { color: c } | DecisionJson::DiscardFromRow { color: c } => {
            out = out.replace("{color}", color(w, *c));
        }
        _ => {}
    }
    out
}

/// A time in UTC, to the minute.
pub fn utc(ms: i64) -> String {
    const UTC_MINUTES: &[time::format_description::BorrowedFormatItem<'_>] =
        time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    crate::service::format_millis(ms, UTC_MINUTES)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn fill(template: &str, game: &GameFacts) -> String {
    template
        .replace("{id}", &game.id.to_string())
        .replace("{variant}", variant_name(game.variant))
}

/// Lines describing a game: players, deadline, recent moves, result.
fn game_lines(w: &Words, language: Language, game: &GameFacts) -> Vec<String> {
    let mut lines = vec![format!("{}: {}", w.against, game.players.join(", "))];
    match (&game.to_act, game.reader_to_act) {
        (Some(_), true) => lines.push(w.you_play.to_string()),
        (Some(name), false) => lines.push(w.to_play.replace("{name}", name)),
        (None, _) => {}
    }
    // The deadline is the player's to act: the others would read it as theirs.
    if let (Some(deadline), true) = (game.deadline, game.reader_to_act) {
        lines.push(format!("{}: {}", w.deadline, utc(deadline)));
    }
    if !game.last_moves.is_empty() {
        lines.push(format!("{}:", w.since));
        for (who, d) in &game.last_moves {
            lines.push(format!("  - {}", decision_in_words(language, who, d)));
        }
    }
    if let Some(outcome) = &game.result {
        lines.push(format!("{}: {}", w.winners, outcome.winners.join(", ")));
        let scores: Vec<String> = outcome
            .totals
            .iter()
            .map(|(n, s)| format!("{n} {s}"))
            .collect();
        lines.push(format!("{}: {}", w.scores, scores.join(", ")));
    }
    lines
}

/// Render an email.
pub fn render(language: Language, subject: Subject<'_>, links: &Links<'_>) -> Email {
    let w = words(language);
    let (title, lines, link_label) = match subject {
        Subject::YourTurn(g) => (fill(w.your_turn, g), game_lines(w, language, g), w.open),
        Subject::Reminder { game, lead_ms } => {
            let left = w
                .hours_left
                .replace("{h}", &(lead_ms / 3_600_000).to_string());
            let title = fill(w.reminder, game).replace("{left}", &left);
            (title, game_lines(w, language, game), w.open)
        }
        Subject::Invitation { game, by } => (
            fill(w.invitation, game).replace("{by}", by),
            game_lines(w, language, game),
            w.open,
        ),
        Subject::Started(g) => (fill(w.started, g), game_lines(w, language, g), w.open),
        Subject::Over(g) if g.aborted => (fill(w.aborted, g), game_lines(w, language, g), w.open),
        Subject::Over(g) => (fill(w.over, g), game_lines(w, language, g), w.open),
        Subject::Digest(games) => {
            let title = w.digest.replace("{n}", &games.len().to_string());
            let lines = games
                .iter()
                .map(|(g, link)| format!("{}: {link}", fill(w.your_turn, g)))
                .collect();
            (title, lines, w.open)
        }
        Subject::Verify => (
            w.verify_subject.to_string(),
            vec![w.verify_body.to_string()],
            w.verify_subject,
        ),
    };
    let mut text = format!("{title}\n\n");
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&format!("\n{link_label}: {}\n", links.main));
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"{}\"><body><h1>{}</h1>",
        language.code(),
        escape(&title)
    );
    for line in &lines {
        html.push_str(&format!("<p>{}</p>", escape(line)));
    }
    html.push_str(&format!(
        "<p><a href=\"{}\">{}</a></p>",
        escape(links.main),
        escape(link_label)
    ));
    if let Some(unsubscribe) = links.unsubscribe {
        text.push_str(&format!("\n{}: {unsubscribe}\n", w.unsubscribe));
        html.push_str(&format!(
            "<p><small><a href=\"{}\">{}</a></small></p>",
            escape(unsubscribe),
            escape(w.unsubscribe)
        ));
    }
    html.push_str("</body></html>");
    Email {
        subject: title,
        text,
        html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_from_the_deck_never_names_the_card_in_any_language() {
        for language in [Language::En, Language::Fr, Language::De] {
            let text = decision_in_words(language, "anna", &DecisionJson::DrawDeck);
            assert!(text.starts_with("anna "), "{text}");
            let lay = DecisionJson::Lay {
                card: Card::number(Color::Blue, 5),
                pawn: None,
                to: None,
                path: None,
            };
            assert!(decision_in_words(language, "anna", &lay).contains('5'));
        }
        assert_eq!(utc(1_795_305_600_000), "2026-11-22 00:00 UTC");
    }
}
