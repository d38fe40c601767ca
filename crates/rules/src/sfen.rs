//! SFEN in and out for the shogi games (Sho, Chu and Dai Shogi), as shogi
//! programs write positions (lishogi's shogiops, Fairy-Stockfish's
//! `sfen=True`, USI's `position sfen`): four fields,
//!
//! 1. the board, ranks from the second player's side (`a`) down, files from
//!    the left as Black sees them, in the game's own letters (the same as
//!    kamil's FEN: shogiops' letters in Chu, Fairy-Stockfish's in Sho,
//!    HaChu's tokens such as `C'` and `L!` in Dai, which has more pieces
//!    than letters), `+` before a promoted piece;
//! 2. the side to move: `b` Black (Sente, the first player), `w` White;
//! 3. in Sho and Dai the pieces in hand, always `-` (neither game drops);
//!    in Chu the square, in USI's names ([`crate::usi::square_name`]),
//!    where the last move took a Lion of the side to move with a non-Lion
//!    (the counter-strike rule, rules/chu-shogi.md 6.4 LT3), or `-`;
//! 4. the move number, counted in plies from 1 (shogiops and
//!    Fairy-Stockfish write `b - 1`, `w - 2`, `b - 3`, ...).
//!
//! Fields 2 to 4 may be left off (Black to move, nothing in hand, move 1).
//! [`read_position`] takes either notation where a front end accepts a
//! FEN.

use crate::excerpt::excerpt;
use crate::fen::{FenError, FenErrorKind};
use crate::piece::Side;
use crate::position::Position;
use crate::usi;
use crate::variant::Variant;
use std::sync::Arc;

/// What a game's SFEN third field holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ThirdField {
    /// Pieces in hand (Sho and Dai Shogi): always `-`, these games do not
    /// drop.
    Hands,
    /// Chu Shogi: the square of the last Lion capture by a non-Lion, or `-`
    /// (lishogi's convention).
    LionCapture,
}

/// How `variant` writes SFEN: the meaning of its third field, or `None`
/// for a game with no SFEN (every game but the three shogi games, and
/// their variants: a variant that extends one of them has its SFEN).
pub fn third_field(variant: &Variant) -> Option<ThirdField> {
    let is = |game: &str| variant.name == game || variant.bases.iter().any(|b| b == game);
    if is("chu-shogi") {
        Some(ThirdField::LionCapture)
    } else if is("sho-shogi") || is("dai-shogi") {
        Some(ThirdField::Hands)
    } else {
        None
    }
}

/// Does `variant` have an SFEN (Sho, Chu and Dai Shogi)?
pub fn has_sfen(variant: &Variant) -> bool {
    third_field(variant).is_some()
}

/// An SFEN that could not be read: the field it is in (1 = board, 2 = side
/// to move, 3 = hands or Lion capture, 4 = move number) and what is wrong.
///
/// Displays as `SFEN board: ...`, `SFEN side to move: ...`,
/// `SFEN hands: ...`, `SFEN Lion capture: ...` or `SFEN move number: ...`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("SFEN {}: {kind}", field_name(*.field, .kind))]
pub struct SfenError {
    /// The field, counted from 1 (0 for the whole text).
    pub field: usize,
    /// What is wrong.
    pub kind: SfenErrorKind,
}

/// A field's name in an error message.
fn field_name(field: usize, kind: &SfenErrorKind) -> &'static str {
    match (field, kind) {
        (1, _) => "board",
        (2, _) => "side to move",
        (3, SfenErrorKind::BadLionSquare { .. }) => "Lion capture",
        (3, _) => "hands",
        (4, _) => "move number",
        _ => "text",
    }
}

/// What is wrong with an SFEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SfenErrorKind {
    /// The game has no SFEN (only Sho, Chu and Dai Shogi have one).
    #[error("{game} has no SFEN (Sho, Chu and Dai Shogi have)")]
    NoSfen {
        /// The game's name.
        game: String,
    },
    /// The text has no fields.
    #[error("empty SFEN")]
    Empty,
    /// The board field is wrong: the FEN board's error, ranks named as in
    /// kamil's FEN (1 = Black's side).
    #[error("{0}")]
    Board(FenErrorKind),
    /// A side to move other than `b` and `w`.
    #[error("`{}`: expected `b` (Black, Sente) or `w` (White, Gote)", excerpt(.text))]
    BadSide {
        /// The field given.
        text: String,
    },
    /// Pieces in hand: these games do not drop, so the field is `-`.
    #[error("`{}`: this game has no pieces in hand; write `-`", excerpt(.text))]
    PiecesInHand {
        /// The field given.
        text: String,
    },
    /// A Chu Shogi Lion-capture field that is neither `-` nor a square.
    #[error("`{}` is not a square in USI's names (e.g. `7g`) nor `-`", excerpt(.text))]
    BadLionSquare {
        /// The field given.
        text: String,
    },
    /// A move number that is not a number.
    #[error("`{}` is not a move number", excerpt(.text))]
    BadMoveNumber {
        /// The field given.
        text: String,
    },
    /// Text after the fourth field.
    #[error("`{}`: an SFEN has 4 fields", excerpt(.text))]
    ExtraField {
        /// The first field too many.
        text: String,
    },
}

impl SfenError {
    fn at(field: usize, kind: SfenErrorKind) -> SfenError {
        SfenError { field, kind }
    }
}

/// Reads an SFEN of `variant` (see the module comment). A leading
/// byte-order mark and `_` between fields (as in shogiops) are accepted.
///
/// Errors: see [`SfenErrorKind`]; a game without SFEN, no fields, a bad
/// board (field 1), side (2), hands or Lion-capture square (3), move number
/// (4), or a fifth field.
pub fn from_sfen(variant: Arc<Variant>, text: &str) -> Result<Position, SfenError> {
    let Some(third) = third_field(&variant) else {
        let game = variant.name.clone();
        return Err(SfenError::at(0, SfenErrorKind::NoSfen { game }));
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fields: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '_')
        .filter(|f| !f.is_empty())
        .collect();
    let Some(board) = fields.first() else {
        return Err(SfenError::at(0, SfenErrorKind::Empty));
    };
    if let Some(extra) = fields.get(4) {
        let text = extra.to_string();
        return Err(SfenError::at(5, SfenErrorKind::ExtraField { text }));
    }
    let side = match fields.get(1).copied() {
        None | Some("b") => Side::First,
        Some("w") => Side::Second,
        Some(s) => {
            let text = s.to_string();
            return Err(SfenError::at(2, SfenErrorKind::BadSide { text }));
        }
    };
    // kamil's FEN of these games writes `b`/`w` as SFEN does.
    let letter = &variant.fen.side_letters[side.index()];
    let mut pos = Position::from_fen(variant.clone(), &format!("{board} {letter}"))
        .map_err(|e: FenError| SfenError::at(e.field, board_kind(e)))?;
    if let Some(n) = fields.get(3) {
        let n: u32 = n.parse().map_err(|_| {
            let text = n.to_string();
            SfenError::at(4, SfenErrorKind::BadMoveNumber { text })
        })?;
        pos.set_ply_number(n);
    }
    if let Some(&f) = fields.get(2)
        && f != "-"
    {
        let text = f.to_string();
        match third {
            ThirdField::Hands => {
                return Err(SfenError::at(3, SfenErrorKind::PiecesInHand { text }));
            }
            ThirdField::LionCapture => {
                let sq = usi::parse_square(&variant.geometry, f)
                    .ok_or_else(|| SfenError::at(3, SfenErrorKind::BadLionSquare { text }))?;
                // Without a Lion-trading rule in force the state means nothing.
                pos.set_lion_strike(sq);
            }
        }
    }
    Ok(pos)
}

/// The kind of a board error from the FEN reader (only field 1 or 2 can
/// fail there, and the side is checked before).
fn board_kind(e: FenError) -> SfenErrorKind {
    match e.kind {
        FenErrorKind::BadSide { text, .. } => SfenErrorKind::BadSide { text },
        k => SfenErrorKind::Board(k),
    }
}

/// The SFEN of `pos` (see the module comment), or `None` for a game
/// without SFEN ([`has_sfen`]).
pub fn to_sfen(pos: &Position) -> Option<String> {
    let v = pos.variant();
    let third = match third_field(v)? {
        ThirdField::Hands => "-".to_string(),
        ThirdField::LionCapture => match pos.lion_strike() {
            Some(sq) => usi::square_name(&v.geometry, sq),
            None => "-".to_string(),
        },
    };
    let board = crate::fen::write_board(&v.geometry, |p| v.token(p), |sq| pos.at(sq));
    let side = if pos.side() == Side::First { "b" } else { "w" };
    Some(format!("{board} {side} {third} {}", pos.ply_number()))
}

impl Position {
    /// Reads an SFEN of a shogi game: see [`from_sfen`].
    ///
    /// Errors: see [`SfenError`].
    pub fn from_sfen(variant: Arc<Variant>, text: &str) -> Result<Position, SfenError> {
        from_sfen(variant, text)
    }

    /// The SFEN of this position, `None` in a game without SFEN: see
    /// [`to_sfen`].
    pub fn sfen(&self) -> Option<String> {
        to_sfen(self)
    }
}

/// Is `text` an SFEN rather than a kamil or XBoard FEN of `variant`? Yes
/// for a game with SFEN ([`has_sfen`]) and text of three or four fields
/// whose third is not a number (a FEN's third field in these games is
/// XBoard's or Fairy-Stockfish's halfmove clock, `w 0 1`) and whose fourth,
/// if given, is one. A two-field text reads the same either way.
pub fn looks_like_sfen(variant: &Variant, text: &str) -> bool {
    if !has_sfen(variant) {
        return false;
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    matches!(fields.len(), 3 | 4) && !numeric(fields[2]) && fields.get(3).is_none_or(|f| numeric(f))
}

/// A position text that could not be read as what it looked like.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// Read as a FEN.
    // Transparent: the reason is said once, not again as its own source.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// Read as an SFEN ([`looks_like_sfen`]).
    #[error(transparent)]
    Sfen(#[from] SfenError),
}

/// Reads a position given as kamil's FEN (or XBoard's, as
/// [`Position::from_fen`] does) or, in the shogi games, as an SFEN
/// ([`looks_like_sfen`] tells which): what every front end that takes a FEN
/// accepts.
///
/// # Errors
///
/// The [`FenError`] or [`SfenError`] of the notation the text was read in.
///
/// # Examples
///
/// ```
/// use kamil_rules::sfen::read_position;
/// use kamil_rules::{Side, Variant};
/// use std::sync::Arc;
/// let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
/// let sfen = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1";
/// let pos = read_position(v.clone(), sfen).unwrap();
/// assert_eq!(pos.side(), Side::First);
/// assert!(read_position(v, "9/9 b - 1").is_err());
/// ```
pub fn read_position(variant: Arc<Variant>, text: &str) -> Result<Position, PositionTextError> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    if looks_like_sfen(&variant, t) {
        Ok(from_sfen(variant, t)?)
    } else {
        Ok(Position::from_fen(variant, t)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(name: &str) -> Arc<Variant> {
        Arc::new(Variant::builtin(name, &[]).unwrap())
    }

    #[test]
    fn start_positions_write_as_shogi_programs_do() {
        let chu = Position::start(game("chu-shogi"));
        assert_eq!(
            chu.sfen().unwrap(),
            "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1"
        );
        let sho = Position::start(game("sho-shogi"));
        assert_eq!(
            sho.sfen().unwrap(),
            "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1"
        );
        assert!(Position::start(game("courier")).sfen().is_none());
    }

    #[test]
    fn move_number_reads_back_whatever_its_parity() {
        let v = game("sho-shogi");
        let board = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL";
        let max = u32::MAX;
        for tail in [
            "b - 1",
            "w - 1",
            "w - 2",
            "b - 2",
            "b - 37",
            "w - 120",
            &format!("w - {max}"),
        ] {
            let text = format!("{board} {tail}");
            assert_eq!(from_sfen(v.clone(), &text).unwrap().sfen().unwrap(), text);
        }
        let mut pos = from_sfen(v, &format!("{board} w - 1")).unwrap();
        let m = pos.legal_moves()[0];
        pos.make(m);
        assert!(pos.sfen().unwrap().ends_with(" b - 2"));
        pos.unmake();
        assert!(pos.sfen().unwrap().ends_with(" w - 1"));
    }

    #[test]
    fn errors_name_the_field() {
        let v = game("chu-shogi");
        let start = &v.start_fen.split_whitespace().next().unwrap().to_string();
        let err = |t: &str| from_sfen(v.clone(), t).unwrap_err().to_string();
        assert_eq!(err(""), "SFEN text: empty SFEN");
        assert!(err(&format!("{start} x")).starts_with("SFEN side to move: `x`"));
        assert!(err(&format!("{start} b 13m")).starts_with("SFEN Lion capture: `13m`"));
        assert!(err(&format!("{start} b - one")).starts_with("SFEN move number: `one`"));
        assert!(err(&format!("{start} b - 1 2")).starts_with("SFEN text: `2`"));
        assert!(err("lfcsgekgscfl b").starts_with("SFEN board: 1 rank given"));
        let sho = game("sho-shogi");
        let e = from_sfen(
            sho.clone(),
            &format!("{} b P 1", sho.start_fen.split(' ').next().unwrap()),
        );
        assert!(e.unwrap_err().to_string().starts_with("SFEN hands: `P`"));
        let e = from_sfen(game("courier"), "8/8 b - 1").unwrap_err();
        assert!(e.to_string().contains("courier has no SFEN"), "{e}");
    }

    #[test]
    fn read_position_tells_sfen_from_xboard_fen() {
        let v = game("sho-shogi");
        let board = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL";
        // Fairy-Stockfish's FEN: `w` is the first player.
        let fsf = read_position(v.clone(), &format!("{board} w 0 1")).unwrap();
        assert_eq!(fsf.side(), Side::First);
        let sfen = read_position(v.clone(), &format!("{board} w - 2")).unwrap();
        assert_eq!(sfen.side(), Side::Second);
        let e = read_position(v, &format!("{board} w P 2")).unwrap_err();
        assert!(matches!(e, PositionTextError::Sfen(_)), "{e}");
    }
}
