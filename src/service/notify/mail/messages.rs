//! The emails, as plain text and HTML: the catalogue's words (`service/i18n/`, `mail-*`) in the
//! templates (`templates/email.*`). They say only what every seat may see (a card drawn from the
//! deck is never named), and link to the game.

use serde::Serialize;

use super::offers::{answer_text, offer_text, OfferText, ReplyAnswer, TurnOffer};
use super::templates;
use crate::engine::{DecisionJson, Variant};
pub use crate::service::words::saying::decision_in_words;

use crate::service::i18n::{self, Arg, Language};

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
    /// Why the reader's plan for this turn was not played, in words (told with their turn).
    pub plan_not_played: Option<String>,
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
    /// "Your turn", with the choices to answer by email.
    YourTurnByReply {
        game: &'a GameFacts,
        offer: &'a TurnOffer,
    },
    /// The answer to a reply by email.
    MailReply {
        game: &'a GameFacts,
        answer: ReplyAnswer<'a>,
    },
    Reminder {
        game: &'a GameFacts,
        lead_ms: i64,
    },
    Invitation {
        game: &'a GameFacts,
        by: &'a str,
        /// A rematch offered at this finished game.
        rematch: bool,
    },
    Started(&'a GameFacts),
    Over(&'a GameFacts),
    /// News of an event, in one line.
    Event {
        title: &'a str,
    },
    /// The games waiting, with their links.
    /// The games waiting (with their links), and the chat messages unread since the last digest.
    Digest {
        waiting: &'a [(GameFacts, String)],
        unread_messages: i64,
    },
    Verify,
    /// The link to choose a new password.
    PasswordReset,
    /// The password was changed (with a link to reset it, if that was not the owner).
    PasswordChanged,
    /// Two-factor sign-in was turned on or off (with a link to the settings).
    TwoFactorChanged {
        on: bool,
    },
    /// The account was deleted (with a link to the server).
    AccountDeleted,
    /// A moderator muted or suspended the account until a time, and why.
    Moderated {
        suspended: bool,
        until: i64,
        reason: &'a str,
    },
}

/// Links the email carries.
pub struct Links<'a> {
    /// The game (or, for a verification, the confirmation link).
    pub main: &'a str,
    /// One-click unsubscribe from this kind of email.
    pub unsubscribe: Option<&'a str>,
}

fn variant_name(variant: Option<Variant>) -> &'static str {
    match variant {
        Some(Variant::Keltis) | None => "Keltis",
        Some(Variant::NeueWege) => "Keltis Neue Wege",
        Some(Variant::KeltisCard) => "Keltis Card",
    }
}

/// A time in UTC, to the minute.
pub fn utc(ms: i64) -> String {
    const UTC_MINUTES: &[time::format_description::BorrowedFormatItem<'_>] =
        time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    crate::service::format_millis(ms, UTC_MINUTES)
}

/// A message about a game: its id and variant filled in.
fn about(language: Language, id: &str, game: &GameFacts, more: &[Arg<'_>]) -> String {
    let mut args: Vec<Arg<'_>> = vec![
        ("id", game.id.into()),
        ("variant", variant_name(game.variant).into()),
    ];
    args.extend(more.iter().cloned());
    i18n::text(language, id, &args)
}

/// What a template shows of a game.
#[derive(Default, Serialize)]
struct GameText {
    /// Players, whose turn, the deadline.
    lines: Vec<String>,
    /// The decisions since the reader's last turn.
    moves: Vec<String>,
    /// Who won, the scores.
    result: Vec<String>,
}

fn game_text(language: Language, game: &GameFacts) -> GameText {
    let word = |id| i18n::word(language, id);
    let mut text = GameText {
        lines: vec![format!(
            "{}: {}",
            word("mail-players"),
            game.players.join(", ")
        )],
        ..GameText::default()
    };
    match (&game.to_act, game.reader_to_act) {
        (Some(_), true) => text.lines.push(word("mail-you-play")),
        (Some(name), false) => text.lines.push(i18n::text(
            language,
            "mail-to-play",
            &[("name", name.as_str().into())],
        )),
        (None, _) => {}
    }
    if let Some(reason) = &game.plan_not_played {
        text.lines.push(i18n::text(
            language,
            "plan-not-played",
            &[("reason", reason.as_str().into())],
        ));
    }
    // The deadline is the player's to act: the others would read it as theirs.
    if let (Some(deadline), true) = (game.deadline, game.reader_to_act) {
        text.lines
            .push(format!("{}: {}", word("mail-deadline"), utc(deadline)));
    }
    text.moves = game
        .last_moves
        .iter()
        .map(|(who, d)| decision_in_words(language, who, d))
        .collect();
    if let Some(outcome) = &game.result {
        text.result.push(format!(
            "{}: {}",
            word("mail-winners"),
            outcome.winners.join(", ")
        ));
        let scores: Vec<String> = outcome
            .totals
            .iter()
            .map(|(n, s)| format!("{n} {s}"))
            .collect();
        text.result
            .push(format!("{}: {}", word("mail-scores"), scores.join(", ")));
    }
    text
}

/// A game in a digest.
#[derive(Serialize)]
struct DigestEntry {
    title: String,
    link: String,
}

/// Everything the templates show.
#[derive(Serialize)]
struct Context<'a> {
    lang: &'static str,
    title: &'a str,
    #[serde(flatten)]
    game: GameText,
    since: String,
    /// Moves by email: what a reply played, and the choices offered.
    played: Vec<String>,
    played_label: String,
    #[serde(flatten)]
    offer: OfferText,
    games: Vec<DigestEntry>,
    link: &'a str,
    link_label: String,
    unsubscribe: Option<&'a str>,
    unsubscribe_label: String,
}

/// Render an email.
pub fn render(language: Language, subject: Subject<'_>, links: &Links<'_>) -> Email {
    let word = |id| i18n::word(language, id);
    let mut games = Vec::new();
    let mut offer = OfferText::default();
    let mut played = Vec::new();
    let (title, game, link_label) = match subject {
        Subject::YourTurn(g) => (
            about(language, "mail-your-turn", g, &[]),
            game_text(language, g),
            word("mail-open"),
        ),
        Subject::YourTurnByReply { game, offer: o } => {
            offer = offer_text(language, o);
            (
                about(language, "mail-your-turn", game, &[]),
                game_text(language, game),
                word("mail-open"),
            )
        }
        Subject::MailReply { game, answer } => {
            let mut text = game_text(language, game);
            let answered = answer_text(language, &answer, std::mem::take(&mut text.lines));
            text.lines = answered.lines;
            played = answered.played;
            offer = answered.offer;
            (
                about(language, answered.subject, game, &[]),
                text,
                word("mail-open"),
            )
        }
        Subject::Reminder { game, lead_ms } => (
            about(
                language,
                "mail-reminder",
                game,
                &[("hours", (lead_ms / 3_600_000).into())],
            ),
            game_text(language, game),
            word("mail-open"),
        ),
        // An invitation is rendered when it is sent, perhaps after the game started: whose turn
        // it is then is for the "your turn" email to say, never the invitation.
        Subject::Invitation { game, by, rematch } => (
            about(
                language,
                if rematch {
                    "mail-rematch"
                } else {
                    "mail-invitation"
                },
                game,
                &[("by", by.into())],
            ),
            game_text(
                language,
                &GameFacts {
                    to_act: None,
                    reader_to_act: false,
                    deadline: None,
                    last_moves: Vec::new(),
                    ..game.clone()
                },
            ),
            word("mail-open"),
        ),
        Subject::Started(g) => (
            about(language, "mail-started", g, &[]),
            game_text(language, g),
            word("mail-open"),
        ),
        Subject::Over(g) => (
            about(
                language,
                if g.aborted {
                    "mail-aborted"
                } else {
                    "mail-over"
                },
                g,
                &[],
            ),
            game_text(language, g),
            word("mail-open"),
        ),
        Subject::Digest {
            waiting,
            unread_messages,
        } => {
            games = waiting
                .iter()
                .map(|(g, link)| DigestEntry {
                    title: about(language, "mail-your-turn", g, &[]),
                    link: link.clone(),
                })
                .collect();
            let count = i64::try_from(waiting.len()).unwrap_or(i64::MAX);
            let title = if count > 0 {
                i18n::text(language, "mail-digest", &[("count", count.into())])
            } else {
                i18n::text(
                    language,
                    "mail-digest-chat",
                    &[("count", unread_messages.into())],
                )
            };
            let lines = if count > 0 && unread_messages > 0 {
                vec![i18n::text(
                    language,
                    "mail-digest-chat",
                    &[("count", unread_messages.into())],
                )]
            } else {
                Vec::new()
            };
            (
                title,
                GameText {
                    lines,
                    ..GameText::default()
                },
                word("mail-open"),
            )
        }
        Subject::Event { title } => (title.to_string(), GameText::default(), word("event-open")),
        Subject::Verify => (
            word("mail-verify-subject"),
            GameText {
                lines: vec![word("mail-verify-body")],
                ..GameText::default()
            },
            word("mail-verify-subject"),
        ),
        Subject::PasswordReset => (
            word("mail-reset-subject"),
            GameText {
                lines: vec![word("mail-reset-body"), word("mail-reset-ignore")],
                ..GameText::default()
            },
            word("mail-reset-link"),
        ),
        Subject::PasswordChanged => (
            word("mail-password-changed-subject"),
            GameText {
                lines: vec![word("mail-password-changed-body")],
                ..GameText::default()
            },
            word("mail-password-changed-link"),
        ),
        Subject::TwoFactorChanged { on } => {
            let (subject, body) = if on {
                ("mail-two-factor-on-subject", "mail-two-factor-on-body")
            } else {
                ("mail-two-factor-off-subject", "mail-two-factor-off-body")
            };
            (
                word(subject),
                GameText {
                    lines: vec![word(body)],
                    ..GameText::default()
                },
                word("mail-two-factor-link"),
            )
        }
        Subject::Moderated {
            suspended,
            until,
            reason,
        } => {
            let until = crate::service::utc_text(until);
            let subject = if suspended {
                "mail-suspended-subject"
            } else {
                "mail-muted-subject"
            };
            (
                i18n::text(language, subject, &[("until", until.into())]),
                GameText {
                    lines: vec![i18n::text(
                        language,
                        "mail-moderated-reason",
                        &[("reason", reason.into())],
                    )],
                    ..GameText::default()
                },
                word("mail-open"),
            )
        }
        Subject::AccountDeleted => (
            word("mail-account-deleted-subject"),
            GameText {
                lines: vec![
                    word("mail-account-deleted-body"),
                    word("mail-account-deleted-kept"),
                ],
                ..GameText::default()
            },
            word("mail-account-deleted-link"),
        ),
    };
    let context = Context {
        lang: language.code(),
        title: &title,
        game,
        since: word("mail-since"),
        played,
        played_label: word("mail-reply-played"),
        offer,
        games,
        link: links.main,
        link_label,
        unsubscribe: links.unsubscribe,
        unsubscribe_label: word("mail-unsubscribe"),
    };
    Email {
        text: templates::render("email.txt", &context),
        html: templates::render("email.html", &context),
        subject: title,
    }
}

#[cfg(test)]
mod tests;
