//! The one reader of a move's text, for every front end: kamil's notation
//! (UCI's too), USI (`7g7f`, `8c7b6a`), XBoard's (comma-separated legs,
//! `@@@@` for a pass, XBoard's rank numbers) and the SAN of XBoard's game
//! files (`Nf3`, `Lxf4-f5`, `--`). It says which notation it read.
//!
//! The caller names the notation it speaks ([`Accept`]): a protocol takes
//! its own alone (a GUI's illegal move is refused, never read as another);
//! a person's text or a game file any, its notation first. On a
//! board of ten ranks XBoard counts ranks from 0, so `e1e2` is a
//! different move in XBoard's text and in ours, and only the dialect
//! knows which was meant (the XBoard protocol's text is never read as
//! ours). The others follow in a fixed order (USI, for
//! USI text only; kamil's; XBoard's; SAN). Text of one notation is seldom
//! text of another: USI squares start with a digit, ours and XBoard's
//! with a file letter.

use crate::notation::{self, MoveError, parse_xboard_move, parse_xboard_san};
use crate::usi::{self, UsiMoveError};
use crate::{Move, Position, sfen};

/// A notation of a move's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// kamil's ([`notation::parse_move`]): `e2e4`, `b10c11b12+`; UCI's.
    Kamil,
    /// USI's ([`usi::parse_move`]): `7g7f`, `8c7b6a+`.
    Usi,
    /// XBoard's ([`parse_xboard_move`]): `e5e6,e6e7`, `@@@@`.
    XBoard,
    /// The SAN of XBoard's game files ([`parse_xboard_san`]): `Nf3`.
    San,
}

/// Which notations a caller takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accept {
    /// A protocol's own notation, and only the notations whose squares
    /// cannot be mistaken for it: USI text (its squares start with a
    /// digit) in the shogi games, and for USI kamil's too. A GUI's move
    /// that is not legal is refused, never read as another move.
    Only(Notation),
    /// Every notation, this one first: text a person typed or a game file
    /// holds (kamil's, USI, XBoard's, the SAN of XBoard's game files).
    First(Notation),
}

/// A move text that is not a legal move here, with the reason of the
/// notation it was judged in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnyMoveError {
    /// Judged as kamil's, XBoard's or SAN text.
    // Transparent: the reason is said once, not again as its own source.
    #[error(transparent)]
    Kamil(#[from] MoveError),
    /// Judged as USI text.
    #[error(transparent)]
    Usi(#[from] UsiMoveError),
}

impl AnyMoveError {
    /// The reason alone, without the move's text (for a protocol's
    /// report, which names the move itself).
    pub fn what(&self) -> String {
        match self {
            AnyMoveError::Kamil(e) => e.kind.to_string(),
            AnyMoveError::Usi(e) => e.kind.to_string(),
        }
    }
}

/// Reads `text` as a legal move of `pos` in the notations `accept` takes,
/// its first notation first; returns the move and the notation that read
/// it.
///
/// # Errors
///
/// For USI text in a game with SFEN (the shogi games), or where the first
/// notation is USI, USI's reason; for XBoard's pass (`@@@@`, `--`), where
/// taken, that no pass is legal; else the reason of the first notation
/// (kamil's for SAN).
///
/// # Examples
///
/// ```
/// use kamil_rules::move_reader::{Accept, Notation, read_move};
/// use kamil_rules::{Position, Variant};
/// use std::sync::Arc;
/// let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
/// let mut pos = Position::start(v);
/// let any = Accept::First(Notation::Kamil);
/// let (usi, n) = read_move(&mut pos, "7g7f", any).unwrap();
/// assert_eq!(n, Notation::Usi);
/// assert_eq!(read_move(&mut pos, "c3c4", any).unwrap(), (usi, Notation::Kamil));
/// assert!(read_move(&mut pos, "7g7e", any).is_err());
/// ```
pub fn read_move(
    pos: &mut Position,
    text: &str,
    accept: Accept,
) -> Result<(Move, Notation), AnyMoveError> {
    let (first, every) = match accept {
        Accept::Only(n) => (n, false),
        Accept::First(n) => (n, true),
    };
    let usi_text = usi::is_usi_text(text);
    if usi_text && (first == Notation::Usi || sfen::has_sfen(pos.variant())) {
        return Ok((usi::parse_move(pos, text)?, Notation::Usi));
    }
    if (every || first == Notation::XBoard) && matches!(text.trim(), "@@@@" | "--") {
        return Ok((parse_xboard_move(pos, "@@@@")?, Notation::XBoard));
    }
    let mut order = vec![first];
    if every {
        for n in [
            Notation::Usi,
            Notation::Kamil,
            Notation::XBoard,
            Notation::San,
        ] {
            if n != first && (n != Notation::Usi || usi_text) {
                order.push(n);
            }
        }
    } else {
        if usi_text && first != Notation::Usi {
            order.push(Notation::Usi);
        }
        if first == Notation::Usi {
            order.push(Notation::Kamil);
        }
    }
    // The notation whose reason is given: SAN's are vaguer than kamil's.
    let judge = if first == Notation::San {
        Notation::Kamil
    } else {
        first
    };
    let mut reason = None;
    for n in order {
        let read = match n {
            Notation::Kamil => notation::parse_move(pos, text).map_err(AnyMoveError::from),
            Notation::Usi => usi::parse_move(pos, text).map_err(AnyMoveError::from),
            Notation::XBoard => parse_xboard_move(pos, text).map_err(AnyMoveError::from),
            Notation::San => parse_xboard_san(pos, text).map_err(AnyMoveError::from),
        };
        match read {
            Ok(m) => return Ok((m, n)),
            Err(e) if n == judge => reason = Some(e),
            Err(_) => {}
        }
    }
    match reason {
        Some(e) => Err(e),
        // Not reached: the judge is always tried. Kamil's answer stands in.
        None => notation::parse_move(pos, text)
            .map(|m| (m, Notation::Kamil))
            .map_err(AnyMoveError::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::notation::move_text;
    use std::sync::Arc;

    fn start(name: &str) -> Position {
        Position::start(Arc::new(Variant::builtin(name, &[]).unwrap()))
    }

    /// The move alone, as a front end speaking kamil's notation reads it.
    fn read(pos: &mut Position, text: &str) -> Result<Move, AnyMoveError> {
        read_move(pos, text, Accept::First(Notation::Kamil)).map(|(m, _)| m)
    }

    #[test]
    fn both_notations_read_the_same_move() {
        let mut pos = start("sho-shogi");
        let usi = read(&mut pos, "7g7f").unwrap();
        let ours = read(&mut pos, "c3c4").unwrap();
        assert_eq!(usi, ours);
        assert_eq!(usi::move_text(pos.variant(), usi), "7g7f");
        let e = read(&mut pos, "P*5e").unwrap_err();
        assert_eq!(
            e.to_string(),
            "USI move `P*5e`: a drop, and this game has no pieces in hand"
        );
        let e = read(&mut pos, "7g7e").unwrap_err();
        assert_eq!(
            e.to_string(),
            "USI move `7g7e`: illegal; legal moves of 7g: 7g7f"
        );
        let e = read(&mut pos, "5e5d").unwrap_err();
        assert_eq!(e.to_string(), "USI move `5e5d`: no piece on 5e");
    }

    #[test]
    fn each_notation_is_read_and_named() {
        let mut pos = start("courier");
        let (m, n) = read_move(&mut pos, "b2b3", Accept::First(Notation::Kamil)).unwrap();
        assert_eq!(
            (move_text(pos.variant(), m).as_str(), n),
            ("b2b3", Notation::Kamil)
        );
        let mut chu = start("chu-shogi");
        let (m, n) = read_move(&mut chu, "7i7h", Accept::Only(Notation::Kamil)).unwrap();
        assert_eq!(n, Notation::Usi);
        let ours = move_text(chu.variant(), m);
        assert_eq!(
            read_move(&mut chu, &ours, Accept::Only(Notation::Usi)).unwrap(),
            (m, Notation::Kamil)
        );
    }

    /// A position of Frolov's game with a text that is a legal move both
    /// in our notation and in XBoard's, naming different moves: found in
    /// seeded random games.
    fn ambiguous() -> (Position, String, Move, Move) {
        let mut rng = crate::splitmix::SplitMix64::new(76);
        for _ in 0..50 {
            let mut pos = start("frolov-10x10");
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &m in &legal {
                    let text = move_text(pos.variant(), m);
                    if let Ok(x) = notation::parse_xboard_move(&mut pos, &text)
                        && x != m
                    {
                        return (pos, text, m, x);
                    }
                }
                pos.make(legal[rng.below(legal.len())]);
            }
        }
        panic!("no text legal in both notations in 50 random games");
    }

    /// Frolov's board has ten ranks: XBoard counts them from 0, so the
    /// same text is another move in XBoard's notation and in ours, and the
    /// caller's notation decides.
    #[test]
    fn the_callers_notation_comes_first() {
        let (mut pos, text, ours, xboard) = ambiguous();
        assert_eq!(pos.variant().geometry.ranks(), 10);
        assert_eq!(
            read_move(&mut pos, &text, Accept::First(Notation::Kamil)).unwrap(),
            (ours, Notation::Kamil)
        );
        assert_eq!(
            read_move(&mut pos, &text, Accept::Only(Notation::XBoard)).unwrap(),
            (xboard, Notation::XBoard)
        );
        // A text legal only in our notation: an XBoard caller is refused.
        let mut start = start("frolov-10x10");
        assert!(read_move(&mut start, "b3b4", Accept::First(Notation::Kamil)).is_ok());
        assert!(notation::parse_xboard_move(&mut start, "b3b4").is_err());
        let e = read_move(&mut start, "b3b4", Accept::Only(Notation::XBoard)).unwrap_err();
        assert!(matches!(e, AnyMoveError::Kamil(_)), "{e}");
    }

    /// Issue 80: a reason is said once, also in an error chain.
    #[test]
    fn the_reason_is_not_its_own_source() {
        use std::error::Error;
        let mut pos = start("courier");
        let e = read_move(&mut pos, "zz9", Accept::First(Notation::Kamil)).unwrap_err();
        assert!(e.source().is_none(), "{e}");
    }

    #[test]
    fn a_pass_san_and_errors_by_the_callers_notation() {
        let mut pos = start("courier");
        let any = Accept::First(Notation::Kamil);
        let e = read_move(&mut pos, "@@@@", any).unwrap_err();
        assert!(e.to_string().contains("@@@@"), "{e}");
        let (m, n) = read_move(&mut pos, "Nc3", any).unwrap();
        assert_eq!(
            (move_text(pos.variant(), m).as_str(), n),
            ("b1c3", Notation::San)
        );
        let e = read_move(&mut pos, "b2b5", any).unwrap_err();
        assert!(matches!(e, AnyMoveError::Kamil(_)), "{e}");
        assert!(!e.what().contains("b2b5"), "{}", e.what());
        let e = read_move(&mut pos, "b2b5", Accept::Only(Notation::Usi)).unwrap_err();
        assert!(matches!(e, AnyMoveError::Usi(_)), "{e}");
        // A protocol takes its own notation: no SAN, no pass of XBoard's.
        let uci = Accept::Only(Notation::Kamil);
        assert!(read_move(&mut pos, "Nc3", uci).is_err());
        assert!(read_move(&mut pos, "@@@@", uci).is_err());
        assert!(read_move(&mut pos, "b1c3", uci).is_ok());
    }
}
