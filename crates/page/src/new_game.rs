//! A new game's position: a variant and its options, a FEN or SFEN, moves
//! to play first, or a whole PGN record.

use crate::error::PageError;
use crate::variants::Variants;
use kamil_protocol::input::cut_echoes;
use kamil_rules::excerpt;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::pgn::{self, PgnErrorKind};
use kamil_rules::sfen::{self, PositionTextError};
use kamil_rules::variant::aliases::from_xboard_name;
use kamil_rules::{Position, Variant};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `POST /api/games` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A built-in variant name; with `pgn`, taken from its `Variant` tag if absent.
    #[serde(default)]
    pub variant: Option<String>,
    /// Option choices.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// Start here instead of the variant's start.
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves to play first.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A whole game record to load (tags give variant, options, FEN).
    #[serde(default)]
    pub pgn: Option<String>,
}

/// Most moves a created game may start with.
pub const MAX_MOVES: usize = 5000;

/// Options as `{"name": "value"}`; values may be strings, numbers or booleans.
///
/// Errors: 400 for another kind of value.
pub fn options_of(map: &BTreeMap<String, Value>) -> Result<Vec<(String, String)>, PageError> {
    map.iter()
        .map(|(k, v)| {
            let s = match v {
                Value::String(s) => s.clone(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => {
                    return Err(PageError::bad(format!(
                        "option `{}`: give a string, number or boolean",
                        excerpt(k)
                    )));
                }
            };
            Ok((k.clone(), s))
        })
        .collect()
}

/// The position a [`NewGame`] asks for (its moves played).
///
/// Errors: 400 for a bad PGN, no or an unknown variant or option, a bad
/// FEN or SFEN, too many moves or one that is not legal.
pub fn new_position(variants: &Variants, req: NewGame) -> Result<Position, PageError> {
    let mut options = options_of(&req.options)?;
    let mut variant = req.variant;
    let mut fen = req.fen;
    let mut moves = req.moves;
    if let Some(text) = &req.pgn {
        let game = pgn::read(text).map_err(|e| {
            let tag = match &e.kind {
                PgnErrorKind::UnquotedValue { tag } => Some(tag.as_str()),
                _ => None,
            };
            PageError::bad(cut_echoes(&e.to_string(), tag))
        })?;
        if variant.is_none() {
            // XBoard's and HaChu's names too (`chu` for `chu-shogi`).
            variant = game
                .tag("Variant")
                .map(|t| from_xboard_name(t).unwrap_or(t).to_string());
        }
        if options.is_empty()
            && let Some(o) = game.tag("VariantOptions")
        {
            for pair in o.split_whitespace() {
                let (k, v) = pair.split_once('=').unwrap_or((pair, "true"));
                options.push((k.to_string(), v.to_string()));
            }
        }
        if fen.is_none() {
            fen = game.tag("FEN").map(str::to_string);
        }
        moves.extend(game.moves);
    }
    let Some(variant) = variant else {
        return Err(PageError::bad(
            "no variant: give `variant` (or a PGN with a Variant tag)".into(),
        ));
    };
    if moves.len() > MAX_MOVES {
        return Err(PageError::bad(format!("more than {MAX_MOVES} moves")));
    }
    let v: Arc<Variant> = variants.get(&variant, &options)?;
    let mut pos = match &fen {
        // In the shogi games an SFEN too (the page's FEN box takes either).
        Some(f) => sfen::read_position(v, f).map_err(|e| match e {
            PositionTextError::Fen(e) => PageError::bad(format!("bad FEN: {e}")),
            PositionTextError::Sfen(e) => PageError::bad(format!("bad SFEN: {e}")),
        })?,
        None => Position::start(v),
    };
    for (i, m) in moves.iter().enumerate() {
        // Kamil's notation first, then XBoard's and HaChu's (comma legs,
        // `@@@@` for a pass) and the SAN of XBoard's game files.
        let (mv, _) = read_move(&mut pos, m, Accept::First(Notation::Kamil))
            .map_err(|e| PageError::bad(format!("move {} ({}): {e}", i + 1, excerpt(m))))?;
        pos.make(mv);
    }
    Ok(pos)
}
