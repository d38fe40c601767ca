//! Board state with make / unmake and an incrementally kept zobrist hash.
//!
//! A [`Position`] is made only from a FEN that parses against its variant,
//! and changed only by [`Position::make`] / [`Position::unmake`] of moves
//! the generator produced, so it always describes a reachable board.
//! Reading and writing its FEN is `fen_fields.rs`; this file is the state and
//! its changes.

use crate::board::swap_right;
pub use crate::board::{EnPassant, NullUndo, RecentMove};
pub use crate::effects::BoardChange;
use crate::fen::{self, FenError};
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, Side};
use crate::variant::{FenField, Variant};
use std::sync::Arc;

mod fen_fields;

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

pub use crate::setup::CASTLE_BITS;

/// First of the two [`crate::zobrist::Zobrist::state`] keys of the unused
/// King-swap rights (first player, second player).
const SWAP_KEY: usize = 3;

impl Position {
    /// The start position of `variant`.
    ///
    /// # Panics
    ///
    /// Never for a loaded variant: its start FEN is read when it loads
    /// ([`Variant::builtin`], [`Variant::from_toml`]), which refuses one
    /// that does not read.
    pub fn start(variant: Arc<Variant>) -> Position {
        let fen = variant.start_fen.clone();
        Position::from_fen(variant, &fen).expect("start FEN is checked when the variant loads")
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
    /// (`crate::effects::for_each_capture`).
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
