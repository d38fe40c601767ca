//! A position's FEN, read and written in the variant's own convention:
//! read as a [`Setup`] (each field checked as text), then made a position
//! with the rules of play applied ([`Position::from_setup`]); written
//! field by field ([`Position::fen`]), the board through [`crate::fen`].

use super::*;
use crate::setup::{CASTLE_BITS, Setup};

impl Position {
    /// Reads a FEN in the variant's convention. Fields after the board are
    /// optional (side to move defaults to the first player). A shogi FEN with
    /// more fields after the side is read in XBoard's convention, where `w`
    /// is the first player, so Fairy-Stockfish FENs load as they are; those
    /// fields must be `-` or numbers. Text after the last field is an error.
    /// A leading byte-order mark is skipped.
    ///
    /// # Errors
    ///
    /// See [`FenError`]; each names the field and a [`crate::fen::FenErrorKind`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kamil_rules::{Position, Side, Variant};
    /// use std::sync::Arc;
    /// let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
    /// let fen = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR b - - 0 1";
    /// let pos = Position::from_fen(v.clone(), fen).unwrap();
    /// assert_eq!(pos.side(), Side::Second);
    /// assert_eq!(pos.fen(), fen);
    /// let e = Position::from_fen(v, "12/12 w").unwrap_err();
    /// assert_eq!(e.field, 1);
    /// ```
    pub fn from_fen(variant: Arc<Variant>, text: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(Setup::from_fen(variant, text)?))
    }

    /// The position of a [`Setup`], the rules of play applied to its
    /// fields: a castling right whose King or Rook is not in place, an
    /// en-passant square no pawn can have passed, and King-swap rights
    /// without the rule in force are dropped; without a swap field both
    /// rights are unused where the rule is in force.
    pub fn from_setup(setup: Setup) -> Position {
        let variant = setup.variant.clone();
        let cells = variant.geometry.cells();
        let mut board = vec![Piece::WALL; cells];
        for sq in variant.geometry.squares() {
            board[sq.index()] = Piece::EMPTY;
        }
        let swaps = variant.specials.swaps_kings();
        let mut pos = Position {
            variant: variant.clone(),
            board,
            side: setup.side,
            castling: 0,
            swap: match setup.swap {
                Some(bits) if swaps => bits,
                Some(_) => 0,
                None if swaps => 3,
                None => 0,
            },
            ep: None,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove,
            hash: 0,
            plist: [Vec::new(), Vec::new()],
            pidx: vec![0; cells],
            royals: [Vec::new(), Vec::new()],
            opening_done: [true, true],
            frozen: setup.frozen.unwrap_or(Square::NONE),
            undo: Vec::new(),
            captures: Vec::new(),
            ripened: Vec::new(),
            changes: Vec::new(),
            history: Vec::new(),
            root_strike: None,
            ply_adjust: 0,
        };
        for &(sq, p) in &setup.board {
            pos.put::<false>(sq, p);
        }
        pos.castling = pos.castling_in_place(setup.castling);
        pos.ep = setup.en_passant.and_then(|sq| pos.fen_passed(sq));
        pos.fen_opening_state();
        pos.hash = pos.compute_hash();
        pos.history.push(pos.hash);
        pos
    }

    /// The castling rights of `bits` ([`CASTLE_BITS`]) whose King and Rook
    /// stand in place.
    fn castling_in_place(&self, bits: u8) -> u8 {
        let Some(rule) = &self.variant.rules.castling else {
            return 0;
        };
        let mut kept = 0;
        for (side, sd) in [(0, Side::First), (1, Side::Second)] {
            for (wing, &bit) in CASTLE_BITS[side].iter().enumerate() {
                let k = self.board[rule.king[side].index()];
                let r = self.board[rule.rooks[side][wing].index()];
                let royal = k.is_piece() && self.variant.pieces[k.kind() as usize].royal;
                if bits & bit != 0 && k.is_side(sd) && royal && r.is_side(sd) {
                    kept |= bit;
                }
            }
        }
        kept
    }

    /// The en-passant state of a FEN naming `sq` as passed: the opponent's
    /// pawn that just passed it, or `None` when no pawn can have.
    fn fen_passed(&self, sq: Square) -> Option<EnPassant> {
        let variant = &self.variant;
        let geo = &variant.geometry;
        // The pawn that passed `sq` stands one rank further on, moving away
        // from us, with its empty origin behind `sq`: straight ahead, else
        // diagonally (a Berolina's double step, rules/frolov-10x10.md 5.1).
        let dy = if self.side == Side::First { -1 } else { 1 };
        let (f, r) = (geo.file(sq) as i32, geo.rank(sq) as i32);
        let opp = self.side.flip();
        // A pawn whose type has the double step that passed `sq` (so a Berolina
        // beside a straight step, or a pawn beside a Berolina's or a triple
        // step's path, is not taken for it); else, for pawns whose double step
        // is no plain leap, the pawn straight ahead.
        let candidate = |dx: i32, strict: bool| {
            let v = geo.square(f + dx, r + dy)?;
            let p = self.board[v.index()];
            let origin = geo.square(f - dx, r - dy)?;
            let step = geo.offset(2 * dx, 2 * dy);
            (p.is_side(opp)
                && variant.pieces[p.kind() as usize].pawn
                && self.board[origin.index()].is_empty()
                && (!strict
                    || variant.movesets[p.kind() as usize][opp.index()]
                        .leaps
                        .iter()
                        .any(|l| l.quiet && l.off == step)))
            .then_some(v)
        };
        let victim = [0, -1, 1]
            .into_iter()
            .find_map(|dx| candidate(dx, true))
            .or_else(|| candidate(0, false));
        if let Some(v) = victim
            && self.board[v.index()].is_side(opp)
            && self.board[sq.index()].is_empty()
        {
            return Some(EnPassant {
                squares: [sq, Square::NONE],
                count: 1,
                victim: v,
            });
        }
        if let Some(v) = geo.square(f, r + dy)
            && self.board[v.index()].is_empty()
            && self.board[sq.index()].is_empty()
            && variant
                .movesets
                .iter()
                .any(|m| m[0].leaps.iter().any(|l| l.lame.len() >= 2))
            && let Some(w) = geo.square(f, r + 2 * dy)
            && self.board[w.index()].is_side(opp)
        {
            // A triple step (Hiashatar `pawns=winther`) passed `sq` and the next square.
            return Some(EnPassant {
                squares: [sq, v],
                count: 2,
                victim: w,
            });
        }
        None
    }

    /// Which sides still owe their compulsory opening turn, from the board
    /// and move number just read (no FEN field records it).
    fn fen_opening_state(&mut self) {
        let variant = self.variant.clone();
        if variant.specials.has_compulsory_opening() {
            // A side still owes its compulsory turn while every advance is still open.
            for side in Side::BOTH {
                let open = variant
                    .specials
                    .opening_advances(side)
                    .iter()
                    .all(|&(a, _)| self.board[a.index()].is_side(side));
                self.opening_done[side.index()] = !(open && self.fullmove == 1);
            }
        }
    }

    /// The FEN of this position in the variant's own convention.
    pub fn fen(&self) -> String {
        let v = &self.variant;
        let mut s = fen::write_board(&v.geometry, |p| v.token(p), |sq| self.board[sq.index()]);
        s.push(' ');
        s.push_str(&v.fen.side_letters[self.side.index()]);
        for f in &v.fen.fields {
            s.push(' ');
            match f {
                FenField::Castling => {
                    let mut c = String::new();
                    for (bit, ch) in [(2, 'K'), (1, 'Q'), (8, 'k'), (4, 'q')] {
                        if self.castling & bit != 0 {
                            c.push(ch);
                        }
                    }
                    if c.is_empty() {
                        c.push('-');
                    }
                    s.push_str(&c);
                }
                FenField::EnPassant => match &self.ep {
                    Some(e) => s.push_str(&v.geometry.name(e.squares[0]).to_string()),
                    None => s.push('-'),
                },
                FenField::Swap => {
                    let mut c = String::new();
                    for (side, ch) in [(Side::First, 'K'), (Side::Second, 'k')] {
                        if self.swap & swap_right(side) != 0 {
                            c.push(ch);
                        }
                    }
                    if c.is_empty() {
                        c.push('-');
                    }
                    s.push_str(&c);
                }
                FenField::Frozen => s.push_str(&v.geometry.name(self.frozen).to_string()),
                FenField::Halfmove => s.push_str(&self.halfmove.to_string()),
                FenField::Fullmove => s.push_str(&self.fullmove.to_string()),
            }
        }
        s
    }
}
