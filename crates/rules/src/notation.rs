//! Move text: coordinate notation `a1a2`, two-digit ranks (`b10c12`), every
//! square of a multi-leg move (`e5f6g7`, `e5f6e5` for a Lion pass), and a
//! promotion suffix (`+` in the shogi games, the new piece's letter in the
//! chess games). Reading also accepts `-`, `x`, `=`, upper case, XBoard's
//! comma form `e5f6,f6g7`, and any spelling of a move with the same origin,
//! final square, captured squares and promotion.

use crate::geometry::Square;
use crate::movegen::legal_moves;
use crate::moves::{Move, MoveKind};
use crate::outcome::ended_by_rule;
use crate::position::Position;
use crate::variant::Variant;
use std::fmt;

/// A move text that is not a legal move here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct MoveError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move `{}`: {}", self.text, self.what)
    }
}

/// The text of a move in our notation.
pub fn move_text(v: &Variant, m: Move) -> String {
    let g = &v.geometry;
    let mut s = String::new();
    if m.kind == MoveKind::Opening {
        let side = if g.rank(m.from) < g.ranks() / 2 { 0 } else { 1 };
        if let Some(op) = &v.compulsory_opening {
            for &(a, b) in &op.moves[side] {
                s.push_str(&format!("{}{}", g.name(a), g.name(b)));
            }
            return s;
        }
    }
    s.push_str(&g.name(m.from).to_string());
    if m.via.is_some() {
        s.push_str(&g.name(m.via).to_string());
    }
    s.push_str(&g.name(m.to).to_string());
    if let Some(t) = m.promotion() {
        if v.promotion.shogi {
            s.push('+');
        } else {
            s.push_str(&v.pieces[v.final_form(t) as usize].token.to_lowercase());
        }
    }
    s
}

fn normalize(text: &str) -> String {
    let t = text.trim().to_lowercase().replace(['-', '='], "");
    // XBoard's comma form: `e5f6,f6g7` -> `e5f6g7`.
    let t = match t.split_once(',') {
        Some((a, b)) => {
            let last: String = a.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
            let tail_len = last.len() + 1;
            if a.len() >= tail_len
                && a.is_char_boundary(a.len() - tail_len)
                && b.starts_with(&a[a.len() - tail_len..])
            {
                format!("{}{}", a, &b[tail_len..])
            } else {
                format!("{a}{b}")
            }
        }
        None => t,
    };
    // An `x` between squares marks a capture.
    let b: Vec<char> = t.chars().collect();
    let mut out = String::new();
    for (i, &c) in b.iter().enumerate() {
        let prev_digit = i > 0 && b[i - 1].is_ascii_digit();
        let next_letter = b.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        if c == 'x' && (i == 0 || prev_digit) && next_letter && i + 1 < b.len() {
            continue;
        }
        out.push(c);
    }
    out
}

/// Splits normalized text into squares and the suffix after them.
fn squares_of(v: &Variant, t: &str) -> (Vec<Square>, String) {
    let mut sqs = Vec::new();
    let mut rest = t;
    while let Some((sq, used)) = v.geometry.parse_square_prefix(rest) {
        sqs.push(sq);
        rest = &rest[used..];
    }
    (sqs, rest.to_string())
}

/// Reads a move in any accepted spelling and returns it if it is legal in
/// `pos` (game-end rules included: no move is legal once the game has ended
/// by a rule).
///
/// Errors: text that names no squares, or a move not legal here; the message
/// lists the legal moves of the piece on the origin square.
pub fn parse_move(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    let v = pos.variant().clone();
    let err = |what: String| MoveError {
        text: text.to_string(),
        what,
    };
    let t = normalize(text);
    let mut legal = Vec::new();
    if ended_by_rule(pos).is_none() {
        legal_moves(pos, &mut legal);
    }
    if let Some(m) = legal.iter().find(|m| move_text(&v, **m) == t) {
        return Ok(*m);
    }
    let (sqs, suffix) = squares_of(&v, &t);
    if sqs.len() < 2 {
        return Err(err(format!(
            "not a move in coordinate notation (e.g. {})",
            example(&v)
        )));
    }
    let (from, to) = (sqs[0], *sqs.last().expect("two or more"));
    // Same origin, final square, captured squares and promotion.
    let caps = |m: &Move| {
        let mut c = Vec::new();
        if m.via_capture {
            c.push(m.via);
        }
        if m.to != m.from && pos.at(m.to).is_piece() {
            c.push(m.to);
        }
        c
    };
    let mut wanted: Vec<Square> = sqs[1..]
        .iter()
        .copied()
        .filter(|&s| s != from && pos.at(s).is_side(pos.side().flip()))
        .collect();
    wanted.dedup();
    for m in &legal {
        if m.from != from || m.to != to || m.kind == MoveKind::Opening {
            continue;
        }
        let mut c = caps(m);
        c.sort();
        let mut w = wanted.clone();
        w.sort();
        if c != w {
            continue;
        }
        let suffix_ok = match m.promotion() {
            None => suffix.is_empty(),
            Some(p) => {
                if v.promotion.shogi {
                    suffix == "+"
                } else {
                    suffix == v.pieces[v.final_form(p) as usize].token.to_lowercase()
                }
            }
        };
        if suffix_ok {
            return Ok(*m);
        }
    }
    let of_piece: Vec<String> = legal
        .iter()
        .filter(|m| m.from == from)
        .map(|m| move_text(&v, *m))
        .collect();
    let p = pos.at(from);
    Err(err(if !p.is_piece() {
        format!("no piece on {}", v.geometry.name(from))
    } else if !p.is_side(pos.side()) {
        format!(
            "the piece on {} is not the side to move's",
            v.geometry.name(from)
        )
    } else if of_piece.is_empty() {
        format!(
            "illegal; the piece on {} has no legal move",
            v.geometry.name(from)
        )
    } else {
        format!(
            "illegal; legal moves of {}: {}",
            v.geometry.name(from),
            of_piece.join(" ")
        )
    }))
}

fn example(v: &Variant) -> String {
    let g = &v.geometry;
    let a = g.squares().next().expect("a board has squares");
    let b = g.squares().nth(g.files() as usize).unwrap_or(a);
    format!("{}{}", g.name(a), g.name(b))
}
