//! Space, for the games with pawns: the room a side's pawns win for its
//! pieces behind them. Stockfish's classical evaluation counts the same
//! feature on the chess board (`space()`: central files, ranks two to
//! four); Fairy-Stockfish counts it in Courier, where it is one of the
//! terms that most separate its judgement from kamil's
//! (`docs/log/2026-11-27-courier-gap-judgement.md`). Here the area
//! follows the board: the central half of the files, from a side's second
//! rank up to the last rank of its half.

use super::pawns::PawnThreats;
use kamil_rules::{Position, Side, Square, Variant};

/// Pawns at most this many ranks ahead on the same file put a square
/// "behind" them.
const BEHIND: i32 = 3;

/// The space area of each side, worked out once per variant.
#[derive(Clone, Debug, Default)]
pub struct Space {
    /// Per side: each square of its area, with the squares ahead of it on
    /// its file (nearest first, at most [`BEHIND`]) where a friendly pawn
    /// puts it behind that pawn.
    area: [Vec<(Square, Vec<Square>)>; 2],
}

impl Space {
    /// The area of `v`: files from a quarter of the way in on each side,
    /// ranks from each side's second to the last of its half. Empty when
    /// the game has no pawns or the board is too small to have an area.
    pub fn new(v: &Variant) -> Space {
        if !v.pieces.iter().any(|p| p.pawn) {
            return Space::default();
        }
        let g = &v.geometry;
        let (files, ranks) = (i32::from(g.files()), i32::from(g.ranks()));
        let area = Side::BOTH.map(|side| {
            let mut out = Vec::new();
            for step in 1..ranks / 2 {
                // Ranks as seen from `side`: the first player's rank 0 is
                // its home rank, the second player's is the last.
                let (rank, ahead) = match side {
                    Side::First => (step, 1),
                    Side::Second => (ranks - 1 - step, -1),
                };
                for file in files / 4..files - files / 4 {
                    let Some(sq) = g.square(file, rank) else {
                        continue;
                    };
                    let front = (1..=BEHIND)
                        .filter_map(|d| g.square(file, rank + ahead * d))
                        .collect();
                    out.push((sq, front));
                }
            }
            out
        });
        Space { area }
    }

    /// Is there an area to count?
    pub fn possible(&self) -> bool {
        self.area.iter().any(|a| !a.is_empty())
    }

    /// The space feature of `side`: each square of its area that holds no
    /// pawn of its own and no enemy pawn attacks counts one, and one more
    /// when a friendly pawn stands up to three squares ahead of it on its
    /// file. `pawn` marks the pawn types.
    pub fn count(&self, pos: &Position, side: Side, pawn: &[bool], threats: &PawnThreats) -> i32 {
        let is_own_pawn = |sq: Square| {
            let pc = pos.at(sq);
            pc.is_side(side) && pawn.get(pc.kind() as usize).copied().unwrap_or(false)
        };
        let mut n = 0;
        for (sq, front) in &self.area[side.index()] {
            if is_own_pawn(*sq) || threats.attacked(pos, *sq, side.flip()) {
                continue;
            }
            n += 1;
            if front.iter().any(|&f| is_own_pawn(f)) {
                n += 1;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn counts(fen: &str) -> [i32; 2] {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let value: Vec<i32> = v.pieces.iter().map(|p| p.value).collect();
        let pawn: Vec<bool> = v.pieces.iter().map(|p| p.pawn).collect();
        let threats = PawnThreats::new(&v, &value);
        let space = Space::new(&v);
        Side::BOTH.map(|s| space.count(&pos, s, &pawn, &threats))
    }

    #[test]
    fn the_area_is_the_central_half_of_the_files_in_each_sides_half() {
        let v = Variant::builtin("courier", &[]).unwrap();
        let s = Space::new(&v);
        // 12 files: d to i; 8 ranks: the second to the fourth.
        assert_eq!(s.area[0].len(), 6 * 3);
        assert_eq!(s.area[1].len(), 6 * 3);
        let g = &v.geometry;
        assert!(
            s.area[0]
                .iter()
                .all(|(sq, _)| (1..=3).contains(&g.rank(*sq)) && (3..=8).contains(&g.file(*sq)))
        );
        assert!(
            s.area[1]
                .iter()
                .all(|(sq, _)| (4..=6).contains(&g.rank(*sq)))
        );
        let sho = Variant::builtin("sho-shogi", &[]).unwrap();
        assert!(Space::new(&sho).possible());
    }

    #[test]
    fn the_start_is_even_and_advanced_pawns_win_space() {
        let start =
            "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";
        let [w, b] = counts(start);
        assert_eq!(w, b);
        // White's d, e and f pawns one step on: d3, e3 and f3 now hold
        // its pawns (three lost), d2, e2 and f2 are free and behind them
        // (six won).
        let pushed =
            "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/3PPPF5/1PP4PPPP1/RNEBMK1WBENR w - - 0 1";
        let [w2, b2] = counts(pushed);
        assert_eq!(b2, b);
        assert_eq!(w2, w + 3);
        // A black pawn on e4 attacks d3 and f3 (not e3): White loses them.
        let cramped =
            "rnebmk1wbenr/1ppp1p1pppp1/6f5/p5p4p/P3p1P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";
        let [w3, _] = counts(cramped);
        assert_eq!(w3, w - 2);
    }
}
