//! Board state with make / unmake and an incrementally kept zobrist hash.
//!
//! A [`Position`] is made only from a FEN that parses against its variant,
//! and changed only by [`Position::make`] / [`Position::unmake`] of moves
//! the generator produced, so it always describes a reachable board.

use crate::board::swap_right;
pub use crate::board::{EnPassant, NullUndo, RecentMove};
pub use crate::effects::BoardChange;
use crate::fen::{self, FenError, FenErrorKind};
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, Side};
use crate::variant::{FenField, Variant};
use std::sync::Arc;

#[derive(Clone, Debug)]
struct Undo {
    mv: Move,
    moved: Piece,
    ncap: u8,
    nripe: u8,
    castling: u8,
    swap: u8,
    ep: Option<EnPassant>,
    halfmove: u32,
    hash: u64,
    opening_done: [bool; 2],
    frozen: Square,
    /// Where this move's entries in `Position::changes` begin.
    changes_from: u32,
}

/// A position of a game of some variant, with its history.
#[derive(Clone, Debug)]
pub struct Position {
    variant: Arc<Variant>,
    board: Vec<Piece>,
    side: Side,
    castling: u8,
    swap: u8,
    ep: Option<EnPassant>,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    plist: [Vec<Square>; 2],
    pidx: Vec<u8>,
    royals: [Vec<Square>; 2],
    opening_done: [bool; 2],
    /// A piece its owner may not move this turn (rules/frolov-10x10.md 5.3).
    frozen: Square,
    undo: Vec<Undo>,
    captures: Vec<(Square, Piece)>,
    ripened: Vec<(Square, Piece)>,
    /// The board writes of the moves made, oldest first ([`Undo::changes_from`]).
    changes: Vec<BoardChange>,
    history: Vec<u64>,
    /// The Lion capture an SFEN recorded before the first move (Chu's
    /// counter-strike state, rules/chu-shogi.md 6.4 LT3), seen by
    /// [`Position::recent_move`] as the move before the history.
    root_strike: Option<RootStrike>,
    /// SFEN's move number (a ply count) less the one [`Position::fullmove`]
    /// and the side give: -1, 0 or 1, so an SFEN's number reads back as
    /// written whatever its parity (a handicap game's `w - 1`).
    ply_adjust: i8,
}

/// The move before a position's history that an SFEN's Lion-capture field
/// stands for: a non-Lion of the side that just moved took a Lion of the
/// side to move on `caps[0].0`.
#[derive(Clone, Debug)]
struct RootStrike {
    mv: Move,
    moved: Piece,
    caps: [(Square, Piece); 1],
}

/// Castling right bits: first player queen side, king side; second player.
pub const CASTLE_BITS: [[u8; 2]; 2] = [[1, 2], [4, 8]];

/// First of the two [`crate::zobrist::Zobrist::state`] keys of the unused
/// King-swap rights (first player, second player).
const SWAP_KEY: usize = 3;

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
    /// The start position of `variant`.
    pub fn start(variant: Arc<Variant>) -> Position {
        let fen = variant.start_fen.clone();
        Position::from_fen(variant, &fen).expect("start FEN is checked when the variant loads")
    }

    /// Reads a FEN in the variant's convention. Fields after the board are
    /// optional (side to move defaults to the first player). A shogi FEN with
    /// more fields after the side is read in XBoard's convention, where `w`
    /// is the first player, so Fairy-Stockfish FENs load as they are; those
    /// fields must be `-` or numbers. Text after the last field is an error.
    /// A leading byte-order mark is skipped.
    ///
    /// Errors: see [`FenError`]; each names the field and a [`FenErrorKind`].
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

    fn compute_hash(&self) -> u64 {
        let v = &self.variant;
        let z = &v.zobrist;
        let mut h = 0;
        for sq in v.geometry.squares() {
            let p = self.board[sq.index()];
            if p.is_piece() {
                h ^= z.piece(v.geometry.compact(sq), p);
            }
        }
        if self.side == Side::Second {
            h ^= z.side;
        }
        for b in 0..4 {
            if self.castling & (1 << b) != 0 {
                h ^= z.castling[b];
            }
        }
        if let Some(e) = &self.ep {
            h ^= z.ep(v.geometry.compact(e.squares[0]));
        }
        for side in Side::BOTH {
            if !self.opening_done[side.index()] {
                h ^= z.state[side.index()];
            }
            if self.swap & swap_right(side) != 0 {
                h ^= z.state[SWAP_KEY + side.index()];
            }
        }
        h ^= v.specials.state_key(self, 0);
        h ^ self.frozen_key(self.frozen)
    }

    /// The hash key of a frozen square (0 for none).
    #[inline(always)]
    fn frozen_key(&self, sq: Square) -> u64 {
        if sq.is_some() {
            let v = &self.variant;
            v.zobrist.frozen(v.geometry.compact(sq))
        } else {
            0
        }
    }

    /// The variant.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The piece on a cell (`WALL` off the board).
    #[inline(always)]
    pub fn at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The zobrist hash of board, side and rule state.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Squares of `side`'s pieces (in no particular order).
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> &[Square] {
        &self.plist[side.index()]
    }

    /// Pieces on the board, both sides, royals included (not those in
    /// hand): what a network's output bucket and the hand-written
    /// evaluation's hand-over threshold count.
    #[inline(always)]
    pub fn pieces_on_board(&self) -> usize {
        self.plist[0].len() + self.plist[1].len()
    }

    /// Squares of `side`'s royal pieces.
    #[inline(always)]
    pub fn royals(&self, side: Side) -> &[Square] {
        &self.royals[side.index()]
    }

    /// Castling rights bits (see `CASTLE_BITS`).
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// Unused King-swap rights: bit `swap_right` per side
    /// (rules/tamerlane.md 5.4).
    #[inline(always)]
    pub fn swap_rights(&self) -> u8 {
        self.swap
    }

    /// The en-passant state, if the last move was a pawn's multi-square step.
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Move number, from 1.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// SFEN's move number: plies counted from 1 (the first player's first
    /// move is 1, the reply 2), kept as an SFEN gave it
    /// ([`Position::set_ply_number`]) and counted on by each move.
    pub fn ply_number(&self) -> u32 {
        let second = i64::from(self.side == Side::Second);
        let n = 2 * i64::from(self.fullmove.max(1)) - 1 + second + i64::from(self.ply_adjust);
        n.clamp(1, i64::from(u32::MAX)) as u32
    }

    /// Sets the move number from SFEN's ply count `n` (0 is read as 1), so
    /// that [`Position::ply_number`] gives `n` back; [`Position::fullmove`]
    /// becomes `(n + 1) / 2`. Call it before any move is made.
    pub fn set_ply_number(&mut self, n: u32) {
        let n = n.max(1);
        self.fullmove = n.div_ceil(2);
        self.ply_adjust = 0;
        let plain = self.ply_number() as i64;
        self.ply_adjust = (n as i64 - plain) as i8;
    }

    /// The square where the last move took a Lion of the side to move with
    /// a piece that is not a Lion (Chu's counter-strike state,
    /// rules/chu-shogi.md 6.4 LT3), the last such square if it took two;
    /// `None` otherwise or where no Lion-trading rule is in force. SFEN's
    /// third field in Chu Shogi.
    pub fn lion_strike(&self) -> Option<Square> {
        self.variant.specials.lion_strike(self)
    }

    /// Records that the move before this position (which has no history
    /// yet) took a Lion of the side to move on `sq` with a non-Lion, as
    /// SFEN's third field says in Chu Shogi (rules/chu-shogi.md 6.4 LT3);
    /// the hash takes the state in. Returns false, changing nothing, where
    /// no Lion-trading rule is in force or moves were made already.
    pub fn set_lion_strike(&mut self, sq: Square) -> bool {
        if !self.undo.is_empty() || !self.variant.geometry.is_square(sq) {
            return false;
        }
        let on_sq = self.board[sq.index()];
        let Some((moved, lion)) = self.variant.specials.strike_pieces(self.side, on_sq) else {
            return false;
        };
        self.root_strike = Some(RootStrike {
            mv: Move::new(sq, sq),
            moved,
            caps: [(sq, lion)],
        });
        self.hash = self.compute_hash();
        self.history.clear();
        self.history.push(self.hash);
        true
    }

    /// The square of a piece the side to move may not move this turn (a
    /// hostile general just made by promotion, rules/frolov-10x10.md 5.3),
    /// or [`Square::NONE`]. That piece attacks nothing meanwhile.
    #[inline(always)]
    pub fn frozen(&self) -> Square {
        self.frozen
    }

    /// Has `side` still to make its compulsory opening turn?
    pub fn opening_pending(&self, side: Side) -> bool {
        !self.opening_done[side.index()]
    }

    /// Hashes of every position of the game so far, the current one last.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Moves made since the FEN, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    /// The last move made, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
    }

    /// The move made `back` plies before the last one (0 = the last), the
    /// piece that made it (before any promotion) and the pieces it captured
    /// with their squares; `None` past the start of the history, except
    /// for the Lion capture an SFEN recorded just before it
    /// ([`Position::set_lion_strike`]). Rule modules derive state from it
    /// (6.4 counter-strike, rules/chu-shogi.md).
    pub fn recent_move(&self, back: usize) -> Option<RecentMove<'_>> {
        let n = self.undo.len();
        if back >= n {
            let r = self.root_strike.as_ref().filter(|_| back == n)?;
            return Some((r.mv, r.moved, &r.caps));
        }
        let mut end = self.captures.len();
        for u in &self.undo[n - back..] {
            end -= u.ncap as usize;
        }
        let u = &self.undo[n - 1 - back];
        Some((u.mv, u.moved, &self.captures[end - u.ncap as usize..end]))
    }

    /// The board writes of the last move made, in order ([`BoardChange`]):
    /// applied to the board before it they give the board now. Empty
    /// before any move. A null move ([`Position::make_null`]) writes
    /// nothing and leaves this as it was.
    #[inline]
    pub fn last_changes(&self) -> &[BoardChange] {
        match self.undo.last() {
            Some(u) => &self.changes[u.changes_from as usize..],
            None => &[],
        }
    }

    /// Calls `f(square, piece)` for each piece the pseudo-legal move `m`
    /// will capture, before it is made, in the order make removes them
    /// ([`crate::effects::for_each_capture`]).
    #[inline(always)]
    pub fn for_each_capture(&self, m: Move, f: impl FnMut(Square, Piece)) {
        crate::effects::for_each_capture(&self.variant, self, m, f);
    }

    /// Does `m` capture an enemy piece ([`Position::for_each_capture`])?
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        crate::effects::captures_enemy(&self.variant, self, m)
    }

    /// Number of moves that can be unmade.
    pub fn depth(&self) -> usize {
        self.undo.len()
    }

    /// Puts `p` on the empty `sq`; `LOG`: a write of the move being made,
    /// kept in its change list.
    #[inline(always)]
    fn put<const LOG: bool>(&mut self, sq: Square, p: Piece) {
        if LOG {
            self.log(sq, Piece::EMPTY, p);
        }
        let v = &self.variant;
        self.board[sq.index()] = p;
        self.hash ^= v.zobrist.piece(v.geometry.compact(sq), p);
        let s = p.side().index();
        self.pidx[sq.index()] = self.plist[s].len() as u8;
        self.plist[s].push(sq);
        if v.pieces[p.kind() as usize].royal {
            self.royals[s].push(sq);
        }
    }

    /// Takes the piece off `sq` and returns it; `LOG` as in [`Self::put`].
    #[inline(always)]
    fn remove<const LOG: bool>(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()];
        if LOG {
            self.log(sq, p, Piece::EMPTY);
        }
        let v = &self.variant;
        self.board[sq.index()] = Piece::EMPTY;
        self.hash ^= v.zobrist.piece(v.geometry.compact(sq), p);
        let s = p.side().index();
        let i = self.pidx[sq.index()] as usize;
        let last = self.plist[s].pop().expect("piece list holds the piece");
        if last != sq {
            self.plist[s][i] = last;
            self.pidx[last.index()] = i as u8;
        }
        if v.pieces[p.kind() as usize].royal {
            let r = &mut self.royals[s];
            if let Some(k) = r.iter().position(|&x| x == sq) {
                r.swap_remove(k);
            }
        }
        p
    }

    /// Moves the piece on `from` to the empty `to`; `LOG` as in [`Self::put`].
    #[inline(always)]
    fn relocate<const LOG: bool>(&mut self, from: Square, to: Square) {
        let p = self.board[from.index()];
        if LOG {
            self.log(from, p, Piece::EMPTY);
            self.log(to, Piece::EMPTY, p);
        }
        let v = &self.variant;
        let (cf, ct) = (v.geometry.compact(from), v.geometry.compact(to));
        self.board[from.index()] = Piece::EMPTY;
        self.board[to.index()] = p;
        self.hash ^= v.zobrist.piece(cf, p) ^ v.zobrist.piece(ct, p);
        let s = p.side().index();
        let i = self.pidx[from.index()];
        self.plist[s][i as usize] = to;
        self.pidx[to.index()] = i;
        if v.pieces[p.kind() as usize].royal {
            for r in self.royals[s].iter_mut() {
                if *r == from {
                    *r = to;
                }
            }
        }
    }

    /// Records a write of the move being made ([`Self::last_changes`]).
    #[inline(always)]
    fn log(&mut self, square: Square, before: Piece, after: Piece) {
        self.changes.push(BoardChange {
            square,
            before,
            after,
        });
    }

    /// Trades the pieces on `a` and `b` (both occupied); `LOG` as in
    /// [`Self::put`].
    fn exchange<const LOG: bool>(&mut self, a: Square, b: Square) {
        let pa = self.remove::<LOG>(a);
        let pb = self.remove::<LOG>(b);
        self.put::<LOG>(a, pb);
        self.put::<LOG>(b, pa);
    }

    fn capture(&mut self, sq: Square) {
        let p = self.remove::<true>(sq);
        self.captures.push((sq, p));
    }

    /// Replaces the piece on `sq` by `p` within the move being made; unmake
    /// restores it (with the ripening stack).
    fn transform(&mut self, sq: Square, p: Piece) {
        let old = self.remove::<true>(sq);
        self.put::<true>(sq, p);
        self.ripened.push((sq, old));
        self.undo.last_mut().expect("inside make").nripe += 1;
    }

    /// Puts the piece a promotion creates: the mover's own, or the
    /// opponent's on the promotion or drop square (rules/frolov-10x10.md 5.3).
    fn promote(&mut self, mv: Move, moved: Piece) {
        let Some(t) = mv.promotion() else { return };
        self.remove::<true>(mv.to);
        let (owner, sq) = self
            .variant
            .specials
            .promoted_placement(mv, t, moved.side());
        self.put::<true>(sq, Piece::new(t, owner));
    }

    /// Where the piece created by `mv`'s promotion stands.
    fn promoted_square(&self, mv: Move) -> Square {
        match mv.promotion() {
            Some(t) => {
                self.variant
                    .specials
                    .promoted_placement(mv, t, Side::First)
                    .1
            }
            None => mv.to,
        }
    }

    fn set_castling(&mut self, rights: u8) {
        let z = &self.variant.zobrist;
        let diff = self.castling ^ rights;
        for b in 0..4 {
            if diff & (1 << b) != 0 {
                self.hash ^= z.castling[b];
            }
        }
        self.castling = rights;
    }

    fn set_ep(&mut self, ep: Option<EnPassant>) {
        let v = self.variant.clone();
        if let Some(e) = &self.ep {
            self.hash ^= v.zobrist.ep(v.geometry.compact(e.squares[0]));
        }
        if let Some(e) = &ep {
            self.hash ^= v.zobrist.ep(v.geometry.compact(e.squares[0]));
        }
        self.ep = ep;
    }

    /// Plays a move produced by the generator for this position.
    pub fn make(&mut self, mv: Move) {
        let v = self.variant.clone();
        let moved = self.board[mv.from.index()];
        self.undo.push(Undo {
            mv,
            moved,
            ncap: 0,
            nripe: 0,
            castling: self.castling,
            swap: self.swap,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            opening_done: self.opening_done,
            frozen: self.frozen,
            changes_from: self.changes.len() as u32,
        });
        let ncap_before = self.captures.len();
        let pawn = v.pieces[moved.kind() as usize].pawn;
        let (new_ep, pawn_move) = self.displace(&v, mv, moved, pawn);
        if let Some((sq, p)) =
            v.specials
                .transformation(self, mv, moved, &self.captures[ncap_before..])
        {
            self.transform(sq, p);
        }
        // 5.3: a hostile piece just made may not move on its owner's next turn.
        if let Some(frozen) = v.specials.frozen_after(mv)
            && frozen != self.frozen
        {
            self.hash ^= self.frozen_key(self.frozen) ^ self.frozen_key(frozen);
            self.frozen = frozen;
        }
        self.update_castling(&v, mv, ncap_before);
        if self.ep.is_some() || new_ep.is_some() {
            self.set_ep(new_ep);
        }
        let ncap = self.captures.len() - ncap_before;
        self.undo.last_mut().expect("just pushed").ncap = ncap as u8;
        if v.caps.keeps_state {
            // The counter-strike state of the move before lapses; this move's begins.
            self.hash ^= v.specials.state_key(self, 1) ^ v.specials.state_key(self, 0);
        }
        if v.ripening {
            self.ripen(moved.side(), mv);
        }
        if ncap > 0 || pawn_move {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if self.side == Side::Second {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash ^= v.zobrist.side;
        self.history.push(self.hash);
    }

    /// The board part of [`Position::make`]: moves, captures and places
    /// the pieces `mv` concerns. `pawn`: the mover is a pawn. Returns the
    /// new en-passant state and whether the move resets the move-count
    /// rule's clock as a pawn move does.
    fn displace(
        &mut self,
        v: &Variant,
        mv: Move,
        moved: Piece,
        pawn: bool,
    ) -> (Option<EnPassant>, bool) {
        let mut new_ep = None;
        let mut pawn_move = pawn;
        match mv.kind {
            MoveKind::Normal | MoveKind::Relocate => {
                if mv.via_capture {
                    self.capture(mv.via);
                }
                if mv.to != mv.from {
                    if self.board[mv.to.index()].is_piece() {
                        self.capture(mv.to);
                    }
                    self.relocate::<true>(mv.from, mv.to);
                }
                self.promote(mv, moved);
                if pawn_move && v.rules.en_passant && !mv.via.is_some() {
                    new_ep = self.passed_squares(mv);
                }
            }
            MoveKind::EnPassant => {
                self.capture(mv.extra);
                self.relocate::<true>(mv.from, mv.to);
                self.promote(mv, moved);
            }
            MoveKind::Castle => {
                let rook_to = castle_rook_target(v, mv);
                let rook_from = mv.extra;
                let rook = self.remove::<true>(rook_from);
                if mv.to != mv.from {
                    self.relocate::<true>(mv.from, mv.to);
                }
                self.put::<true>(rook_to, rook);
            }
            MoveKind::Checker => {
                // Walk the series: enemies jumped are taken, and an empty
                // square jumped is the en passant square (5.5).
                let enemy = moved.side().flip();
                let ep = self.ep;
                v.specials.for_each_series_leg(&mv, |mid, _| {
                    let p = self.board[mid.index()];
                    if p.is_side(enemy) {
                        self.capture(mid);
                    } else if p.is_empty()
                        && let Some(e) = ep
                        && self.board[e.victim.index()].is_side(enemy)
                    {
                        self.capture(e.victim);
                    }
                });
                if mv.to != mv.from {
                    self.relocate::<true>(mv.from, mv.to);
                }
            }
            MoveKind::Opening => {
                let s = moved.side().index();
                for &(a, b) in v.specials.opening_advances(moved.side()) {
                    self.relocate::<true>(a, b);
                }
                self.hash ^= v.zobrist.state[s];
                self.opening_done[s] = true;
                pawn_move = true;
            }
            MoveKind::Swap => {
                self.exchange::<true>(mv.from, mv.to);
                let s = moved.side().index();
                self.swap &= !swap_right(moved.side());
                self.hash ^= v.zobrist.state[SWAP_KEY + s];
            }
            MoveKind::Transfer => {
                self.remove::<true>(mv.from);
                if self.board[mv.to.index()].is_piece() {
                    self.capture(mv.to);
                }
                let t = mv.promotion().expect("a transfer names the new stage");
                self.put::<true>(mv.extra, Piece::new(t, moved.side()));
            }
            MoveKind::CitadelSwap => {
                // The King steps into the citadel, then trades places with its partner.
                self.relocate::<true>(mv.from, mv.to);
                self.exchange::<true>(mv.to, mv.extra);
            }
        }
        (new_ep, pawn_move)
    }

    /// Castling rights fall when a King or Rook leaves, is captured on its
    /// square, or is upgraded to another piece (rules/frolov-10x10.md 5.5).
    fn update_castling(&mut self, v: &Variant, mv: Move, ncap_before: usize) {
        if self.castling != 0
            && let Some(rule) = &v.rules.castling
        {
            let mut rights = self.castling;
            for (s, bits) in CASTLE_BITS.iter().enumerate() {
                if mv.from == rule.king[s] || mv.to == rule.king[s] {
                    rights &= !(bits[0] | bits[1]);
                }
                for (w, bit) in bits.iter().enumerate() {
                    let r = rule.rooks[s][w];
                    let rook_gone = mv.from == r
                        || mv.to == r
                        || mv.aux == r
                        || (mv.kind == MoveKind::Castle && mv.extra == r)
                        || self.captures[ncap_before..].iter().any(|&(sq, _)| sq == r);
                    if rook_gone {
                        rights &= !bit;
                    }
                }
            }
            if rights != self.castling {
                self.set_castling(rights);
            }
        }
    }

    /// Waiting pieces of `side` other than one this move just made take
    /// their next form (Albers' delayed promotion).
    fn ripen(&mut self, side: Side, mv: Move) {
        let v = self.variant.clone();
        let fresh = mv.promotion().map(|_| mv.to);
        let squares: Vec<Square> = self.plist[side.index()].clone();
        let mut n = 0;
        for sq in squares {
            let p = self.board[sq.index()];
            if Some(sq) == fresh {
                continue;
            }
            if let Some(next) = v.pieces[p.kind() as usize].ripens_to {
                self.remove::<true>(sq);
                self.put::<true>(sq, Piece::new(next, side));
                self.ripened.push((sq, p));
                n += 1;
            }
        }
        self.undo.last_mut().expect("inside make").nripe += n;
    }

    /// The squares a pawn passed on an initial multi-square step.
    fn passed_squares(&self, mv: Move) -> Option<EnPassant> {
        let g = &self.variant.geometry;
        let (fx, fy) = (g.file(mv.from) as i32, g.rank(mv.from) as i32);
        let (tx, ty) = (g.file(mv.to) as i32, g.rank(mv.to) as i32);
        let (dx, dy) = (tx - fx, ty - fy);
        let k = dx.abs().max(dy.abs());
        if k < 2 || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) || self.at(mv.to).is_empty() {
            return None;
        }
        let mut sq = [Square::NONE; 2];
        let mut n = 0;
        for i in 1..k.min(3) {
            if let Some(s) = g.square(fx + dx / k * i, fy + dy / k * i) {
                sq[n] = s;
                n += 1;
            }
        }
        (n > 0).then_some(EnPassant {
            squares: sq,
            count: n as u8,
            victim: mv.to,
        })
    }

    /// Takes back the last move made. Does nothing if there is none.
    pub fn unmake(&mut self) {
        let Some(u) = self.undo.pop() else { return };
        let v = self.variant.clone();
        let mv = u.mv;
        self.history.pop();
        self.side = self.side.flip();
        for _ in 0..u.nripe {
            let (sq, p) = self.ripened.pop().expect("ripen stack");
            self.remove::<false>(sq);
            self.put::<false>(sq, p);
        }
        match mv.kind {
            MoveKind::Checker => {
                if mv.to != mv.from {
                    self.relocate::<false>(mv.to, mv.from);
                }
            }
            MoveKind::Normal | MoveKind::EnPassant | MoveKind::Relocate => {
                if mv.promotion().is_some() {
                    let sq = self.promoted_square(mv);
                    self.remove::<false>(sq);
                    self.put::<false>(mv.to, u.moved);
                }
                if mv.to != mv.from {
                    self.relocate::<false>(mv.to, mv.from);
                }
            }
            MoveKind::Castle => {
                let rook_to = castle_rook_target(&v, mv);
                let rook = self.remove::<false>(rook_to);
                if mv.to != mv.from {
                    self.relocate::<false>(mv.to, mv.from);
                }
                self.put::<false>(mv.extra, rook);
            }
            MoveKind::Opening => {
                for &(a, b) in v.specials.opening_advances(u.moved.side()).iter().rev() {
                    self.relocate::<false>(b, a);
                }
            }
            MoveKind::Swap => self.exchange::<false>(mv.from, mv.to),
            MoveKind::Transfer => {
                self.remove::<false>(mv.extra);
                self.put::<false>(mv.from, u.moved);
            }
            MoveKind::CitadelSwap => {
                self.exchange::<false>(mv.to, mv.extra);
                self.relocate::<false>(mv.to, mv.from);
            }
        }
        for _ in 0..u.ncap {
            let (sq, p) = self.captures.pop().expect("capture stack");
            self.put::<false>(sq, p);
        }
        self.changes.truncate(u.changes_from as usize);
        self.castling = u.castling;
        self.swap = u.swap;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.opening_done = u.opening_done;
        self.frozen = u.frozen;
        if self.side == Side::Second {
            self.fullmove -= 1;
        }
        self.hash = u.hash;
    }

    /// Passes the turn, for null-move pruning in search: the side to move
    /// flips and any en-passant right lapses. This is no move of any game:
    /// the move list and history are untouched. Returns what
    /// [`Position::unmake_null`] needs to restore the position.
    pub fn make_null(&mut self) -> NullUndo {
        let u = NullUndo {
            ep: self.ep,
            hash: self.hash,
            frozen: self.frozen,
        };
        self.set_ep(None);
        // The turn a frozen piece had to wait passes too.
        self.hash ^= self.frozen_key(self.frozen);
        self.frozen = Square::NONE;
        self.side = self.side.flip();
        self.hash ^= self.variant.zobrist.side;
        u
    }

    /// Takes back [`Position::make_null`]; call it before any other unmake.
    pub fn unmake_null(&mut self, u: NullUndo) {
        self.side = self.side.flip();
        self.ep = u.ep;
        self.frozen = u.frozen;
        self.hash = u.hash;
    }

    /// Recomputes the hash from scratch (for consistency checks in tests).
    pub fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    /// Does the piece on `sq` stand on one of its initial squares?
    #[inline(always)]
    pub fn on_initial(&self, sq: Square, p: Piece) -> bool {
        let v = &self.variant;
        v.initial[p.kind() as usize][p.side().index()][v.geometry.compact(sq)]
    }

    /// Number of non-royal pieces of `side`.
    pub fn non_royal_count(&self, side: Side) -> usize {
        self.plist[side.index()].len() - self.royals[side.index()].len()
    }
}

/// Where the Rook of a castling move lands: next to the King's destination,
/// on the side the King came from.
pub fn castle_rook_target(v: &Variant, mv: Move) -> Square {
    let g = &v.geometry;
    let kf = g.file(mv.from) as i32;
    let kt = g.file(mv.to) as i32;
    let dir = if kt > kf { -1 } else { 1 };
    g.square(kt + dir, g.rank(mv.to) as i32)
        .expect("castling squares are checked")
}
