//! The emails' words: what they name, in every language.

use super::*;
use crate::engine::{Card, Color};

#[test]
fn a_draw_from_the_deck_never_names_the_card_in_any_language() {
    for language in Language::ALL {
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

#[test]
fn every_email_renders_with_its_values_escaped_in_html() {
    let game = GameFacts {
        id: 12,
        variant: Some(Variant::Keltis),
        players: vec!["<b>anna</b>".into(), "bob & co".into()],
        to_act: Some("<b>anna</b>".into()),
        reader_to_act: true,
        deadline: Some(1_795_305_600_000),
        last_moves: vec![("bob & co".into(), DecisionJson::DrawDeck)],
        result: None,
        aborted: false,
        plan_not_played: None,
    };
    let links = Links {
        main: "https://keltis.example/games/12?a=1&b=2",
        unsubscribe: Some("https://keltis.example/api/v1/email/unsubscribe?token=x"),
    };
    for language in Language::ALL {
        let email = render(language, Subject::YourTurn(&game), &links);
        assert!(email.subject.contains("12"), "{}", email.subject);
        assert!(
            email.html.contains("&lt;b&gt;anna&lt;&#x2f;b&gt;"),
            "{}",
            email.html
        );
        assert!(!email.html.contains("<b>"), "{}", email.html);
        assert!(email.html.contains("bob &amp; co"), "{}", email.html);
        assert!(email.html.contains("?a=1&amp;b=2"), "{}", email.html);
        assert!(email.html.contains("<li>"), "{}", email.html);
        // The plain text is not escaped.
        assert!(email.text.contains("<b>anna</b>"), "{}", email.text);
        assert!(email.text.contains("  - bob & co "), "{}", email.text);
        assert!(email.text.contains("?a=1&b=2"), "{}", email.text);
        assert!(
            email.text.contains("2026-11-22 00:00 UTC"),
            "{}",
            email.text
        );
    }
    let digest = [(game.clone(), "https://keltis.example/games/12".to_string())];
    let email = render(
        Language::De,
        Subject::Digest {
            waiting: &digest,
            unread_messages: 0,
        },
        &links,
    );
    assert_eq!(email.subject, "Eine Partie wartet auf dich");
    assert!(email.text.contains("Partie 12"), "{}", email.text);
    let email = render(Language::Fr, Subject::Verify, &links);
    assert!(
        email.text.starts_with("Confirmez votre adresse e-mail\n"),
        "{}",
        email.text
    );
}

/// An invitation rendered after its game started names the players, never whose turn it is nor a
/// deadline (it once told a player "It is your turn" who was not to act).
#[test]
fn an_invitation_never_says_whose_turn_it_is() {
    let game = GameFacts {
        id: 7,
        variant: Some(Variant::Keltis),
        players: vec!["anna".into(), "bert".into()],
        to_act: Some("anna".into()),
        reader_to_act: true,
        deadline: Some(1_795_305_600_000),
        last_moves: vec![("bert".into(), DecisionJson::DrawDeck)],
        result: None,
        aborted: false,
        plan_not_played: None,
    };
    let links = Links {
        main: "https://keltis.example/games/7",
        unsubscribe: None,
    };
    for language in Language::ALL {
        let email = render(
            language,
            Subject::Invitation {
                game: &game,
                by: "bert",
                rematch: false,
            },
            &links,
        );
        for id in ["mail-you-play", "mail-deadline"] {
            let words = i18n::word(language, id);
            assert!(!email.text.contains(&words), "{language:?}: {}", email.text);
        }
        assert!(!email.text.contains("2026-11-22"), "{}", email.text);
        assert!(email.text.contains("anna, bert"), "{}", email.text);
    }
    let turn = render(Language::En, Subject::YourTurn(&game), &links);
    assert!(turn.text.contains("It is your turn."), "{}", turn.text);
}
