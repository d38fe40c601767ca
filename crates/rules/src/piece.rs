//! Piece types and their movement compiled to board offsets.
//!
//! A piece on the board is one byte ([`Piece`]): 0 empty, 1 not a square,
//! otherwise `2 + 2 * type + side`. A variant may have up to 126 types, which
//! covers Dai Shogi's 29 pieces and their promoted forms.

use crate::betza::{Mode, Path};
use crate::geometry::Geometry;

/// The two players. The first player moves first and its pieces are written
/// in upper case (White in the chess games, Black/Sente in the shogi games).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Moves first; upper case in FEN; starts at the bottom (rank 1).
    First = 0,
    /// Moves second; lower case in FEN; starts at the top.
    Second = 1,
}

impl Side {
    /// The other player.
    #[inline(always)]
    pub const fn flip(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both sides, first player first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];
}

/// Index of a piece type within its variant.
pub type PieceType = u8;

/// A board cell's content.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Piece(pub u8);

impl Piece {
    /// An empty square.
    pub const EMPTY: Piece = Piece(0);
    /// A cell that is not a square (guard band or hole).
    pub const WALL: Piece = Piece(1);

    /// The piece of `kind` owned by `side`.
    #[inline(always)]
    pub const fn new(kind: PieceType, side: Side) -> Piece {
        Piece(2 + 2 * kind + side as u8)
    }

    /// Is this an empty square?
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Is this a piece (not empty, not a wall)?
    #[inline(always)]
    pub const fn is_piece(self) -> bool {
        self.0 >= 2
    }

    /// The owner; meaningful only for pieces.
    #[inline(always)]
    pub const fn side(self) -> Side {
        if self.0 & 1 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The type index; meaningful only for pieces.
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        (self.0 - 2) >> 1
    }

    /// Is this a piece of `side`?
    #[inline(always)]
    pub const fn is_side(self, side: Side) -> bool {
        self.0 >= 2 && (self.0 & 1) == side as u8
    }
}

/// Largest piece value a variant file may give (`value`), centipawns: far
/// above any real piece (a Queen is about 900), and low enough that sums of
/// material over the largest boards stay far from overflow.
pub const MAX_VALUE: i32 = 100_000;

/// A piece type of a variant, after checking.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    /// Key in the variant file (`fers`).
    pub key: String,
    /// Name in the rule book (`Fers`).
    pub name: String,
    /// Rule book ID (`F`, `DE`, `+DH`).
    pub id: String,
    /// The kanji written on a shogi piece (`獅子`), or empty when the
    /// variant file gives none.
    pub kanji: String,
    /// FEN token for the first player, upper case (`+H` for a promoted Dragon Horse).
    pub token: String,
    /// Movement as written in the file.
    pub betza: String,
    /// Royal piece (King, Crown Prince...).
    pub royal: bool,
    /// Value in centipawns (estimated from mobility when the file gives none).
    pub value: i32,
    /// Chess-style promotion choices.
    pub promotes_to: Vec<PieceType>,
    /// Shogi-style promoted form.
    pub promoted: Option<PieceType>,
    /// The type this one is the promoted form of.
    pub demoted: Option<PieceType>,
    /// A pawn (move-count rule, en passant).
    pub pawn: bool,
    /// Becomes this type after each later move of its owner.
    pub ripens_to: Option<PieceType>,
    /// Cannot be captured (Tamerlane's parked pawn of pawns, 5.2).
    pub immune: bool,
    /// Help text.
    pub description: String,
}

/// A one-leg leap.
#[derive(Clone, Debug)]
pub struct Leap {
    /// Board offset of the leap.
    pub off: i16,
    /// May move to an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Squares passed that must be empty (`n`), as offsets from the origin.
    pub lame: Vec<i16>,
    /// Only from the piece's initial squares.
    pub initial: bool,
    /// May capture en passant.
    pub en_passant: bool,
}

/// A one-leg slide (possibly limited) or hop.
#[derive(Clone, Debug)]
pub struct Ride {
    /// Board offset of one step.
    pub off: i16,
    /// Fewest steps: a slide may not stop or capture nearer (Tamerlane's
    /// Picket `mFafB`: 2). Always 1 for hops.
    pub min: u8,
    /// Most steps (255 = unlimited).
    pub max: u8,
    /// May move to empty squares.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Only from the piece's initial squares.
    pub initial: bool,
}

/// A leg of a multi-leg path, compiled.
#[derive(Clone, Copy, Debug)]
pub struct CompiledLeg {
    /// Offset of one step.
    pub off: i16,
    /// The step as (files, ranks), seen from the first player's side.
    pub vector: (i8, i8),
    /// Most steps (1 = leap, 255 = unlimited).
    pub max: u8,
    /// What the leg may end on.
    pub mode: Mode,
}

/// All the ways one piece type moves, for one side.
#[derive(Clone, Debug, Default)]
pub struct Moveset {
    /// Single leaps.
    pub leaps: Vec<Leap>,
    /// Slides.
    pub rides: Vec<Ride>,
    /// Hoppers: slide to a screen, then on (cannon) or just behind (grasshopper).
    pub hops: Vec<(Ride, bool)>,
    /// Multi-leg paths (Lion, Giraffe...), with the `initial` flag.
    pub multi: Vec<(Vec<CompiledLeg>, bool)>,
    /// Longest reach in cells along any axis, for the guard band.
    pub reach: i32,
}

impl Moveset {
    /// Compiles Betza paths for `side` on `geo`. Errors name what cannot be
    /// done (a lame leap that is not straight, a hop on a leaper).
    pub fn compile(paths: &[Path], side: Side, geo: &Geometry) -> Result<Moveset, String> {
        let s: i32 = if side == Side::First { 1 } else { -1 };
        let mut ms = Moveset::default();
        let vec_off = |v: (i8, i8)| geo.offset(s * v.0 as i32, s * v.1 as i32);
        for p in paths {
            for l in &p.legs {
                let r = l.vector.0.abs().max(l.vector.1.abs()) as i32;
                ms.reach = ms.reach.max(r);
            }
            if p.legs.len() == 1 {
                let l = p.legs[0];
                let off = vec_off(l.vector);
                let (quiet, capture) = (l.mode.to_empty, l.mode.capture);
                if l.mode.cannon || l.mode.grasshopper {
                    if l.range == 1 {
                        return Err("a hop needs a rider".into());
                    }
                    let max = if l.range == 0 { 255 } else { l.range };
                    ms.hops.push((
                        Ride {
                            off,
                            min: 1,
                            max,
                            quiet,
                            capture,
                            initial: p.initial,
                        },
                        l.mode.grasshopper,
                    ));
                } else if l.range == 1 {
                    let mut lame = Vec::new();
                    if l.lame {
                        let (dx, dy) = (l.vector.0 as i32, l.vector.1 as i32);
                        let k = dx.abs().max(dy.abs());
                        if dx != 0 && dy != 0 && dx.abs() != dy.abs() {
                            return Err("`n` works only on straight leaps (D, A, H, G)".into());
                        }
                        for i in 1..k {
                            lame.push(geo.offset(s * dx / k * i, s * dy / k * i));
                        }
                    }
                    ms.leaps.push(Leap {
                        off,
                        quiet,
                        capture,
                        lame,
                        initial: p.initial,
                        en_passant: l.mode.en_passant,
                    });
                } else {
                    let max = if l.range == 0 { 255 } else { l.range };
                    ms.rides.push(Ride {
                        off,
                        min: 1,
                        max,
                        quiet,
                        capture,
                        initial: p.initial,
                    });
                }
            } else if let Some(r) = straight_ride(p, &vec_off) {
                ms.rides.push(r);
            } else {
                let legs = p
                    .legs
                    .iter()
                    .map(|l| CompiledLeg {
                        off: vec_off(l.vector),
                        vector: (s as i8 * l.vector.0, s as i8 * l.vector.1),
                        max: if l.range == 0 { 255 } else { l.range },
                        mode: l.mode,
                    })
                    .collect();
                ms.multi.push((legs, p.initial));
            }
        }
        Ok(ms)
    }
}

/// A multi-leg path that is one straight slide with a minimum distance:
/// every leg has the same direction, every leg but the last is a single
/// step to an empty square (`mFafB`, the Picket: a Bishop that must go at
/// least two squares). As a [`Ride`] it is generated and found attacking
/// like any slide.
fn straight_ride(p: &Path, vec_off: &impl Fn((i8, i8)) -> i16) -> Option<Ride> {
    let (last, lead) = p.legs.split_last()?;
    let v = last.vector;
    if v.0.abs() > 1 || v.1.abs() > 1 || last.mode.cannon || last.mode.grasshopper {
        return None;
    }
    let plain_step = |l: &crate::betza::Leg| {
        l.vector == v
            && l.range == 1
            && l.mode.to_empty
            && !l.mode.capture
            && !l.mode.hop_any
            && !l.lame
    };
    if !lead.iter().all(plain_step) || last.mode.en_passant {
        return None;
    }
    let k = lead.len() as u32;
    let max = if last.range == 0 {
        255
    } else {
        (k + last.range as u32).min(254) as u8
    };
    Some(Ride {
        off: vec_off(v),
        min: (k + 1) as u8,
        max,
        quiet: last.mode.to_empty,
        capture: last.mode.capture,
        initial: p.initial,
    })
}
