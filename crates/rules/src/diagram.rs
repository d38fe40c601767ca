//! Where a piece can go on an empty board: the data of a piece's diagram,
//! as the web page's piece help and rules panel and `kamil rules` draw it.
//! Computed by the generic move generation, so a diagram always shows the
//! moves the rules library actually plays.

use crate::fen::write_board;
use crate::movegen::piece_moves;
use crate::{Piece, PieceType, Position, Side, Square, Variant};
use std::sync::Arc;

/// A piece's reach from the middle of an empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The square it stands on: the square nearest the board's centre.
    pub from: Square,
    /// Where it can move with the rest of the board empty.
    pub moves: Vec<Square>,
    /// Where it can only capture: reached with an enemy on every other
    /// square, and not reached on the empty board.
    pub captures: Vec<Square>,
}

/// The reach of a piece of type `kind` owned by `side` in variant `v`:
/// takes the variant and piece; returns its moves from the square nearest
/// the centre on an otherwise empty board, and the squares it could only
/// capture on (with an enemy on every other square). Never fails: a
/// position the variant refuses to build (none is known) gives no squares.
pub fn reach(v: &Arc<Variant>, kind: PieceType, side: Side) -> Reach {
    let g = &v.geometry;
    let (cf, cr) = ((g.files() as i32 - 1) / 2, (g.ranks() as i32 - 1) / 2);
    let centre = g
        .squares()
        .min_by_key(|&s| {
            let (f, r) = (g.file(s) as i32, g.rank(s) as i32);
            ((f - cf).abs() + (r - cr).abs(), f, r)
        })
        .unwrap_or(Square(0));
    let piece = Piece::new(kind, side);
    // Any other type will do as the enemy; the piece itself is not royal then.
    let enemy = Piece::new(0, side.flip());
    let letters = &v.fen.side_letters;
    let dests = |filled: bool| -> Vec<Square> {
        let board = write_board(
            g,
            |p| v.token(p),
            |s| match (s == centre, filled) {
                (true, _) => piece,
                (false, true) => enemy,
                (false, false) => Piece::EMPTY,
            },
        );
        let fen = format!("{board} {}", letters[side.index()]);
        let Ok(pos) = Position::from_fen(v.clone(), &fen) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        piece_moves(&pos, v, centre, piece, &mut moves);
        let mut out: Vec<Square> = moves
            .iter()
            .map(|m| m.to)
            .filter(|&s| s != centre)
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let moves = dests(false);
    let captures: Vec<Square> = dests(true)
        .into_iter()
        .filter(|s| !moves.contains(s))
        .collect();
    Reach {
        from: centre,
        moves,
        captures,
    }
}
