//! Zobrist hash keys: one random 64-bit key per (square, piece), side to
//! move, castling right and en-passant square. Keys are drawn from a fixed
//! seed so hashes are the same on every run (perft signatures, tests).

use crate::geometry::Geometry;
use crate::piece::Piece;
use crate::splitmix::SplitMix64;

/// The keys of one variant.
#[derive(Clone, Debug)]
pub struct Zobrist {
    codes: usize,
    piece: Vec<u64>,
    /// XORed in when the second player is to move.
    pub side: u64,
    /// Per castling-rights bit.
    pub castling: [u64; 4],
    ep: Vec<u64>,
    /// Keys for rule state kept outside the board (compulsory opening per side...).
    pub state: [u64; 8],
    frozen: Vec<u64>,
}

impl Zobrist {
    /// Keys for `geo` and `types` piece types.
    pub fn new(geo: &Geometry, types: usize) -> Zobrist {
        let mut seed = SplitMix64::new(0x6B61_6D69_6C00_0001);
        let codes = 2 + 2 * types;
        let n = geo.compact_len();
        let piece = (0..n * codes).map(|_| seed.next_u64()).collect();
        let side = seed.next_u64();
        let castling = [
            seed.next_u64(),
            seed.next_u64(),
            seed.next_u64(),
            seed.next_u64(),
        ];
        let ep = (0..n).map(|_| seed.next_u64()).collect();
        let mut state = [0u64; 8];
        for s in state.iter_mut() {
            *s = seed.next_u64();
        }
        // Drawn last, so that the keys above stay as they were.
        let frozen = (0..n).map(|_| seed.next_u64()).collect();
        Zobrist {
            codes,
            piece,
            side,
            castling,
            ep,
            state,
            frozen,
        }
    }

    /// Key of `piece` on the square with compact index `compact`.
    #[inline(always)]
    pub fn piece(&self, compact: usize, piece: Piece) -> u64 {
        self.piece[compact * self.codes + piece.0 as usize]
    }

    /// Key of an en-passant square (compact index).
    #[inline(always)]
    pub fn ep(&self, compact: usize) -> u64 {
        self.ep[compact]
    }

    /// Key of the square of a frozen piece (compact index;
    /// rules/frolov-10x10.md 5.3).
    #[inline(always)]
    pub fn frozen(&self, compact: usize) -> u64 {
        self.frozen[compact]
    }
}
