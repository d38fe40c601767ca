//! The generic part of a compiled variant: board, pieces and their
//! movement, promotion, game rules, FEN conventions, hash keys and attack
//! tables. Everything but the special-rule families
//! ([`crate::special::Specials`]), so that the families and the move
//! primitives can read it from below them.

use super::tables::{AttackTables, FenRules, Promotion, Rules};
use crate::geometry::{Geometry, Square};
use crate::piece::{Moveset, Piece, PieceInfo, PieceType, Side};
use crate::zobrist::Zobrist;

/// The generic rules of a variant (see the module comment).
#[derive(Clone, Debug)]
pub struct Core {
    /// Board shape.
    pub geometry: Geometry,
    /// Piece types; index = [`PieceType`].
    pub pieces: Vec<PieceInfo>,
    /// Movement per type and side.
    pub movesets: Vec<[Moveset; 2]>,
    /// Per type and side, per compact square: `i` moves allowed from here.
    pub initial: Vec<[Vec<bool>; 2]>,
    /// Per type and side, per compact square: the piece could never move again.
    pub dead: Vec<[Vec<bool>; 2]>,
    /// Start position.
    pub start_fen: String,
    /// FEN conventions.
    pub fen: FenRules,
    /// Promotion rules.
    pub promotion: Promotion,
    /// Game rules.
    pub rules: Rules,
    /// Own turns a pawn waits on the last rank before it promotes (Albers).
    pub delayed_promotion: Option<u32>,
    /// Bit per type that cannot be captured (the parked pawn of pawns).
    pub immune: u128,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// Attack lookup per attacking side.
    pub attacks: [AttackTables; 2],
    /// Types that promote in any way (for fast checks).
    pub(crate) any_promotion: bool,
    /// Some type ripens into another after its owner's moves.
    pub ripening: bool,
    /// Some type is royal: losing every royal loses (looked up at every
    /// node of a search, so kept rather than derived each time).
    pub has_royals: bool,
    /// FEN tokens, longest first: (text, piece).
    pub(crate) tokens: Vec<(String, Piece)>,
}

impl Core {
    /// The type index of a piece key (`"pawn"`).
    pub fn piece_by_key(&self, key: &str) -> Option<PieceType> {
        self.pieces
            .iter()
            .position(|p| p.key == key)
            .map(|i| i as PieceType)
    }

    /// Number of piece types.
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// The FEN token of a piece: upper case for the first player.
    pub fn token(&self, p: Piece) -> String {
        let t = &self.pieces[p.kind() as usize].token;
        if p.side() == Side::First {
            t.clone()
        } else {
            t.to_lowercase()
        }
    }

    /// The piece a promotion to `t` finally gives (following ripening).
    pub fn final_form(&self, mut t: PieceType) -> PieceType {
        for _ in 0..8 {
            match self.pieces[t as usize].ripens_to {
                Some(n) => t = n,
                None => break,
            }
        }
        t
    }

    /// Is `sq` in `side`'s promotion zone?
    #[inline]
    pub fn in_zone(&self, sq: Square, side: Side) -> bool {
        let z = self.promotion.zone as i32;
        if z == 0 {
            return false;
        }
        let r = self.geometry.rank(sq) as i32;
        let n = self.geometry.ranks() as i32;
        match side {
            Side::First => r >= n - z,
            Side::Second => r < z,
        }
    }
}
