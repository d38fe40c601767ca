//! A [`Setup`]: a position as its FEN gives it, each field read and
//! checked as text, before it becomes a [`crate::Position`]
//! ([`crate::Position::from_setup`]), which applies the rules of play to it:
//! castling rights whose King or Rook is not in place, an en-passant square
//! no pawn can have passed and King-swap rights without the rule in force
//! are dropped there, as the rule book has them void.
//!
//! Reading a FEN in two steps, as shakmaty does, lets a front end or a
//! user edit a position's fields (a board editor, a puzzle) before it is
//! played, and keeps the text apart from the state that make and unmake
//! change.

use crate::board::swap_right;
use crate::fen::{self, FenError, FenErrorKind};
use crate::geometry::Square;
use crate::piece::{Piece, Side};
use crate::variant::{FenField, Variant};
use std::sync::Arc;

/// Castling right bits: first player queen side, king side; second player.
pub const CASTLE_BITS: [[u8; 2]; 2] = [[1, 2], [4, 8]];

/// A position as a FEN gives it (see the module's comment).
#[derive(Clone, Debug)]
pub struct Setup {
    /// The variant the FEN was read for.
    pub variant: Arc<Variant>,
    /// The pieces on the board, by square.
    pub board: Vec<(Square, Piece)>,
    /// The side to move (the first player when the FEN has no field 2).
    pub side: Side,
    /// Castling rights asked for, as [`CASTLE_BITS`] (0 where castling is
    /// not in force: the field is then not read).
    pub castling: u8,
    /// The square a pawn just passed, if the FEN names one.
    pub en_passant: Option<Square>,
    /// Unused King-swap rights, a bit per side; `None` where the FEN has no
    /// such field.
    pub swap: Option<u8>,
    /// The square of the piece of the side to move that may not move this
    /// turn, if any.
    pub frozen: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    /// The move number, from 1.
    pub fullmove: u32,
}

/// Refuses trailing text: fields after the variant's last and, where a
/// shogi FEN's further fields switch to XBoard's side letters, any that is
/// not an XBoard field (`-` or a number), so junk cannot flip the side.
///
/// Errors: the first such field, as [`FenErrorKind::ExtraField`] or
/// [`FenErrorKind::NotXboardField`].
fn check_field_count(variant: &Variant, fields: &[&str]) -> Result<(), FenError> {
    let extra = fields.iter().enumerate().skip(2);
    if variant.fen.xboard_side_letters.is_some() {
        for (i, f) in extra {
            if *f != "-" && f.parse::<u64>().is_err() {
                let kind = FenErrorKind::NotXboardField {
                    text: f.to_string(),
                };
                return Err(FenError { field: i + 1, kind });
            }
        }
        return Ok(());
    }
    let expected = 2 + variant.fen.fields.len();
    match fields.get(expected) {
        Some(f) => Err(FenError {
            field: expected + 1,
            kind: FenErrorKind::ExtraField {
                text: f.to_string(),
                expected,
            },
        }),
        None => Ok(()),
    }
}

impl Setup {
    /// Reads a FEN in the variant's convention. Fields after the board are
    /// optional (side to move defaults to the first player). A shogi FEN
    /// with more fields after the side is read in XBoard's convention,
    /// where `w` is the first player, so Fairy-Stockfish FENs load as they
    /// are; those fields must be `-` or numbers. Text after the last field
    /// is an error. A leading byte-order mark is skipped.
    ///
    /// # Errors
    ///
    /// See [`FenError`]; each names the field and a [`FenErrorKind`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kamil_rules::setup::Setup;
    /// use kamil_rules::{Position, Side, Variant};
    /// use std::sync::Arc;
    /// let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
    /// let mut setup = Setup::from_fen(v, "6k5/12/12/12/12/12/12/6K5 w - - 0 1").unwrap();
    /// assert_eq!(setup.board.len(), 2);
    /// setup.side = Side::Second;
    /// let pos = Position::from_setup(setup);
    /// assert_eq!(pos.fen(), "6k5/12/12/12/12/12/12/6K5 b - - 0 1");
    /// ```
    pub fn from_fen(variant: Arc<Variant>, text: &str) -> Result<Setup, FenError> {
        // A FEN file from a Windows editor starts with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let fields: Vec<&str> = text.split_whitespace().collect();
        check_field_count(&variant, &fields)?;
        let mut setup = Setup::board_and_side(variant.clone(), &fields)?;
        for (i, kind) in variant.fen.fields.iter().enumerate() {
            let Some(&f) = fields.get(i + 2) else { break };
            // Fields are numbered from 1 as written: board, side, then these.
            let field = i + 3;
            match kind {
                FenField::Castling => setup.castling = setup.read_castling(f, field)?,
                FenField::EnPassant => setup.en_passant = read_square(&variant, f, field)?,
                FenField::Swap => setup.swap = Some(read_swap(f, field)?),
                FenField::Frozen => setup.frozen = setup.read_frozen(f, field)?,
                FenField::Halfmove => {
                    setup.halfmove = f.parse().map_err(|_| FenError {
                        field,
                        kind: FenErrorKind::BadHalfmove {
                            text: f.to_string(),
                        },
                    })?;
                }
                FenField::Fullmove => {
                    let n: u32 = f.parse().map_err(|_| FenError {
                        field,
                        kind: FenErrorKind::BadFullmove {
                            text: f.to_string(),
                        },
                    })?;
                    setup.fullmove = n.max(1);
                }
            }
        }
        Ok(setup)
    }

    /// The setup of FEN fields 1 (board) and 2 (side to move, if given),
    /// every other field at its default.
    ///
    /// Errors: no fields, a board [`fen::parse_board`] rejects, or a side
    /// letter that is neither player's.
    fn board_and_side(variant: Arc<Variant>, fields: &[&str]) -> Result<Setup, FenError> {
        let Some(board_text) = fields.first() else {
            return Err(FenError::board(FenErrorKind::Empty));
        };
        let board = fen::parse_board(&variant.geometry, &variant.tokens, board_text)?;
        let mut side = Side::First;
        if let Some(s) = fields.get(1) {
            let letters = match (&variant.fen.xboard_side_letters, fields.len() > 2) {
                (Some(x), true) => x,
                _ => &variant.fen.side_letters,
            };
            side = if *s == letters[0] {
                Side::First
            } else if *s == letters[1] {
                Side::Second
            } else {
                return Err(FenError {
                    field: 2,
                    kind: FenErrorKind::BadSide {
                        text: s.to_string(),
                        expected: letters.clone(),
                    },
                });
            };
        }
        Ok(Setup {
            variant,
            board,
            side,
            castling: 0,
            en_passant: None,
            swap: None,
            frozen: None,
            halfmove: 0,
            fullmove: 1,
        })
    }

    /// The piece on `sq` (empty where none is set).
    pub fn at(&self, sq: Square) -> Piece {
        self.board
            .iter()
            .find(|(s, _)| *s == sq)
            .map_or(Piece::EMPTY, |(_, p)| *p)
    }

    /// Reads castling rights `f` (`KQkq` or `-`), FEN field `field`; not
    /// read (no rights) without castling in force.
    ///
    /// Errors: a letter other than `K`, `Q`, `k`, `q`.
    fn read_castling(&self, f: &str, field: usize) -> Result<u8, FenError> {
        // Without castling in force (an option may be off) rights are void.
        if f == "-" || self.variant.rules.castling.is_none() {
            return Ok(0);
        }
        let mut bits = 0;
        for c in f.chars() {
            let (side, wing) = match c {
                'K' => (0, 1),
                'Q' => (0, 0),
                'k' => (1, 1),
                'q' => (1, 0),
                _ => {
                    return Err(FenError {
                        field,
                        kind: FenErrorKind::BadCastling { letter: c },
                    });
                }
            };
            bits |= CASTLE_BITS[side][wing];
        }
        Ok(bits)
    }

    /// Reads the frozen piece's square `f` (or `-`), FEN field `field`.
    ///
    /// Errors: `f` names no square, or no piece of the side to move stands
    /// there.
    fn read_frozen(&self, f: &str, field: usize) -> Result<Option<Square>, FenError> {
        if f == "-" {
            return Ok(None);
        }
        let text = f.to_string();
        let Some(sq) = self.variant.geometry.parse_square(f) else {
            let kind = FenErrorKind::BadFrozenSquare { text };
            return Err(FenError { field, kind });
        };
        if !self.at(sq).is_side(self.side) {
            let kind = FenErrorKind::FrozenNotOwn { text };
            return Err(FenError { field, kind });
        }
        Ok(Some(sq))
    }
}

/// Reads a square `f` (or `-`, none), FEN field `field`.
///
/// Errors: `f` names no square.
fn read_square(variant: &Variant, f: &str, field: usize) -> Result<Option<Square>, FenError> {
    if f == "-" {
        return Ok(None);
    }
    variant
        .geometry
        .parse_square(f)
        .map(Some)
        .ok_or_else(|| FenError {
            field,
            kind: FenErrorKind::BadSquare {
                text: f.to_string(),
            },
        })
}

/// Reads King-swap rights `f` (`Kk` or `-`), FEN field `field`.
///
/// Errors: a letter other than `K`, `k`.
fn read_swap(f: &str, field: usize) -> Result<u8, FenError> {
    if f == "-" {
        return Ok(0);
    }
    let mut bits = 0;
    for c in f.chars() {
        bits |= match c {
            'K' => swap_right(Side::First),
            'k' => swap_right(Side::Second),
            _ => {
                return Err(FenError {
                    field,
                    kind: FenErrorKind::BadSwap { letter: c },
                });
            }
        };
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn ordinary() -> Arc<Variant> {
        Arc::new(Variant::builtin("ordinary-variant", &[]).unwrap())
    }

    /// Each field reads as written, whatever the board makes of it: the
    /// Setup keeps a castling right whose Rook is gone and an en-passant
    /// square no pawn passed; the Position drops both, as the rule book
    /// has them void.
    #[test]
    fn the_setup_keeps_the_text_and_the_position_applies_the_rules() {
        let fen = "1nbtqmlktbnr/pppppppppppp/1c2c2c2c1/12/12/12/12/1C2C2C2C1/PPPPPPPPPPPP/RNBTQMLKTBNR b KQkq f3 7 12";
        let setup = Setup::from_fen(ordinary(), fen).unwrap();
        assert_eq!(setup.side, Side::Second);
        assert_eq!(setup.castling, 15);
        assert!(setup.en_passant.is_some());
        assert_eq!((setup.halfmove, setup.fullmove), (7, 12));
        let pos = Position::from_setup(setup.clone());
        assert_eq!(pos.castling(), 15 & !CASTLE_BITS[1][0]);
        assert!(pos.en_passant().is_none());
        assert_eq!(
            Position::from_fen(ordinary(), fen).unwrap().fen(),
            pos.fen()
        );
        assert!(pos.fen().contains(" b KQk - 7 12"), "{}", pos.fen());
    }

    /// A field that does not read is an error naming it, before any
    /// position is made.
    #[test]
    fn a_field_that_does_not_read_is_named() {
        let start = ordinary().start_fen.clone();
        let bad = start.replace(" KQkq ", " KQxq ");
        assert_eq!(Setup::from_fen(ordinary(), &bad).unwrap_err().field, 3);
        let bad = start.replace(" w ", " x ");
        assert_eq!(Setup::from_fen(ordinary(), &bad).unwrap_err().field, 2);
        let bad = format!("{start} extra");
        assert_eq!(Setup::from_fen(ordinary(), &bad).unwrap_err().field, 7);
    }
}
