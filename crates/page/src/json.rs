//! The JSON the API sends: variants (board, pieces with their help), games
//! (board, moves, legal moves, result) and moves, built from the rules
//! library's types. Squares are named as in move text (`a1`, `b10`).

use crate::game::Game;
use kamil_rules::betza::Mode;
use kamil_rules::board_text::side_name;
use kamil_rules::movegen::in_check;
use kamil_rules::notation::move_text;
use kamil_rules::outcome::Outcome;
use kamil_rules::reach;
use kamil_rules::touched_squares;
use kamil_rules::{Move, MoveKind, Position, Side, Square, Variant};
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

fn name(v: &Variant, sq: Square) -> String {
    v.geometry.name(sq).to_string()
}

/// `0` for the first player, `1` for the second.
fn side_index(s: Side) -> u8 {
    s.index() as u8
}

/// A move as the page needs it to match clicks and mark squares.
#[derive(Serialize, Clone, Debug)]
pub struct MoveView {
    /// Our notation (`f5g5f5`).
    pub text: String,
    /// Origin.
    pub from: String,
    /// Final square (the origin for a pass or igui).
    pub to: String,
    /// First stops that enter this move square by square: the move's own
    /// intermediate square, and for a pass every empty square the piece
    /// could step to and back from. Empty for one-leg moves.
    pub vias: Vec<String>,
    /// The squares the move touches, for marking it.
    pub squares: Vec<String>,
    /// Piece type after promotion, if the move promotes.
    pub promo: Option<u8>,
    /// `normal`, `castle`, `en-passant` or `opening`.
    pub kind: &'static str,
}

/// Empty squares from which the piece on `m.from` could step back to its
/// origin: every pass of a piece is the same move, whichever square it
/// passes through, so the page lets the user choose any of them. Read from
/// the piece's two-leg paths (one step out, then the same step back).
fn pass_squares(pos: &Position, m: Move) -> Vec<Square> {
    let v = pos.variant();
    let p = pos.at(m.from);
    if !p.is_piece() {
        return Vec::new();
    }
    let set = &v.movesets[p.kind() as usize][p.side().index()];
    let mut out = Vec::new();
    let empty_ok = |mode: Mode| mode.to_empty;
    for (legs, _) in &set.multi {
        if legs.len() != 2 || legs[0].max != 1 || legs[1].off != -legs[0].off {
            continue;
        }
        if !empty_ok(legs[0].mode) || !empty_ok(legs[1].mode) {
            continue;
        }
        let s = m.from.shift(legs[0].off);
        if pos.at(s).is_empty() && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The view of move `m`, legal in `pos` (before it is made).
pub fn move_view(pos: &Position, m: Move) -> MoveView {
    let v = pos.variant();
    let mut vias = Vec::new();
    if m.kind == MoveKind::Checker {
        // The landing squares of a Checker series before the last.
        let squares = touched_squares(v, m);
        vias.extend_from_slice(&squares[1..squares.len() - 1]);
    } else if m.via.is_some() {
        vias.push(m.via);
        if m.to == m.from && !m.via_capture {
            for s in pass_squares(pos, m) {
                if !vias.contains(&s) {
                    vias.push(s);
                }
            }
        }
    }
    MoveView {
        text: move_text(v, m),
        from: name(v, m.from),
        to: name(v, m.to),
        vias: vias.iter().map(|&s| name(v, s)).collect(),
        squares: touched_squares(v, m).iter().map(|&s| name(v, s)).collect(),
        promo: m.promotion().map(|t| v.final_form(t)),
        kind: m.kind.name(),
    }
}

/// The legal moves of `pos` (none once the game has ended), sorted by text.
pub fn legal_views(pos: &mut Position) -> Vec<MoveView> {
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let mut views: Vec<MoveView> = moves.iter().map(|&m| move_view(pos, m)).collect();
    views.sort_by(|a, b| a.text.cmp(&b.text));
    views
}

/// The result of a finished game: score, winner, reason, points (games
/// scored in points) and a sentence for the page.
pub fn outcome_view(v: &Variant, o: &Outcome) -> Value {
    let reason = o.reason();
    let text = match (o.points(), o.winner()) {
        (Some(p), Some(w)) => format!("{} ahead on points, {p} ({reason})", side_name(v, w)),
        (Some(p), None) => format!("level on points, {p} ({reason})"),
        (None, Some(w)) => format!("{} wins by {reason}", side_name(v, w)),
        (None, None) => format!("drawn by {reason}"),
    };
    json!({
        "result": o.score(),
        "winner": o.winner().map(side_index),
        "reason": reason.to_string(),
        "points": o.points().map(|p| p.to_string()),
        "text": text,
    })
}

/// A game as the page draws it, at ply `ply` (at most the moves played):
/// the board then, the whole move list, and at the latest ply the legal
/// moves and the result; `searching`: whether a search or review runs on it.
pub fn game_view(game: &Game, ply: usize, searching: bool) -> Value {
    let v = game.pos.variant().clone();
    let mut pos = game.position_at(ply);
    let plies = game.pos.depth();
    let board: Vec<Value> = v
        .geometry
        .squares()
        .filter_map(|sq| {
            let p = pos.at(sq);
            p.is_piece().then(
                || json!({"sq": name(&v, sq), "kind": p.kind(), "side": side_index(p.side())}),
            )
        })
        .collect();
    let mut walk = game.start.clone();
    let mut moves = Vec::new();
    for m in game.moves() {
        let mut mv = serde_json::to_value(move_view(&walk, m)).unwrap_or(Value::Null);
        mv["side"] = json!(side_index(walk.side()));
        moves.push(mv);
        walk.make(m);
    }
    let last = pos.last_move().filter(|_| ply > 0).map(|m| {
        let squares: Vec<String> = touched_squares(&v, m)
            .iter()
            .map(|&s| name(&v, s))
            .collect();
        json!({"text": move_text(&v, m), "squares": squares})
    });
    let ended = pos.outcome();
    let side = pos.side();
    let check = pos.royals(side).len() == 1 && in_check(&pos, side);
    let legal = if ply == plies {
        legal_views(&mut pos)
    } else {
        Vec::new()
    };
    json!({
        "id": game.id,
        "variant": v.name,
        "generation": game.generation,
        "start_fen": game.start.fen(),
        "fen": pos.fen(),
        "sfen": pos.sfen(),
        "ply": ply,
        "plies": plies,
        "side_to_move": side_index(side),
        "board": board,
        "moves": moves,
        "last_move": last,
        "legal": legal,
        "check": check && ended.is_none(),
        "outcome": ended.map(|o| outcome_view(&v, &o)),
        "searching": searching,
    })
}

/// Where a piece of `kind` owned by `side` can go from the middle of an
/// empty board, and what it can take there with an enemy on every other
/// square: `{from, moves, captures}` ([`reach`]). For the help
/// panel and the rules panel.
fn piece_help(v: &Arc<Variant>, kind: u8, side: Side) -> Value {
    let r = reach(v, kind, side);
    json!({
        "from": name(v, r.from),
        "moves": r.moves.iter().map(|&s| name(v, s)).collect::<Vec<_>>(),
        "captures": r.captures.iter().map(|&s| name(v, s)).collect::<Vec<_>>(),
    })
}

/// Everything the page needs to draw a variant: board shape, pieces (with
/// kanji, rule-book ID, description and help), sides, options in force.
pub fn variant_view(v: &Arc<Variant>) -> Value {
    let g = &v.geometry;
    let squares: Vec<Value> = g
        .squares()
        .map(|s| json!([g.file(s), g.rank(s), name(v, s)]))
        .collect();
    let pieces: Vec<Value> = v
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let kind = k as u8;
            json!({
                "kind": kind,
                "key": p.key,
                "name": p.name,
                "id": p.id,
                "kanji": p.kanji,
                "token": p.token,
                "betza": p.betza,
                "description": p.description,
                "royal": p.royal,
                "value": p.value,
                "promoted": p.demoted.is_some(),
                "promotes_to": p.promoted,
                "help": [piece_help(v, kind, Side::First), piece_help(v, kind, Side::Second)],
            })
        })
        .collect();
    json!({
        "name": v.name,
        "title": if v.title.is_empty() { &v.name } else { &v.title },
        "description": v.description,
        "rules_source": v.rules_source,
        "style": if v.promotion.shogi { "shogi" } else { "chess" },
        "side_names": [side_name(v, Side::First), side_name(v, Side::Second)],
        "files": g.files(),
        "ranks": g.ranks(),
        "file_names": (0..g.files()).map(|f| g.file_name(f)).collect::<String>(),
        "squares": squares,
        "promotion_zone": v.promotion.zone,
        "pieces": pieces,
        "options": options_view(v),
        "chosen": v.chosen.iter().map(|(k, val)| (k.clone(), Value::String(val.clone()))).collect::<serde_json::Map<_, _>>(),
        "start_fen": v.start_fen,
    })
}

/// The options a variant offers: `[{name, label, summary, description,
/// default, values, value_labels}]` (label and summary in a player's
/// words; the description, with its sources, is the details).
pub fn options_view(v: &Variant) -> Value {
    v.options
        .iter()
        .map(|o| {
            json!({
                "name": o.name,
                "label": o.label,
                "summary": o.summary,
                "description": o.description,
                "default": o.default,
                "values": o.values,
                "value_labels": o.value_labels,
            })
        })
        .collect()
}
