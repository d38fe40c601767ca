//! What a compile step reads besides its own part of the variant file: the
//! file (for error lines), the board, the piece types and their movement,
//! the FEN conventions. Built once the pieces are compiled; the generic
//! steps and every special-rule family (`crate::special`) take it.
//!
//! Low on purpose: it names only the modules below the families, so that a
//! family can compile its own table without reaching up to the variant.

use super::error::{VariantError, err};
use super::tables::FenRules;
use crate::geometry::{Geometry, Square};
use crate::piece::{Moveset, PieceInfo, PieceType};

/// The compiled generic parts a step needs, borrowed (see the module
/// comment).
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The variant file's name, for errors.
    pub file: &'a str,
    /// Its TOML text, where errors find their line.
    pub text: &'a str,
    /// The board.
    pub geometry: &'a Geometry,
    /// Piece types in file order; index = [`PieceType`].
    pub pieces: &'a [PieceInfo],
    /// Movement per type and side.
    pub movesets: &'a [[Moveset; 2]],
    /// FEN conventions.
    pub fen: &'a FenRules,
}

impl Context<'_> {
    /// An error at the dotted `key` of the file (its line found when it can
    /// be).
    pub fn err(&self, key: &str, what: impl Into<String>) -> VariantError {
        err(self.file, Some(key), self.text, what)
    }

    /// The type of the piece keyed `name` (`"pawn"`).
    ///
    /// Errors: no such piece, reported at `key`.
    pub fn piece(&self, key: &str, name: &str) -> Result<PieceType, VariantError> {
        self.pieces
            .iter()
            .position(|p| p.key == name)
            .map(|i| i as PieceType)
            .ok_or_else(|| self.err(key, format!("no piece `{name}`")))
    }

    /// The bit mask of the piece types keyed in `names` (bit `t` for type
    /// `t`): how rules name sets of pieces.
    ///
    /// Errors: a name that is no piece, reported at `key`.
    pub fn type_mask(&self, key: &str, names: &[String]) -> Result<u128, VariantError> {
        names
            .iter()
            .try_fold(0u128, |m, n| Ok(m | 1u128 << self.piece(key, n)?))
    }

    /// Per type: is it keyed in `names`? The [`Self::type_mask`] as a table.
    ///
    /// Errors: a name that is no piece, reported at `key`.
    pub fn type_flags(&self, key: &str, names: &[String]) -> Result<Vec<bool>, VariantError> {
        let mask = self.type_mask(key, names)?;
        Ok((0..self.pieces.len())
            .map(|t| mask & 1u128 << t != 0)
            .collect())
    }

    /// The bit mask of the piece types for which `has` holds (royals,
    /// immune pieces).
    pub fn types_where(&self, has: impl Fn(&PieceInfo) -> bool) -> u128 {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| has(p))
            .fold(0u128, |m, (t, _)| m | 1u128 << t)
    }

    /// The square named `name` (`e4`) on this board.
    ///
    /// Errors: no square of this board (a hole, off the grid, not a name),
    /// reported at `key`.
    pub fn square(&self, key: &str, name: &str) -> Result<Square, VariantError> {
        self.geometry
            .parse_square(name)
            .ok_or_else(|| self.err(key, format!("`{name}` is not a square of this board")))
    }
}
