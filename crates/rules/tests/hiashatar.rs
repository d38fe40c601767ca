//! Hiashatar beyond the rule book's numbered cases (those run from
//! `tests/data/cases.json` in `tests/rulebook.rs`): the four cases whose
//! position has a lone King (robado, section 7, would have drawn the game),
//! the Bodyguard's check and pin rules (5.2), zones that shield and answer
//! checks (5.1 rule 3), every option of `variants/hiashatar.toml`, and
//! random-game cross-checks of the legality shortcut and the attack test
//! against the generator.

mod common;
use common::{dests_of, set};

use kamil_rules::movegen::{in_check, legal_moves, mover_exposed, piece_moves, pseudo_moves};
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::ended_by_rule;
use kamil_rules::perft::perft;
use kamil_rules::{Move, MoveKind, Outcome, Piece, Position, Reason, Side, Variant};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

fn variant(options: &[(&str, &str)]) -> Arc<Variant> {
    common::variant("hiashatar", options)
}

fn position(options: &[(&str, &str)], fen: &str) -> Position {
    common::position("hiashatar", options, fen)
}

/// Destinations from `square` under the full rules: none once the game has
/// ended by a rule (robado).
fn dests(pos: &mut Position, square: &str) -> BTreeSet<String> {
    let moves = common::legal(pos);
    dests_of(pos, &moves, square)
}

/// Destinations from `square` by the movement rules alone: the legal moves
/// as if the game had not ended.
fn movement_dests(pos: &mut Position, square: &str) -> BTreeSet<String> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    dests_of(pos, &moves, square)
}

/// `fen` with the piece `token` put on `square` (single-letter tokens).
fn with_piece(fen: &str, square: &str, token: char) -> String {
    let (board, rest) = fen.split_once(' ').unwrap();
    let mut rows: Vec<Vec<char>> = board
        .split('/')
        .map(|r| {
            let mut row = Vec::new();
            let mut n = 0;
            for c in r.chars() {
                if let Some(d) = c.to_digit(10) {
                    n = n * 10 + d;
                } else {
                    row.extend(std::iter::repeat_n('.', n as usize));
                    n = 0;
                    row.push(c);
                }
            }
            row.extend(std::iter::repeat_n('.', n as usize));
            row
        })
        .collect();
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank: usize = square[1..].parse().unwrap();
    let top = rows.len();
    assert_eq!(rows[top - rank][file], '.', "{square} is taken in {fen}");
    rows[top - rank][file] = token;
    // Bottom rank first, as `board_fen` takes them.
    let cells: Vec<Vec<String>> = rows
        .iter()
        .rev()
        .map(|r| {
            r.iter()
                .map(|&c| {
                    if c == '.' {
                        String::new()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        })
        .collect();
    format!("{} {rest}", common::board_fen(&cells))
}

/// The case `id` `part` of cases.json.
fn case(id: &str, part: &str) -> Value {
    common::cases()
        .into_iter()
        .find(|c| c["id"] == id && c["part"] == part)
        .unwrap_or_else(|| panic!("case {id}{part} not in cases.json"))
}

/// A `dests` case whose position has a lone King (rules/hiashatar.md 8,
/// cases 2, 5 and 7): robado (section 7) has drawn it, so the case is
/// checked as it is meant, a movement test: as written with the game end
/// set aside, and with `spare` (square, token) given to the lone side,
/// under the full rules. Returns the position with the spare piece.
fn lone_king_case(id: &str, part: &str, spare: (&str, char)) -> Position {
    let c = case(id, part);
    let opts: Vec<(&str, &str)> = c["options"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap()))
        .collect();
    let fen = c["fen"].as_str().unwrap();
    let square = c["square"].as_str().unwrap();
    let expected: BTreeSet<String> = c["dests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect();
    let mut pos = position(&opts, fen);
    assert_eq!(
        ended_by_rule(&pos),
        Some(Outcome::Draw {
            reason: Reason::BareKing
        }),
        "{id}{part} as written: a lone King, robado"
    );
    assert!(dests(&mut pos, square).is_empty(), "no move after the end");
    assert_eq!(movement_dests(&mut pos, square), expected, "{id}{part}");
    let mut spared = position(&opts, &with_piece(fen, spare.0, spare.1));
    assert_eq!(ended_by_rule(&spared), None);
    assert_eq!(
        dests(&mut spared, square),
        expected,
        "{id}{part} + {spare:?}"
    );
    spared
}

#[test]
fn hia_2a_bodyguard_gives_no_check() {
    let pos = lone_king_case("HIA-2", "a", ("a2", 'P'));
    assert!(!in_check(&pos, Side::First), "the Bodyguard gives no check");
}

#[test]
fn hia_5b_without_the_bodyguard_the_rook_checks() {
    let pos = lone_king_case("HIA-5", "b", ("a2", 'P'));
    assert!(in_check(&pos, Side::First), "the Rook on e10 checks");
}

#[test]
fn hia_7a_own_bodyguard_does_not_restrict() {
    lone_king_case("HIA-7", "a", ("j9", 'p'));
}

#[test]
fn hia_7b_all_bodyguards_restrict() {
    lone_king_case("HIA-7", "b", ("j9", 'p'));
}

#[test]
fn a_bodyguard_never_takes_a_king_next_to_it() {
    // White H e5, K a1; Black K e6, P j9. Black is not in check; the
    // Bodyguard's moves skip e6 (5.2).
    let mut pos = position(&[], "10/9p/10/10/4k5/4H5/10/10/10/K9 w - - 0 1");
    assert!(!in_check(&pos, Side::Second));
    let d = dests(&mut pos, "e5");
    assert!(!d.contains("e6"), "{d:?}");
    assert!(d.contains("d6") && d.contains("f6"), "{d:?}");
    // With a Black Queen on e6 instead, the Bodyguard takes it.
    let mut pos = position(&[], "9k/9p/10/10/4q5/4H5/10/10/10/K9 w - - 0 1");
    assert!(dests(&mut pos, "e5").contains("e6"));
}

#[test]
fn a_bodyguard_pins_nothing() {
    // White K e1, R e2; Black H e3, K j10, P j9. The Rook stands next to
    // the Bodyguard (one square only) but is not pinned by it (5.2).
    let mut pos = position(&[], "9k/9p/10/10/10/10/10/4h5/4R5/4K5 w - - 0 1");
    assert_eq!(dests(&mut pos, "e2"), set(&["d2", "e3", "f2"]));
}

#[test]
fn the_king_takes_a_piece_only_a_bodyguard_defends() {
    // White K e1, P a2; Black R e2, H e4, K j10. Kxe2 is legal (5.2) ...
    let mut pos = position(&[], "9k/10/10/10/10/10/4h5/10/P3r5/4K5 w - - 0 1");
    assert!(in_check(&pos, Side::First));
    assert!(dests(&mut pos, "e1").contains("e2"));
    // ... but not when a Queen defends it.
    let mut pos = position(&[], "9k/10/10/10/10/10/4q5/10/P3r5/4K5 w - - 0 1");
    assert!(!dests(&mut pos, "e1").contains("e2"));
}

#[test]
fn a_bodyguard_that_shields_its_king_may_not_leave_the_line() {
    // HIA-5 position: the White Bodyguard on d5 stops the Rook on e6. It may
    // go anywhere its zone still cuts the e-file, nowhere else.
    let mut pos = position(&[], "4r4k/10/10/10/10/3H6/10/10/10/4K5 w - - 0 1");
    assert!(!in_check(&pos, Side::First));
    assert_eq!(
        dests(&mut pos, "d5"),
        set(&["d3", "d4", "d6", "d7", "e4", "e5", "e6", "f3", "f5", "f7"])
    );
}

#[test]
fn a_bodyguard_move_next_to_the_line_answers_a_check() {
    // White K e1, H b5; Black R e10, K j10. In check; the Bodyguard stops
    // the Rook by standing on the d-file (5.1 rule 3), not on the c-file.
    let mut pos = position(&[], "4r4k/10/10/10/10/1H8/10/10/10/4K5 w - - 0 1");
    assert!(in_check(&pos, Side::First));
    assert_eq!(dests(&mut pos, "b5"), set(&["d3", "d5", "d7"]));
}

#[test]
fn under_all_taking_an_enemy_bodyguard_can_expose_the_king() {
    // hia-zone-affects=all: the Black Bodyguard on d6 stops Black's own Rook
    // (e10) on e7, short of the White King on e1. Taking the Bodyguard with
    // the Knight on c4 would open the e-file: Nxd6 is illegal, Nb6 is fine.
    let fen = "4r4k/10/10/10/3h6/10/2N7/10/10/4K5 w - - 0 1";
    let mut all = position(&[("hia-zone-affects", "all")], fen);
    assert!(!in_check(&all, Side::First));
    let d = dests(&mut all, "c4");
    assert!(!d.contains("d6"), "{d:?}");
    assert!(d.contains("b6"), "{d:?}");
    // By default the Black Bodyguard does not restrict Black's Rook: in check.
    let enemy = position(&[], fen);
    assert!(in_check(&enemy, Side::First));
}

#[test]
fn step_only_lets_sliders_pass_zone_squares() {
    // HIA-4 position under hia-zone=step-only: the Rook on a5 runs past d5.
    let fen = "9k/10/10/10/4h5/R9/10/10/10/K9 w - - 0 1";
    let mut pos = position(&[("hia-zone", "step-only")], fen);
    let mut want = set(&["a2", "a3", "a4", "a6", "a7", "a8", "a9", "a10"]);
    want.extend(set(&["b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "j5"]));
    assert_eq!(dests(&mut pos, "a5"), want);
    // The step rule still holds (HIA-3).
    let mut pos = position(
        &[("hia-zone", "step-only")],
        "9k/10/10/10/10/4h5/3R6/10/10/K9 w - - 0 1",
    );
    assert_eq!(dests(&mut pos, "d4"), set(&["c4", "d3", "d5", "e4"]));
    // HIA-5: the Bodyguard no longer shields the King.
    let pos = position(
        &[("hia-zone", "step-only")],
        "4r4k/10/10/10/10/3H6/10/10/10/4K5 w - - 0 1",
    );
    assert!(in_check(&pos, Side::First));
}

#[test]
fn diag1_bodyguard_captures_one_square_diagonally_only() {
    // White H e5, K a1; Black R e6, N d6, K j10 (hia-capture=diag1).
    let mut pos = position(
        &[("hia-capture", "diag1")],
        "9k/10/10/10/3nr5/4H5/10/10/10/K9 w - - 0 1",
    );
    let d = dests(&mut pos, "e5");
    assert!(d.contains("d6"), "diagonal capture: {d:?}");
    assert!(!d.contains("e6"), "no orthogonal capture: {d:?}");
}

#[test]
fn arrays_put_kings_queens_and_kings_pawns_where_section_4_says() {
    for (array, white_k, black_k, white_kp, black_kp) in [
        ("seed", "f1", "e10", "f2", "e9"),
        ("carrillo", "e1", "f10", "e2", "f9"),
        ("mirror", "e1", "e10", "e2", "e9"),
    ] {
        let v = variant(&[("array", array)]);
        let mut pos = Position::start(v.clone());
        let g = &v.geometry;
        let king = v.piece_by_key("king").unwrap();
        let at = |p: &Position, s: &str| p.at(g.parse_square(s).unwrap());
        assert_eq!(at(&pos, white_k), Piece::new(king, Side::First), "{array}");
        assert_eq!(at(&pos, black_k), Piece::new(king, Side::Second), "{array}");
        let rank = |s: &str, r: u32| format!("{}{r}", &s[..1]);
        // Only the King's pawn double-steps (5.4), for both players.
        assert_eq!(
            dests(&mut pos, white_kp),
            set(&[rank(white_kp, 3), rank(white_kp, 4)]),
            "{array}"
        );
        let other = if white_kp == "e2" { "f2" } else { "e2" };
        assert_eq!(dests(&mut pos, other), set(&[rank(other, 3)]), "{array}");
        assert_eq!(perft(&mut pos, 1), 15, "{array}");
        let mut black = Position::from_fen(v.clone(), &pos.fen().replace(" w ", " b ")).unwrap();
        assert_eq!(
            dests(&mut black, black_kp),
            set(&[rank(black_kp, 8), rank(black_kp, 7)]),
            "{array}"
        );
        let other = if black_kp == "e9" { "f9" } else { "e9" };
        assert_eq!(dests(&mut black, other), set(&[rank(other, 8)]), "{array}");
    }
}

#[test]
fn winther_pawns_step_up_to_three_and_are_taken_en_passant() {
    let w = [("pawns", "winther")];
    let mut pos = Position::start(variant(&w));
    assert_eq!(dests(&mut pos, "a2"), set(&["a3", "a4", "a5"]));
    assert_eq!(perft(&mut pos, 1), 34, "10 pawns x 3 + 4 Knight moves");
    // White P f2; Black P e4, P g5, K j10; White K a1. After f2-f5 both
    // passed squares can be taken on: e4xf3 and g5xf4 remove the f5 pawn.
    let fen = "9k/10/10/10/10/6p3/4p5/10/5P4/K9 w - - 0 1";
    let mut pos = position(&w, fen);
    let m = parse_move(&mut pos, "f2f5").unwrap();
    pos.make(m);
    let ep = pos.en_passant().expect("a triple step leaves en passant");
    assert_eq!(ep.count, 2);
    // The FEN names the first square passed and reads back the same.
    let back = position(&w, &pos.fen());
    assert_eq!(back.en_passant(), pos.en_passant(), "{}", pos.fen());
    assert_eq!(back.hash(), pos.hash());
    for (mv, from) in [("e4f3", "e4"), ("g5f4", "g5")] {
        let m = parse_move(&mut pos, mv).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.kind, MoveKind::EnPassant, "{mv}");
        pos.make(m);
        let g = &pos.variant().geometry;
        assert!(pos.at(g.parse_square("f5").unwrap()).is_empty(), "{mv}");
        assert!(pos.at(g.parse_square(from).unwrap()).is_empty(), "{mv}");
        pos.unmake();
    }
    // A zone square ends the triple step (5.1 rule 2): Black H h4 covers g3..g5.
    let mut pos = position(&w, "9k/10/10/10/10/10/7h2/10/6P3/K9 w - - 0 1");
    assert_eq!(dests(&mut pos, "g2"), set(&["g3"]));
    // By default there is no en passant and no triple step.
    let mut pos = position(&[], fen);
    assert_eq!(common::moves_from(&mut pos, "f2"), set(&["f2f3", "f2f4"]));
    let m = parse_move(&mut pos, "f2f4").unwrap();
    pos.make(m);
    assert!(pos.en_passant().is_none());
    assert!(parse_move(&mut pos, "e4f3").is_err());
}

/// Random-game cross-checks: the legal moves equal the pseudo-legal moves
/// that do not expose the mover's King when each is made (the legality
/// shortcut and its Bodyguard exception agree with the plain rule), and
/// the check test agrees with the generator: a side is in check exactly
/// when a piece of the opponent other than a Bodyguard has a pseudo-legal
/// move onto its King.
fn cross_check(mut pos: Position, choices: &[u16]) -> Result<(), TestCaseError> {
    let v = pos.variant().clone();
    let guard = v.piece_by_key("bodyguard").unwrap();
    let mut played = Vec::new();
    for &c in choices {
        if ended_by_rule(&pos).is_some() {
            break;
        }
        let mut legal = Vec::new();
        legal_moves(&mut pos, &mut legal);
        let mut pseudo = Vec::new();
        pseudo_moves(&pos, &mut pseudo);
        let mut plain = Vec::new();
        for &m in &pseudo {
            pos.make(m);
            if !mover_exposed(&mut pos) {
                plain.push(m);
            }
            pos.unmake();
        }
        let key =
            |ms: &[Move]| -> BTreeSet<String> { ms.iter().map(|m| format!("{m:?}")).collect() };
        prop_assert_eq!(key(&legal), key(&plain), "{} after {:?}", pos.fen(), played);
        for side in Side::BOTH {
            let king = pos.royals(side)[0];
            let mut buf = Vec::new();
            let mut reached = false;
            for &sq in pos.pieces(side.flip()) {
                let p = pos.at(sq);
                if p.kind() == guard {
                    continue;
                }
                buf.clear();
                piece_moves(&pos, &v, sq, p, &mut buf);
                reached |= buf.iter().any(|m| m.to == king);
            }
            prop_assert_eq!(
                in_check(&pos, side),
                reached,
                "{:?} in `{}` after {:?}",
                side,
                pos.fen(),
                played
            );
        }
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        played.push(move_text(&v, m));
        pos.make(m);
    }
    Ok(())
}

/// A middle game with all four Bodyguards in play near the centre.
const CROWDED: &str =
    "r1b1kq1bnr/ppp2ppppp/2n7/3p1h4/4h5/4PH4/2N3H3/10/PPPP1PPPPP/R1BQ1K1BNR w - - 0 1";

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn legality_and_checks_agree_with_the_generator(
        which in 0usize..8,
        choices in prop::collection::vec(any::<u16>(), 0..80),
    ) {
        let opts: &[(&str, &str)] = match which % 4 {
            0 => &[],
            1 => &[("hia-zone-affects", "all")],
            2 => &[("hia-zone", "step-only"), ("hia-capture", "diag1")],
            _ => &[("pawns", "winther"), ("array", "mirror")],
        };
        let v = variant(opts);
        let pos = if which < 4 {
            Position::start(v)
        } else {
            Position::from_fen(v, CROWDED).unwrap()
        };
        cross_check(pos, &choices)?;
    }
}

/// A triple step's en-passant square read from a FEN where a pawn stands
/// diagonally beside the path (h7, with j9 empty): the victim is the pawn
/// that stepped (i6), not a Berolina reading of h7 (found by make_unmake).
#[test]
fn winther_en_passant_field_finds_the_stepping_pawn() {
    let w = [
        ("pawns", "winther"),
        ("array", "mirror"),
        ("hia-zone", "step-only"),
    ];
    let fen = "rnbhk1hbnr/p2p1pp3/2p1p5/7p2/1p6pP/10/3P3q2/1PH6B/P1P1PPPP1P/RNB1KQH1NR w - i8 0 9";
    let mut pos = position(&w, fen);
    let ep = pos
        .en_passant()
        .expect("the FEN's en-passant square is kept");
    assert_eq!(ep.count, 2, "{ep:?}");
    let g = pos.variant().geometry.clone();
    assert_eq!(ep.victim, g.parse_square("i6").unwrap());
    let m = parse_move(&mut pos, "j6i7").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.kind, MoveKind::EnPassant);
    assert_eq!(m.extra, g.parse_square("i6").unwrap());
}

/// A FEN may give a side more Bodyguards than the game starts with; each
/// has its zone (5.1). Found by the `fen` fuzz target: only the first four
/// of Black's five Bodyguards in the piece list counted, so the White
/// Queen next to the one on c2 slid freely (33 moves) or stepped (22)
/// depending on that list's order, which trying the moves changes.
#[test]
fn every_bodyguard_has_its_zone_whatever_the_piece_list_order() {
    let fen = "rnbhk1hbnr/pppppp1ppp/6pq2/10/10/10/10/2QP6/Pbhk1hbPPP/RN1hBHNRKH w - - 0 1";
    let mut pos = position(&[], fen);
    let steps: BTreeSet<String> = set(&["b2", "b3", "b4", "c2", "c4", "d2", "d4"]);
    for round in 0..3 {
        assert_eq!(dests(&mut pos, "c3"), steps, "round {round}");
        assert_eq!(perft(&mut pos, 1), 22, "round {round}");
        assert_eq!(pos.count_legal(), 22, "round {round}");
    }
}
