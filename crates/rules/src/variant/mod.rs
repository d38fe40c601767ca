//! Variant = geometry + pieces + setup + rules + options, loaded from TOML.
//!
//! [`Variant::builtin`] loads a game shipped in `variants/`;
//! [`Variant::from_toml`] loads a user's file. Both take option choices
//! (`KEY=VALUE`, names as in the rule book) and return a checked, compiled
//! variant, or a [`VariantError`] naming the file, line, key and problem.

mod builtin;
mod compile;
pub mod schema;

pub use builtin::BUILTIN;
pub use compile::{
    AttackTables, CastleRule, FenField, Promotion, PromotionWhen, RiderReach, Rules,
};

use crate::geometry::{Geometry, Square};
use crate::piece::{Moveset, Piece, PieceInfo, PieceType, Side};
use crate::zobrist::Zobrist;
use std::fmt;

/// What the side to move gets from a stalemate, bare king or other ending.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The side concerned loses.
    Loss,
    /// Drawn.
    Draw,
    /// The side concerned wins.
    Win,
}

/// How a bared King is treated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BareKing {
    /// No rule.
    None,
    /// Shatranj: the bared side loses, unless it bares the other side with
    /// its one reply (then drawn); against two or more pieces it loses at once.
    Shatranj,
    /// A lone King draws at once (Shatar's robado).
    Draw,
    /// Chu and Dai Shogi (rules/chu-shogi.md 6.5, dai-shogi.md 6.4): a player
    /// with a single royal and only dead pieces loses while the opponent has
    /// a royal and a counted piece (`Rules::bare_king_uncounted` aside), unless
    /// it is to move and its royal can capture the opponent's last counted
    /// piece or only royal at once. Two bare royals draw.
    Shogi,
}

/// One option of a variant, for listings.
#[derive(Clone, Debug)]
pub struct VariantOption {
    /// Name as in the rule book (`albers-castling`).
    pub name: String,
    /// What it does.
    pub description: String,
    /// Value when not given.
    pub default: String,
    /// Allowed values; empty for numeric options.
    pub values: Vec<String>,
}

/// Courier's compulsory opening: per side, the advances of its first turn.
#[derive(Clone, Debug)]
pub struct CompulsoryOpening {
    /// (from, to) per side.
    pub moves: [Vec<(Square, Square)>; 2],
}

/// A compiled, checked variant. Immutable; share it with `Arc`.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Name on the command line.
    pub name: String,
    /// Human title.
    pub title: String,
    /// Short description.
    pub description: String,
    /// The rule book implemented.
    pub rules_source: String,
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
    pub fen: compile::FenRules,
    /// Promotion rules.
    pub promotion: Promotion,
    /// Game rules.
    pub rules: Rules,
    /// Compulsory opening turn, if any (Courier `courier-opening=explicit`).
    pub compulsory_opening: Option<CompulsoryOpening>,
    /// Own turns a pawn waits on the last rank before it promotes (Albers).
    pub delayed_promotion: Option<u32>,
    /// Chu Shogi's Lion-trading rules (rules/chu-shogi.md 6.4), if in force.
    pub lion_trading: Option<crate::special::lion::LionTrading>,
    /// Hiashatar's Bodyguard zones (rules/hiashatar.md 5.1-5.2), if in force.
    pub bodyguard: Option<crate::special::bodyguard::Bodyguard>,
    /// The Ordinary Variant's Checker (rules/ordinary-variant.md 5.1-5.5).
    pub checker: Option<crate::special::checker::CheckerRules>,
    /// Dynamic Scoring (rules/ordinary-variant.md 7): every ending in points.
    pub dynamic_scoring: Option<crate::special::dynamic_scoring::DynamicScoring>,
    /// Citadels (rules/tamerlane.md 5.5), if the board has them.
    pub citadels: Option<crate::special::citadel::Citadels>,
    /// Tamerlane's pawn of pawns (rules/tamerlane.md 5.2), if in the game.
    pub pawn_of_pawns: Option<crate::special::pawn_of_pawns::PawnOfPawns>,
    /// Tamerlane's King swap (rules/tamerlane.md 5.4), if in the game.
    pub king_swap: Option<crate::special::king_swap::KingSwap>,
    /// Bit per type that cannot be captured (the parked pawn of pawns).
    pub immune: u128,
    /// Some module filters or rewrites a piece's generated moves (citadels,
    /// immune pieces, the pawn of pawns): one test per piece in generation.
    pub(crate) restricts: bool,
    /// Frolov's capture promotion (rules/frolov-10x10.md 5.4-5.5), if in force.
    pub capture_promotion: Option<crate::special::capture_promotion::CapturePromotion>,
    /// Promotion to the opponent's pieces (rules/frolov-10x10.md 5.3), if any.
    pub hostile_promotion: Option<crate::special::hostile_promotion::HostilePromotion>,
    /// Frolov's optional citadel win (rules/frolov-10x10.md B15), if in force.
    pub citadel_win: Option<crate::special::citadel_win::CitadelWin>,
    /// Endings decided by a material count (rules/frolov-10x10.md 7.1), if any.
    pub material_points: Option<crate::special::material_points::MaterialPoints>,
    /// The options this variant offers.
    pub options: Vec<VariantOption>,
    /// Options in force (name, value), defaults included.
    pub chosen: Vec<(String, String)>,
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

/// A variant file that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct VariantError {
    /// File name or built-in name.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// Dotted key, when known.
    pub key: Option<String>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(k) = &self.key {
            write!(f, ": key `{k}`")?;
        }
        write!(f, ": {}", self.what)
    }
}

impl Variant {
    /// Loads a built-in variant by name (`courier`, `sho-shogi`...) with
    /// option choices `(name, value)`.
    ///
    /// Errors: an unknown name (the message lists the built-in ones), an
    /// unknown option or value.
    pub fn builtin(name: &str, options: &[(String, String)]) -> Result<Variant, VariantError> {
        let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            return Err(VariantError {
                file: name.to_string(),
                line: None,
                key: None,
                what: format!("no such variant; built-in variants: {}", names.join(", ")),
            });
        };
        compile::load(&format!("variants/{name}.toml"), text, options)
    }

    /// Loads a variant from TOML text; `file` names it in errors. `extends`
    /// may name a built-in variant.
    ///
    /// Errors: TOML syntax, unknown or missing keys, bad values (with the
    /// line and key), bad Betza, an unknown piece, an impossible start FEN.
    pub fn from_toml(
        file: &str,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Variant, VariantError> {
        compile::load(file, text, options)
    }

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

    /// The value of an option in force.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.chosen
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
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
