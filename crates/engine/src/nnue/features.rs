//! The network's inputs for one variant: one feature per (piece type,
//! owner, square), seen from each player's side. From the first player's
//! side the board is as it is; from the second player's, it is turned by
//! the map that takes one side's start position onto the other's (a rank
//! flip in the chess games, a half turn in the shogi games and Tamerlane),
//! and the owners swap, so one set of weights serves both sides.

use kamil_rules::{Piece, Position, Side, Square, Variant};
use std::sync::Arc;

/// How the second player's view turns the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Rank `r` becomes rank `ranks - 1 - r`, same file.
    RankFlip,
    /// Both file and rank are reflected (the point reflection).
    HalfTurn,
}

impl Turn {
    /// Its code in a network file.
    pub fn code(self) -> u8 {
        match self {
            Turn::RankFlip => 0,
            Turn::HalfTurn => 1,
        }
    }

    /// The turn of code `c`, if any.
    pub fn from_code(c: u8) -> Option<Turn> {
        match c {
            0 => Some(Turn::RankFlip),
            1 => Some(Turn::HalfTurn),
            _ => None,
        }
    }
}

/// King buckets (issue 77): where each view's own royal stands picks one
/// of `count` copies of the inputs, so that a piece's weight can depend on
/// where the King is (the idea of Stockfish's HalfKA, coarsened). `of`
/// gives each compact square's bucket in the view's own coordinates (the
/// second player's view turned, as its pieces are), so one map serves
/// both views. A map must be left-right symmetric, so that a mirrored
/// position keeps its buckets ([`Features::mirrored`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingMap {
    count: u8,
    of: Vec<u8>,
}

impl KingMap {
    /// The map giving compact square `i` the bucket `of[i]`, on a board of
    /// `files` files.
    ///
    /// Errors: no buckets or more than 64, a bucket out of range, a length
    /// that is not a whole number of ranks, or a map that is not
    /// left-right symmetric (each named).
    pub fn new(count: u8, of: Vec<u8>, files: usize) -> Result<KingMap, String> {
        if count == 0 || count > 64 {
            return Err(format!("{count} king buckets (1 to 64)"));
        }
        if files == 0 || !of.len().is_multiple_of(files) {
            return Err(format!(
                "a king map of {} squares on {files} files",
                of.len()
            ));
        }
        if let Some(b) = of.iter().find(|&&b| b >= count) {
            return Err(format!("king bucket {b} of {count}"));
        }
        for (i, &b) in of.iter().enumerate() {
            let (f, r) = (i % files, i / files);
            if of[r * files + files - 1 - f] != b {
                return Err(format!(
                    "the king map is not left-right symmetric (square {i})"
                ));
            }
        }
        Ok(KingMap { count, of })
    }

    /// Buckets by how far the King has come from its own back rank:
    /// `count` buckets, the last for rank `count - 1` and beyond (the
    /// view's own coordinates; 1 is no buckets).
    pub fn by_rank(count: u8, files: usize, ranks: usize) -> Result<KingMap, String> {
        let last = count.max(1) - 1;
        let of = (0..files * ranks)
            .map(|i| ((i / files).min(usize::from(last))) as u8)
            .collect();
        KingMap::new(count, of, files)
    }

    /// Number of buckets.
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// Each compact square's bucket, in a view's own coordinates.
    pub fn buckets(&self) -> &[u8] {
        &self.of
    }
}

/// The feature layout of a variant: sizes and the index of each feature.
#[derive(Clone, Debug)]
pub struct Features {
    /// Piece types of the variant.
    types: usize,
    /// Compact squares (files x ranks, holes included).
    squares: usize,
    /// Files of the board.
    files: usize,
    /// How the second player's view turns the board.
    turn: Turn,
    /// Per compact square: its compact index in the second player's view.
    turned: Vec<u16>,
    /// Per mailbox cell: its compact index (0 for cells off the board).
    compact: Vec<u16>,
    /// King buckets, if any.
    kings: Option<KingMap>,
}

impl Features {
    /// The layout of `v`, the turn found from its start position
    /// ([`Features::turn_of`]).
    pub fn new(v: &Arc<Variant>) -> Features {
        Features::with_turn(v, Features::turn_of(v))
    }

    /// The layout of `v` with the given turn.
    pub fn with_turn(v: &Variant, turn: Turn) -> Features {
        let g = &v.geometry;
        let (files, ranks) = (g.files() as usize, g.ranks() as usize);
        let squares = files * ranks;
        let turned = (0..squares)
            .map(|i| {
                let (f, r) = (i % files, i / files);
                let (tf, tr) = match turn {
                    Turn::RankFlip => (f, ranks - 1 - r),
                    Turn::HalfTurn => (files - 1 - f, ranks - 1 - r),
                };
                (tr * files + tf) as u16
            })
            .collect();
        let mut compact = vec![0u16; g.cells()];
        for sq in g.squares() {
            compact[sq.index()] = g.compact(sq) as u16;
        }
        Features {
            types: v.pieces.len(),
            squares,
            files,
            turn,
            turned,
            compact,
            kings: None,
        }
    }

    /// This layout with king buckets `map` (its squares this board's).
    ///
    /// Errors: a map of another board size.
    pub fn with_kings(mut self, map: KingMap) -> Result<Features, String> {
        if map.of.len() != self.squares {
            return Err(format!(
                "a king map of {} squares for a board of {}",
                map.of.len(),
                self.squares
            ));
        }
        self.kings = (map.count() > 1).then_some(map);
        Ok(self)
    }

    /// The king buckets, if any.
    pub fn kings(&self) -> Option<&KingMap> {
        self.kings.as_ref()
    }

    /// The bucket of `view` in `pos`: where `view`'s own royal stands (of
    /// several, the one of the lowest piece type, then square, so that the
    /// choice depends on the position alone); 0 without buckets or royal.
    #[inline]
    pub fn bucket(&self, view: Side, pos: &Position) -> usize {
        let Some(k) = &self.kings else { return 0 };
        let royal = pos
            .royals(view)
            .iter()
            .map(|&sq| (pos.at(sq).kind(), self.compact[sq.index()]))
            .min();
        let Some((_, c)) = royal else { return 0 };
        let at = match view {
            Side::First => usize::from(c),
            Side::Second => usize::from(self.turned[usize::from(c)]),
        };
        usize::from(k.of[at])
    }

    /// Number of inputs of one bucket of one side's view: 2 owners x types
    /// x squares.
    pub fn bucket_inputs(&self) -> usize {
        2 * self.types * self.squares
    }

    /// The turn that maps more of the first player's start pieces onto
    /// the second player's same piece types: a rank flip (chess games) or
    /// a half turn (shogi, Tamerlane); a rank flip on a tie.
    pub fn turn_of(v: &Arc<Variant>) -> Turn {
        let pos = Position::start(v.clone());
        let g = &v.geometry;
        let count = |image: &dyn Fn(Square) -> Option<Square>| {
            pos.pieces(Side::First)
                .iter()
                .filter(|&&sq| {
                    let p = pos.at(sq);
                    image(sq).is_some_and(|t| pos.at(t) == Piece::new(p.kind(), Side::Second))
                })
                .count()
        };
        if count(&|s| g.reflect(s)) > count(&|s| g.mirror(s)) {
            Turn::HalfTurn
        } else {
            Turn::RankFlip
        }
    }

    /// Number of inputs of one side's view: buckets x 2 owners x types x
    /// squares (one bucket without king buckets).
    pub fn inputs(&self) -> usize {
        self.kings.as_ref().map_or(1, KingMap::count) * self.bucket_inputs()
    }

    /// Number of piece types.
    pub fn types(&self) -> usize {
        self.types
    }

    /// Number of compact squares.
    pub fn squares(&self) -> usize {
        self.squares
    }

    /// How the second player's view turns the board.
    pub fn turn(&self) -> Turn {
        self.turn
    }

    /// The input of feature `index` with its square's file reflected
    /// (file `f` becomes `files - 1 - f`, same rank, same piece and owner),
    /// in either view: both turns commute with that reflection. Used to
    /// augment training data, which is sound only for a game whose rules
    /// are left-right symmetric (not for its start position, which need
    /// not be). `index` must be below [`Features::inputs`].
    pub fn mirrored(&self, index: usize) -> usize {
        let (block, at) = (index / self.squares, index % self.squares);
        let (f, r) = (at % self.files, at / self.files);
        block * self.squares + r * self.files + (self.files - 1 - f)
    }

    /// The index of piece `p` on `sq` in `view`'s inputs when `view`'s
    /// bucket is `bucket` ([`Features::bucket`]).
    #[inline(always)]
    pub fn index_in(&self, view: Side, bucket: usize, p: Piece, sq: Square) -> usize {
        bucket * self.bucket_inputs() + self.index(view, p, sq)
    }

    /// The index of piece `p` on `sq` in `view`'s inputs of the first
    /// bucket (all of them without king buckets).
    #[inline(always)]
    pub fn index(&self, view: Side, p: Piece, sq: Square) -> usize {
        let c = self.compact[sq.index()] as usize;
        let (own, at) = match view {
            Side::First => (p.side() == Side::First, c),
            Side::Second => (p.side() == Side::Second, self.turned[c] as usize),
        };
        ((usize::from(!own) * self.types) + p.kind() as usize) * self.squares + at
    }
}
