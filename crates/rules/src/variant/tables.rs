//! The compiled tables of a variant's generic rules: FEN conventions,
//! promotion, game rules, attack lookup. Plain data, below every module
//! that reads them. The enums that a variant file names as they are
//! (`stalemate = "loss"`) are read by serde straight from the file.

use crate::geometry::Square;
use serde::Deserialize;

/// What the side to move gets from a stalemate, bare king or other ending
/// (`rules.stalemate`: `loss`, `draw` or `win`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The side concerned loses.
    Loss,
    /// Drawn (a stalemate's result unless the variant says otherwise).
    #[default]
    Draw,
    /// The side concerned wins.
    Win,
}

/// How a bared King is treated (`rules.bare_king`: `none`, `shatranj`,
/// `draw` or `shogi`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BareKing {
    /// No rule (default).
    #[default]
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
    /// Name as in the rule book (`albers-castling`): the key to set it by.
    pub name: String,
    /// The player's name for it (`Castling`); the key when the file gives none.
    pub label: String,
    /// What it does in one line of plain words; the description when the
    /// file gives none.
    pub summary: String,
    /// What it does, with its source and rule book section (the details).
    pub description: String,
    /// Value when not given.
    pub default: String,
    /// Allowed values; empty for numeric options.
    pub values: Vec<String>,
    /// The player's name for each of `values`, in the same order.
    pub value_labels: Vec<String>,
}

impl VariantOption {
    /// The player's name for `value` of this option: its label, or the
    /// value itself (`false` and `true` as `no` and `yes`).
    pub fn value_label<'a>(&'a self, value: &'a str) -> &'a str {
        match self.values.iter().position(|v| v == value) {
            Some(i) => &self.value_labels[i],
            None => value,
        }
    }
}

/// Courier's compulsory opening: per side, the advances of its first turn.
#[derive(Clone, Debug)]
pub struct CompulsoryOpening {
    /// (from, to) per side.
    pub moves: [Vec<(Square, Square)>; 2],
}

/// FEN conventions of a variant.
#[derive(Clone, Debug)]
pub struct FenRules {
    /// Side-to-move letters (first, second).
    pub side_letters: [String; 2],
    /// Letters when reading XBoard / Fairy-Stockfish FENs (fields follow the side).
    pub xboard_side_letters: Option<[String; 2]>,
    /// Fields after the side to move.
    pub fields: Vec<FenField>,
}

/// A FEN field after the side to move (`fen.fields`: `castling`, `ep`,
/// `halfmove`, `fullmove`, `swap`, `frozen`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FenField {
    /// Castling rights `KQkq` or `-`.
    Castling,
    /// En-passant square or `-`.
    #[serde(rename = "ep")]
    EnPassant,
    /// Plies since the last capture or pawn move.
    Halfmove,
    /// Move number, from 1.
    Fullmove,
    /// Tamerlane's King-swap rights `Kk` or `-` (rules/tamerlane.md 2).
    Swap,
    /// Square of a piece its owner may not move this turn, or `-`
    /// (rules/frolov-10x10.md 5.3).
    Frozen,
}

/// When a shogi-style promotion is allowed (`promotion.when`:
/// `start-or-end`, `end` or `chu`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromotionWhen {
    /// A move that starts or ends in the zone (modern shogi; Sho Shogi
    /// default; the default).
    #[default]
    StartOrEnd,
    /// A move that ends in the zone (Sho Shogi `sho-promote-on-entry-only`).
    End,
    /// Entering the zone, or capturing from inside it (Chu and Dai Shogi).
    Chu,
}

/// Promotion rules.
#[derive(Clone, Debug)]
pub struct Promotion {
    /// Depth of the zone in ranks (0 = no promotion).
    pub zone: u8,
    /// `true`: shogi style (optional, `+`); `false`: chess style (compulsory, choice).
    pub shogi: bool,
    /// Shogi style: when.
    pub when: PromotionWhen,
    /// Shogi style: compulsory where the piece could never move again.
    pub forced_if_dead: bool,
    /// Per type: may promote on a non-capturing move to a dead square.
    pub relief: Vec<bool>,
    /// Chess style: move text carries no promotion suffix (each pawn has
    /// one fixed promotion, Tamerlane 5.1).
    pub silent: bool,
}

/// Castling, compiled.
#[derive(Clone, Debug)]
pub struct CastleRule {
    /// King square per side.
    pub king: [Square; 2],
    /// Rook squares per side: [queen side, king side].
    pub rooks: [[Square; 2]; 2],
    /// King move distances in files.
    pub distances: Vec<u8>,
}

/// Game rules, compiled.
#[derive(Clone, Debug)]
pub struct Rules {
    /// A move may not leave the mover's only royal attacked.
    pub royal_safety: bool,
    /// Royals are counted before the move for that rule (a royal made by
    /// promotion does not count yet), as Fairy-Stockfish does.
    pub royals_counted_before_move: bool,
    /// Result for the stalemated side.
    pub stalemate: Verdict,
    /// Bare-king rule.
    pub bare_king: BareKing,
    /// Per type: not counted as a further piece by [`BareKing::Shogi`].
    pub bare_king_uncounted: Vec<bool>,
    /// N-fold repetition ends the game (0 = off).
    pub repetition: u32,
    /// The side giving check on every move of the cycle loses.
    pub perpetual_check_loses: bool,
    /// Moves that recreate an earlier position are illegal unless the mover
    /// was in check (rules/chu-shogi.md 6.5, `repetition=forbidden`).
    pub repetition_forbidden: bool,
    /// Plies without capture or pawn move that draw (0 = off).
    pub move_rule: u32,
    /// Game length limit in plies (0 = off).
    pub max_plies: u32,
    /// En passant for pawns' initial multi-square steps.
    pub en_passant: bool,
    /// Castling.
    pub castling: Option<CastleRule>,
    /// Bit per type X such that King and X against a lone King is drawn
    /// (insufficient material; King against King too when any bit is set).
    pub insufficient_material: u128,
}

/// Types of a ride attack table entry, with the fewest and most steps
/// they capture at.
pub type RiderReach = (u128, u8, u8);

/// Reverse movement tables: where an attacker of a square may stand.
#[derive(Clone, Debug, Default)]
pub struct AttackTables {
    /// (offset from the target to the attacker, types that capture so).
    pub leaps: Vec<(i16, u128)>,
    /// (step from the target towards the attacker, [(types, min and max
    /// distance)]).
    pub rides: Vec<(i16, Vec<RiderReach>)>,
    /// (step from the target towards the screen and the hopper, types,
    /// max distance, grasshopper).
    pub hops: Vec<(i16, u128, u8, bool)>,
    /// Multi-leg paths found by walking back from the target (legs in
    /// order as (step offset, most steps), types): see `reversible`.
    pub multi: Vec<(Vec<(i16, u8)>, u128)>,
    /// Bent riders (a first step to an empty square, then a capturing
    /// slide: Frolov's Gryphon and Dragon): (first step, slide step, most
    /// slide steps, types).
    pub bents: Vec<(i16, i16, u8, u128)>,
    /// Types whose captures need the full generator (multi-leg paths that
    /// cannot be walked back, lame or initial captures).
    pub complex: u128,
    /// Per type: how far, in cells along either axis, its captures that
    /// the leap, ride and hop tables leave out can reach (lame and initial
    /// leaps, initial rides and hops, multi-leg paths; 255 for no bound).
    /// A piece farther than this from a square attacks it only as the
    /// tables find, so the full generator need not be asked.
    pub full_reach: Vec<u8>,
    /// The same tables arranged by ray, so that a scan walks each line
    /// from the target once however many entries look along it.
    pub plan: RayPlan,
    /// The leap and ride entries by the offset (in mailbox cells) from
    /// the target to a cell, at index `offset + cells - 1`: which tell
    /// whether a piece there may attack the target without a look at
    /// each entry ([`AttackTables::from_offset`]).
    pub by_offset: Vec<FromOffset>,
    /// Per type: how far (cells along either axis) a piece of it may
    /// stand from a target and still attack it after one move of its own
    /// (its longest leg twice; 255 for a rider, hopper, multi-leg path or
    /// a type whose captures the tables leave out). A piece farther away
    /// gives no check but a discovered one (`crate::checks`).
    pub check_reach: Vec<u8>,
}

/// The entries of [`AttackTables`] that reach one offset from the target
/// ([`AttackTables::by_offset`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FromOffset {
    /// Types of the leap entries whose offset it is.
    pub leaps: u128,
    /// Bit `i` for the `i`th [`AttackTables::rides`] entry (the first 32)
    /// whose step a positive multiple of makes the offset.
    pub rides: u32,
}

/// Most lines whose ends one scan remembers ([`RayPlan`]): more than
/// any built-in game needs (Frolov's game has 8), few enough that the
/// memo is a small array on the stack.
pub const MAX_RAYS: usize = 32;

/// A [`RayPlan`] index for a ray whose end is not remembered (walked by
/// one entry only, or beyond [`MAX_RAYS`]): its entries walk it
/// themselves.
pub const NO_RAY: u8 = u8::MAX;

/// A capture path of one step then a straight slide, found by walking
/// the slide back from the target: the attacker stands `first` behind the
/// square `c` steps out along `step`, for `c` from `min` to `max`, when
/// every square of the slide up to that one is empty. Bent riders
/// ([`AttackTables::bents`]) and multi-leg paths of that shape (a
/// Giraffe's single steps before its slide) both take this form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BentPath {
    /// Step from the target outwards along the slide (the slide reversed).
    pub step: i16,
    /// The line of `step` in the plan ([`RayPlan`]), or [`NO_RAY`].
    pub ray: u8,
    /// The first step, from the attacker to the slide's first square.
    pub first: i16,
    /// Fewest slide steps.
    pub min: u16,
    /// Most slide steps.
    pub max: u16,
    /// Types that capture so.
    pub mask: u128,
}

/// The attack tables' lines, shared: per entry the index of the line it
/// walks from the target outwards (a distinct step that more than one
/// entry walks, at most [`MAX_RAYS`] of them). A scan finds where each
/// line first meets a piece (or the board's edge) once, and every entry
/// along it reads that instead of walking the line again (Frolov's game looks along each of 8 lines for
/// a ride, a hop and two bent riders).
#[derive(Clone, Debug, Default)]
pub struct RayPlan {
    /// Per entry of [`AttackTables::rides`]: its ray, or [`NO_RAY`].
    pub rides: Vec<u8>,
    /// Per entry of [`AttackTables::hops`]: the ray to its screen, or
    /// [`NO_RAY`].
    pub hops: Vec<u8>,
    /// Per entry of [`AttackTables::bents`]: the same path as a
    /// [`BentPath`].
    pub bents: Vec<BentPath>,
    /// Per entry of [`AttackTables::multi`]: the path as a [`BentPath`]
    /// when it has that shape (a single first step, then legs all along
    /// one step, every one but the last of a single step), else `None`.
    pub multi: Vec<Option<BentPath>>,
}

impl AttackTables {
    /// The entries that reach `offset` cells from the target (the
    /// attacker's cell minus the target's); none for an offset beyond
    /// the mailbox.
    #[inline(always)]
    pub fn from_offset(&self, offset: i32) -> FromOffset {
        let half = (self.by_offset.len() / 2) as i32;
        usize::try_from(offset + half)
            .ok()
            .and_then(|i| self.by_offset.get(i))
            .copied()
            .unwrap_or_default()
    }

    /// Can a piece of type `t`, `distance` cells away along either axis,
    /// capture on a square by a move the tables leave out?
    #[inline]
    pub fn within_full_reach(&self, t: u8, distance: u32) -> bool {
        self.full_reach
            .get(usize::from(t))
            .is_none_or(|&r| r == u8::MAX || distance <= u32::from(r))
    }
}
