//! Piece values on the one scale that static exchange, move ordering,
//! pruning and the material tests of the search read, apart from the
//! static evaluation (which may be a network with no piece values at all).

use kamil_rules::piece::MAX_VALUE;
use kamil_rules::{PieceType, Position, Side, Variant};

/// A piece type's value before any weights file: the variant file's,
/// clamped to the engine's range ([`MAX_VALUE`]); a royal without one is
/// worth 400 (it only matters where royals can be gained or lost, as Sho
/// Shogi's Crown Prince: a spare royal is a life).
pub fn base_value(royal: bool, value: i32) -> i32 {
    if royal && value == 0 {
        400
    } else {
        value.clamp(-MAX_VALUE, MAX_VALUE)
    }
}

/// Each piece type's value and what the search derives from them.
#[derive(Clone, Debug)]
pub struct PieceValues {
    /// Value per piece type, centipawns.
    value: Vec<i32>,
    /// The least value of a type that is not royal (`i32::MAX`: none).
    least_value: i32,
    /// Types that count as pieces for [`PieceValues::has_pieces`]
    /// (neither pawn nor royal).
    piece: Vec<bool>,
}

impl PieceValues {
    /// The values of `v`'s piece types: each type's `value` in the variant
    /// file (the rules library's estimate where the file gives none),
    /// clamped to [`crate::eval::MAX_PIECE_VALUE`]; a royal without one
    /// counts 400.
    pub fn new(v: &Variant) -> PieceValues {
        let value: Vec<i32> = v
            .pieces
            .iter()
            .map(|p| base_value(p.royal, p.value))
            .collect();
        let least_value = value
            .iter()
            .zip(&v.pieces)
            .filter(|(_, p)| !p.royal)
            .map(|(&x, _)| x)
            .min()
            .unwrap_or(i32::MAX);
        let piece = v.pieces.iter().map(|p| !p.pawn && !p.royal).collect();
        PieceValues {
            value,
            least_value,
            piece,
        }
    }

    /// Value of piece type `t` in centipawns (what move ordering and
    /// pruning weigh captures by). `t` must be a type of the variant.
    #[inline]
    pub fn value(&self, t: PieceType) -> i32 {
        self.value[t as usize]
    }

    /// The values by piece type, centipawns.
    pub fn all(&self) -> &[i32] {
        &self.value
    }

    /// The least [`PieceValues::value`] of a piece type that is not royal
    /// (`i32::MAX` when every type is): no exchange can recapture with a
    /// cheaper piece.
    #[inline]
    pub fn least_value(&self) -> i32 {
        self.least_value
    }

    /// Does `side` have a piece that is neither pawn nor royal? (Null-move
    /// pruning is unsound without one: zugzwang.)
    pub fn has_pieces(&self, pos: &Position, side: Side) -> bool {
        pos.pieces(side)
            .iter()
            .any(|&sq| self.piece[pos.at(sq).kind() as usize])
    }
}
