//! Board shape: files, ranks, holes (citadels live in a wider grid), square names.
//!
//! Squares are indices into a padded one-dimensional mailbox: `pad` guard cells
//! surround the grid so that any leap of up to `pad` steps lands on a cell that
//! exists in memory, and that cell says "not a square" (see
//! [`crate::position::Position`]). One layout serves every board from 9x9 to
//! 16x16 and the irregular ones (Tamerlane's 112 squares, Frolov's 104).

use std::fmt;

/// Largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 16;

/// A cell of the padded mailbox. Only cells for which
/// [`Geometry::is_square`] holds are squares of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(pub u16);

impl Square {
    /// Marker for "no square" in compact move encodings.
    pub const NONE: Square = Square(u16::MAX);

    /// The mailbox index, for table lookups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// True unless this is [`Square::NONE`].
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != u16::MAX
    }

    /// The square `off` cells away (an offset from [`Geometry::offset`]).
    #[inline(always)]
    pub const fn shift(self, off: i16) -> Square {
        Square((self.0 as i32 + off as i32) as u16)
    }
}

/// The shape of a board: a `files` x `ranks` grid with some cells removed.
#[derive(Clone, Debug)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    pad: u8,
    stride: u16,
    cells: usize,
    /// Per mailbox cell: is it a square of the game?
    exists: Vec<bool>,
    /// Per mailbox cell: compact index `rank * files + file`, or `u16::MAX`.
    compact: Vec<u16>,
    /// Compact index to mailbox cell.
    squares: Vec<Square>,
    file_names: Vec<char>,
}

/// What can be wrong with a board description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Files or ranks outside 1..=16.
    #[error("board size {files}x{ranks} is outside 1x1..16x16")]
    Size {
        /// Files asked for.
        files: u32,
        /// Ranks asked for.
        ranks: u32,
    },
    /// A hole names no cell of the grid.
    #[error("hole `{0}` is not a cell of the board")]
    Hole(String),
    /// The file names do not give one distinct letter per file.
    #[error("file names `{0}` must give one distinct lowercase letter per file")]
    FileNames(String),
}

impl Geometry {
    /// Builds a grid of `files` x `ranks` (each 1..=16) with guard bands of
    /// `pad` cells, the given `holes` (square names) removed and the files
    /// named by `file_names` (default `a`, `b`, ...).
    ///
    /// Errors: a size out of range, a hole that names no cell, file names of
    /// the wrong length or repeated.
    pub fn new(
        files: u32,
        ranks: u32,
        pad: u8,
        holes: &[String],
        file_names: Option<&str>,
    ) -> Result<Geometry, GeometryError> {
        if !(1..=MAX_SIDE as u32).contains(&files) || !(1..=MAX_SIDE as u32).contains(&ranks) {
            return Err(GeometryError::Size { files, ranks });
        }
        let file_names: Vec<char> = match file_names {
            Some(s) => s.chars().collect(),
            None => (0..files).map(|i| (b'a' + i as u8) as char).collect(),
        };
        let mut seen = file_names.clone();
        seen.sort_unstable();
        seen.dedup();
        if file_names.len() != files as usize
            || seen.len() != file_names.len()
            || !file_names.iter().all(|c| c.is_ascii_lowercase())
        {
            return Err(GeometryError::FileNames(file_names.iter().collect()));
        }
        let (f, r, p) = (files as u16, ranks as u16, pad as u16);
        let stride = f + 2 * p;
        let cells = (stride * (r + 2 * p)) as usize;
        let mut g = Geometry {
            files: files as u8,
            ranks: ranks as u8,
            pad,
            stride,
            cells,
            exists: vec![false; cells],
            compact: vec![u16::MAX; cells],
            squares: Vec::with_capacity((f * r) as usize),
            file_names,
        };
        for rank in 0..ranks as u8 {
            for file in 0..files as u8 {
                let sq = g.cell(file, rank);
                g.exists[sq.index()] = true;
            }
        }
        for hole in holes {
            let sq = g
                .parse_cell(hole)
                .ok_or_else(|| GeometryError::Hole(hole.clone()))?;
            g.exists[sq.index()] = false;
        }
        for rank in 0..ranks as u8 {
            for file in 0..files as u8 {
                let sq = g.cell(file, rank);
                if g.exists[sq.index()] {
                    g.compact[sq.index()] = (rank as u16) * f + file as u16;
                }
            }
        }
        // `squares` is indexed by compact index, which counts holes too.
        g.squares = (0..(f * r))
            .map(|i| g.cell((i % f) as u8, (i / f) as u8))
            .collect();
        Ok(g)
    }

    /// Number of files (columns of the grid, holes included).
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks.
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// Number of mailbox cells (the length of a board array).
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Guard band width in cells.
    pub fn pad(&self) -> u8 {
        self.pad
    }

    /// The mailbox cell of (file, rank), both 0-based; it may be a hole.
    #[inline]
    pub fn cell(&self, file: u8, rank: u8) -> Square {
        let p = self.pad as u16;
        Square((rank as u16 + p) * self.stride + file as u16 + p)
    }

    /// The square at (file, rank), `None` outside the grid or on a hole.
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let sq = self.cell(file as u8, rank as u8);
        self.exists[sq.index()].then_some(sq)
    }

    /// The point reflection of `sq` through the centre of the grid: where
    /// the second player's piece stands in an array turned half round.
    /// `None` when that cell is a hole.
    pub fn reflect(&self, sq: Square) -> Option<Square> {
        self.square(
            self.files as i32 - 1 - self.file(sq) as i32,
            self.ranks as i32 - 1 - self.rank(sq) as i32,
        )
    }

    /// The mirror image of `sq` across the middle rank, same file: where
    /// the second player's piece stands in a mirrored array. `None` when
    /// that cell is a hole.
    pub fn mirror(&self, sq: Square) -> Option<Square> {
        self.square(
            self.file(sq) as i32,
            self.ranks as i32 - 1 - self.rank(sq) as i32,
        )
    }

    /// The offset in cells of a displacement of `dx` files and `dy` ranks.
    #[inline]
    pub fn offset(&self, dx: i32, dy: i32) -> i16 {
        (dy * self.stride as i32 + dx) as i16
    }

    /// Is this cell a square of the game?
    #[inline(always)]
    pub fn is_square(&self, sq: Square) -> bool {
        self.exists.get(sq.index()).copied().unwrap_or(false)
    }

    /// 0-based file of a cell inside the grid.
    #[inline]
    pub fn file(&self, sq: Square) -> u8 {
        (sq.0 % self.stride - self.pad as u16) as u8
    }

    /// 0-based rank of a cell inside the grid.
    #[inline]
    pub fn rank(&self, sq: Square) -> u8 {
        (sq.0 / self.stride - self.pad as u16) as u8
    }

    /// Cells between two cells along the farther axis (Chebyshev
    /// distance), counted on the whole grid, guard band included.
    #[inline]
    pub fn distance(&self, a: Square, b: Square) -> u32 {
        let (ax, ay) = (a.0 % self.stride, a.0 / self.stride);
        let (bx, by) = (b.0 % self.stride, b.0 / self.stride);
        u32::from(ax.abs_diff(bx).max(ay.abs_diff(by)))
    }

    /// Compact index `rank * files + file` of a square, for dense tables.
    #[inline(always)]
    pub fn compact(&self, sq: Square) -> usize {
        self.compact[sq.index()] as usize
    }

    /// Number of compact indices (files x ranks, holes included).
    pub fn compact_len(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Every square of the game, rank 1 first, files left to right.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares.iter().copied().filter(|&s| self.is_square(s))
    }

    /// The name of a file (`a`, or `z` for Tamerlane's extra column).
    pub fn file_name(&self, file: u8) -> char {
        self.file_names[file as usize]
    }

    /// The name of a square: file letter and 1-based rank, e.g. `b10`.
    pub fn name(&self, sq: Square) -> SquareName<'_> {
        SquareName { geo: self, sq }
    }

    /// Parses a square name (`a1`..`p16`, with this board's file letters).
    /// Returns `None` when it names no square of the game.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        self.parse_cell(s).filter(|&sq| self.is_square(sq))
    }

    fn parse_cell(&self, s: &str) -> Option<Square> {
        let (sq, used) = self.parse_prefix_cell(s)?;
        (used == s.len()).then_some(sq)
    }

    /// Reads a square name at the start of `s`; returns the square and the
    /// number of bytes used. The longest rank number that fits is taken
    /// (`a10` is rank 10 on a board of 10 or more ranks).
    pub fn parse_square_prefix(&self, s: &str) -> Option<(Square, usize)> {
        self.parse_prefix_cell(s)
            .filter(|(sq, _)| self.is_square(*sq))
    }

    fn parse_prefix_cell(&self, s: &str) -> Option<(Square, usize)> {
        let mut chars = s.chars();
        let c = chars.next()?.to_ascii_lowercase();
        let file = self.file_names.iter().position(|&f| f == c)? as u8;
        let digits: Vec<u8> = s[1..]
            .bytes()
            .take_while(|b| b.is_ascii_digit())
            .take(2)
            .collect();
        if digits.is_empty() || digits[0] == b'0' {
            return None;
        }
        let one = (digits[0] - b'0') as u32;
        if digits.len() == 2 {
            let two = one * 10 + (digits[1] - b'0') as u32;
            if (1..=self.ranks as u32).contains(&two) {
                return Some((self.cell(file, (two - 1) as u8), 3));
            }
        }
        (1..=self.ranks as u32)
            .contains(&one)
            .then(|| (self.cell(file, (one - 1) as u8), 2))
    }
}

/// Display helper returned by [`Geometry::name`].
pub struct SquareName<'a> {
    geo: &'a Geometry,
    sq: Square,
}

impl fmt::Display for SquareName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.sq.is_some() {
            return f.write_str("-");
        }
        write!(
            f,
            "{}{}",
            self.geo.file_name(self.geo.file(self.sq)),
            self.geo.rank(self.sq) as u32 + 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_with_two_digit_ranks() {
        let g = Geometry::new(16, 16, 3, &[], None).unwrap();
        let sq = g.parse_square("b10").unwrap();
        assert_eq!((g.file(sq), g.rank(sq)), (1, 9));
        assert_eq!(g.name(sq).to_string(), "b10");
        assert_eq!(g.name(g.parse_square("p16").unwrap()).to_string(), "p16");
        assert!(g.parse_square("q1").is_none());
        assert!(g.parse_square("a17").is_none());
        assert!(g.parse_square("a0").is_none());
        assert_eq!(g.parse_square_prefix("b10c12"), Some((sq, 3)));
    }

    #[test]
    fn holes_and_custom_file_names() {
        let holes = vec!["z1".to_string(), "l10".to_string()];
        let g = Geometry::new(13, 10, 3, &holes, Some("zabcdefghijkl")).unwrap();
        assert!(g.parse_square("z1").is_none());
        assert!(g.parse_square("z9").is_some());
        assert!(g.parse_square("l10").is_none());
        assert_eq!(g.squares().count(), 128);
        assert!(Geometry::new(17, 8, 3, &[], None).is_err());
        assert!(Geometry::new(8, 8, 3, &["x9".into()], None).is_err());
    }
}
