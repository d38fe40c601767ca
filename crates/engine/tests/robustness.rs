//! Issue 17 at the engine's level: no setting, position or variant file
//! makes a search abort or run without end.

mod common;
use common::{position, variant};

use kamil_engine::score::MAX_EVAL;
use kamil_engine::{Engine, EngineConfig, EvalMode, Evaluator, Limits};
use kamil_rules::piece::MAX_VALUE;
use kamil_rules::{Position, Variant};
use std::sync::Arc;

/// More memory than any machine has, MB.
const IMPOSSIBLE_MB: usize = usize::MAX / 2 / (1024 * 1024);

#[test]
fn a_hash_size_beyond_the_memory_keeps_the_table_and_the_engine_plays() {
    let mut e = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    let err = e.set_hash_mb(IMPOSSIBLE_MB).unwrap_err();
    assert_eq!(err.mb, IMPOSSIBLE_MB);
    assert_eq!(e.config().hash_mb, 4);
    let pos = Position::start(variant("courier"));
    assert!(
        e.search(&pos, &Limits::depth(2), &mut |_| {})
            .best
            .is_some()
    );
    e.set_hash_mb(2).expect("2 MB");
    assert_eq!(e.config().hash_mb, 2);
}

#[test]
fn an_engine_asked_for_an_impossible_table_fails_or_settles() {
    let config = EngineConfig {
        hash_mb: IMPOSSIBLE_MB,
        ..EngineConfig::default()
    };
    assert!(Engine::try_new(config.clone()).is_err());
    let mut e = Engine::new(config);
    assert_eq!(e.config().hash_mb, 1);
    let pos = Position::start(variant("courier"));
    assert!(
        e.search(&pos, &Limits::depth(1), &mut |_| {})
            .best
            .is_some()
    );
}

/// Nodes within which a depth-1 search of any position must end: its
/// quiescence is bounded by [`kamil_engine::search::QUIESCENCE_BUDGET`].
const DEPTH_ONE_NODES: u64 = 40_000;

/// Crowded boards, swapped colours, boards of Kings, lone Kings among
/// sliders (tests/data/odd_positions.txt): a depth-1 search completes
/// within [`DEPTH_ONE_NODES`] with a legal move. The Sho Shogi start with
/// colours swapped took 17 million nodes before quiescence had a budget.
#[test]
fn a_depth_one_search_of_an_odd_position_ends_quickly_with_a_legal_move() {
    let text = include_str!("data/odd_positions.txt");
    let mut checked = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, fen) = line.split_once(';').expect("`variant;FEN`");
        let mut pos = position(name, fen);
        let mut e = Engine::new(EngineConfig {
            hash_mb: 4,
            ..EngineConfig::default()
        });
        let limits = Limits {
            nodes: Some(DEPTH_ONE_NODES),
            ..Limits::depth(1)
        };
        let r = e.search(&pos, &limits, &mut |_| {});
        assert!(
            r.depth == 1 && r.nodes < DEPTH_ONE_NODES,
            "{name} {fen}: depth 1 not done in {} nodes",
            r.nodes
        );
        let best = r.best.unwrap_or_else(|| panic!("{name} {fen}: no move"));
        let mut legal = Vec::new();
        pos.legal_moves_into(&mut legal);
        assert!(legal.contains(&best), "{name} {fen}: illegal {best:?}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked} positions");
}

/// Courier's pieces other than the King.
const COURIER_PIECES: [&str; 8] = [
    "fers", "courier", "alfil", "man", "sneak", "knight", "rook", "pawn",
];

/// Courier from a variant file in which the pieces of [`COURIER_PIECES`]
/// are worth `values` centipawns, in that order.
fn courier_valued(values: [i64; 8]) -> Arc<Variant> {
    let text = courier_text(values);
    Arc::new(Variant::from_toml("priceless.toml", &text, &[]).expect("variant loads"))
}

/// The variant file of [`courier_valued`].
fn courier_text(values: [i64; 8]) -> String {
    let mut text = String::from("extends = \"courier\"\nname = \"courier-priceless\"\n");
    for (piece, value) in COURIER_PIECES.iter().zip(values) {
        text.push_str(&format!("[pieces.{piece}]\nvalue = {value}\n"));
    }
    text
}

/// Piece values of 1e8 overflowed the material sum (23 pieces a side), and
/// a score beyond the search's window never settled: `go depth 1` did not
/// end. Variant files now stop at [`MAX_VALUE`]; at that bound the search
/// must end with a legal move, evaluations below mate.
#[test]
fn huge_piece_values_still_give_a_move() {
    let top = i64::from(MAX_VALUE);
    for value in [top + 1, i64::from(i32::MAX), -1] {
        let err = Variant::from_toml("priceless.toml", &courier_text([value; 8]), &[])
            .expect_err("a value out of range");
        let text = err.to_string();
        assert!(
            text.contains("pieces.fers.value") && text.contains("out of range"),
            "{text}"
        );
    }
    for values in [
        [top; 8],
        [top, 0, top, 0, top, 0, top, 0],
        [0, 100, 300, 280, 140, 300, top, 100],
    ] {
        let v = courier_valued(values);
        let pos = Position::start(v.clone());
        // White a Rook up: a material lead far beyond i32 where Rooks are
        // priceless.
        let fen = pos.fen().replacen('r', "1", 1);
        let unbalanced = Position::from_fen(v.clone(), &fen).expect("a Rook less");
        for depth in [1, 3] {
            let mut e = Engine::new(EngineConfig {
                hash_mb: 4,
                ..EngineConfig::default()
            });
            let limits = Limits {
                nodes: Some(DEPTH_ONE_NODES),
                ..Limits::depth(depth)
            };
            let r = e.search(&pos, &limits, &mut |_| {});
            assert_eq!(r.depth, depth, "{values:?}: depth {depth} not done");
            let mut legal = Vec::new();
            pos.clone().legal_moves_into(&mut legal);
            assert!(legal.contains(&r.best.expect("a move")), "{values:?}");
        }
        let ev = Evaluator::new(v.clone(), EvalMode::Full);
        for p in [&pos, &unbalanced] {
            let s = ev.evaluate(p);
            assert!(s.abs() <= MAX_EVAL, "{values:?}: {s}");
        }
    }
}
