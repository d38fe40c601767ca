//! Courier's compulsory opening (rule book section 4), option
//! `courier-opening=explicit`: each side's first turn is its four advances.

mod common;

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::perft::perft;
use kamil_rules::{Position, Variant};
use std::sync::Arc;

fn explicit() -> Arc<Variant> {
    common::variant("courier", &[("courier-opening", "explicit")])
}

#[test]
fn first_turns_are_the_prescribed_advances() {
    let v = explicit();
    let mut pos = Position::start(v.clone());
    for expected in ["a2a4l2l4g2g4g1g3", "a7a5l7l5g7g5g8g6"] {
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        let texts: Vec<String> = moves.iter().map(|m| move_text(&v, *m)).collect();
        assert_eq!(texts, [expected]);
        let m = parse_move(&mut pos, expected).unwrap();
        pos.make(m);
    }
    // Ordinary play starts at move 2 from the default start position.
    let applied = Variant::builtin("courier", &[]).unwrap();
    let board = |f: &str| f.split(' ').next().unwrap().to_string();
    assert_eq!(board(&pos.fen()), board(&applied.start_fen));
    assert!(pos.fen().ends_with(" w - - 0 2"), "{}", pos.fen());
    // The compound turns can be taken back exactly.
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.fen(), Position::start(v).fen());
    assert_eq!(pos.hash(), pos.hash_from_scratch());
}

#[test]
fn perft_counts_the_compound_turns_once() {
    let mut pos = Position::start(explicit());
    assert_eq!(perft(&mut pos, 1), 1);
    assert_eq!(perft(&mut pos, 2), 1);
    assert_eq!(perft(&mut pos, 3), 26);
    assert_eq!(perft(&mut pos, 4), 678);
}
