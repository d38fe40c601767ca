//! Helpers shared by the rules tests: load a variant, set up a position,
//! play moves, list and name legal moves, write a board as FEN, read the
//! rule books' cases and the differential tests' data files.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::ended_by_rule;
use kamil_rules::{Move, Piece, Position, Side, Square, Variant};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The built-in variant `name` with `(option, value)` choices; panics with
/// the loader's message if it does not load.
pub fn variant(name: &str, options: &[(&str, &str)]) -> Arc<Variant> {
    let opts: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Arc::new(Variant::builtin(name, &opts).unwrap_or_else(|e| panic!("{options:?}: {e}")))
}

/// The position `fen` of the built-in variant `name` with `options`;
/// panics naming the FEN if it does not load.
pub fn position(name: &str, options: &[(&str, &str)], fen: &str) -> Position {
    Position::from_fen(variant(name, options), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays the move `text`; panics with the position's FEN if it is not legal.
pub fn play(pos: &mut Position, text: &str) {
    let m = parse_move(pos, text).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    pos.make(m);
}

/// Plays `moves` in order, as [`play`] does.
pub fn play_all(pos: &mut Position, moves: &[&str]) {
    for text in moves {
        play(pos, text);
    }
}

/// The legal moves as the rules define them: none once the game has ended
/// by a rule (bare king, royals captured, robado), as in `parse_move` and
/// perft.
pub fn legal(pos: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    if ended_by_rule(pos).is_none() {
        legal_moves(pos, &mut out);
    }
    out
}

/// The texts of the [`legal`] moves.
pub fn texts(pos: &mut Position) -> BTreeSet<String> {
    let v = pos.variant().clone();
    legal(pos).iter().map(|m| move_text(&v, *m)).collect()
}

/// The legal moves from `square`, as texts (the full move list, whether or
/// not the game has ended).
pub fn moves_from(pos: &mut Position, square: &str) -> BTreeSet<String> {
    let mut out = Vec::new();
    legal_moves(pos, &mut out);
    let v = pos.variant().clone();
    out.iter()
        .map(|m| move_text(&v, *m))
        .filter(|t| {
            t.starts_with(square) && !t[square.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// The names of the squares where the moves from the square named `from`
/// among `moves` end.
pub fn dests_of(pos: &Position, moves: &[Move], from: &str) -> BTreeSet<String> {
    let g = &pos.variant().geometry;
    let from = square(pos, from);
    moves
        .iter()
        .filter(|m| m.from == from)
        .map(|m| g.name(m.to).to_string())
        .collect()
}

/// The strings of `list` as a set, to compare with move or square sets.
pub fn set<S: AsRef<str>>(list: &[S]) -> BTreeSet<String> {
    list.iter().map(|s| s.as_ref().to_string()).collect()
}

/// The square named `name`; panics if the board has none of that name.
pub fn square(pos: &Position, name: &str) -> Square {
    pos.variant()
        .geometry
        .parse_square(name)
        .unwrap_or_else(|| panic!("`{name}` is not a square of this board"))
}

/// What stands on the square named `name`.
pub fn at(pos: &Position, name: &str) -> Piece {
    pos.at(square(pos, name))
}

/// The piece `key` (its name in the variant file) of `side`; panics if the
/// variant has no such piece.
pub fn piece(pos: &Position, key: &str, side: Side) -> Piece {
    let t = pos
        .variant()
        .piece_by_key(key)
        .unwrap_or_else(|| panic!("no piece `{key}`"));
    Piece::new(t, side)
}

/// The seeded generator random tests use, so they see the same positions
/// each run.
#[allow(unused_imports)]
pub use kamil_rules::splitmix::SplitMix64 as Rng;

/// The board field of a FEN from `cells[rank][file]` (rank 0 at the
/// bottom), each a token, `*` for a hole, or empty for an empty square.
pub fn board_fen(cells: &[Vec<String>]) -> String {
    let rows: Vec<String> = cells
        .iter()
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for cell in rank {
                if cell.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push_str(cell);
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}

/// Every case of the rule books' `tests/data/cases.json`.
pub fn cases() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cases.json");
    let text = std::fs::read_to_string(path).expect("tests/data/cases.json");
    let v: Value = serde_json::from_str(&text).expect("cases.json is JSON");
    v.as_array().expect("cases.json is an array").clone()
}

/// A case's `options` as (option, value) pairs; a value that is not a
/// string is written as JSON (`true`, `3`).
pub fn case_options(c: &Value) -> Vec<(String, String)> {
    c.get("options")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(k, v)| {
                    let v = match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (k.clone(), v)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The `.jsonl` files of `dir`, sorted; `var` names the environment
/// variable that gave `dir`, for the message when it cannot be read.
pub fn jsonl_files(dir: &Path, var: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{var}={}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}
