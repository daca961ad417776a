//! The move language's round trip: every legal choice of random positions in every variant and
//! player count, said in each language by the catalogue's own words, reads back to itself and
//! to nothing else; no choice is said with an internal id.

use super::grammar::{choose, Miss};
use super::reading::Reading;
use super::saying::choice_in_words;
use super::{offered, pawn_places, phrases};
use crate::engine::setup::SeedRng;
use crate::engine::{DecisionOf, Game, Variant};
use crate::service::i18n::Language;

/// Positions of a few seeded random games of every variant and player count, with the seat to
/// act.
fn positions(seeds: u64) -> Vec<(Game, u8)> {
    let mut all = Vec::new();
    for variant in Variant::ALL {
        for players in variant.player_counts() {
            for seed in 0..seeds {
                let mut game = Game::new(variant, players, seed).expect("a game");
                let mut rng = SeedRng::new(seed ^ 0x7e47);
                while let Some(seat) = game.to_act() {
                    all.push((game.clone(), seat));
                    let legal: Vec<_> = game
                        .legal_decisions()
                        .into_iter()
                        .filter(|d| !matches!(d, DecisionOf::Resign | DecisionOf::TimeOut))
                        .collect();
                    let pick = legal[rng.below(legal.len() as u64) as usize];
                    game.apply(seat, pick).expect("a legal decision");
                }
            }
        }
    }
    all
}

#[test]
fn every_choice_said_in_every_language_reads_back_to_itself() {
    let mut checked = 0;
    for (game, seat) in positions(2) {
        let choices = offered(&game, seat);
        let places = pawn_places(&game, seat);
        let phrases = phrases(&choices, &places);
        for language in Language::ALL {
            for choice in &choices {
                let words = choice_in_words(language, choice, &places);
                let mut reading = Reading::new(&words);
                let step = reading.next_step(&phrases).expect("a step");
                assert_eq!(
                    choose(&step.want, &choices).as_ref(),
                    Ok(choice),
                    "{language:?}: {words:?} in {choices:?}"
                );
                assert!(reading.next_step(&phrases).is_none(), "{words:?}: one step");
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn no_choice_is_said_with_an_internal_id() {
    for (game, seat) in positions(1) {
        let places = pawn_places(&game, seat);
        for choice in offered(&game, seat) {
            for language in Language::ALL {
                let words = choice_in_words(language, &choice, &places);
                let id_like = words.split([' ', ',']).any(|w| {
                    w.contains('-') && w.chars().any(|c| c.is_ascii_digit())
                        || (w.starts_with('r') && w.contains('c') && w[1..2].parse::<u8>().is_ok())
                });
                assert!(!id_like, "{words}");
            }
        }
    }
}

#[test]
fn steps_follow_one_another_and_the_unknown_and_ambiguous_are_refused() {
    let game = Game::new(Variant::KeltisCard, 2, 3).expect("a game");
    let seat = game.to_act().expect("a seat to act");
    let choices = offered(&game, seat);
    let phrases = phrases(&choices, &[]);
    let en = Language::parse("en");
    // Two choices' own words, one after the other, then a number.
    let text = format!(
        "{} then {}; 1",
        choice_in_words(en, &choices[0], &[]),
        choice_in_words(en, &choices[1], &[])
    );
    let mut reading = Reading::new(&text);
    for want in [&choices[0], &choices[1], &choices[0]] {
        let step = reading.next_step(&phrases).expect("a step");
        assert_eq!(choose(&step.want, &choices).as_ref(), Ok(want));
    }
    assert!(reading.next_step(&phrases).is_none());
    // A colour alone fits several cards of a hand, or none; words of no move are unreadable.
    let mut ambiguous = 0;
    for color in ["green", "yellow", "brown", "blue", "pink"] {
        let step = Reading::new(&format!("lay {color}"))
            .next_step(&phrases)
            .expect("a step");
        match choose(&step.want, &choices) {
            Err(Miss::Ambiguous(fitting)) => {
                assert!(fitting.len() > 1);
                ambiguous += 1;
            }
            Err(Miss::NotAChoice) | Ok(_) => {}
            Err(Miss::Unreadable) => panic!("lay {color} is readable"),
        }
    }
    assert!(ambiguous > 0, "a hand of eight has two cards of a colour");
    // Words naming no move make no step in an email, and an unreadable one typed; a move's
    // words with others unknown are unreadable.
    assert!(Reading::new("lorem ipsum").next_step(&phrases).is_none());
    let typed = Reading::strict("please, lorem ipsum")
        .next_step(&phrases)
        .expect("a step");
    assert_eq!(typed.want, super::grammar::Want::Unreadable);
    assert_eq!(typed.said, "lorem ipsum");
    let step = Reading::new("lay lorem ipsum")
        .next_step(&phrases)
        .expect("a step");
    assert_eq!(choose(&step.want, &choices), Err(Miss::Unreadable));
    let step = Reading::new("99").next_step(&phrases).expect("a step");
    assert_eq!(choose(&step.want, &choices), Err(Miss::NotAChoice));
}

/// A typed move is refused when it holds what its player cannot see (control characters, line
/// ends, zero-width and direction characters), and read when it holds only visible text: emoji
/// and other symbols are read as spaces, like punctuation.
#[test]
fn what_a_player_cannot_see_is_refused() {
    use super::moves::unseen;
    for hidden in [
        "1\u{0}",
        "1\u{7f}",
        "1\u{85}",
        "1\n",
        "\t1",
        "1\r",
        "1\u{8}",
        "lay\u{0}blue 4",
        "1\u{200b}",
        "\u{202e}1\u{202c}",
        "\u{2067}1\u{2069}",
        "\u{feff}1",
        "1\u{e0041}",
    ] {
        assert!(hidden.chars().any(unseen), "{hidden:?}");
    }
    for visible in [
        "1",
        "lay blue 4",
        "1 👍",
        "wirf rosa 8 ab",
        "pose bleu 4, pioche",
        "ü é ß",
    ] {
        assert!(!visible.chars().any(unseen), "{visible:?}");
    }
}
