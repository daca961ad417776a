use super::*;

fn card(color: Color, value: u8) -> Card {
    Card::number(color, value)
}

fn lay(color: Color, value: u8, pawn: u8) -> DecisionJson {
    DecisionOf::Lay {
        card: card(color, value),
        pawn: Some(pawn),
        to: Some(format!("{color:?}-{pawn}").to_lowercase()),
        path: None,
    }
}

/// A Keltis turn's first choices: blue 4 with two pawns, pink 8 with one, and their discards.
fn play_choices() -> Vec<DecisionJson> {
    vec![
        lay(Color::Blue, 4, 0),
        lay(Color::Blue, 4, 1),
        lay(Color::Pink, 8, 2),
        DecisionOf::Discard {
            card: card(Color::Blue, 4),
        },
        DecisionOf::Discard {
            card: card(Color::Pink, 8),
        },
    ]
}

fn draw_choices() -> Vec<DecisionJson> {
    vec![
        DecisionOf::DrawDeck,
        DecisionOf::DrawPile { color: Color::Blue },
        DecisionOf::DrawPile {
            color: Color::Green,
        },
    ]
}

fn wants(text: &str) -> Vec<Want> {
    steps(text).into_iter().map(|s| s.want).collect()
}

#[test]
fn a_reply_is_cut_into_steps() {
    assert_eq!(wants("3 then deck").len(), 2);
    assert_eq!(wants("3, deck").len(), 2);
    assert_eq!(wants("Hi!\n3\ndeck\nThanks, Anna").len(), 2);
    assert_eq!(wants("3 puis pioche").len(), 2);
    assert_eq!(wants("3 dann Nachziehstapel").len(), 2);
    assert_eq!(wants("3")[0], Want::Code(3));
    assert!(wants("Good game!").is_empty());
    assert_eq!(wants("see you at 5"), vec![Want::Unreadable]);
}

#[test]
fn numbers_name_the_listed_choice() {
    let offered = play_choices();
    assert_eq!(choose(&Want::Code(3), &offered), Ok(offered[2].clone()));
    assert_eq!(choose(&Want::Code(0), &offered), Err(Miss::NotAChoice));
    assert_eq!(choose(&Want::Code(6), &offered), Err(Miss::NotAChoice));
}

#[test]
fn words_name_a_choice_in_three_languages() {
    let offered = play_choices();
    for (text, index) in [
        ("lay blue 4 pawn 1", 1),
        ("lay blue 4 big pawn", 0),
        ("pose bleu 4 pion 1", 1),
        ("lege blau 4 Figur 1", 1),
        ("lay pink 8", 2),
        ("discard pink 8", 4),
        ("défausse rose 8", 4),
        ("wirf rosa 8 ab", 4),
    ] {
        let want = &steps(text)[0].want;
        assert_eq!(choose(want, &offered), Ok(offered[index].clone()), "{text}");
    }
    let draws = draw_choices();
    for (text, index) in [
        ("draw deck", 0),
        ("deck", 0),
        ("draw blue", 1),
        ("pioche", 0),
        ("pioche la défausse bleue", 1),
        ("ziehe vom blauen Stapel", 1),
        ("Nachziehstapel", 0),
        ("green", 2),
        ("take blue", 1),
        ("take the blue discard", 1),
        ("prends le bleu", 1),
        ("prends la défausse bleue", 1),
        ("je prends la défausse verte", 2),
        ("la défausse verte", 2),
        ("nimm blau", 1),
        ("ziehe blau", 1),
    ] {
        let want = &steps(text)[0].want;
        assert_eq!(choose(want, &draws), Ok(draws[index].clone()), "{text}");
    }
}

#[test]
fn a_wish_stone_is_taken_whatever_verb_comes_with_it() {
    let stone = DecisionOf::TakeStone {
        cards: [card(Color::Blue, 3), card(Color::Gray, 3)],
    };
    let mut offered = draw_choices();
    offered.push(stone.clone());
    for text in ["take stone", "prends la pierre", "nimm den Stein"] {
        assert_eq!(
            choose(&steps(text)[0].want, &offered),
            Ok(stone.clone()),
            "{text}"
        );
    }
}

#[test]
fn nothing_is_guessed() {
    let offered = play_choices();
    // Two pawns could take blue 4; a lay or a discard of blue 4.
    let want = &steps("lay blue 4")[0].want;
    assert_eq!(choose(want, &offered), Err(Miss::Ambiguous(vec![1, 2])));
    let want = &steps("blue 4")[0].want;
    assert_eq!(choose(want, &offered), Err(Miss::Ambiguous(vec![1, 2, 4])));
    // A card not in hand, a pile in the play phase.
    let want = &steps("lay green 7")[0].want;
    assert_eq!(choose(want, &offered), Err(Miss::NotAChoice));
    let want = &steps("draw deck")[0].want;
    assert_eq!(choose(want, &offered), Err(Miss::NotAChoice));
    assert_eq!(choose(&Want::Unreadable, &offered), Err(Miss::Unreadable));
}

/// Keltis Card (C4): a gray card goes on a colour path whose top card has its value, or on the
/// gray path; the path is named after the card.
#[test]
fn a_gray_card_names_its_path() {
    let gray_on = |path: Color| DecisionOf::Lay {
        card: card(Color::Gray, 4),
        pawn: None,
        to: None,
        path: Some(path),
    };
    let offered = vec![
        gray_on(Color::Blue),
        gray_on(Color::Green),
        gray_on(Color::Gray),
        DecisionOf::Discard {
            card: card(Color::Gray, 4),
        },
    ];
    for (text, index) in [
        ("lay gray 4 blue", 0),
        ("lay grey 4 on the green path", 1),
        ("lay gray 4 gray", 2),
        ("pose gris 4 sur le chemin vert", 1),
        ("pose gris 4 bleu", 0),
        ("lege grau 4 auf blau", 0),
        ("lege grau 4 grau", 2),
        ("discard gray 4", 3),
    ] {
        let want = &steps(text)[0].want;
        assert_eq!(choose(want, &offered), Ok(offered[index].clone()), "{text}");
    }
    // Without its path the card fits three choices: the player is asked.
    let want = &steps("lay gray 4")[0].want;
    assert_eq!(choose(want, &offered), Err(Miss::Ambiguous(vec![1, 2, 3])));
}

#[test]
fn courtesies_alone_are_no_attempt_at_a_move() {
    assert!(courtesy_only("Thanks!"));
    assert!(courtesy_only("Merci, à bientôt"));
    assert!(courtesy_only("Viele Grüße"));
    assert!(!courtesy_only("Lorem ipsum dolor"));
    assert!(!courtesy_only(""));
}
