//! Plans for the next turn (`planning`): rehearsed on the turn as it would begin, checked again
//! when it begins. No rule of RULES.md: what players may plan is the server's (docs/playing.md,
//! "Plans"); the rules that make a step illegal are the rules' own (K7, C8, B5).

use super::*;
use crate::engine::planning::{check, rehearse, Condition, PlanMiss};

/// Given: seat 0 is to play, seat 1 plans its next turn on what it sees.
fn card_game(hand0: &[Card], hand1: &[Card]) -> Game {
    given(Variant::KeltisCard, &[hand0, hand1])
}

#[test]
fn the_next_turn_keeps_the_hand_and_gives_the_seat_its_play() {
    let g = card_game(&[], &[c(Blue, 3)]);
    assert!(
        g.next_turn_of(0).is_none(),
        "the seat to act plays, not plans"
    );
    let next = g.next_turn_of(1).expect("seat 1 plays next");
    assert_eq!(next.to_act(), Some(1));
    assert_eq!(next.phase(), Phase::Play);
    assert_eq!(next.hand(1), g.hand(1));
    assert!(next.at_turn_start_of(1));
}

#[test]
fn a_plan_is_one_turn_every_step_legal() {
    let g = card_game(&[], &[c(Blue, 3)]);
    let next = g.next_turn_of(1).unwrap();
    let (after, _) = rehearse(&next, 1, &[lay_on(c(Blue, 3), Blue), D::DrawDeck]).unwrap();
    assert_eq!(after.to_act(), Some(0), "the turn is over");
    assert_eq!(
        rehearse(
            &next,
            1,
            &[lay_on(c(Blue, 3), Blue), D::DrawDeck, D::DrawDeck]
        )
        .unwrap_err(),
        PlanMiss::TurnOver { step: 2 }
    );
    assert_eq!(rehearse(&next, 1, &[]).unwrap_err(), PlanMiss::NoSteps);
    let refused = rehearse(&next, 1, &[D::DrawDeck]).unwrap_err();
    assert!(
        matches!(refused, PlanMiss::StepRefused { step: 0, ref error } if error.code() == "unexpected_decision"),
        "{refused:?}"
    );
    // A plan may leave the rest of the turn to its player.
    assert!(rehearse(&next, 1, &[lay_on(c(Blue, 3), Blue)]).is_ok());
}

#[test]
fn a_plan_that_draws_from_a_pile_waits_for_its_card_only_when_asked() {
    // Given: the blue pile shows the blue 7 when seat 1, waiting, plans to take it.
    let mut g = card_game(&[c(Blue, 7), c(Pink, 2)], &[c(Green, 4), c(Yellow, 1)]);
    play(&mut g, 0, D::Discard { card: c(Blue, 7) });
    draw_deck(&mut g, 0);
    play(&mut g, 1, D::Discard { card: c(Yellow, 1) });
    draw_deck(&mut g, 1);
    let steps = [
        D::Discard { card: c(Green, 4) },
        D::DrawPile { color: Blue },
    ];
    let (_, seen) = rehearse(&g.next_turn_of(1).unwrap(), 1, &steps).unwrap();
    assert_eq!(seen.piles.len(), 1);
    assert_eq!(seen.piles[0].top, Some(c(Blue, 7)));
    // When: seat 0 draws from the deck, the blue 7 stays: the plan is played either way.
    let mut unchanged = g.clone();
    play(&mut unchanged, 0, D::Discard { card: c(Pink, 2) });
    draw_deck(&mut unchanged, 0);
    for conditions in [&[][..], &[Condition::PilesUnchanged]] {
        assert_eq!(check(&unchanged, 1, &steps, conditions, &seen), Ok(()));
    }
    // When: seat 0 takes the blue 7 instead.
    let mut taken = g.clone();
    play(&mut taken, 0, D::Discard { card: c(Pink, 2) });
    play(&mut taken, 0, D::DrawPile { color: Blue });
    // Then: with the condition the plan is not played, and says why.
    assert_eq!(
        check(&taken, 1, &steps, &[Condition::PilesUnchanged], &seen),
        Err(PlanMiss::PileChanged {
            color: Blue,
            was: Some(c(Blue, 7)),
            now: None
        })
    );
    // Without it, the rules refuse the draw from an empty pile.
    let miss = check(&taken, 1, &steps, &[], &seen).unwrap_err();
    assert!(
        matches!(miss, PlanMiss::StepRefused { step: 1, ref error } if error.code() == "pile_empty"),
        "{miss:?}"
    );
}

#[test]
fn a_plan_whose_pawn_would_take_a_stone_waits_for_the_stone_only_when_asked() {
    // Given: a wish stone on pink-1, which seat 1 plans to reach.
    let mut g = given(Variant::Keltis, &[&[c(Pink, 2)], &[c(Pink, 1)]]);
    let pink1 = space(&g, "pink-1");
    g.tiles[pink1 as usize] = Some(TileKind::WishStone(None));
    let steps = [lay(c(Pink, 1), 1, pink1), D::DrawDeck];
    let (_, seen) = rehearse(&g.next_turn_of(1).unwrap(), 1, &steps).unwrap();
    assert_eq!(seen.spaces.len(), 1);
    assert_eq!(seen.spaces[0].space, "pink-1");
    assert_eq!(seen.spaces[0].tile.as_deref(), Some("wish_stone"));
    // When: seat 0's pawn takes the stone first.
    play(&mut g, 0, lay(c(Pink, 2), 1, pink1));
    draw_deck(&mut g, 0);
    assert_eq!(g.tile_at(pink1), None);
    // Then: the condition holds the plan back; without it the lay is still legal and played.
    assert_eq!(
        check(&g, 1, &steps, &[Condition::SpacesUnchanged], &seen),
        Err(PlanMiss::SpaceChanged {
            space: "pink-1".into()
        })
    );
    assert_eq!(check(&g, 1, &steps, &[], &seen), Ok(()));
}

#[test]
fn c8_a_wish_stone_taken_by_the_other_player_refuses_the_plan_that_wanted_it() {
    let mut g = card_game(&[c(Blue, 5), c(Pink, 5)], &[c(Green, 5), c(Yellow, 5)]);
    let take = D::TakeStone {
        cards: [c(Green, 5), c(Yellow, 5)],
    };
    let steps = [take, D::DrawDeck, D::DrawDeck];
    let (_, seen) = rehearse(&g.next_turn_of(1).unwrap(), 1, &steps).unwrap();
    play(
        &mut g,
        0,
        D::TakeStone {
            cards: [c(Blue, 5), c(Pink, 5)],
        },
    );
    draw_deck(&mut g, 0);
    draw_deck(&mut g, 0);
    let miss = check(&g, 1, &steps, &[], &seen).unwrap_err();
    assert!(
        matches!(miss, PlanMiss::StepRefused { step: 0, .. }),
        "{miss:?}"
    );
}

#[test]
fn a_plan_is_played_only_at_the_start_of_its_turn() {
    let mut g = card_game(&[], &[c(Blue, 3)]);
    let steps = [lay_on(c(Blue, 3), Blue), D::DrawDeck];
    let (_, seen) = rehearse(&g.next_turn_of(1).unwrap(), 1, &steps).unwrap();
    assert_eq!(
        check(&g, 1, &steps, &[], &seen),
        Err(PlanMiss::NotTurnStart)
    );
    give_turn_to(&mut g, 1);
    assert_eq!(check(&g, 1, &steps, &[], &seen), Ok(()));
    g.phase = Phase::Draw;
    assert_eq!(
        check(&g, 1, &steps, &[], &seen),
        Err(PlanMiss::NotTurnStart)
    );
    g.phase = Phase::Over;
    assert_eq!(check(&g, 1, &steps, &[], &seen), Err(PlanMiss::GameOver));
    assert!(g.next_turn_of(0).is_none());
}

#[test]
fn c9_in_the_final_phase_the_next_turn_is_one_play_if_one_is_left() {
    let mut g = card_game(&[], &[c(Blue, 3)]);
    g.phase = Phase::FinalPlay { left: 4 };
    let next = g.next_turn_of(1).expect("a play is left for seat 1");
    assert_eq!(next.phase(), Phase::FinalPlay { left: 3 });
    assert!(rehearse(&next, 1, &[D::Pass]).is_ok());
    assert_eq!(
        rehearse(&next, 1, &[D::Pass, D::Pass]).unwrap_err(),
        PlanMiss::TurnOver { step: 1 }
    );
    g.phase = Phase::FinalPlay { left: 1 };
    assert!(g.next_turn_of(1).is_none(), "the last play is seat 0's");
}
