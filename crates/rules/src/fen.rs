//! FEN in and out: ranks top to bottom, multi-digit empty runs, `*` for a
//! cell that is not a square, `+` before a promoted piece, tokens longer than
//! one letter matched longest first.

use crate::geometry::{Geometry, Square};
use crate::piece::Piece;
use std::fmt;

/// A FEN that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FenError {
    /// The field (1 = board, 2 = side to move, ...).
    pub field: usize,
    /// What is wrong, with the place.
    pub what: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.field {
            1 => "board",
            2 => "side to move",
            _ => "field",
        };
        if self.field > 2 {
            write!(f, "FEN field {}: {}", self.field, self.what)
        } else {
            write!(f, "FEN {name}: {}", self.what)
        }
    }
}

fn bad(what: String) -> FenError {
    FenError { field: 1, what }
}

/// Reads the board field: `(square, piece)` for every occupied square.
///
/// Errors: wrong number of ranks, a rank too long or too short, a token no
/// piece has, a `*` on a square or a piece on a cell that is not a square.
pub fn parse_board(
    geo: &Geometry,
    tokens: &[(String, Piece)],
    text: &str,
) -> Result<Vec<(Square, Piece)>, FenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks() as usize {
        return Err(bad(format!(
            "{} ranks given, the board has {}",
            rows.len(),
            geo.ranks()
        )));
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
                    .map_err(|_| bad(format!("rank {rank_name}: bad number")))?;
                if n == 0 {
                    return Err(bad(format!("rank {rank_name}: empty run of 0")));
                }
                for _ in 0..n {
                    if file >= geo.files() as u32 {
                        return Err(bad(format!(
                            "rank {rank_name} is longer than {} files",
                            geo.files()
                        )));
                    }
                    if geo.square(file as i32, rank as i32).is_none() {
                        return Err(bad(format!(
                            "rank {rank_name}: cell {} is not a square; write it `*`",
                            file + 1
                        )));
                    }
                    file += 1;
                }
                continue;
            }
            if file >= geo.files() as u32 {
                return Err(bad(format!(
                    "rank {rank_name} is longer than {} files",
                    geo.files()
                )));
            }
            if c == '*' {
                if geo.square(file as i32, rank as i32).is_some() {
                    return Err(bad(format!(
                        "rank {rank_name}: `*` on {}, which is a square",
                        geo.name(geo.cell(file as u8, rank))
                    )));
                }
                file += 1;
                k += 1;
                continue;
            }
            let rest = &row[k..];
            let Some((tok, piece)) = tokens.iter().find(|(t, _)| rest.starts_with(t.as_str()))
            else {
                let shown: String = rest.chars().take(3).collect();
                return Err(bad(format!(
                    "rank {rank_name}: no piece is written `{shown}`"
                )));
            };
            let Some(sq) = geo.square(file as i32, rank as i32) else {
                return Err(bad(format!(
                    "rank {rank_name}: piece `{tok}` on a cell that is not a square"
                )));
            };
            out.push((sq, *piece));
            file += 1;
            k += tok.len();
        }
        if file != geo.files() as u32 {
            return Err(bad(format!(
                "rank {rank_name} has {file} cells, the board has {} files",
                geo.files()
            )));
        }
    }
    Ok(out)
}

/// Writes the board field from a lookup of each square's piece.
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
