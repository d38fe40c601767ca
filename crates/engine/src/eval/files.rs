//! Riders on open files, for the games with pawns: a piece that rides
//! along its file (a Rook, a Lance, a Dragon) is worth more where no pawn
//! of its own blocks the file, more again where no pawn at all does.
//! Stockfish's classical evaluation scores the Rook so (`RookOnFile`);
//! Fairy-Stockfish does it in Courier.

use kamil_rules::MAX_SIDE;
use kamil_rules::{Piece, Position, Side, Variant};

/// Which piece types ride their file, per side.
#[derive(Clone, Debug, Default)]
pub struct FileRiders {
    /// Per piece code (`Piece.0`): rides forward along its file at least
    /// half the board's ranks.
    rider: Vec<bool>,
}

/// What [`RiderFiles::count`] finds for one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// File riders on a file with an enemy pawn but none of their own.
    pub half_open: i32,
    /// File riders on a file with no pawn at all.
    pub open: i32,
}

impl FileRiders {
    /// The file riders of `v` (none when the game has no pawns).
    pub fn new(v: &Variant) -> FileRiders {
        if !v.pieces.iter().any(|p| p.pawn) {
            return FileRiders::default();
        }
        let g = &v.geometry;
        let half = (g.ranks() / 2).max(2);
        let mut rider = vec![false; 2 + 2 * v.pieces.len()];
        for (t, info) in v.pieces.iter().enumerate() {
            if info.pawn || info.royal {
                continue;
            }
            for side in Side::BOTH {
                let forward = g.offset(0, if side == Side::First { 1 } else { -1 });
                let rides = v.movesets[t][side.index()].rides.iter().any(|r| {
                    r.off == forward && !r.initial && r.max >= half && r.quiet && r.capture
                });
                rider[Piece::new(t as u8, side).0 as usize] = rides;
            }
        }
        FileRiders { rider }
    }

    /// Are there file riders to count?
    pub fn possible(&self) -> bool {
        self.rider.iter().any(|&r| r)
    }

    /// Is the piece of code `code` (`Piece.0`) a file rider?
    #[inline(always)]
    pub fn rides(&self, code: usize) -> bool {
        self.rider.get(code).copied().unwrap_or(false)
    }
}

/// Per side and file: how many file riders stand there (the evaluation
/// fills it as it walks the pieces).
#[derive(Clone, Copy, Debug, Default)]
pub struct RiderFiles {
    count: [[u8; MAX_SIDE as usize]; 2],
    /// Per side: the files with a rider.
    files: [PawnFiles; 2],
}

impl RiderFiles {
    /// Adds a rider of `side` on file `file` (ignored past the widest
    /// board).
    #[inline(always)]
    pub fn add(&mut self, side: Side, file: u8) {
        if let Some(c) = self.count[side.index()].get_mut(usize::from(file)) {
            *c = c.saturating_add(1);
            self.files[side.index()] |= file_bit(file);
        }
    }

    /// Per side: its riders on half-open and open files, given the files
    /// that hold each side's pawns ([`pawn_files`]).
    pub fn count(&self, pawn_files: [PawnFiles; 2]) -> [FileCounts; 2] {
        Side::BOTH.map(|side| {
            let (s, o) = (side.index(), side.flip().index());
            let mut c = FileCounts::default();
            let mut free = self.files[s] & !pawn_files[s];
            while free != 0 {
                let f = free.trailing_zeros();
                free &= free - 1;
                let n = i32::from(self.count[s][f as usize]);
                if pawn_files[o] & (1 << f) == 0 {
                    c.open += n;
                } else {
                    c.half_open += n;
                }
            }
            c
        })
    }
}

/// A set of files, bit `f` for file `f` (boards are at most
/// [`MAX_SIDE`] files wide).
pub type PawnFiles = u16;

const _: () = assert!(MAX_SIDE as u32 <= PawnFiles::BITS);

/// The bit of file `f` in a [`PawnFiles`] (none past the widest board).
#[inline(always)]
fn file_bit(f: u8) -> PawnFiles {
    if f < MAX_SIDE { 1 << f } else { 0 }
}

/// Per side: the files that hold one of its pawns. `pawn` marks the pawn
/// types.
pub fn pawn_files(pos: &Position, pawn: &[bool]) -> [PawnFiles; 2] {
    let g = &pos.variant().geometry;
    Side::BOTH.map(|side| {
        pos.pieces(side)
            .iter()
            .filter(|&&sq| {
                pawn.get(pos.at(sq).kind() as usize)
                    .copied()
                    .unwrap_or(false)
            })
            .fold(0, |m, &sq| m | file_bit(g.file(sq)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Per side: the file riders on half-open and open files of `fen`,
    /// found as the evaluation finds them.
    fn counts(fen: &str) -> [FileCounts; 2] {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let pawn: Vec<bool> = v.pieces.iter().map(|p| p.pawn).collect();
        let f = FileRiders::new(&v);
        let mut riders = RiderFiles::default();
        for side in Side::BOTH {
            for &sq in pos.pieces(side) {
                if f.rides(pos.at(sq).0 as usize) {
                    riders.add(side, v.geometry.file(sq));
                }
            }
        }
        riders.count(pawn_files(&pos, &pawn))
    }

    #[test]
    fn rooks_ride_their_files_and_other_pieces_do_not() {
        let v = Variant::builtin("courier", &[]).unwrap();
        let f = FileRiders::new(&v);
        let rook = v.piece_by_key("rook").unwrap();
        let knight = v.piece_by_key("knight").unwrap();
        for side in Side::BOTH {
            assert!(f.rider[Piece::new(rook, side).0 as usize]);
            assert!(!f.rider[Piece::new(knight, side).0 as usize]);
        }
        assert!(FileRiders::new(&Variant::builtin("chu-shogi", &[]).unwrap()).possible());
    }

    #[test]
    fn a_rook_counts_by_the_pawns_on_its_file() {
        let start =
            "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";
        assert_eq!(counts(start), [FileCounts::default(); 2]);
        // White's a-pawn gone: its a-file Rook stands on a half-open file;
        // Black's a-pawn gone too: both Rooks' file is open.
        let half =
            "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/6P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";
        let c = counts(half);
        assert_eq!((c[0].half_open, c[0].open), (1, 0));
        assert_eq!(c[1], FileCounts::default());
        let open =
            "rnebmk1wbenr/1ppppp1pppp1/6f5/6p4p/6P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";
        let c = counts(open);
        assert_eq!((c[0].half_open, c[0].open), (0, 1));
        assert_eq!((c[1].half_open, c[1].open), (0, 1));
    }
}
