//! The pages the links in emails open (the address confirmed, unsubscribing), in the reader's
//! language: the account's, which the signed link names.

use super::Language;

/// Which page.
pub enum Page<'a> {
    Confirmed,
    /// The button that unsubscribes (`token`: the link's, already reduced to URL-safe characters).
    Unsubscribe {
        token: &'a str,
    },
    /// Done, for this kind of email.
    Unsubscribed {
        kind: &'a str,
    },
}

/// The page's title and its body (HTML: every value in it is ours or URL-safe).
pub fn page(language: Language, page: Page<'_>) -> (&'static str, String) {
    let (confirmed, confirmed_body, unsubscribe, button, unsubscribed, unsubscribed_body) =
        match language {
            Language::En => (
                "Email address confirmed",
                "Keltis will write to it about your games.",
                "Unsubscribe",
                "Stop these emails",
                "Unsubscribed",
                "You will get no more emails of this kind: {kind}.",
            ),
            Language::Fr => (
                "Adresse confirmée",
                "Keltis vous y écrira au sujet de vos parties.",
                "Se désabonner",
                "Ne plus recevoir ces e-mails",
                "Désabonnement effectué",
                "Vous ne recevrez plus d'e-mails de ce type : {kind}.",
            ),
            Language::De => (
                "E-Mail-Adresse bestätigt",
                "Keltis schreibt dir dorthin über deine Partien.",
                "Abbestellen",
                "Diese E-Mails nicht mehr erhalten",
                "Abbestellt",
                "Du bekommst keine E-Mails dieser Art mehr: {kind}.",
            ),
        };
    match page {
        Page::Confirmed => (confirmed, format!("<p>{confirmed_body}</p>")),
        Page::Unsubscribe { token } => (
            unsubscribe,
            format!(
                "<form method=\"post\" action=\"?token={token}\"><button type=\"submit\">{button}</button></form>"
            ),
        ),
        Page::Unsubscribed { kind } => (
            unsubscribed,
            format!(
                "<p>{}</p>",
                unsubscribed_body.replace("{kind}", kind_name(language, kind))
            ),
        ),
    }
}

/// A kind of email, in words.
fn kind_name(language: Language, kind: &str) -> &'static str {
    let names: [&'static str; 6] = match language {
        Language::En => [
            "your turn",
            "deadline reminders",
            "invitations",
            "games started",
            "games over",
            "digests",
        ],
        Language::Fr => [
            "à vous de jouer",
            "rappels d'échéance",
            "invitations",
            "parties commencées",
            "parties terminées",
            "résumés",
        ],
        Language::De => [
            "du bist am Zug",
            "Fristerinnerungen",
            "Einladungen",
            "begonnene Partien",
            "beendete Partien",
            "Zusammenfassungen",
        ],
    };
    match kind {
        "your_turn" => names[0],
        "deadline_reminder" => names[1],
        "invitation" => names[2],
        "game_started" => names[3],
        "game_over" => names[4],
        _ => names[5],
    }
}
