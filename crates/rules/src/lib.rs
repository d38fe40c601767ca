//! kamil-rules: the rules of the great historical chess variants, as data.
//!
//! A [`Variant`] is loaded from a TOML file (pieces in Betza notation, board
//! with holes, options); a [`Position`] is read from FEN and changed by
//! make / unmake; [`movegen`] gives legal moves, [`outcome`] the game end,
//! [`perft`] the move-tree counts; the shogi games also read and write
//! [`sfen`] positions and [`usi`] move text. No I/O, no threads.
//!
//! ```
//! use kamil_rules::{Position, Variant, perft::perft};
//! use std::sync::Arc;
//! let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
//! let mut pos = Position::start(v);
//! assert_eq!(perft(&mut pos, 2), 678);
//! ```

#![deny(missing_docs)]

pub(crate) mod attackers;
pub mod betza;
pub(crate) mod board;
pub mod board_text;
pub(crate) mod checks;
pub(crate) mod diagram;
pub(crate) mod effects;
pub(crate) mod excerpt;
pub mod fen;
pub(crate) mod geometry;
pub(crate) mod leaps;
pub(crate) mod legal;
pub mod move_reader;
pub mod movegen;
pub(crate) mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod pgn;
pub mod piece;
pub(crate) mod position;
pub(crate) mod push;
pub(crate) mod rays;
pub mod rules_text;
#[cfg(test)]
mod scan_tests;
pub mod setup;
pub mod sfen;
pub mod special;
pub mod splitmix;
pub mod usi;
pub mod variant;
pub(crate) mod zobrist;

pub use attackers::{attackers, attackers_until};
pub use checks::{Check, CheckSquares};
pub use diagram::{Reach, reach};
pub use effects::{BoardChange, touched_squares};
pub use excerpt::{error_chain, excerpt};
pub use geometry::{Geometry, MAX_SIDE, Square};
pub use moves::{Move, MoveKind};
pub use outcome::{Outcome, Points, Reason, Scoring};
pub use piece::{Piece, PieceType, Side};
pub use position::{NullUndo, Position};
pub use setup::Setup;
pub use variant::{Variant, VariantError};
