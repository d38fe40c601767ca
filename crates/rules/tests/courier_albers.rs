//! Albers' 1824 Courier (seed 000): the changes the rule book leaves out of
//! its modern option, each checked on the board.

mod common;
use common::play_all as play;

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::{Position, Variant};
use std::sync::Arc;

fn albers() -> Arc<Variant> {
    common::variant("courier-albers", &[])
}

/// Final squares of the legal moves from `from`, sorted, each once.
fn dests(pos: &mut Position, from: &str) -> Vec<String> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    common::dests_of(pos, &moves, from).into_iter().collect()
}

#[test]
fn alfil_also_steps_one() {
    let mut pos = Position::from_fen(albers(), "6k5/12/12/12/4E7/12/12/6K5 w - - 0 1").unwrap();
    assert_eq!(
        dests(&mut pos, "e4"),
        ["c2", "c6", "d3", "d5", "f3", "f5", "g2", "g6"]
    );
}

#[test]
fn man_adds_the_knight_move_and_sneak_moves_as_man() {
    let mut pos = Position::from_fen(albers(), "6k5/12/12/12/4M7/12/12/6K3W1 w - - 0 1").unwrap();
    assert_eq!(dests(&mut pos, "e4").len(), 16);
    assert_eq!(dests(&mut pos, "k1"), ["j1", "j2", "k2", "l1", "l2"]);
}

#[test]
fn queen_and_three_square_castling() {
    let pos = Position::start(albers());
    assert_eq!(
        pos.fen().split(' ').next().unwrap(),
        "rnebwqkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBWQKMBENR"
    );
    let mut pos =
        Position::from_fen(albers(), "r5k4r/12/12/12/12/12/12/R5K4R w KQkq - 0 1").unwrap();
    assert_eq!(
        dests(&mut pos, "g1"),
        ["d1", "f1", "f2", "g2", "h1", "h2", "j1"]
    );
}

#[test]
fn promotion_waits_two_turns() {
    let v = albers();
    let mut pos = Position::from_fen(v.clone(), "6k5/2P9/12/12/12/12/12/6K5 w - - 0 1").unwrap();
    let mut moves = Vec::new();
    legal_moves(&mut pos, &mut moves);
    let mut promos: Vec<String> = moves
        .iter()
        .filter(|m| m.promotion().is_some())
        .map(|m| move_text(&v, *m))
        .collect();
    promos.sort();
    assert_eq!(
        promos,
        [
            "c7c8b", "c7c8e", "c7c8m", "c7c8n", "c7c8q", "c7c8r", "c7c8w"
        ]
    );
    let c8 = v.geometry.parse_square("c8").unwrap();
    play(&mut pos, &["c7c8q"]);
    assert!(pos.fen().starts_with("2Q^^3k5/"), "{}", pos.fen());
    assert_eq!(
        dests(
            &mut Position::from_fen(v.clone(), &pos.fen().replace(" b ", " w ")).unwrap(),
            "c8"
        ),
        Vec::<String>::new()
    );
    play(&mut pos, &["g8h7", "g1g2"]);
    assert!(pos.fen().starts_with("2Q^9/"), "{}", pos.fen());
    play(&mut pos, &["h7g8", "g2g1"]);
    assert_eq!(v.pieces[pos.at(c8).kind() as usize].name, "Queen");
    assert!(pos.fen().starts_with("2Q3k5/"), "{}", pos.fen());
    // Unmaking restores the waiting stages exactly.
    let h = pos.hash();
    pos.unmake();
    assert!(
        pos.fen().starts_with("2Q^3k5/") || pos.fen().starts_with("2Q^9/"),
        "{}",
        pos.fen()
    );
    let again = parse_move(&mut pos, "g2g1").unwrap();
    pos.make(again);
    assert_eq!(pos.hash(), h);
    assert_eq!(pos.hash(), pos.hash_from_scratch());
}
