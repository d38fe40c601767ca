//! The TOML form of a variant file, as serde reads it.
//!
//! A file is a table; `extends` names a built-in variant whose table is taken
//! first, then this file's keys are merged over it (tables merge key by key,
//! everything else is replaced). Options are named patches of the same kind:
//! choosing `KEY=VALUE` merges `options.KEY.values.VALUE` over the table, or,
//! for an option with `param`, sets that dotted key to the number given.

use super::tables::{BareKing, FenField, PromotionWhen, Verdict};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The whole file after `extends` and options are merged.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// Short name, as on the command line (`courier`).
    pub name: String,
    /// Human title.
    #[serde(default)]
    pub title: String,
    /// One paragraph for `kamil variants`.
    #[serde(default)]
    pub description: String,
    /// The rule book this file implements (`rules/courier.md`).
    #[serde(default)]
    pub rules_source: String,
    /// Built-in variant this one starts from.
    #[serde(default)]
    pub extends: Option<String>,
    /// Options of the `extends` base that this file keeps (by name); the
    /// base's other options are dropped, and an option this file states
    /// itself replaces the base's.
    #[serde(default)]
    pub inherit_options: Vec<String>,
    /// Board shape.
    pub board: BoardSpec,
    /// FEN conventions and the start position.
    pub fen: FenSpec,
    /// Piece types, keyed by a short lowercase name; order = type index.
    pub pieces: toml::Table,
    /// Promotion rules.
    #[serde(default)]
    pub promotion: PromotionSpec,
    /// Game rules: check, game end, castling, en passant.
    #[serde(default)]
    pub rules: RulesSpec,
    /// Named special-rule modules and their parameters.
    #[serde(default)]
    pub special: SpecialSpec,
    /// Options the rule book lists, each a patch over this table.
    #[serde(default)]
    pub options: BTreeMap<String, OptionSpec>,
}

/// `[board]`
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Columns of the grid, holes included (1..=16).
    pub files: u32,
    /// Rows of the grid (1..=16).
    pub ranks: u32,
    /// Cells of the grid that are not squares.
    #[serde(default)]
    pub holes: Vec<String>,
    /// One letter per file, if not `a`, `b`, ...
    #[serde(default)]
    pub file_names: Option<String>,
}

/// `[fen]`
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct FenSpec {
    /// The start position.
    pub start: String,
    /// Side-to-move letters: first player, second player.
    #[serde(default = "default_sides")]
    pub side_letters: [String; 2],
    /// Letters used by XBoard and Fairy-Stockfish when they differ from ours
    /// (shogi games: `w` is the first player there). A FEN with fields after
    /// the side-to-move field is read with these.
    #[serde(default)]
    pub xboard_side_letters: Option<[String; 2]>,
    /// Fields after the side to move, in order: `castling`, `ep`,
    /// `halfmove`, `fullmove`, `swap`, `frozen`.
    #[serde(default)]
    pub fields: Vec<FenField>,
}

fn yes() -> bool {
    true
}

fn default_sides() -> [String; 2] {
    ["w".to_string(), "b".to_string()]
}

/// One `[pieces.KEY]` table.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    /// Name as in the rule book.
    pub name: String,
    /// The rule book's ID (`DE`, `Kr`); defaults to the FEN token.
    #[serde(default)]
    pub id: Option<String>,
    /// The name written on a shogi piece (`獅子`), for boards that draw
    /// traditional pieces; a promoted form gives the name on its back.
    #[serde(default)]
    pub kanji: Option<String>,
    /// FEN token for the first player (upper case; the second player's is
    /// its lower case). Pieces that exist only promoted have none.
    #[serde(default)]
    pub letter: Option<String>,
    /// Movement in Betza notation.
    pub betza: String,
    /// Losing every royal piece loses the game; see `rules.check`.
    #[serde(default)]
    pub royal: bool,
    /// Value in centipawns, for evaluation and for material rules.
    #[serde(default)]
    pub value: Option<i32>,
    /// Chess-style promotion choices (piece keys).
    #[serde(default)]
    pub promotes_to: Vec<String>,
    /// Shogi-style promoted form (piece key), written `+` and this piece's token.
    #[serde(default)]
    pub promoted: Option<String>,
    /// A pawn: its moves reset the move-count rule and it can take and be
    /// taken en passant when `rules.en_passant` is on.
    #[serde(default)]
    pub pawn: bool,
    /// Squares (first player's, by name) from which `i` moves are allowed;
    /// default: where this piece stands in the start position. The second
    /// player's are the point reflection, unless `initial_squares_second`.
    #[serde(default)]
    pub initial_squares: Option<Vec<String>>,
    /// The second player's squares for `i` moves, by name, where they are
    /// not the point reflection of the first player's (Hiashatar's mirrored
    /// array: King's pawns on `e2` and `e9`).
    #[serde(default)]
    pub initial_squares_second: Option<Vec<String>>,
    /// After each later move of its owner this piece becomes that one
    /// (a Pawn waiting on the last rank, Albers 1824).
    #[serde(default)]
    pub ripens_to: Option<String>,
    /// Cannot be captured by anything (Tamerlane's parked pawn of pawns).
    #[serde(default)]
    pub immune: bool,
    /// Free text for help panels.
    #[serde(default)]
    pub description: String,
}

/// `[promotion]`
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct PromotionSpec {
    /// Depth of the promotion zone in ranks, counted from the far end.
    #[serde(default)]
    pub zone: u32,
    /// `chess` (default) or `shogi`.
    #[serde(default)]
    pub style: PromotionStyle,
    /// Shogi style: `start-or-end` (default, modern shogi), `end` (moves
    /// that end in the zone), or `chu` (entering the zone, or capturing
    /// from inside it).
    #[serde(default)]
    pub when: PromotionWhen,
    /// Shogi style: promotion is compulsory where the unpromoted piece could
    /// never move again.
    #[serde(default)]
    pub forced_if_dead: bool,
    /// Pieces that may promote on a non-capturing move to a square where
    /// they could never move again (Chu's Pawn relief).
    #[serde(default)]
    pub relief: Vec<String>,
    /// Chess style: promotion suffixes are not written in move text (a
    /// pawn with one fixed promotion, as in Tamerlane: `c9d10`). Text with
    /// the suffix is still read.
    #[serde(default)]
    pub silent: bool,
}

/// `promotion.style`: how a piece promotes.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PromotionStyle {
    /// Compulsory on entering the zone, a choice from `promotes_to`.
    #[default]
    Chess,
    /// Optional, to the piece's `promoted` form, `+` in move text; see
    /// `promotion.when`.
    Shogi,
}

/// `[rules]`
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct RulesSpec {
    /// `royal-safety` (default: a move may not leave the mover's only
    /// royal attacked) or `none` (royals are captured like other pieces).
    #[serde(default)]
    pub check: Check,
    /// With royal safety: when royals are counted, `after-move` (default,
    /// rule books) or `before-move` (Fairy-Stockfish: a Crown Prince made
    /// by the move does not yet relieve a King in check).
    #[serde(default)]
    pub royal_count: RoyalCount,
    /// Result for the side to move with no legal move and not in check:
    /// `loss`, `draw` (default) or `win`.
    #[serde(default)]
    pub stalemate: Verdict,
    /// `none` (default), `shatranj` (bared side loses unless it bares back
    /// at once), `draw` (a bared King draws at once), `shogi` (Chu and Dai
    /// Shogi: a single lone royal loses against a royal and a counted
    /// piece).
    #[serde(default)]
    pub bare_king: BareKing,
    /// With `bare_king = "shogi"`: piece keys that do not count as the
    /// opponent's further piece (Chu: unpromoted Pawn and Go-Between).
    #[serde(default)]
    pub bare_king_uncounted: Vec<String>,
    /// N-fold repetition ends the game (0 = off).
    #[serde(default)]
    pub repetition: u32,
    /// With repetition: the side that checked on every move loses.
    #[serde(default)]
    pub perpetual_check_loses: bool,
    /// A move that recreates an earlier position with the same side to move
    /// is illegal unless the mover had a royal attacked before it.
    #[serde(default)]
    pub repetition_forbidden: bool,
    /// Plies without capture or pawn move that draw (0 = off).
    #[serde(default)]
    pub move_rule: u32,
    /// Plies after which the game is drawn (0 = off).
    #[serde(default)]
    pub max_plies: u32,
    /// Pawns that make an initial multi-square step can be taken en passant.
    #[serde(default)]
    pub en_passant: bool,
    /// Piece keys X such that King and X against a lone King is a draw by
    /// insufficient material (King against King too); empty = no such rule.
    #[serde(default)]
    pub insufficient_material: Vec<String>,
    /// Castling, if any.
    #[serde(default)]
    pub castling: Option<CastlingSpec>,
}

/// `rules.check`: what attacks on royals mean.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// A move may not leave the mover's only royal attacked.
    #[default]
    RoyalSafety,
    /// Royals are captured like other pieces.
    None,
}

/// `rules.royal_count`: when royals are counted for royal safety.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RoyalCount {
    /// After the move, as the rule books do.
    #[default]
    AfterMove,
    /// Before the move, as Fairy-Stockfish does.
    BeforeMove,
}

/// `[rules.castling]`
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CastlingSpec {
    /// Off: the game has no castling (an option may switch it on).
    #[serde(default = "yes")]
    pub enabled: bool,
    /// The first player's King square (the second player's is the mirror
    /// image on the last rank, same file, unless `king_second` is given).
    pub king: String,
    /// The second player's King square.
    #[serde(default)]
    pub king_second: Option<String>,
    /// The first player's Rook squares: queen side (lower file), king side.
    pub rooks: [String; 2],
    /// The second player's Rook squares, if not on the King's rank mirror.
    #[serde(default)]
    pub rooks_second: Option<[String; 2]>,
    /// How far the King moves, in files (one castling move per entry).
    pub distances: Vec<u32>,
}

/// `[special]`: named modules for rules that Betza cannot say.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct SpecialSpec {
    /// Courier's prescribed opening advances, played as one compound turn.
    #[serde(default)]
    pub compulsory_opening: Option<CompulsoryOpeningSpec>,
    /// A pawn on the last rank promotes only some turns later (Albers 1824).
    #[serde(default)]
    pub delayed_promotion: Option<DelayedPromotionSpec>,
    /// Chu Shogi's Lion-trading rules (rules/chu-shogi.md 6.4).
    #[serde(default)]
    pub lion_trading: Option<LionTradingSpec>,
    /// Hiashatar's Bodyguard zones (rules/hiashatar.md 5.1-5.2).
    #[serde(default)]
    pub bodyguard: Option<BodyguardSpec>,
    /// Savard's jumping Checker (rules/ordinary-variant.md 5.1-5.5).
    #[serde(default)]
    pub checker: Option<CheckerSpec>,
    /// Savard's Dynamic Scoring (rules/ordinary-variant.md 7).
    #[serde(default)]
    pub dynamic_scoring: Option<DynamicScoringSpec>,
    /// Citadels: squares only some pieces may enter (rules/tamerlane.md 5.5).
    #[serde(default)]
    pub citadel: Option<CitadelSpec>,
    /// Tamerlane's pawn of pawns (rules/tamerlane.md 5.2).
    #[serde(default)]
    pub pawn_of_pawns: Option<PawnOfPawnsSpec>,
    /// Tamerlane's once-per-game King swap (rules/tamerlane.md 5.4).
    #[serde(default)]
    pub king_swap: Option<KingSwapSpec>,
    /// Capture promotion of the capturer (rules/frolov-10x10.md 5.4-5.5).
    #[serde(default)]
    pub capture_promotion: Option<CapturePromotionSpec>,
    /// Promotion to the opponent's pieces (rules/frolov-10x10.md 5.3).
    #[serde(default)]
    pub hostile_promotion: Option<HostilePromotionSpec>,
    /// A King on an enemy citadel wins (rules/frolov-10x10.md B15).
    #[serde(default)]
    pub citadel_win: Option<CitadelWinSpec>,
    /// Endings other than wins decided by a material count
    /// (rules/frolov-10x10.md 7.1).
    #[serde(default)]
    pub material_points: Option<MaterialPointsSpec>,
}

/// `[special.citadel]`: squares beside the board that only named pieces
/// may enter, compiled into [`crate::special::citadel::Citadels`]
/// (rules/tamerlane.md 5.5).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CitadelSpec {
    /// The first player's citadels (square names).
    pub first: Vec<String>,
    /// The second player's citadels.
    pub second: Vec<String>,
    /// Piece keys that may step into their own side's citadel.
    #[serde(default)]
    pub enter_own: Vec<String>,
    /// Piece keys that may step into the opponent's citadel.
    #[serde(default)]
    pub enter_enemy: Vec<String>,
    /// A piece on a citadel cannot be captured, and the square is never
    /// attacked.
    #[serde(default = "yes")]
    pub sanctuary: bool,
    /// What a piece of `enter_enemy` entering the opponent's citadel does:
    /// `none`, `draw` (the game ends drawn) or `draw-unless-swap` (drawn
    /// unless, in the same move, it trades places with a piece of
    /// `swap_with`).
    #[serde(default)]
    pub entry: CitadelEntry,
    /// With `draw-unless-swap`: piece keys the entering piece may trade
    /// places with.
    #[serde(default)]
    pub swap_with: Vec<String>,
}

/// `special.citadel.entry`: what entering the opponent's citadel does
/// (rules/tamerlane.md 5.5).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CitadelEntry {
    /// Nothing (default).
    #[default]
    None,
    /// The game ends drawn.
    Draw,
    /// Drawn unless the entering piece trades places with a piece of
    /// `swap_with` in the same move.
    DrawUnlessSwap,
}

/// `[special.pawn_of_pawns]`: the stages of Tamerlane's pawn of pawns
/// (rules/tamerlane.md 5.2), each a piece key; compiled into
/// [`crate::special::pawn_of_pawns::PawnOfPawns`].
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PawnOfPawnsSpec {
    /// Stage 1: parked on the last rank, immobile; may relocate (`PX`).
    pub parked: String,
    /// Stage 2: relocated, a mobile pawn (`PY`).
    pub relocated: String,
    /// Stage 2, waiting on the last rank for the transfer square (`PV`);
    /// three-stage rules only.
    #[serde(default)]
    pub waiting: Option<String>,
    /// Stage 3: transferred to the pawn-of-kings start square (`PZ`);
    /// three-stage rules only.
    #[serde(default)]
    pub transferred: Option<String>,
    /// The first player's transfer square (the pawn of kings' start
    /// square); the second player's is its point reflection.
    #[serde(default)]
    pub transfer: Option<String>,
    /// 3 (default: relocated -> waiting / transferred -> Adventitious King,
    /// seed 003) or 2 (relocated -> Adventitious King at once, seed 000;
    /// `waiting`, `transferred` and `transfer` are then not used).
    #[serde(default = "three")]
    pub stages: u32,
    /// What the relocation square may hold besides nothing: `any` (any
    /// piece of either side but a royal or a parked pawn of pawns, removed;
    /// seed 003) or `enemy` (an enemy piece, captured; seed 000).
    #[serde(default)]
    pub relocation: PawnRelocation,
}

fn three() -> u32 {
    3
}

/// `special.pawn_of_pawns.relocation`: what the relocation square may hold
/// besides nothing (rules/tamerlane.md 5.2).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PawnRelocation {
    /// Any piece but a royal or a parked pawn of pawns, removed (default).
    #[default]
    Any,
    /// An enemy piece, captured.
    Enemy,
}

/// `[special.king_swap]`: rules/tamerlane.md 5.4, compiled into
/// [`crate::special::king_swap::KingSwap`].
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct KingSwapSpec {
    /// The piece key of the King.
    pub king: String,
    /// Piece keys that may not be the partner (parked pawns of pawns).
    #[serde(default)]
    pub not_with: Vec<String>,
    /// When swaps exist: `check-or-stalemate`, `mated-only` or `check-only`.
    #[serde(default)]
    pub trigger: SwapTrigger,
}

/// `special.king_swap.trigger`: when swaps exist (rules/tamerlane.md 5.4).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SwapTrigger {
    /// While the King is attacked, or when there is no other legal move
    /// (default).
    #[default]
    CheckOrStalemate,
    /// Only when there is no other legal move.
    MatedOnly,
    /// Only while the King is attacked.
    CheckOnly,
}

/// `[special.material_points]`: the move-count rule, repetition and other
/// endings that would be draws are decided by the pieces' points
/// (rules/frolov-10x10.md 7.1).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct MaterialPointsSpec {
    /// Piece key -> points, whole or half (`1`, `2.5`); pieces not listed
    /// count 0.
    pub values: BTreeMap<String, f64>,
    /// Points the second player adds (`0.5`).
    #[serde(default)]
    pub second_player: f64,
}

/// `[special.capture_promotion]`: Frolov's capture promotion
/// (rules/frolov-10x10.md 5.4-5.5, B7-B9), compiled into
/// [`crate::special::capture_promotion::CapturePromotion`].
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CapturePromotionSpec {
    /// Piece keys of the special pieces; every other non-royal piece is
    /// ordinary.
    pub special: Vec<String>,
    /// Ordinary piece key -> its compound (the 5.4 table).
    pub compounds: BTreeMap<String, String>,
    /// The 5.5 upgrade: `optional` (default) or `compulsory` (B8).
    #[serde(default)]
    pub bonus: CaptureBonus,
    /// A capturer promoting on the last rank: `compound-first` (default:
    /// it is its compound by then and uses the compound's promotion list)
    /// or `promotion-first` (its own list, no compound; B7).
    #[serde(default)]
    pub last_rank: LastRank,
    /// The only-special win: `on-capture` (default: tested after a 5.5
    /// capture, for the capturer) or `anytime` (B9).
    #[serde(default)]
    pub only_special: OnlySpecial,
}

/// `special.capture_promotion.bonus`: the 5.5 upgrade (rules/frolov-10x10.md
/// 5.5, B8).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureBonus {
    /// The capturer may take it (default).
    #[default]
    Optional,
    /// It must be taken when possible.
    Compulsory,
}

/// `special.capture_promotion.last_rank`: a capturer promoting on the last
/// rank (rules/frolov-10x10.md B7).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LastRank {
    /// It is its compound by then and uses the compound's list (default).
    #[default]
    CompoundFirst,
    /// It uses its own list and does not become its compound.
    PromotionFirst,
}

/// `special.capture_promotion.only_special`: when the only-special win is
/// tested (rules/frolov-10x10.md B9).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum OnlySpecial {
    /// After a 5.5 capture, for the capturer (default).
    #[default]
    OnCapture,
    /// At any time.
    Anytime,
}

/// `[special.hostile_promotion]`: promotion to pieces of the opponent
/// (rules/frolov-10x10.md 5.3).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct HostilePromotionSpec {
    /// Piece keys that a promotion gives to the opponent.
    pub pieces: Vec<String>,
    /// The opponent may not move the new piece on his next turn, and it
    /// attacks nothing meanwhile (default on).
    #[serde(default = "yes")]
    pub freeze: bool,
    /// The promoting player puts the new piece on any empty square.
    #[serde(default)]
    pub drop: bool,
}

/// `[special.citadel_win]`: a King standing on an enemy citadel, not
/// attacked, wins (rules/frolov-10x10.md B15).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CitadelWinSpec {
    /// The first player's citadels; the second player's are their point
    /// reflections.
    pub squares: Vec<String>,
}

/// `[special.bodyguard]`: Hiashatar's Bodyguard (rules/hiashatar.md
/// 5.1-5.2), compiled into [`crate::special::bodyguard::Bodyguard`].
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct BodyguardSpec {
    /// Piece keys of the Bodyguards: they give no check, never take a King,
    /// and restrict pieces next to them.
    pub guards: Vec<String>,
    /// Piece keys of the pieces that ignore zones (`knight`).
    #[serde(default)]
    pub immune: Vec<String>,
    /// Whose pieces a zone restricts: `enemy` (default) or `all` (both
    /// sides; a Bodyguard is not restricted by its own zone).
    #[serde(default)]
    pub affects: BodyguardAffects,
    /// `stop-and-step` (default: a piece next to an enemy Bodyguard moves one
    /// square, and a move that enters a zone square ends there) or
    /// `step-only` (only the first of those).
    #[serde(default)]
    pub zone: BodyguardZone,
}

/// `special.bodyguard.affects`: whose pieces a zone restricts
/// (rules/hiashatar.md 5.1).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BodyguardAffects {
    /// The opponent's pieces (default).
    #[default]
    Enemy,
    /// Both sides' pieces.
    All,
}

/// `special.bodyguard.zone`: which zone rules hold (rules/hiashatar.md 5.1).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BodyguardZone {
    /// The step rule and the stop rule (default).
    #[default]
    StopAndStep,
    /// The step rule only.
    StepOnly,
}

/// `[special.checker]`: the Checker of the Ordinary Variant
/// (rules/ordinary-variant.md 5.1-5.5), compiled into
/// [`crate::special::checker::CheckerRules`]. The flags are the rule book's
/// alternatives (section 6), all off by default.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CheckerSpec {
    /// Piece key of the Checker (its steps are its Betza, `mK`).
    pub piece: String,
    /// A4: only a first capture of the exposed Checker meets the duty.
    #[serde(default)]
    pub duty_first_capture: bool,
    /// A6: forced continuation whether or not it can end legally.
    #[serde(default)]
    pub force_geometric: bool,
    /// A7: no forced continuation after a friendly jump.
    #[serde(default)]
    pub force_after_capture_only: bool,
    /// A8: friendly and capturing jumps in any order.
    #[serde(default)]
    pub jumps_any_order: bool,
    /// A9: landing squares may repeat.
    #[serde(default)]
    pub revisit_allowed: bool,
    /// A10: jumped enemies are removed when the move ends.
    #[serde(default)]
    pub remove_at_end: bool,
    /// A11: the en passant jump may come at any step of a series.
    #[serde(default)]
    pub ep_any_step: bool,
    /// A12: only a direct first jump gives check.
    #[serde(default)]
    pub check_single_jump: bool,
}

/// `[special.dynamic_scoring]` (rules/ordinary-variant.md 7, A15-A17),
/// compiled into [`crate::special::dynamic_scoring::DynamicScoring`].
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct DynamicScoringSpec {
    /// `classic` (default), `simple` or `tiebreaker`.
    #[serde(default)]
    pub schedule: ScoringSchedule,
    /// `claimed` (default) or `auto`.
    #[serde(default)]
    pub bare_king: ScoringBareKing,
    /// Checks in a row that are perpetual check; 0 (default): a threefold
    /// repetition in which every move of one player gave check.
    #[serde(default)]
    pub perpetual_checks: u32,
}

/// `special.dynamic_scoring.schedule`: the points schedule
/// (rules/ordinary-variant.md 7, A15).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringSchedule {
    /// The inventor's schedule (default).
    #[default]
    Classic,
    /// The inventor's simplification.
    Simple,
    /// Tiebreaker Chess's schedule.
    Tiebreaker,
}

/// `special.dynamic_scoring.bare_king`: how the bare-King result comes
/// about (rules/ordinary-variant.md A16).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringBareKing {
    /// Claimed by the player to move (default).
    #[default]
    Claimed,
    /// The game ends as soon as a King is bare.
    Auto,
}

/// `[special.lion_trading]`: the Lion-trading rules of Chu Shogi
/// (rules/chu-shogi.md 6.4, A3-A5), compiled into
/// [`crate::special::lion::LionTrading`].
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct LionTradingSpec {
    /// Piece keys of the Lions (`lion`, `promoted-kirin`).
    pub lions: Vec<String>,
    /// Piece keys of the pawn-like pieces: no bridge for LT2, and protectors
    /// even when taken on the intermediate square (`pawn`, `go-between`).
    #[serde(default)]
    pub pawn_like: Vec<String>,
    /// `modern` (LT1, LT2 with bridge and Pawn/Go-Between clause, LT3),
    /// `seed` (LT1 and LT2 only, no bridge, no clause, no LT3) or `off`.
    #[serde(default)]
    pub mode: LionMode,
    /// Who protects a distant Lion: `jcsa` (default) or `recapture` (A4).
    #[serde(default)]
    pub protection: LionProtection,
    /// LT3 scope: `strict` (default), `okazaki`, `everywhere`,
    /// `final-square-only` or `off` (A5).
    #[serde(default)]
    pub counterstrike: LionCounterstrike,
}

/// `special.lion_trading.mode`: which Lion-trading rules hold
/// (rules/chu-shogi.md 6.4).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LionMode {
    /// LT1, LT2 with bridge and the Pawn/Go-Between clause, LT3 (default).
    #[default]
    Modern,
    /// LT1 and LT2 only: no bridge, no clause, no LT3.
    Seed,
    /// No Lion-trading rule.
    Off,
}

/// `special.lion_trading.protection`: who protects a distant Lion
/// (rules/chu-shogi.md 6.4 LT2, A4).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LionProtection {
    /// The JCSA reading (default).
    #[default]
    Jcsa,
    /// Only pieces still on the board after the move.
    Recapture,
}

/// `special.lion_trading.counterstrike`: the scope of LT3
/// (rules/chu-shogi.md 6.4, A5).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum LionCounterstrike {
    /// Every Lion capture by a non-Lion is banned, but on the square of
    /// the own Lion just taken (default).
    #[default]
    Strict,
    /// Only a protected Lion is off limits.
    Okazaki,
    /// As strict, without the exception.
    Everywhere,
    /// As strict, only the move's final square checked.
    FinalSquareOnly,
    /// No counter-strike rule.
    Off,
}

/// `[special.compulsory_opening]`
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CompulsoryOpeningSpec {
    /// The first player's advances, in order (`a2a4`); the second player's
    /// are the mirror images across the middle rank.
    pub moves: Vec<String>,
}

/// `[special.delayed_promotion]`
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct DelayedPromotionSpec {
    /// Own turns the Pawn waits on the last rank before it is promoted.
    pub turns: u32,
}

/// `[options.NAME]`
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct OptionSpec {
    /// The player's name for the option (`Check rule`); the key when empty.
    #[serde(default)]
    pub label: String,
    /// What the option does, in one line of plain words for a player: no
    /// keys, sources or section numbers (those belong in `description`).
    #[serde(default)]
    pub summary: String,
    /// The player's name for each value (`loss = "loses"`); a value not
    /// named here shows as itself (`false` and `true` as `no` and `yes`).
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// What the option does, with its source and the rule book section:
    /// the details behind the label and summary.
    #[serde(default)]
    pub description: String,
    /// Value when not given.
    pub default: String,
    /// Patch per value.
    #[serde(default)]
    pub values: BTreeMap<String, toml::Table>,
    /// For numeric options: the dotted key the number is written to.
    #[serde(default)]
    pub param: Option<String>,
}
