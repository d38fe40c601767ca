//! FEN in and out: ranks top to bottom, multi-digit empty runs, `*` for a
//! cell that is not a square, `+` before a promoted piece, tokens longer than
//! one letter matched longest first.

use crate::excerpt::excerpt;
use crate::geometry::{Geometry, Square};
use crate::piece::Piece;
use std::fmt;

/// A FEN that could not be read: the field it is in and what is wrong.
///
/// Displays as `FEN board: ...`, `FEN side to move: ...` or
/// `FEN field N: ...`, followed by the kind's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FenError {
    /// The field (1 = board, 2 = side to move, ...), counted from 1 as the
    /// FEN gives them, so a variant's extra fields keep their own numbers.
    pub field: usize,
    /// What is wrong, with the text or place that is wrong.
    pub kind: FenErrorKind,
}

impl FenError {
    /// An error in the board field (field 1).
    pub fn board(kind: FenErrorKind) -> FenError {
        FenError { field: 1, kind }
    }

    /// What is wrong, as the text after the field's name.
    pub fn what(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.field {
            1 => "board",
            2 => "side to move",
            _ => "field",
        };
        if self.field > 2 {
            write!(f, "FEN field {}: {}", self.field, self.kind)
        } else {
            write!(f, "FEN {name}: {}", self.kind)
        }
    }
}

/// What is wrong with a FEN. Ranks are named as in the FEN (1 = the bottom
/// rank), cells of a rank counted from 1 at the left.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// The text has no fields at all.
    #[error("empty FEN")]
    Empty,
    /// The board field has a different number of ranks than the board.
    #[error("{given} {} given, the board has {expected}", plural(*.given as u64, "rank"))]
    WrongRankCount {
        /// Ranks in the FEN.
        given: usize,
        /// Ranks of the board.
        expected: u8,
    },
    /// A run of empty cells whose number does not fit a `u32`.
    #[error("rank {rank}: bad number")]
    BadNumber {
        /// The rank.
        rank: u32,
    },
    /// A run of empty cells written `0`.
    #[error("rank {rank}: empty run of 0")]
    ZeroRun {
        /// The rank.
        rank: u32,
    },
    /// A rank with more cells than the board has files.
    #[error("rank {rank} is longer than {files} files")]
    RankTooLong {
        /// The rank.
        rank: u32,
        /// Files of the board.
        files: u8,
    },
    /// A rank with fewer cells than the board has files.
    #[error("rank {rank} has {cells} {}, the board has {files} files", plural(*.cells as u64, "cell"))]
    RankTooShort {
        /// The rank.
        rank: u32,
        /// Cells the rank gives.
        cells: u32,
        /// Files of the board.
        files: u8,
    },
    /// An empty run that covers a cell which is not a square (a hole must
    /// be written `*`).
    #[error("rank {rank}: cell {cell} is not a square; write it `*`")]
    HoleInRun {
        /// The rank.
        rank: u32,
        /// The cell, counted from 1.
        cell: u32,
    },
    /// A `*` on a cell that is a square.
    #[error("rank {rank}: `*` on {square}, which is a square")]
    StarOnSquare {
        /// The rank.
        rank: u32,
        /// The square's name.
        square: String,
    },
    /// Text no piece of the variant is written as.
    #[error("rank {rank}: no piece is written `{text}`")]
    UnknownPiece {
        /// The rank.
        rank: u32,
        /// Up to three characters from where the token should start.
        text: String,
    },
    /// A piece on a cell that is not a square.
    #[error("rank {rank}: piece `{token}` on a cell that is not a square")]
    PieceOnHole {
        /// The rank.
        rank: u32,
        /// The piece's token.
        token: String,
    },
    /// A side to move that is neither of the variant's two letters.
    #[error("`{}`: expected `{}` or `{}`", excerpt(.text), .expected[0], .expected[1])]
    BadSide {
        /// The field given.
        text: String,
        /// The letters of the first and second player in this FEN's
        /// convention.
        expected: [String; 2],
    },
    /// A castling letter other than `K`, `Q`, `k`, `q`.
    #[error("castling `{letter}`: expected K, Q, k, q or -")]
    BadCastling {
        /// The letter given.
        letter: char,
    },
    /// An en-passant field that names no square.
    #[error("`{}` is not a square", excerpt(.text))]
    BadSquare {
        /// The field given.
        text: String,
    },
    /// A King-swap letter other than `K`, `k`.
    #[error("swap right `{letter}`: expected K, k or -")]
    BadSwap {
        /// The letter given.
        letter: char,
    },
    /// A frozen-piece field that names no square.
    #[error("frozen `{}` is not a square", excerpt(.text))]
    BadFrozenSquare {
        /// The field given.
        text: String,
    },
    /// A frozen-piece square without a piece of the side to move.
    #[error("frozen `{}`: no piece of the side to move there", excerpt(.text))]
    FrozenNotOwn {
        /// The field given.
        text: String,
    },
    /// A halfmove clock that is not a number.
    #[error("`{}` is not a ply count", excerpt(.text))]
    BadHalfmove {
        /// The field given.
        text: String,
    },
    /// A fullmove number that is not a number.
    #[error("`{}` is not a move number", excerpt(.text))]
    BadFullmove {
        /// The field given.
        text: String,
    },
    /// A field after the variant's last: the FEN has trailing text.
    #[error("`{}`: the FEN has {expected} fields at most", excerpt(.text))]
    ExtraField {
        /// The field given.
        text: String,
        /// Fields the variant's FEN has (board and side included).
        expected: usize,
    },
    /// In a shogi FEN with fields after the side (XBoard's or
    /// Fairy-Stockfish's convention), one that is neither `-` nor a number:
    /// trailing text, not an XBoard field, so the side is not read as one.
    #[error("`{}`: after the side to move an XBoard FEN has only `-` or numbers", excerpt(.text))]
    NotXboardField {
        /// The field given.
        text: String,
    },
}

/// `word` for one, `words` for any other count.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// Reads the board field: `(square, piece)` for every occupied square.
///
/// Errors (all field 1): wrong number of ranks, a bad or zero empty run, a
/// rank too long or too short, a token no piece has, a `*` on a square or a
/// piece or empty run on a cell that is not a square; see [`FenErrorKind`].
pub fn parse_board(
    geo: &Geometry,
    tokens: &[(String, Piece)],
    text: &str,
) -> Result<Vec<(Square, Piece)>, FenError> {
    let bad = FenError::board;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks() as usize {
        return Err(bad(FenErrorKind::WrongRankCount {
            given: rows.len(),
            expected: geo.ranks(),
        }));
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks() - 1 - i as u8;
        let rank_name = rank as u32 + 1;
        let mut file: u32 = 0;
        let bytes = row.as_bytes();
        let mut k = 0;
        while k < bytes.len() {
            let c = bytes[k] as char;
            if c.is_ascii_digit() {
                let start = k;
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                let n: u32 = row[start..k]
                    .parse()
                    .map_err(|_| bad(FenErrorKind::BadNumber { rank: rank_name }))?;
                if n == 0 {
                    return Err(bad(FenErrorKind::ZeroRun { rank: rank_name }));
                }
                for _ in 0..n {
                    if file >= geo.files() as u32 {
                        return Err(bad(FenErrorKind::RankTooLong {
                            rank: rank_name,
                            files: geo.files(),
                        }));
                    }
                    if geo.square(file as i32, rank as i32).is_none() {
                        return Err(bad(FenErrorKind::HoleInRun {
                            rank: rank_name,
                            cell: file + 1,
                        }));
                    }
                    file += 1;
                }
                continue;
            }
            if file >= geo.files() as u32 {
                return Err(bad(FenErrorKind::RankTooLong {
                    rank: rank_name,
                    files: geo.files(),
                }));
            }
            if c == '*' {
                if geo.square(file as i32, rank as i32).is_some() {
                    return Err(bad(FenErrorKind::StarOnSquare {
                        rank: rank_name,
                        square: geo.name(geo.cell(file as u8, rank)).to_string(),
                    }));
                }
                file += 1;
                k += 1;
                continue;
            }
            let rest = &row[k..];
            let Some((tok, piece)) = tokens.iter().find(|(t, _)| rest.starts_with(t.as_str()))
            else {
                let shown: String = rest.chars().take(3).collect();
                return Err(bad(FenErrorKind::UnknownPiece {
                    rank: rank_name,
                    text: shown,
                }));
            };
            let Some(sq) = geo.square(file as i32, rank as i32) else {
                return Err(bad(FenErrorKind::PieceOnHole {
                    rank: rank_name,
                    token: tok.clone(),
                }));
            };
            out.push((sq, *piece));
            file += 1;
            k += tok.len();
        }
        if file != geo.files() as u32 {
            return Err(bad(FenErrorKind::RankTooShort {
                rank: rank_name,
                cells: file,
                files: geo.files(),
            }));
        }
    }
    Ok(out)
}

/// Writes the board field from `token` (a piece's FEN text) and `at` (the
/// piece on a square, empty or not).
pub fn write_board(
    geo: &Geometry,
    token: impl Fn(Piece) -> String,
    at: impl Fn(Square) -> Piece,
) -> String {
    let mut s = String::new();
    for r in (0..geo.ranks()).rev() {
        let mut empty = 0;
        for f in 0..geo.files() {
            let cell = geo.cell(f, r);
            if !geo.is_square(cell) {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push('*');
                continue;
            }
            let p = at(cell);
            if p.is_piece() {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push_str(&token(p));
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}
