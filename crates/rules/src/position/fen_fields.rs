//! A position's FEN, read and written in the variant's own convention:
//! the board (through [`crate::fen`], which reads and writes boards), the
//! side to move and the fields the variant's file lists (castling, en
//! passant, King-swap rights, a frozen square, the move counters).

use super::*;

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
    /// See [`FenError`]; each names the field and a [`FenErrorKind`].
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
        // A FEN file from a Windows editor starts with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let fields: Vec<&str> = text.split_whitespace().collect();
        check_field_count(&variant, &fields)?;
        let mut pos = Position::fen_board_and_side(variant.clone(), &fields)?;
        for (i, kind) in variant.fen.fields.iter().enumerate() {
            let Some(&f) = fields.get(i + 2) else { break };
            // Fields are numbered from 1 as written: board, side, then these.
            let field = i + 3;
            match kind {
                FenField::Castling => pos.fen_castling(f, field)?,
                FenField::EnPassant => pos.fen_en_passant(f, field)?,
                FenField::Swap => pos.fen_swap(f, field)?,
                FenField::Frozen => pos.fen_frozen(f, field)?,
                FenField::Halfmove => pos.fen_halfmove(f, field)?,
                FenField::Fullmove => pos.fen_fullmove(f, field)?,
            }
        }
        pos.fen_opening_state();
        pos.hash = pos.compute_hash();
        pos.history.push(pos.hash);
        Ok(pos)
    }

    /// The position of FEN fields 1 (board) and 2 (side to move, if given),
    /// every other state at its default; the hash is not yet computed.
    ///
    /// Errors: no fields, a board [`fen::parse_board`] rejects, or a side
    /// letter that is neither player's.
    fn fen_board_and_side(variant: Arc<Variant>, fields: &[&str]) -> Result<Position, FenError> {
        let Some(board_text) = fields.first() else {
            return Err(FenError::board(FenErrorKind::Empty));
        };
        let placement = fen::parse_board(&variant.geometry, &variant.tokens, board_text)?;
        let cells = variant.geometry.cells();
        let mut board = vec![Piece::WALL; cells];
        for sq in variant.geometry.squares() {
            board[sq.index()] = Piece::EMPTY;
        }
        let mut pos = Position {
            variant: variant.clone(),
            board,
            side: Side::First,
            castling: 0,
            // Without a swap field both rights are unused (a FEN without fields).
            swap: if variant.specials.swaps_kings() { 3 } else { 0 },
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            plist: [Vec::new(), Vec::new()],
            pidx: vec![0; cells],
            royals: [Vec::new(), Vec::new()],
            opening_done: [true, true],
            frozen: Square::NONE,
            undo: Vec::new(),
            captures: Vec::new(),
            ripened: Vec::new(),
            changes: Vec::new(),
            history: Vec::new(),
            root_strike: None,
            ply_adjust: 0,
        };
        for (sq, p) in placement {
            pos.put::<false>(sq, p);
        }
        if let Some(s) = fields.get(1) {
            let letters = match (&variant.fen.xboard_side_letters, fields.len() > 2) {
                (Some(x), true) => x,
                _ => &variant.fen.side_letters,
            };
            pos.side = if *s == letters[0] {
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
        Ok(pos)
    }

    /// Reads castling rights `f` (`KQkq` or `-`), FEN field `field`.
    /// Rights are void without castling in force, and a right whose King or
    /// Rook is not in place is dropped.
    ///
    /// Errors: a letter other than `K`, `Q`, `k`, `q`.
    fn fen_castling(&mut self, f: &str, field: usize) -> Result<(), FenError> {
        if f == "-" {
            return Ok(());
        }
        let variant = self.variant.clone();
        // Without castling in force (an option may be off) rights are void.
        let Some(rule) = &variant.rules.castling else {
            return Ok(());
        };
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
            // A right needs its King and Rook in place; otherwise it is dropped.
            let k = self.board[rule.king[side].index()];
            let r = self.board[rule.rooks[side][wing].index()];
            let sd = if side == 0 { Side::First } else { Side::Second };
            if k.is_side(sd) && variant.pieces[k.kind() as usize].royal && r.is_side(sd) {
                self.castling |= CASTLE_BITS[side][wing];
            }
        }
        Ok(())
    }

    /// Reads the en-passant square `f` (or `-`), FEN field `field`. The
    /// right is kept only if a pawn that can have passed it is found (see
    /// [`Position::fen_passed`]).
    ///
    /// Errors: `f` names no square.
    fn fen_en_passant(&mut self, f: &str, field: usize) -> Result<(), FenError> {
        if f == "-" {
            return Ok(());
        }
        let sq = self
            .variant
            .geometry
            .parse_square(f)
            .ok_or_else(|| FenError {
                field,
                kind: FenErrorKind::BadSquare {
                    text: f.to_string(),
                },
            })?;
        if let Some(e) = self.fen_passed(sq) {
            self.ep = Some(e);
        }
        Ok(())
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

    /// Reads King-swap rights `f` (`Kk` or `-`), FEN field `field`; rights
    /// are void without the rule in force.
    ///
    /// Errors: a letter other than `K`, `k`.
    fn fen_swap(&mut self, f: &str, field: usize) -> Result<(), FenError> {
        self.swap = 0;
        if f == "-" {
            return Ok(());
        }
        for c in f.chars() {
            let bit = match c {
                'K' => swap_right(Side::First),
                'k' => swap_right(Side::Second),
                _ => {
                    return Err(FenError {
                        field,
                        kind: FenErrorKind::BadSwap { letter: c },
                    });
                }
            };
            self.swap |= bit;
        }
        // Rights without the rule in force are void.
        if !self.variant.specials.swaps_kings() {
            self.swap = 0;
        }
        Ok(())
    }

    /// Reads the frozen piece's square `f` (or `-`), FEN field `field`.
    ///
    /// Errors: `f` names no square, or no piece of the side to move stands
    /// there.
    fn fen_frozen(&mut self, f: &str, field: usize) -> Result<(), FenError> {
        if f == "-" {
            return Ok(());
        }
        let text = f.to_string();
        let Some(sq) = self.variant.geometry.parse_square(f) else {
            let kind = FenErrorKind::BadFrozenSquare { text };
            return Err(FenError { field, kind });
        };
        if !self.board[sq.index()].is_side(self.side) {
            let kind = FenErrorKind::FrozenNotOwn { text };
            return Err(FenError { field, kind });
        }
        self.frozen = sq;
        Ok(())
    }

    /// Reads the halfmove clock `f`, FEN field `field`.
    ///
    /// Errors: `f` is not a number.
    fn fen_halfmove(&mut self, f: &str, field: usize) -> Result<(), FenError> {
        self.halfmove = f.parse().map_err(|_| FenError {
            field,
            kind: FenErrorKind::BadHalfmove {
                text: f.to_string(),
            },
        })?;
        Ok(())
    }

    /// Reads the move number `f`, FEN field `field`; 0 is read as 1.
    ///
    /// Errors: `f` is not a number.
    fn fen_fullmove(&mut self, f: &str, field: usize) -> Result<(), FenError> {
        self.fullmove = f.parse().map_err(|_| FenError {
            field,
            kind: FenErrorKind::BadFullmove {
                text: f.to_string(),
            },
        })?;
        if self.fullmove == 0 {
            self.fullmove = 1;
        }
        Ok(())
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
