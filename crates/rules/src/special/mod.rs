//! Rules that Betza cannot say, one module per rule family. [`Specials`]
//! holds each family's compiled data and is the only way in: the generator,
//! position and outcome call its hooks, never a family. The families see a
//! position through `crate::board::Board`, so none of them imports the
//! layers that call them (ARCHITECTURE.md).

pub mod bodyguard;
pub mod capabilities;
pub mod capture_promotion;
pub mod checker;
pub mod citadel;
pub mod citadel_win;
pub mod dynamic_scoring;
pub mod hostile_promotion;
pub mod king_swap;
pub mod lion;
pub mod material_points;
pub mod pawn_of_pawns;

use crate::board::Board;
use crate::geometry::Square;
use crate::leaps::{AttackBounds, leaps_and_rides};
use crate::moves::{Move, MoveKind};
use crate::outcome::kinds::{Outcome, Reason};
use crate::piece::{Moveset, Piece, PieceType, Side};
use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{CompulsoryOpeningSpec, SpecialSpec};
use crate::variant::tables::CompulsoryOpening;
pub use bodyguard::Guards;

/// The special-rule families a variant has in force, each compiled from its
/// part of the variant file. The only type that names every family.
#[derive(Clone, Debug, Default)]
pub struct Specials {
    /// Compulsory opening turn, if any (Courier `courier-opening=explicit`).
    pub compulsory_opening: Option<CompulsoryOpening>,
    /// Chu Shogi's Lion-trading rules (rules/chu-shogi.md 6.4), if in force.
    pub lion_trading: Option<lion::LionTrading>,
    /// Hiashatar's Bodyguard zones (rules/hiashatar.md 5.1-5.2), if in force.
    pub bodyguard: Option<bodyguard::Bodyguard>,
    /// The Ordinary Variant's Checker (rules/ordinary-variant.md 5.1-5.5).
    pub checker: Option<checker::CheckerRules>,
    /// Dynamic Scoring (rules/ordinary-variant.md 7): every ending in points.
    pub dynamic_scoring: Option<dynamic_scoring::DynamicScoring>,
    /// Citadels (rules/tamerlane.md 5.5), if the board has them.
    pub citadels: Option<citadel::Citadels>,
    /// Tamerlane's pawn of pawns (rules/tamerlane.md 5.2), if in the game.
    pub pawn_of_pawns: Option<pawn_of_pawns::PawnOfPawns>,
    /// Tamerlane's King swap (rules/tamerlane.md 5.4), if in the game.
    pub king_swap: Option<king_swap::KingSwap>,
    /// Frolov's capture promotion (rules/frolov-10x10.md 5.4-5.5), if in force.
    pub capture_promotion: Option<capture_promotion::CapturePromotion>,
    /// Promotion to the opponent's pieces (rules/frolov-10x10.md 5.3), if any.
    pub hostile_promotion: Option<hostile_promotion::HostilePromotion>,
    /// Frolov's optional citadel win (rules/frolov-10x10.md B15), if in force.
    pub citadel_win: Option<citadel_win::CitadelWin>,
    /// Endings decided by a material count (rules/frolov-10x10.md 7.1), if any.
    pub material_points: Option<material_points::MaterialPoints>,
}

impl Specials {
    // ---- Generation ----

    /// The compulsory opening move of `side` (rules/courier.md), if the
    /// variant has one: its first advance names the whole turn.
    #[inline]
    pub fn opening_move(&self, side: Side) -> Option<Move> {
        let (a, b) = *self.compulsory_opening.as_ref()?.moves[side.index()].first()?;
        let mut m = Move::new(a, b);
        m.kind = MoveKind::Opening;
        Some(m)
    }

    /// Does the variant have a compulsory opening turn (Courier
    /// `courier-opening=explicit`)?
    #[inline]
    pub fn has_compulsory_opening(&self) -> bool {
        self.compulsory_opening.is_some()
    }

    /// Do Kings swap places with a friendly piece (Tamerlane, rules/tamerlane.md
    /// 5.4): the position keeps the unused swap rights?
    #[inline]
    pub fn swaps_kings(&self) -> bool {
        self.king_swap.is_some()
    }

    /// The advances of `side`'s compulsory opening turn, in order (empty
    /// without one).
    #[inline]
    pub fn opening_advances(&self, side: Side) -> &[(Square, Square)] {
        self.compulsory_opening
            .as_ref()
            .map_or(&[][..], |op| &op.moves[side.index()][..])
    }

    /// Where each side's Bodyguards stand (none without the family): found
    /// once per generation call and handed to [`Specials::bounded_moves`].
    #[inline]
    pub fn guards<B: Board>(&self, pos: &B) -> Guards {
        Guards::of(self.bodyguard.as_ref(), pos)
    }

    /// The leaps and slides of `p` on `sq` under a family's bounds
    /// (Hiashatar's zones, rules/hiashatar.md 5.1-5.2), appended to `out`
    /// by the generic loops (`crate::leaps`); `false` (nothing appended)
    /// where no family bounds `p`, so the caller runs them unbounded.
    /// `initial`, `promotable`, `QUIET` as in the generator.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn bounded_moves<B: Board, const QUIET: bool>(
        &self,
        guards: &Guards,
        pos: &B,
        ms: &Moveset,
        sq: Square,
        p: Piece,
        initial: bool,
        promotable: bool,
        out: &mut Vec<Move>,
    ) -> bool {
        let Some(bg) = &self.bodyguard else {
            return false;
        };
        let Some(zone) = bodyguard::ZoneBounds::of(bg, guards, pos.core(), sq, p) else {
            return false;
        };
        leaps_and_rides::<B, _, QUIET>(pos, pos.core(), ms, sq, p, initial, promotable, &zone, out);
        true
    }

    /// After one piece's moves `out[start..]` were generated: the drop
    /// squares of hostile promotions (rules/frolov-10x10.md 5.3), then the
    /// upgrade choices and compound promotion lists (5.4-5.5).
    #[inline(always)]
    pub fn expand_piece_moves<B: Board>(&self, pos: &B, start: usize, out: &mut Vec<Move>) {
        if let Some(hp) = &self.hostile_promotion {
            hostile_promotion::expand_drops(pos, hp, start, out);
        }
        if let Some(cp) = &self.capture_promotion {
            capture_promotion::expand(pos, cp, start, out);
        }
    }

    /// The families' say on the moves `out[start..]` of the piece `p`: no
    /// capture of an immune piece, citadels entered only as allowed
    /// (rules/tamerlane.md 5.5), the pawn of pawns' second arrival (5.2).
    pub fn restrict_piece_moves<B: Board>(
        &self,
        pos: &B,
        p: Piece,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let immune_types = pos.core().immune;
        if immune_types != 0 {
            let immune = |sq: Square| {
                let c = pos.at(sq);
                c.is_piece() && immune_types & (1u128 << c.kind()) != 0
            };
            let mut k = start;
            for i in start..out.len() {
                let m = out[i];
                if !((m.to != m.from && immune(m.to)) || (m.via_capture && immune(m.via))) {
                    out[k] = m;
                    k += 1;
                }
            }
            out.truncate(k);
        }
        if let Some(c) = &self.citadels {
            c.restrict(pos, p, out, start);
        }
        if let Some(pop) = &self.pawn_of_pawns
            && p.kind() == pop.relocated
        {
            pawn_of_pawns::rewrite_arrival(pop, pos, p, out, start);
        }
    }

    /// Moves of the side to move that belong to no single piece's movement:
    /// the pawn of pawns' relocations and transfers (rules/tamerlane.md 5.2)
    /// and the King swap in check (5.4). Pseudo-legal.
    #[inline]
    pub fn extra_moves<B: Board>(&self, pos: &B, out: &mut Vec<Move>) {
        if let Some(pop) = &self.pawn_of_pawns {
            pawn_of_pawns::moves(pop, self.citadels.as_ref(), pos, out);
        }
        if let Some(ks) = &self.king_swap {
            king_swap::pseudo(ks, self.citadels.as_ref(), pos, out);
        }
    }

    /// The noisy moves of [`Specials::extra_moves`]: relocations and
    /// transfers change the pawn of pawns' stage, so count as promotions.
    #[inline]
    pub fn extra_noisy_moves<B: Board>(&self, pos: &B, out: &mut Vec<Move>) {
        if let Some(pop) = &self.pawn_of_pawns {
            pawn_of_pawns::moves(pop, self.citadels.as_ref(), pos, out);
        }
    }

    /// Does a family generate move series of its own (the Checker's)?
    #[inline(always)]
    pub fn has_series(&self) -> bool {
        self.checker.is_some()
    }

    /// The Checker series (rules/ordinary-variant.md 5.1-5.5) of the piece
    /// on `sq`, pseudo-legal; with `captures_only`, those that take.
    #[inline]
    pub fn series_moves<B: Board>(
        &self,
        pos: &B,
        sq: Square,
        captures_only: bool,
        out: &mut Vec<Move>,
    ) {
        let Some(ck) = &self.checker else { return };
        if pos.at(sq).kind() != ck.kind {
            return;
        }
        let start = out.len();
        checker::series(ck, pos, sq, out);
        if captures_only {
            let mut k = start;
            for i in start..out.len() {
                if checker::captures(ck, pos, &out[i]).0 != 0 {
                    out[k] = out[i];
                    k += 1;
                }
            }
            out.truncate(k);
        }
    }

    /// Moves the side to move has only when it has no other legal move
    /// (Tamerlane's King swap when stalemated or mated, rules/tamerlane.md
    /// 5.4). Pseudo-legal.
    #[inline]
    pub fn fallback_moves<B: Board>(&self, pos: &B, out: &mut Vec<Move>) {
        if let Some(ks) = &self.king_swap {
            king_swap::fallback(ks, self.citadels.as_ref(), pos, out);
        }
    }

    /// The legal Checker series of the side to move (their King safety and
    /// forced continuation applied, rules/ordinary-variant.md 5.3).
    #[inline]
    pub fn legal_series<B: Board>(&self, pos: &mut B, out: &mut Vec<Move>) {
        if let Some(ck) = &self.checker {
            checker::legal_series_all(ck, pos, out);
        }
    }

    /// The families' filter on the legal moves `out[start..]`: the
    /// compulsory Checker capture (rules/ordinary-variant.md 5.4).
    #[inline]
    pub fn filter_legal<B: Board>(&self, pos: &mut B, out: &mut Vec<Move>, start: usize) {
        if let Some(ck) = &self.checker {
            checker::filter(ck, pos, out, start);
        }
    }

    // ---- Attacks ----

    /// Is `target` a square where nothing can be attacked (a citadel,
    /// rules/tamerlane.md 5.5)?
    #[inline(always)]
    pub fn is_sanctuary(&self, target: Square) -> bool {
        self.citadels
            .as_ref()
            .is_some_and(|c| c.is_sanctuary(target))
    }

    /// The bounds a family puts on the attackers of `by` (Hiashatar:
    /// Bodyguards give no check and zones bound the others, 5.1-5.2), for
    /// the generic attack test; `None` where attacks are unbounded.
    #[inline(always)]
    pub fn attack_bounds<'a, B: Board>(
        &'a self,
        pos: &'a B,
        by: Side,
    ) -> Option<impl AttackBounds + 'a> {
        self.bodyguard
            .as_ref()
            .map(|bg| bodyguard::AttackZones::of(bg, pos, by))
    }

    /// Attacks the attack tables cannot see: a Checker's jump series
    /// (rules/ordinary-variant.md 5.2).
    #[inline(always)]
    pub fn extra_attack<B: Board>(&self, pos: &B, target: Square, by: Side) -> bool {
        self.checker
            .as_ref()
            .is_some_and(|ck| checker::attacks(ck, pos, target, by))
    }

    // ---- Legality ----

    /// Before the move: must `m` be made to be judged by a family (it takes
    /// a Lion under the trading rules, relocates a pawn of pawns, or, with
    /// `safety`, moves or takes a Bodyguard)?
    #[inline(always)]
    pub fn needs_trial<B: Board>(&self, pos: &B, m: &Move, safety: bool) -> bool {
        if let Some(lt) = &self.lion_trading
            && lion::captures_lion(lt, pos, *m)
        {
            return true;
        }
        if m.kind == MoveKind::Relocate {
            return true;
        }
        safety
            && self
                .bodyguard
                .as_ref()
                .is_some_and(|bg| bodyguard::may_expose(bg, pos, m))
    }

    /// After a move was made: does a family forbid it by looking at the
    /// board (Chu's Lion trading, rules/chu-shogi.md 6.4)?
    #[inline]
    pub fn forbids<B: Board>(&self, pos: &B) -> bool {
        self.lion_trading
            .as_ref()
            .is_some_and(|lt| lion::violated(lt, pos))
    }

    /// After a move was made: must a family try the opponent's replies to
    /// judge it ([`Specials::forbids_after_trial`])? Only a relocation of
    /// the pawn of pawns (rules/tamerlane.md 5.2).
    #[inline(always)]
    pub fn needs_reply_trial<B: Board>(&self, pos: &B) -> bool {
        self.pawn_of_pawns.is_some()
            && pos
                .last_move()
                .is_some_and(|m| m.kind == MoveKind::Relocate)
    }

    /// After a move for which [`Specials::needs_reply_trial`] said yes:
    /// does the family forbid it (a relocation that neither forks nor
    /// traps, rules/tamerlane.md 5.2)? The position is the same afterwards.
    pub fn forbids_after_trial<B: Board>(&self, pos: &mut B) -> bool {
        self.needs_reply_trial(pos) && !pawn_of_pawns::relocation_holds(self.citadels.as_ref(), pos)
    }

    /// Before the move: do the families allow `m` (royal safety aside)?
    /// Makes and unmakes `m` only when it takes a Lion under the trading
    /// rules or relocates a pawn of pawns.
    pub fn allows<B: Board>(&self, pos: &mut B, m: Move) -> bool {
        if m.kind == MoveKind::Relocate {
            pos.make(m);
            let ok = pawn_of_pawns::relocation_holds(self.citadels.as_ref(), pos);
            pos.unmake();
            return ok;
        }
        let Some(lt) = &self.lion_trading else {
            return true;
        };
        if !lion::captures_lion(lt, pos, m) {
            return true;
        }
        pos.make(m);
        let bad = lion::violated(lt, pos);
        pos.unmake();
        !bad
    }

    /// Is the side to move under Chu's counter-strike rule (6.4 LT3): did
    /// the last move take one of its Lions with a non-Lion?
    pub fn counterstrike_pending<B: Board>(&self, pos: &B) -> bool {
        self.lion_trading
            .as_ref()
            .is_some_and(|lt| lion::counterstrike_pending(lt, pos))
    }

    /// The square where the last move took a Lion of the side to move with
    /// a non-Lion (6.4 LT3; the last such square), or `None`, also where no
    /// Lion-trading rule is in force: SFEN's third field in Chu Shogi.
    pub fn lion_strike<B: Board>(&self, pos: &B) -> Option<Square> {
        lion::strike_square(self.lion_trading.as_ref()?, pos)
    }

    /// The pieces of a Lion capture recorded before a position's history
    /// (an SFEN's third field in Chu Shogi): a non-Lion of the side that
    /// just moved (`on_square`, the piece on the capture square, if it is
    /// one) and a Lion of `to_move`. `None` where no Lion-trading rule is
    /// in force.
    pub fn strike_pieces(&self, to_move: Side, on_square: Piece) -> Option<(Piece, Piece)> {
        Some(lion::strike_pieces(
            self.lion_trading.as_ref()?,
            to_move,
            on_square,
        ))
    }

    // ---- Make ----

    /// Who owns the piece a promotion to `t` by a piece of `mover` creates,
    /// and where it stands: the mover on `m.to`, or the opponent on the
    /// promotion or drop square (rules/frolov-10x10.md 5.3).
    #[inline(always)]
    pub fn promoted_placement(&self, m: Move, t: PieceType, mover: Side) -> (Side, Square) {
        match &self.hostile_promotion {
            Some(hp) if hp.is_hostile(t) => (mover.flip(), hostile_promotion::placed_square(hp, m)),
            _ => (mover, m.to),
        }
    }

    /// The piece the opponent may not move on its next turn after `m`
    /// (a hostile piece just made, rules/frolov-10x10.md 5.3): `Some(square
    /// or NONE)` where the rule is in force, `None` where no family freezes.
    #[inline(always)]
    pub fn frozen_after(&self, m: Move) -> Option<Square> {
        let hp = self.hostile_promotion.as_ref()?;
        Some(match m.promotion() {
            Some(t) if hp.freeze && hp.is_hostile(t) => hostile_promotion::placed_square(hp, m),
            _ => Square::NONE,
        })
    }

    /// In make, after the move's captures and promotion: the piece that
    /// changes type (Frolov's capture promotion, 5.4-5.6), as (square, new
    /// piece). `moved` is the piece that moved, `taken` what it captured.
    #[inline(always)]
    pub fn transformation<B: Board>(
        &self,
        pos: &B,
        m: Move,
        moved: Piece,
        taken: &[(Square, Piece)],
    ) -> Option<(Square, Piece)> {
        let cp = self.capture_promotion.as_ref()?;
        capture_promotion::changes(cp, pos, m, moved, taken)
    }

    /// The families' part of the hash of the state the move `back` plies
    /// before the last one left (Chu's counter-strike state, 6.4 LT3): 0
    /// where no family keeps state.
    #[inline(always)]
    pub fn state_key<B: Board>(&self, pos: &B, back: usize) -> u64 {
        self.lion_trading
            .as_ref()
            .map_or(0, |lt| lion::state_key(lt, pos, back))
    }

    /// Calls `f(jumped, landed)` for each leg of the Checker series `m`
    /// (nothing without the family).
    #[inline]
    pub fn for_each_series_leg(&self, m: &Move, f: impl FnMut(Square, Square)) {
        if let Some(ck) = &self.checker {
            checker::for_each_leg(ck, m, f);
        }
    }

    // ---- Effects of a move, before it is made ----

    /// Calls `f` with each square whose piece the move series `m` (a
    /// Checker's, [`MoveKind::Checker`]) takes, before it is made; nothing
    /// for other moves, whose captures are their destination, stop and
    /// en-passant victim.
    pub fn for_each_series_capture<B: Board>(&self, pos: &B, m: &Move, f: impl FnMut(Square)) {
        if let Some(ck) = &self.checker
            && m.kind == MoveKind::Checker
        {
            checker::for_each_capture(ck, pos, m, f);
        }
    }

    /// Does a promotion to `t` hand the new piece to the opponent
    /// (rules/frolov-10x10.md 5.3)?
    #[inline]
    pub fn is_hostile_promotion(&self, t: PieceType) -> bool {
        self.hostile_promotion
            .as_ref()
            .is_some_and(|hp| hp.is_hostile(t))
    }

    /// Before `m` is made: the piece it will turn into its compound
    /// (Frolov's capture promotion, 5.4-5.5), as (the piece now, its
    /// compound), if any.
    #[inline]
    pub fn upgrade_by<B: Board>(&self, pos: &B, m: Move) -> Option<(Piece, Piece)> {
        let cp = self.capture_promotion.as_ref()?;
        capture_promotion::upgrade_by(cp, pos, m)
    }

    /// The squares a move passes or lands on beyond its origin and
    /// destination, for showing it: a Checker series' landings.
    pub fn series_landings(&self, m: &Move) -> Vec<Square> {
        match &self.checker {
            Some(ck) if m.kind == MoveKind::Checker => {
                let (l, n) = checker::landings(ck, m);
                l[..n].to_vec()
            }
            _ => Vec::new(),
        }
    }

    /// A Checker series written through other landing squares than ours
    /// (`sqs`, origin first): the move of `legal` with the same origin,
    /// final square and captured squares (rules/ordinary-variant.md 5.1),
    /// if `sqs` is a path of two-square jumps.
    pub fn series_by_path<B: Board>(
        &self,
        pos: &B,
        sqs: &[Square],
        legal: &[Move],
    ) -> Option<Move> {
        checker::path_move(self.checker.as_ref()?, pos, sqs, legal)
    }

    /// The citadels with their owners (rules/tamerlane.md 5.5), if any.
    pub fn citadel_squares(&self) -> &[(Square, Side)] {
        self.citadels.as_ref().map_or(&[][..], |c| &c.squares[..])
    }

    /// Is `sq` a citadel?
    #[inline]
    pub fn is_citadel(&self, sq: Square) -> bool {
        self.citadels.as_ref().is_some_and(|c| c.is_citadel(sq))
    }

    // ---- Game end ----

    /// Endings the families decide from the board and the last move, before
    /// the loss of royals is judged: a citadel entry (rules/tamerlane.md
    /// 5.5, rules/frolov-10x10.md B15), the only-special win (5.5).
    pub fn ended_first<B: Board>(&self, pos: &B) -> Option<Outcome> {
        if let Some(c) = &self.citadels
            && let Some(end) = c.ended(pos)
        {
            return Some(end);
        }
        if let Some(cp) = &self.capture_promotion
            && let Some(out) = capture_promotion::ended(cp, pos)
        {
            return Some(out);
        }
        if let Some(cw) = &self.citadel_win
            && let Some(out) = citadel_win::ended(cw, pos)
        {
            return Some(out);
        }
        None
    }

    /// The bare-King endings where a family replaces the variant's rule
    /// (Dynamic Scoring, rules/ordinary-variant.md 7.2): `Some(result)`
    /// where it does, `None` where the generic rule applies.
    #[inline]
    pub fn bare_king_ending<B: Board>(&self, pos: &B) -> Option<Option<Outcome>> {
        self.dynamic_scoring
            .as_ref()
            .map(|ds| ds.ended_by_rule(pos))
    }

    /// The result of an ending for `reason` credited to `by` where a family
    /// scores endings in points (Dynamic Scoring, rules/ordinary-variant.md
    /// 7.2); `None` where it does not, or has no such result.
    #[inline]
    pub fn scored(&self, reason: Reason, by: Option<Side>) -> Option<Outcome> {
        self.dynamic_scoring.as_ref()?.result(reason, by)
    }

    /// Does a family score every ending in points (Dynamic Scoring)?
    #[inline]
    pub fn scores_every_ending(&self) -> bool {
        self.dynamic_scoring.is_some()
    }

    /// Consecutive checks that end the game as perpetual check
    /// (`ds-perpetual-n`, rules/ordinary-variant.md A17); 0 for none.
    #[inline]
    pub fn perpetual_checks(&self) -> u32 {
        self.dynamic_scoring
            .as_ref()
            .map_or(0, |d| d.perpetual_checks)
    }

    /// Does a repetition with checks on every move count as perpetual check
    /// under a family's rule (Dynamic Scoring without `ds-perpetual-n`)?
    #[inline]
    pub fn repetition_perpetual(&self) -> bool {
        self.dynamic_scoring
            .as_ref()
            .is_some_and(|d| d.perpetual_checks == 0)
    }

    /// A result the player to move may claim instead of moving (Dynamic
    /// Scoring's bare King, rules/ordinary-variant.md 7.2), if any.
    #[inline]
    pub fn claimable<B: Board>(&self, pos: &B) -> Option<Outcome> {
        self.dynamic_scoring.as_ref()?.claimable(pos)
    }

    /// An ending that draws in most games, decided on points where a family
    /// counts material (rules/frolov-10x10.md 7.1); `None` where it draws.
    #[inline]
    pub fn draw_by_points<B: Board>(&self, pos: &B, reason: Reason) -> Option<Outcome> {
        self.material_points
            .as_ref()
            .map(|mp| material_points::decide(mp, pos, reason))
    }

    /// Compiles `[special]`: each family present compiles its own table,
    /// in the order of the fields.
    ///
    /// Errors: the first family's error (a piece key or square that does
    /// not exist, a combination the family cannot hold), naming its key.
    pub fn compile(spec: &SpecialSpec, ctx: &Context) -> Result<Specials, VariantError> {
        Ok(Specials {
            compulsory_opening: spec
                .compulsory_opening
                .as_ref()
                .map(|c| compulsory_opening(c, ctx))
                .transpose()?,
            lion_trading: match &spec.lion_trading {
                Some(l) => lion::LionTrading::compile(l, ctx)?,
                None => None,
            },
            bodyguard: (spec.bodyguard.as_ref())
                .map(|b| bodyguard::Bodyguard::compile(b, ctx))
                .transpose()?,
            checker: (spec.checker.as_ref())
                .map(|c| checker::CheckerRules::compile(c, ctx))
                .transpose()?,
            dynamic_scoring: (spec.dynamic_scoring.as_ref())
                .map(dynamic_scoring::DynamicScoring::compile),
            citadels: (spec.citadel.as_ref())
                .map(|c| citadel::Citadels::compile(c, ctx))
                .transpose()?,
            pawn_of_pawns: (spec.pawn_of_pawns.as_ref())
                .map(|p| pawn_of_pawns::PawnOfPawns::compile(p, ctx))
                .transpose()?,
            king_swap: (spec.king_swap.as_ref())
                .map(|k| king_swap::KingSwap::compile(k, ctx))
                .transpose()?,
            capture_promotion: (spec.capture_promotion.as_ref())
                .map(|c| capture_promotion::CapturePromotion::compile(c, ctx))
                .transpose()?,
            hostile_promotion: (spec.hostile_promotion.as_ref())
                .map(|h| hostile_promotion::HostilePromotion::compile(h, ctx))
                .transpose()?,
            citadel_win: (spec.citadel_win.as_ref())
                .map(|c| citadel_win::CitadelWin::compile(c, ctx))
                .transpose()?,
            material_points: (spec.material_points.as_ref())
                .map(|m| material_points::MaterialPoints::compile(m, ctx))
                .transpose()?,
        })
    }

    /// Does some family filter or rewrite a piece's generated moves
    /// (citadels, the pawn of pawns)? Part of what tells move generation to
    /// test each piece.
    pub fn restrict_moves(&self) -> bool {
        self.citadels.is_some() || self.pawn_of_pawns.is_some()
    }
}

/// Compiles `[special.compulsory_opening]` (rules/courier.md 4): the second
/// player's advances are the first player's mirrored across the middle
/// rank.
///
/// Errors: a move that is not two square names of the board, or whose
/// mirror image is not on the board.
fn compulsory_opening(
    spec: &CompulsoryOpeningSpec,
    ctx: &Context,
) -> Result<CompulsoryOpening, VariantError> {
    let key = "special.compulsory_opening.moves";
    let mirror = |s| {
        (ctx.geometry.mirror(s)).ok_or_else(|| ctx.err(key, "the mirror square does not exist"))
    };
    let mut first = Vec::new();
    let mut second = Vec::new();
    for m in &spec.moves {
        let (a, used) = (ctx.geometry.parse_square_prefix(m))
            .ok_or_else(|| ctx.err(key, format!("`{m}` is not a move")))?;
        let b = ctx.square(key, &m[used..])?;
        first.push((a, b));
        second.push((mirror(a)?, mirror(b)?));
    }
    Ok(CompulsoryOpening {
        moves: [first, second],
    })
}
