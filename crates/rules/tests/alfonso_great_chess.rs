//! Alfonso's Great Chess beyond the rule book's numbered cases (those run
//! from `tests/data/cases.json` in `tests/rulebook.rs`): every option of
//! `variants/alfonso-great-chess.toml` (pawn placement and step, promotion,
//! castling; sections 4 and 5), castling out of check (5.3) and the
//! insufficient-material draws of section 7.

mod common;
use common::{at, moves_from, piece, play, set};

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::parse_move;
use kamil_rules::outcome::outcome;
use kamil_rules::{MoveKind, Outcome, Position, Reason, Side, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

fn variant(options: &[(&str, &str)]) -> Arc<Variant> {
    common::variant("alfonso-great-chess", options)
}

fn position(options: &[(&str, &str)], fen: &str) -> Position {
    common::position("alfonso-great-chess", options, fen)
}

/// Final squares of the legal moves from `square`.
fn dests(pos: &mut Position, square: &str) -> BTreeSet<String> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    common::dests_of(pos, &moves, square)
}

#[test]
fn pawn_rank_3_double_steps_from_the_third_rank() {
    let mut pos = Position::start(variant(&[("pawn-rank", "3")]));
    assert_eq!(at(&pos, "c3"), piece(&pos, "pawn", Side::First));
    assert_eq!(at(&pos, "c10"), piece(&pos, "pawn", Side::Second));
    assert!(at(&pos, "c2").is_empty() && at(&pos, "c11").is_empty());
    assert_eq!(dests(&mut pos, "c3"), set(&["c4", "c5"]));
    // The Unicorn now leaps and slides over the empty second rank.
    assert_eq!(dests(&mut pos, "c1"), set(&["a2", "b2", "d2", "e2"]));
    play(&mut pos, "c3c5");
    assert_eq!(dests(&mut pos, "d10"), set(&["d9", "d8"]));
    for m in ["a10a9", "c5c6", "a9a8", "c6c7", "a8a7", "c7c8", "d10d8"] {
        play(&mut pos, m);
    }
    // En passant against the double step from rank 10.
    let m = parse_move(&mut pos, "c8d9").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.kind, MoveKind::EnPassant);
    pos.make(m);
    assert!(at(&pos, "d8").is_empty(), "the d8 pawn is taken");
}

#[test]
fn pawn_rank_4_has_no_double_step() {
    let mut pos = Position::start(variant(&[("pawn-rank", "4")]));
    assert_eq!(at(&pos, "c4"), piece(&pos, "pawn", Side::First));
    assert_eq!(at(&pos, "c9"), piece(&pos, "pawn", Side::Second));
    assert_eq!(dests(&mut pos, "c4"), set(&["c5"]));
    assert_eq!(pos.fen().split(' ').nth(2), Some("KQkq"));
}

#[test]
fn single_step_pawns_have_no_double_step_and_no_en_passant() {
    let mut pos = Position::start(variant(&[("pawn-step", "single")]));
    assert_eq!(dests(&mut pos, "c2"), set(&["c3"]));
    // ALF-8's position: no en passant, only the step forward.
    let mut pos = position(
        &[("pawn-step", "single")],
        "5k6/12/12/4Pp6/12/12/12/12/12/12/12/5K6 w - f10 0 2",
    );
    assert_eq!(dests(&mut pos, "e9"), set(&["e10"]));
}

#[test]
fn promotion_queen_offers_the_queen_only() {
    // ALF-10's position under promotion=queen.
    let mut pos = position(
        &[("promotion", "queen")],
        "3r1k6/2P9/12/12/12/12/12/12/12/12/12/5K6 w - - 0 1",
    );
    assert_eq!(moves_from(&mut pos, "c11"), {
        let mut s = BTreeSet::new();
        s.insert("c11c12q".to_string());
        s.insert("c11d12q".to_string());
        s
    });
}

#[test]
fn castling_two_moves_the_king_two_squares() {
    // ALF-5's position under castling=two.
    let fen = "r4k5r/12/12/12/12/12/12/12/12/12/12/R4K5R w KQkq - 0 1";
    let mut pos = position(&[("castling", "two")], fen);
    assert_eq!(
        dests(&mut pos, "f1"),
        set(&["d1", "e1", "e2", "f2", "g1", "g2", "h1"])
    );
    play(&mut pos, "f1h1");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Castle);
    assert_eq!(at(&pos, "h1"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "g1"), piece(&pos, "rook", Side::First));
    assert!(at(&pos, "l1").is_empty());
    pos.unmake();
    play(&mut pos, "f1d1");
    assert_eq!(at(&pos, "d1"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "e1"), piece(&pos, "rook", Side::First));
    assert!(at(&pos, "a1").is_empty());
}

#[test]
fn castling_none_has_no_castling_and_no_rights() {
    let fen = "r4k5r/12/12/12/12/12/12/12/12/12/12/R4K5R w KQkq - 0 1";
    let mut pos = position(&[("castling", "none")], fen);
    assert_eq!(dests(&mut pos, "f1"), set(&["e1", "e2", "f2", "g1", "g2"]));
    assert_eq!(pos.fen().split(' ').nth(2), Some("-"));
}

#[test]
fn no_castling_out_of_check_or_after_the_rook_moved() {
    // A Black Rook on f12 checks the King on f1.
    let mut pos = position(&[], "r4r5k/12/12/12/12/12/12/12/12/12/12/R4K5R w KQ - 0 1");
    assert_eq!(dests(&mut pos, "f1"), set(&["e1", "e2", "g1", "g2"]));
    // The King-side Rook goes and comes back: that right is gone.
    let mut pos = position(
        &[],
        "r4k5r/12/12/12/12/12/12/12/12/12/12/R4K5R w KQkq - 0 1",
    );
    for m in ["l1l2", "a12a11", "l2l1", "a11a12"] {
        play(&mut pos, m);
    }
    assert_eq!(
        dests(&mut pos, "f1"),
        set(&["c1", "e1", "e2", "f2", "g1", "g2"])
    );
    assert_eq!(pos.fen().split(' ').nth(2), Some("Qk"));
}

#[test]
fn insufficient_material_draws_as_section_7_lists() {
    let drawn = Some(Outcome::Draw {
        reason: Reason::InsufficientMaterial,
    });
    for (fen, what) in [
        ("5k6/12/12/12/12/12/12/12/12/12/12/5K6 w - - 0 1", "K v K"),
        (
            "5k6/12/12/12/12/12/12/4B7/12/12/12/5K6 w - - 0 1",
            "K+B v K",
        ),
        (
            "5k6/12/12/12/12/12/12/4n7/12/12/12/5K6 w - - 0 1",
            "K v K+N",
        ),
    ] {
        let mut pos = position(&[], fen);
        assert_eq!(outcome(&mut pos), drawn, "{what}");
    }
    for (fen, what) in [
        (
            "5k6/12/12/12/12/12/12/4F7/12/12/12/5K6 w - - 0 1",
            "K+Fool v K",
        ),
        (
            "5k6/12/12/12/12/12/12/4P7/12/12/12/5K6 w - - 0 1",
            "K+P v K",
        ),
        (
            "5k6/12/12/12/12/12/12/4N2n4/12/12/12/5K6 w - - 0 1",
            "K+N v K+N",
        ),
        (
            "5k6/12/12/12/12/12/12/4U7/12/12/12/5K6 w - - 0 1",
            "K+U v K",
        ),
    ] {
        let mut pos = position(&[], fen);
        assert_eq!(outcome(&mut pos), None, "{what}");
    }
}
