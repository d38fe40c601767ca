//! Helpers shared by the per-game rule tests (`chu_shogi.rs`, `dai_shogi.rs`).

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::move_text;
use kamil_rules::{Position, Variant};
use std::collections::BTreeSet;
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

/// The legal moves from `square`, as texts.
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
