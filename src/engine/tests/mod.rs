//! Given / when / then tests, one or more per rule id of RULES.md, written from the rulebook.
//! "Given" arranges a state directly; "when" is one or more decisions; "then" reads the state.
//! One file per rule area, like RULES.md; the helpers that set up a "given" are here.

mod base_game;
mod both_boards;
mod card_game;
mod neue_wege;
mod plans;
mod seats_and_views;

use super::board::{SpaceIdx, TileKind};
use super::cards::{Card, Color};
use super::decision::{Decision, DecisionOf as D};
use super::game::{Game, Phase, BIG_PAWN, PLAIN_STONE, START};
use super::scoring::{EndReason, Retirement};
use super::setup::Setup;
use super::{RuleError, Variant};

use Color::{Blue, Brown, Gray, Green, Pink, Yellow};

fn c(color: Color, value: u8) -> Card {
    Card::number(color, value)
}

/// A game whose seats hold exactly these hands, seat 0 to start, every tile removed and every
/// pile of wish stones full. The rest of the deck is the draw pile in deck order.
fn given(variant: Variant, hands: &[&[Card]]) -> Game {
    let players = hands.len() as u8;
    let mut setup = Setup::deal(variant, players, 7).expect("valid player count");
    let mut pool: Vec<Card> = setup
        .draw_pile
        .iter()
        .chain(&setup.removed)
        .chain(setup.hands.iter().flatten())
        .copied()
        .collect();
    pool.sort();
    for card in hands.iter().flat_map(|h| h.iter()) {
        let i = pool
            .iter()
            .position(|c| c == card)
            .unwrap_or_else(|| panic!("{card} is not left in the deck"));
        pool.remove(i);
    }
    let mut dealt = Vec::new();
    for hand in hands {
        let mut h = hand.to_vec();
        // Fill short hands from the pool so that every seat starts with 8 (K3).
        while h.len() < 8 {
            h.push(pool.remove(pool.len() - 1));
        }
        dealt.push(h);
    }
    setup.hands = dealt;
    setup.removed = Vec::new();
    setup.draw_pile = pool;
    setup.start_player = 0;
    let mut g = Game::from_setup(&setup).expect("arranged setup is consistent");
    g.tiles.iter_mut().for_each(|t| *t = None);
    g
}

fn space(g: &Game, id: &str) -> SpaceIdx {
    g.board()
        .and_then(|b| b.index_of(id))
        .unwrap_or_else(|| panic!("no space {id}"))
}

fn lay(card: Card, pawn: u8, to: SpaceIdx) -> Decision {
    D::Lay {
        card,
        pawn: Some(pawn),
        to: Some(to),
        path: None,
    }
}

fn lay_on(card: Card, path: Color) -> Decision {
    D::Lay {
        card,
        pawn: None,
        to: None,
        path: Some(path),
    }
}

/// Apply and check that the decision was listed as legal first.
fn play(g: &mut Game, seat: u8, d: Decision) {
    assert!(
        g.legal_decisions().contains(&d.normalized()),
        "{d:?} should be legal; legal: {:?}",
        g.legal_decisions()
    );
    g.apply(seat, d)
        .unwrap_or_else(|e| panic!("{d:?} refused: {e}"));
}

/// Apply, expect the error code, and check that nothing changed.
fn refused(g: &mut Game, seat: u8, d: Decision, code: &str) {
    let before = g.clone();
    let err = g.apply(seat, d).expect_err("decision should be refused");
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(*g, before, "a refused decision changes nothing");
    if g.to_act() == Some(seat) {
        assert!(!g.legal_decisions().contains(&d));
    }
}

/// Given: it is `seat`'s turn again, at its start (to test several lays in a row).
fn give_turn_to(g: &mut Game, seat: u8) {
    g.turn_player = seat;
    g.to_act = seat;
    g.phase = Phase::Play;
}

fn draw_deck(g: &mut Game, seat: u8) {
    play(g, seat, D::DrawDeck);
}
