//! USI move text, as shogi programs write moves (lishogi's shogiops
//! `makeUsi`, Fairy-Stockfish in USI mode, USI's `position ... moves` and
//! `bestmove`), for the shogi games.
//!
//! A square is its file number counted from 1 at Black's right (the
//! board's right edge as the first player sees it) and its rank letter
//! counted from `a` on White's side: on a 12x12 board kamil's `a1` is
//! `12l` and `l12` is `1a`. A move is its origin, for a two-step move
//! (Lion, Horned Falcon, Soaring Eagle) the square of the first step, and
//! its final square, then `+` for a promotion by choice or forced:
//! `7g7f`, `8c7b6a` (a Lion's double move), `7g7f7g` (igui: capture on
//! `7f` without moving; a pass when `7f` is empty), `2b3c+`. A drop is
//! `P*5e`; none of kamil's games drops, so one is read and refused.
//!
//! Reading accepts any spelling with the same effect: a Lion's jump also
//! written through an empty middle square (`6i7h8g` for `6i8g`), and a
//! pass through any empty neighbour, as shogiops lists them; `=` (no
//! promotion) may end a move.

use crate::excerpt::excerpt;
use crate::geometry::{Geometry, Square};
use crate::moves::Move;

use crate::position::Position;
use crate::variant::Variant;

/// The USI name of `sq` (`7g`, `12l`): see the module comment.
pub fn square_name(g: &Geometry, sq: Square) -> String {
    let file = g.files() - g.file(sq);
    let rank = (b'a' + (g.ranks() - 1 - g.rank(sq))) as char;
    format!("{file}{rank}")
}

/// Reads a USI square name at the start of `s` (one or two digits, then a
/// rank letter); returns the square and the bytes used, `None` when `s`
/// does not start with a square of this board.
pub fn parse_square_prefix(g: &Geometry, s: &str) -> Option<(Square, usize)> {
    let b = s.as_bytes();
    let digits = b.iter().take(2).take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || b[0] == b'0' {
        return None;
    }
    let file: u32 = s[..digits].parse().ok()?;
    let letter = *b.get(digits)?;
    if !letter.is_ascii_lowercase() || file > u32::from(g.files()) {
        return None;
    }
    let rank_from_top = u32::from(letter - b'a');
    if rank_from_top >= u32::from(g.ranks()) {
        return None;
    }
    let x = i32::from(g.files()) - file as i32;
    let y = i32::from(g.ranks()) - 1 - rank_from_top as i32;
    Some((g.square(x, y)?, digits + 1))
}

/// Reads a whole USI square name (`7g`, `12l`); `None` when `s` is not
/// exactly one square of this board.
pub fn parse_square(g: &Geometry, s: &str) -> Option<Square> {
    parse_square_prefix(g, s).and_then(|(sq, used)| (used == s.len()).then_some(sq))
}

/// The USI text of `m` (see the module comment): origin, the first step's
/// square of a two-step move, final square, `+` for a promotion.
pub fn move_text(v: &Variant, m: Move) -> String {
    let g = &v.geometry;
    let mut s = square_name(g, m.from);
    if m.via.is_some() {
        s.push_str(&square_name(g, m.via));
    }
    s.push_str(&square_name(g, m.to));
    if m.promo != 0 {
        s.push('+');
    }
    s
}

/// A USI move text that is not a legal move here: the text and what is
/// wrong. Displays as ``USI move `TEXT`: `` and the kind's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("USI move `{}`: {kind}", excerpt(.text))]
pub struct UsiMoveError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub kind: UsiMoveErrorKind,
}

/// What is wrong with a USI move text. Squares are named as USI names them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UsiMoveErrorKind {
    /// Text that is not two or three USI squares and a suffix.
    #[error("not a USI move (e.g. {example})")]
    Malformed {
        /// A move text of this board, to show.
        example: String,
    },
    /// A drop (`P*5e`): this game has no pieces in hand.
    #[error("a drop, and this game has no pieces in hand")]
    Drop,
    /// A middle square that is not one king step from the origin and from
    /// the final square, or holds the mover's own piece.
    #[error("{square} is not a first step of a two-step move to {to}")]
    BadStep {
        /// The middle square.
        square: String,
        /// The final square.
        to: String,
    },
    /// No piece stands on the origin square.
    #[error("no piece on {square}")]
    NoPiece {
        /// The origin square.
        square: String,
    },
    /// The piece on the origin square is the opponent's.
    #[error("the piece on {square} is not the side to move's")]
    NotSideToMove {
        /// The origin square.
        square: String,
    },
    /// The side to move's piece has no legal move of this effect.
    #[error("illegal; {}", crate::notation::not_legal_text(.square, .legal))]
    NotLegal {
        /// The origin square.
        square: String,
        /// The legal moves of the piece there, in USI text.
        legal: Vec<String>,
    },
}

/// The squares and the promotion of a USI move text, or what is wrong.
fn split(g: &Geometry, text: &str) -> Result<(Vec<Square>, bool), UsiMoveErrorKind> {
    let example = || UsiMoveErrorKind::Malformed {
        example: format!(
            "{}{}",
            square_name(g, g.cell(0, 1)),
            square_name(g, g.cell(0, 2))
        ),
    };
    if text.contains('*') {
        let b = text.as_bytes();
        let drop_form = b.len() >= 4 && b[0].is_ascii_uppercase() && b[1] == b'*';
        return Err(if drop_form && parse_square(g, &text[2..]).is_some() {
            UsiMoveErrorKind::Drop
        } else {
            example()
        });
    }
    let (body, promote) = match text.as_bytes().last() {
        Some(b'+') => (&text[..text.len() - 1], true),
        Some(b'=') => (&text[..text.len() - 1], false),
        _ => (text, false),
    };
    let mut sqs = Vec::new();
    let mut rest = body;
    while let Some((sq, used)) = parse_square_prefix(g, rest) {
        sqs.push(sq);
        rest = &rest[used..];
    }
    if !rest.is_empty() || !(2..=3).contains(&sqs.len()) {
        return Err(example());
    }
    Ok((sqs, promote))
}

/// King-step (Chebyshev) distance of two squares.
fn steps(g: &Geometry, a: Square, b: Square) -> u32 {
    let dx = (i32::from(g.file(a)) - i32::from(g.file(b))).unsigned_abs();
    let dy = (i32::from(g.rank(a)) - i32::from(g.rank(b))).unsigned_abs();
    dx.max(dy)
}

/// Reads a USI move text and returns the legal move of `pos` it names
/// (game-end rules included: no move is legal once the game has ended by a
/// rule). Any spelling with the same effect reads (see the module comment).
///
/// Errors: text that is not a USI move ([`UsiMoveErrorKind::Malformed`]),
/// a drop ([`UsiMoveErrorKind::Drop`]), a middle square no two-step move
/// can use ([`UsiMoveErrorKind::BadStep`]); a move not legal here: no piece
/// on the origin, the opponent's piece, else
/// [`UsiMoveErrorKind::NotLegal`] with the legal moves of that piece.
pub fn parse_move(pos: &mut Position, text: &str) -> Result<Move, UsiMoveError> {
    let v = pos.variant().clone();
    let g = &v.geometry;
    let err = |kind| UsiMoveError {
        text: text.to_string(),
        kind,
    };
    let t = text.trim();
    let legal = pos.legal_moves();
    if let Some(m) = legal.iter().find(|m| move_text(&v, **m) == t) {
        return Ok(*m);
    }
    let (sqs, promote) = split(g, t).map_err(err)?;
    let (from, to) = (sqs[0], sqs[sqs.len() - 1]);
    let mover = pos.side();
    if sqs.len() == 3 {
        let mid = sqs[1];
        if mid == from
            || steps(g, from, mid) != 1
            || steps(g, mid, to) > 1
            || pos.at(mid).is_side(mover)
        {
            return Err(err(UsiMoveErrorKind::BadStep {
                square: square_name(g, mid),
                to: square_name(g, to),
            }));
        }
    }
    // The move of the same effect: origin, final square, captures, promotion.
    let enemy = |s: Square| pos.at(s).is_side(mover.flip());
    let mut wanted: Vec<Square> = sqs[1..]
        .iter()
        .copied()
        .filter(|&s| s != from && enemy(s))
        .collect();
    wanted.sort();
    wanted.dedup();
    let found = legal.iter().find(|m| {
        let mut caps = Vec::new();
        if m.via_capture {
            caps.push(m.via);
        }
        if m.to != m.from && enemy(m.to) {
            caps.push(m.to);
        }
        caps.sort();
        m.from == from && m.to == to && caps == wanted && (m.promo != 0) == promote
    });
    if let Some(m) = found {
        return Ok(*m);
    }
    let square = square_name(g, from);
    let p = pos.at(from);
    Err(err(if !p.is_piece() {
        UsiMoveErrorKind::NoPiece { square }
    } else if !p.is_side(mover) {
        UsiMoveErrorKind::NotSideToMove { square }
    } else {
        let legal = legal
            .iter()
            .filter(|m| m.from == from)
            .map(|m| move_text(&v, *m))
            .collect();
        UsiMoveErrorKind::NotLegal { square, legal }
    }))
}

/// Is `text` USI move text rather than kamil's? USI squares start with a
/// digit (`7g7f`, `P*5e`), kamil's with a file letter (`c3c4`).
pub fn is_usi_text(text: &str) -> bool {
    let t = text.trim();
    t.starts_with(|c: char| c.is_ascii_digit()) || t.contains('*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn start(name: &str) -> Position {
        Position::start(Arc::new(Variant::builtin(name, &[]).unwrap()))
    }

    #[test]
    fn squares_are_named_from_blacks_right_and_whites_side() {
        let pos = start("chu-shogi");
        let g = &pos.variant().geometry;
        let a1 = g.parse_square("a1").unwrap();
        let l12 = g.parse_square("l12").unwrap();
        assert_eq!(square_name(g, a1), "12l");
        assert_eq!(square_name(g, l12), "1a");
        for sq in g.squares() {
            assert_eq!(parse_square(g, &square_name(g, sq)), Some(sq));
        }
        for bad in ["", "0a", "13a", "1m", "7", "g7", "7g7", "100a"] {
            assert_eq!(parse_square(g, bad), None, "{bad}");
        }
    }
}
