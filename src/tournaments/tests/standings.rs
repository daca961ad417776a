//! Standings and tie-breaks against examples worked by hand.

use super::*;
use crate::tournaments::standings::{standings, TieBreakValue};

const A: Entrant = 1;
const B: Entrant = 2;
const C: Entrant = 3;
const D: Entrant = 4;
const E: Entrant = 5;
const F: Entrant = 6;

fn by_points(value: f64) -> TieBreakValue {
    TieBreakValue::Points(points(value))
}

/// Points by place: a draw shares first and second place's points; three tied of four share
/// 3 + 2 + 1.
#[test]
fn tied_places_share_their_points() {
    assert_eq!(
        Scoring::standard(2).points(&[1, 1]),
        vec![points(0.5), points(0.5)]
    );
    assert_eq!(
        Scoring::standard(4).points(&[1, 1, 1, 4]),
        vec![points(2.0), points(2.0), points(2.0), points(0.0)]
    );
    assert_eq!(
        Scoring::standard(4).points(&[2, 1, 2, 4]),
        vec![points(1.5), points(3.0), points(1.5), points(0.0)]
    );
    assert_eq!(Scoring::standard(3).bye, points(1.0));
    assert_eq!(Scoring::standard(4).bye, points(1.5));
    assert_eq!(Scoring::standard(2).half_bye, points(0.5));
    assert!(Scoring::standard(3).is_valid(3));
    assert!(!Scoring::with_places(vec![points(0.0), points(1.0)], points(1.0)).is_valid(2));
}

/// Given four players and three rounds:
///   R1 A-C 1-0, B-D 1-0;  R2 A-B 1-0, C-D 1-0;  R3 A-D 0-1, B-C 1-0.
/// A and B have 2 points, C and D 1. Buchholz (opponents' points): A 1+2+1 = 4, B 1+2+1 = 4,
/// C 2+1+2 = 5, D 2+1+2 = 5: still tied. Sonneborn-Berger (points won times that opponent's
/// points): A 1·1 + 1·2 + 0 = 3, B 1·1 + 0 + 1·1 = 2, C 0 + 1·1 + 0 = 1, D 0 + 0 + 1·2 = 2.
/// So: A, B, D, C.
#[test]
fn two_seats_break_ties_by_buchholz_then_sonneborn_berger() {
    let played = [
        duel(1, A, C, 1.0),
        duel(1, B, D, 1.0),
        duel(2, A, B, 1.0),
        duel(2, C, D, 1.0),
        duel(3, A, D, 0.0),
        duel(3, B, C, 1.0),
    ];
    let table = standings(&[A, B, C, D], &played, &[], &Scoring::standard(2), 2);
    let rows: Vec<(Entrant, u32, Points, Vec<TieBreakValue>)> = table
        .iter()
        .map(|s| (s.entrant, s.place, s.points, s.tie_breaks.clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (A, 1, points(2.0), vec![by_points(4.0), by_points(3.0)]),
            (B, 2, points(2.0), vec![by_points(4.0), by_points(2.0)]),
            (D, 3, points(1.0), vec![by_points(5.0), by_points(2.0)]),
            (C, 4, points(1.0), vec![by_points(5.0), by_points(1.0)]),
        ]
    );
}

/// Tied on points and every tie-break: the same place, listed by seed; a bye counts its points
/// and nothing to Buchholz.
#[test]
fn a_full_tie_shares_the_place() {
    let played = [duel(1, A, B, 0.5)];
    let byes = [Bye {
        round: 1,
        entrant: C,
        points: Points::ONE,
        full: true,
    }];
    let table = standings(&[A, B, C], &played, &byes, &Scoring::standard(2), 2);
    let rows: Vec<(Entrant, u32, Points)> = table
        .iter()
        .map(|s| (s.entrant, s.place, s.points))
        .collect();
    assert_eq!(
        rows,
        vec![
            (C, 1, points(1.0)),
            (A, 2, points(0.5)),
            (B, 2, points(0.5))
        ]
    );
    assert_eq!(table[0].tie_breaks, vec![by_points(0.0), by_points(0.0)]);
    assert_eq!(table[0].byes, 1);
}

/// Given six players at tables of three (2, 1, 0 points by place) and two rounds:
///   R1 (A, B, C) places 1, 2, 3 and (D, E, F) 1, 2, 3;
///   R2 (A, D, E) places 2, 1, 3 and (B, C, F) 1, 2, 3.
/// Points: D 4, A 3, B 3, C 1, E 1, F 0. Opponents' points (the table-mates' points, each game):
/// A 3+1 + 4+1 = 9, B 3+1 + 1+0 = 5; E 4+0 + 3+4 = 11, C 3+3 + 3+0 = 9; D 1+0 + 3+1 = 5;
/// F 4+1 + 3+1 = 9. So: D, A, B, E, C, F; the placings are counts of firsts, seconds, thirds.
#[test]
fn three_seats_break_ties_by_opponents_points_then_placings() {
    let played = [
        Played {
            round: 1,
            seats: vec![A, B, C],
            places: vec![1, 2, 3],
        },
        Played {
            round: 1,
            seats: vec![D, E, F],
            places: vec![1, 2, 3],
        },
        Played {
            round: 2,
            seats: vec![A, D, E],
            places: vec![2, 1, 3],
        },
        Played {
            round: 2,
            seats: vec![B, C, F],
            places: vec![1, 2, 3],
        },
    ];
    let table = standings(&[A, B, C, D, E, F], &played, &[], &Scoring::standard(3), 3);
    let placings = |p: [u32; 3]| TieBreakValue::Placings(p.to_vec());
    let rows: Vec<(Entrant, u32, Points, Vec<TieBreakValue>)> = table
        .iter()
        .map(|s| (s.entrant, s.place, s.points, s.tie_breaks.clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (D, 1, points(4.0), vec![by_points(5.0), placings([2, 0, 0])]),
            (A, 2, points(3.0), vec![by_points(9.0), placings([1, 1, 0])]),
            (B, 3, points(3.0), vec![by_points(5.0), placings([1, 1, 0])]),
            (
                E,
                4,
                points(1.0),
                vec![by_points(11.0), placings([0, 1, 1])]
            ),
            (C, 5, points(1.0), vec![by_points(9.0), placings([0, 1, 1])]),
            (F, 6, points(0.0), vec![by_points(9.0), placings([0, 0, 2])]),
        ]
    );
}
