//! Static evaluation for any variant, built from the variant file alone.
//!
//! Terms, each in centipawns and each with one home here:
//! - **material**: the `value` of each piece in the variant file (the rules
//!   library estimates one from mobility when the file gives none);
//! - **centralisation**: a piece's move count from a square on an empty
//!   board against its average, scaled by its value (a Knight on the rim
//!   loses, a Rook is indifferent);
//! - **advancement and promotion potential**: pieces that promote gain a
//!   share of the promotion's value gain as they near the zone, most of it
//!   once inside (shogi) or one step from the last rank (chess);
//! - **royal safety**: a sole royal prefers its back ranks while the board
//!   is full, the centre when it empties, friends next to it, and no
//!   enemies close by; in games without a check rule (the royal is
//!   captured, not mated: Chu, Dai Shogi) it keeps to its back ranks and its
//!   guard to the end;
//! - **threats**: a piece (neither pawn nor royal) an enemy pawn
//!   attacks, by its value, and one a lesser enemy piece attacks;
//! - **space**: squares of a side's central area that its pawns hold
//!   behind them ([`space`]);
//! - **open files**: pieces that ride their file where pawns do not block
//!   it ([`files`]);
//! - **tempo**: a bonus for the side to move.
//!
//! Board terms are tapered between a middle game and an end game weight by
//! the non-pawn material left on the board. The weights are data
//! ([`weights`]): a `NAME.eval.toml` file beside the variant file, or the
//! defaults. A search keeps the terms that depend on the pawns alone in a
//! [`pawn_table`] ([`Evaluator::evaluate_cached`]).

pub mod files;
pub mod pawn_table;
pub mod pawns;
pub mod space;
pub mod squares;
pub mod trace;
pub mod weights;

use crate::score::MAX_EVAL;
use crate::values::PieceValues;
use kamil_rules::{Piece, Position, Side, Variant};
use pawn_table::{PawnEntry, PawnTable};
use squares::{advance, average_mobility, square_shape};
use std::sync::Arc;
use trace::{Accumulator, Sum, Trace, Tracer, add, add_material};
use weights::{Params, Term, Weights, WeightsError};

/// Which terms the evaluation uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalMode {
    /// Every term.
    #[default]
    Full,
    /// Material only (a baseline to measure the other terms against).
    Material,
}

/// Largest piece value the engine uses, centipawns: the most a variant file
/// may give ([`kamil_rules::piece::MAX_VALUE`]); values are clamped to it
/// too, for variants built in code. Keeps capture sums and move-ordering
/// scores far from overflow (64 pieces taken in one move, times 16, stay
/// below 2^27).
pub const MAX_PIECE_VALUE: i32 = kamil_rules::piece::MAX_VALUE;
/// The evaluation of one variant: tables computed once from its file.
#[derive(Clone, Debug)]
pub struct Evaluator {
    variant: Arc<Variant>,
    mode: EvalMode,
    /// The weights in use.
    params: Params,
    /// Value per piece type, centipawns.
    value: Vec<i32>,
    /// The same values as the search reads them.
    values: PieceValues,
    /// Per piece code (`Piece.0`) and compact square: (middle game, end game).
    pst: Vec<[i16; 2]>,
    squares: usize,
    /// Piece types that count toward the game phase (neither pawn nor royal).
    phase_piece: Vec<bool>,
    /// Phase material of the start position (both sides).
    phase_total: i64,
    /// Royal types.
    royal: Vec<bool>,
    /// Neighbour offsets at distance 1 and 2 (for royal safety).
    ring1: Vec<i16>,
    ring2: Vec<i16>,
    /// Per piece code: the slides whose reach counts as mobility, and the
    /// average reach on an empty board.
    slides: Vec<(Vec<Step>, i32)>,
    /// Per piece code: every leap and ride for the per-type mobility (and
    /// the piece threats), and the average reach on an empty board.
    moves: Vec<(Vec<Step>, i32)>,
    /// Per piece code: the average empty-board mobility of its square
    /// terms.
    average: Vec<f64>,
    /// Pawn types.
    pawn: Vec<bool>,
    /// The pawns' threats on pieces.
    threats: pawns::PawnThreats,
    /// The space area of each side.
    space: space::Space,
    /// The pieces that ride their files.
    files: files::FileRiders,
    /// Terms off the search's path while they weigh nothing: per-type
    /// mobility, piece threats (found by the mobility walk), per-type
    /// royal attackers, pawn structure, promotion-zone pressure, pawn
    /// threats, space, riders on open files.
    mobility_on: bool,
    piece_threat_on: bool,
    /// Per piece type: its value as a victim of [`Term::PieceThreat`]
    /// (centipawns; 0 for pawns and royals, which do not count).
    victim_value: Vec<i32>,
    attackers_on: bool,
    pawns_on: bool,
    zone_on: bool,
    threat_on: bool,
    space_on: bool,
    files_on: bool,
    /// Some term that depends on the pawns alone is counted
    /// ([`PawnTable`] keeps them).
    pawn_terms_on: bool,
}

impl Evaluator {
    /// Builds the tables for `variant` with its built-in weights (by name)
    /// or the defaults. Takes the variant and the terms to use; cannot fail.
    pub fn new(variant: Arc<Variant>, mode: EvalMode) -> Evaluator {
        let params = Params::builtin(&variant);
        Evaluator::with_params(variant, mode, params)
    }

    /// Builds the tables for `variant` with the weights of `weights` over
    /// the defaults.
    ///
    /// Errors: `weights` names a piece the variant lacks.
    pub fn with_weights(
        variant: Arc<Variant>,
        mode: EvalMode,
        weights: &Weights,
    ) -> Result<Evaluator, WeightsError> {
        let params = Params::resolve(&variant, weights)?;
        Ok(Evaluator::with_params(variant, mode, params))
    }

    /// Builds the tables for `variant` with resolved weights `params`
    /// (made for this variant: [`Params::defaults`] or [`Params::resolve`]).
    pub fn with_params(variant: Arc<Variant>, mode: EvalMode, params: Params) -> Evaluator {
        let v = &*variant;
        let g = &v.geometry;
        let n = v.pieces.len();
        let squares = g.compact_len();
        let value: Vec<i32> = v
            .pieces
            .iter()
            .map(|p| crate::values::base_value(p.royal, p.value))
            .collect();
        let royal: Vec<bool> = v.pieces.iter().map(|p| p.royal).collect();
        let phase_piece: Vec<bool> = v.pieces.iter().map(|p| !p.pawn && !p.royal).collect();
        let mut pst = vec![[0i16; 2]; (2 + 2 * n) * squares];
        let mut average = vec![0.0; 2 + 2 * n];
        if mode == EvalMode::Full {
            for t in 0..n {
                for side in Side::BOTH {
                    let code = Piece::new(t as u8, side).0 as usize;
                    let avg = average_mobility(g, &v.movesets[t][side.index()]);
                    average[code] = avg;
                    for sq in g.squares() {
                        let c = g.compact(sq);
                        let shape = square_shape(v, &value, t, side, sq, avg);
                        let (mg, eg) = shape.weighted(&params, t);
                        pst[code * squares + c] = [clamp16(mg), clamp16(eg)];
                    }
                }
            }
        }
        let mut phase_total = 0i64;
        if let Ok(start) = Position::from_fen(variant.clone(), &v.start_fen) {
            for side in Side::BOTH {
                for &sq in start.pieces(side) {
                    let t = start.at(sq).kind() as usize;
                    if phase_piece[t] {
                        phase_total += i64::from(value[t]);
                    }
                }
            }
        }
        let mut ring1 = Vec::new();
        let mut ring2 = Vec::new();
        for dy in -2i32..=2 {
            for dx in -2i32..=2 {
                if (dx, dy) == (0, 0) || (g.pad() as i32) < 2 && (dx.abs() == 2 || dy.abs() == 2) {
                    continue;
                }
                let off = g.offset(dx, dy);
                if dx.abs() <= 1 && dy.abs() <= 1 {
                    ring1.push(off);
                } else {
                    ring2.push(off);
                }
            }
        }
        // Sliders' reach beyond their empty-board average, and every
        // piece's moves for mobility: neither for royals nor pawns.
        let slides = reach_tables(v, mode, |ms| {
            ms.rides
                .iter()
                .filter(|r| !r.initial && r.max > 1)
                .map(|r| Step::new(r.off, r.max, r.capture))
                .collect()
        });
        let moves = reach_tables(v, mode, |ms| {
            ms.leaps
                .iter()
                .filter(|l| !l.initial)
                .map(|l| Step::new(l.off, 1, l.capture))
                .chain(
                    ms.rides
                        .iter()
                        .filter(|r| !r.initial)
                        .map(|r| Step::new(r.off, r.max, r.capture)),
                )
                .collect()
        });
        let nonzero = |i: usize| params.pairs[i] != weights::Pair::default();
        let mobility_on = (0..n).any(|t| nonzero(params.mobility_index(t)));
        let piece_threat_on = nonzero(Term::PieceThreat as usize);
        let victim_value = v
            .pieces
            .iter()
            .zip(&value)
            .map(|(p, &val)| if p.pawn || p.royal { 0 } else { val })
            .collect();
        let attackers_on = (0..n).any(|t| nonzero(params.royal_attacker_index(t)));
        let pawn: Vec<bool> = v.pieces.iter().map(|p| p.pawn).collect();
        let pawns_on = pawn.iter().any(|&p| p)
            && [
                Term::PassedPawn,
                Term::IsolatedPawn,
                Term::DoubledPawn,
                Term::PawnPhalanx,
            ]
            .iter()
            .any(|&t| nonzero(t as usize));
        let zone_on = v.promotion.shogi && nonzero(Term::ZonePressure as usize);
        let threats = pawns::PawnThreats::new(v, &value);
        let threat_on = nonzero(Term::PawnThreat as usize) && threats.possible();
        let space = space::Space::new(v);
        let space_on = nonzero(Term::Space as usize) && space.possible();
        let files = files::FileRiders::new(v);
        let files_on = (nonzero(Term::HalfOpenFile as usize) || nonzero(Term::OpenFile as usize))
            && files.possible();
        Evaluator {
            pawn_terms_on: pawns_on || space_on || files_on,
            files,
            files_on,
            space,
            space_on,
            threats,
            threat_on,
            moves,
            average,
            pawn,
            mobility_on,
            piece_threat_on,
            victim_value,
            attackers_on,
            pawns_on,
            zone_on,
            slides,
            variant: variant.clone(),
            mode,
            params,
            value,
            values: PieceValues::new(v),
            pst,
            squares,
            phase_piece,
            phase_total: phase_total.max(1),
            royal,
            ring1,
            ring2,
        }
    }

    /// The variant these tables were built for.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The terms in use.
    pub fn mode(&self) -> EvalMode {
        self.mode
    }

    /// The weights in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The piece values of the variant, on the scale static exchange,
    /// ordering and pruning read.
    #[inline]
    pub fn values(&self) -> &PieceValues {
        &self.values
    }

    /// The position's score in centipawns from the side to move's view,
    /// within ±[`MAX_EVAL`] whatever the variant's piece values.
    /// Game ends are not detected here (search does that).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.run(pos, &mut Sum::default(), None)
    }

    /// [`Evaluator::evaluate`], the pawn terms kept in `pawns` (the same
    /// score, faster where pawns repeat: in a search). `pawns` must be
    /// used with this evaluator only.
    pub fn evaluate_cached(&self, pos: &Position, pawns: &mut PawnTable) -> i32 {
        self.run(pos, &mut Sum::default(), Some(pawns))
    }

    /// The position's features as coefficients of the weights, and its
    /// score: what the tuner fits. The score is `trace.dot(params)` up to
    /// rounding: the material, the board terms, the move-count scaling and
    /// the tempo are each truncated to whole centipawns (under 1 each,
    /// under 4 in all), and each piece's square entry of a percent term
    /// ([`weights::Term::Centralisation`] and the promotion terms) is
    /// truncated too (under 1 per piece and term, none when those weights
    /// are multiples of 100); beyond ±[`MAX_EVAL`] the score is clamped.
    /// In [`EvalMode::Material`] only the score is meaningful.
    pub fn trace(&self, pos: &Position) -> Trace {
        let mut t = Tracer::new(&self.params);
        let score = self.run(pos, &mut t, None);
        Trace {
            coefficients: t.into_coefficients(),
            score,
        }
    }

    /// The evaluation, its features going to `acc`.
    #[inline(always)]
    fn run<A: Accumulator>(
        &self,
        pos: &Position,
        acc: &mut A,
        pawn_table: Option<&mut PawnTable>,
    ) -> i32 {
        // Sums in 64 bits: a variant's values may be up to
        // MAX_PIECE_VALUE each, on boards of hundreds of squares.
        let v = &*self.variant;
        let g = &v.geometry;
        let p = &self.params;
        let full = self.mode == EvalMode::Full;
        let threat_walk = full && (A::EVERY_TERM || self.piece_threat_on);
        let mobility_on = full && (A::EVERY_TERM || self.mobility_on) || threat_walk;
        // Per side: its pieces that lesser enemy pieces attack (only
        // when counted).
        let mut victims = threat_walk.then(|| [Victims::new(), Victims::new()]);
        let zone_on = full && v.promotion.shogi && (A::EVERY_TERM || self.zone_on);
        let threat_on = full && (A::EVERY_TERM || self.threat_on);
        let zone_start = g.ranks() as i32 - v.promotion.zone.max(1) as i32;
        let pawn_terms = full && (A::EVERY_TERM || self.pawn_terms_on);
        // The trace records every feature: it never reads the table.
        let pawn_table = pawn_table.filter(|_| pawn_terms && !A::EVERY_TERM);
        let mut pawn_key = 0u64;
        let files_on = pawn_terms && (A::EVERY_TERM || self.files_on);
        let mut riders = files::RiderFiles::default();
        let mut phase = 0i64;
        for side in Side::BOTH {
            for &sq in pos.pieces(side) {
                let pc = pos.at(sq);
                let t = pc.kind() as usize;
                let code = pc.0 as usize;
                add_material(acc, p, side, t);
                if pawn_table.is_some() && self.pawn[t] {
                    pawn_key ^= v.zobrist.piece(g.compact(sq), pc);
                }
                if files_on && self.files.rides(code) {
                    riders.add(side, g.file(sq));
                }
                if self.phase_piece[t] {
                    phase += i64::from(self.value[t]);
                }
                acc.sum()
                    .add_square(side, self.pst[code * self.squares + g.compact(sq)]);
                if A::EVERY_TERM && full {
                    let shape = square_shape(v, &self.value, t, side, sq, self.average[code]);
                    acc.record_square(side, t, &shape);
                }
                let (list, avg) = &self.slides[code];
                if !list.is_empty() {
                    let reach = slide_reach(pos, sq, list, side) - avg;
                    add(acc, p, side, Term::SliderMobility as usize, reach);
                }
                if mobility_on {
                    let (list, avg) = &self.moves[code];
                    if !list.is_empty() {
                        let found = victims.as_mut().map(|v| {
                            let v = &mut v[side.flip().index()];
                            (v, &self.victim_value[..], self.value[t])
                        });
                        let reach = move_reach(pos, sq, list, side, found) - avg;
                        add(acc, p, side, p.mobility_index(t), reach);
                    }
                }
                if threat_on {
                    let units = self.threats.on(pos, sq, t, side);
                    if units > 0 {
                        add(acc, p, side, Term::PawnThreat as usize, units);
                    }
                }
                if zone_on && !self.royal[t] && advance(g, sq, side) >= zone_start {
                    add(acc, p, side, Term::ZonePressure as usize, 1);
                }
            }
        }
        if let Some(victims) = &victims {
            for side in Side::BOTH {
                let v = &victims[side.index()];
                let units: i32 = v.squares[..v.len]
                    .iter()
                    .map(|&sq| self.victim_value[pos.at(sq).kind() as usize] / 100)
                    .sum();
                add(acc, p, side, Term::PieceThreat as usize, units);
            }
        }
        let us = pos.side();
        let (u, o) = (us.index(), us.flip().index());
        let total = self.phase_total.max(1);
        let phase = phase.clamp(0, total);
        let s = acc.sum();
        let lead = tapered(
            s.material_mg[u] - s.material_mg[o],
            s.material_eg[u] - s.material_eg[o],
            phase,
            total,
        );
        if !full {
            return clamp_eval(lead);
        }
        for side in Side::BOTH {
            if let [r] = pos.royals(side) {
                self.royal_safety(pos, *r, side, acc);
            }
        }
        if pawn_terms {
            let pawn_files = match pawn_table {
                Some(table) => {
                    let e = table.get_or_insert(pawn_key, || self.pawn_entry(pos));
                    let s = acc.sum();
                    for i in 0..2 {
                        s.mg[i] += e.mg[i];
                        s.eg[i] += e.eg[i];
                    }
                    e.files
                }
                None => self.pawn_only_terms(pos, acc),
            };
            if files_on {
                for (side, c) in Side::BOTH.into_iter().zip(riders.count(pawn_files)) {
                    add(acc, p, side, Term::HalfOpenFile as usize, c.half_open);
                    add(acc, p, side, Term::OpenFile as usize, c.open);
                }
            }
        }
        if lead.abs() >= i64::from(p.mop_up_lead) {
            let (strong, weak) = if lead > 0 {
                (us, us.flip())
            } else {
                (us.flip(), us)
            };
            let (edge, close) = self.mop_up(pos, strong, weak);
            add(acc, p, strong, Term::MopUpEdge as usize, edge);
            add(acc, p, strong, Term::MopUpClose as usize, close);
        }
        let s = acc.sum();
        let board = tapered(s.mg[u] - s.mg[o], s.eg[u] - s.eg[o], phase, total);
        let (score, scale) = self.progress_scaled(pos, lead + board);
        let tempo = p.term(Term::Tempo);
        let tempo = tapered(tempo.mg.into(), tempo.eg.into(), phase, total);
        if A::EVERY_TERM {
            acc.record(us, Term::Tempo as usize, 1.0);
        }
        acc.finish(us, phase, total, scale);
        clamp_eval(score + tempo)
    }

    /// Under a move-count rule an advantage fades as the count runs on
    /// (to half at the limit), so the stronger side makes progress:
    /// captures and pawn moves that reset the count. Returns the scaled
    /// score and the factor.
    #[inline]
    fn progress_scaled(&self, pos: &Position, score: i64) -> (i64, f64) {
        let limit = i64::from(self.variant.rules.move_rule);
        if limit == 0 {
            return (score, 1.0);
        }
        let count = i64::from(pos.halfmove()).min(limit);
        let factor = (2 * limit - count) as f64 / (2 * limit) as f64;
        (score * (2 * limit - count) / (2 * limit), factor)
    }

    /// The terms that depend on the pawns alone (pawn structure, space),
    /// going to `acc`. Returns the files that hold each side's pawns.
    #[inline(always)]
    fn pawn_only_terms<A: Accumulator>(
        &self,
        pos: &Position,
        acc: &mut A,
    ) -> [files::PawnFiles; 2] {
        let p = &self.params;
        if A::EVERY_TERM || self.pawns_on {
            pawns::structure(pos, &self.pawn, p, acc);
        }
        if A::EVERY_TERM || self.space_on {
            for side in Side::BOTH {
                let n = self.space.count(pos, side, &self.pawn, &self.threats);
                add(acc, p, side, Term::Space as usize, n);
            }
        }
        files::pawn_files(pos, &self.pawn)
    }

    /// The pawn-only terms of `pos` as a [`PawnTable`] entry.
    fn pawn_entry(&self, pos: &Position) -> PawnEntry {
        let mut sum = Sum::default();
        let files = self.pawn_only_terms(pos, &mut sum);
        PawnEntry {
            mg: sum.mg,
            eg: sum.eg,
            files,
        }
    }

    /// The side with nothing on the board but its sole royal, where the
    /// other side's pieces are worth at least the mop-up terms' lead
    /// (`mop_up_lead`, centipawns, in the variant's piece values): a
    /// hunt. `None` elsewhere, and where both sides are bare.
    pub fn bare_royal(&self, pos: &Position) -> Option<Side> {
        let bare = |s: Side| pos.pieces(s).len() == 1 && pos.royals(s).len() == 1;
        let weak = match Side::BOTH.map(bare) {
            [true, false] => Side::BOTH[0],
            [false, true] => Side::BOTH[1],
            _ => return None,
        };
        let lead: i64 = pos
            .pieces(weak.flip())
            .iter()
            .map(|&sq| pos.at(sq).kind() as usize)
            .filter(|&t| !self.royal[t])
            .map(|t| i64::from(self.value[t]))
            .sum();
        (lead >= i64::from(self.params.mop_up_lead)).then_some(weak)
    }

    /// Winning the end game: drive the weaker side's sole royal to the edge
    /// and bring a royal of the stronger side near it. Returns the features
    /// (steps the hunted royal stands from the centre, steps the hunter's
    /// royal stands nearer than the board's width).
    fn mop_up(&self, pos: &Position, strong: Side, weak: Side) -> (i32, i32) {
        let g = &self.variant.geometry;
        let [w] = pos.royals(weak) else { return (0, 0) };
        let (wf, wr) = (g.file(*w) as i32, g.rank(*w) as i32);
        let (files, ranks) = (g.files() as i32, g.ranks() as i32);
        let edge = ((2 * wf - (files - 1)).abs()).max((2 * wr - (ranks - 1)).abs()) / 2;
        // Where royals are captured rather than mated, the hunter's royal
        // has no part in the hunt and must not walk out.
        if !self.variant.rules.royal_safety {
            return (edge, 0);
        }
        let mut close = 0;
        if let Some(k) = pos.royals(strong).first() {
            let d = (g.file(*k) as i32 - wf)
                .abs()
                .max((g.rank(*k) as i32 - wr).abs());
            close = files.max(ranks) - d;
        }
        (edge, close)
    }

    /// Friends next to `side`'s sole royal and enemies (not royal) within
    /// two steps, in all and per attacker type.
    #[inline(always)]
    fn royal_safety<A: Accumulator>(
        &self,
        pos: &Position,
        royal: kamil_rules::Square,
        side: Side,
        acc: &mut A,
    ) {
        let p = &self.params;
        let per_type = A::EVERY_TERM || self.attackers_on;
        let (mut friends, mut enemies) = (0, 0);
        for (ring, near) in [(&self.ring1, true), (&self.ring2, false)] {
            for &off in ring {
                let pc = pos.at(royal.shift(off));
                if near && pc.is_side(side) {
                    friends += 1;
                } else if pc.is_side(side.flip()) && !self.royal[pc.kind() as usize] {
                    enemies += 1;
                    if per_type {
                        add(acc, p, side, p.royal_attacker_index(pc.kind() as usize), 1);
                    }
                }
            }
        }
        add(acc, p, side, Term::Shelter as usize, friends);
        add(acc, p, side, Term::AttackerNear as usize, enemies);
    }
}

/// Squares a slider on `sq` reaches: empty ones, and enemy pieces it could take.
#[inline]
fn slide_reach(pos: &Position, sq: kamil_rules::Square, list: &[Step], side: Side) -> i32 {
    let mut n = 0;
    for &Step { off, max, .. } in list {
        let mut t = sq;
        for _ in 0..max {
            t = t.shift(off);
            let c = pos.at(t);
            if c.is_empty() {
                n += 1;
                continue;
            }
            if c.is_side(side.flip()) {
                n += 1;
            }
            break;
        }
    }
    n
}

/// One way a piece moves, for mobility: a leap (at most one step) or a
/// ride.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// Board offset of one step.
    off: i16,
    /// Most steps.
    max: u8,
    /// May it capture?
    capture: bool,
}

impl Step {
    fn new(off: i16, max: u8, capture: bool) -> Step {
        Step { off, max, capture }
    }
}

/// Enemy pieces worth more than the piece that attacks them: the squares
/// found by [`move_reach`], each once.
#[derive(Clone, Copy, Debug)]
struct Victims {
    squares: [kamil_rules::Square; Victims::MAX],
    len: usize,
}

impl Victims {
    /// More victims than this in one position are not counted.
    const MAX: usize = 32;

    fn new() -> Victims {
        Victims {
            squares: [kamil_rules::Square::default(); Victims::MAX],
            len: 0,
        }
    }

    fn insert(&mut self, sq: kamil_rules::Square) {
        if self.len < Victims::MAX && !self.squares[..self.len].contains(&sq) {
            self.squares[self.len] = sq;
            self.len += 1;
        }
    }
}

/// Squares a piece on `sq` reaches by `list`: empty ones, and enemy
/// pieces it could take. Leaps may pass the guard band: each step is
/// checked to be on the board. With `victims`, the enemy pieces it may
/// capture whose value (`value`, by type; royals excluded by a value of 0)
/// exceeds `own` are put there.
#[inline]
fn move_reach(
    pos: &Position,
    sq: kamil_rules::Square,
    list: &[Step],
    side: Side,
    mut victims: Option<(&mut Victims, &[i32], i32)>,
) -> i32 {
    let g = &pos.variant().geometry;
    let mut n = 0;
    for &Step { off, max, capture } in list {
        let mut t = sq;
        for _ in 0..max {
            t = t.shift(off);
            if !g.is_square(t) {
                break;
            }
            let c = pos.at(t);
            if c.is_empty() {
                n += 1;
                continue;
            }
            if c.is_side(side.flip()) {
                n += 1;
                if capture
                    && let Some((v, value, own)) = victims.as_mut()
                    && value[c.kind() as usize] > *own
                {
                    v.insert(t);
                }
            }
            break;
        }
    }
    n
}

/// Per piece code: the steps `list_of` takes from the piece's moveset
/// (offset, most steps), and their average reach on an empty board
/// (rounded); empty for royals, pawns, pieces with no such steps, and in
/// material-only mode.
fn reach_tables(
    v: &Variant,
    mode: EvalMode,
    list_of: impl Fn(&kamil_rules::piece::Moveset) -> Vec<Step>,
) -> Vec<(Vec<Step>, i32)> {
    let g = &v.geometry;
    let mut tables = vec![(Vec::new(), 0); 2 + 2 * v.pieces.len()];
    if mode != EvalMode::Full {
        return tables;
    }
    let count = g.squares().count().max(1) as f64;
    for (t, info) in v.pieces.iter().enumerate() {
        if info.royal || info.pawn {
            continue;
        }
        for side in Side::BOTH {
            let list = list_of(&v.movesets[t][side.index()]);
            if list.is_empty() {
                continue;
            }
            let total: i64 = g
                .squares()
                .map(|sq| i64::from(empty_reach(g, sq, &list)))
                .sum();
            let avg = (total as f64 / count).round() as i32;
            tables[Piece::new(t as u8, side).0 as usize] = (list, avg);
        }
    }
    tables
}

/// Squares a piece on `sq` reaches by `list` on an empty board.
fn empty_reach(g: &kamil_rules::Geometry, sq: kamil_rules::Square, list: &[Step]) -> i32 {
    let mut n = 0;
    for &Step { off, max, .. } in list {
        let mut t = sq;
        for _ in 0..max {
            t = t.shift(off);
            if !g.is_square(t) {
                break;
            }
            n += 1;
        }
    }
    n
}

/// A middle-game and an end-game score tapered by `phase` of `total`,
/// truncated toward zero.
#[inline(always)]
fn tapered(mg: i64, eg: i64, phase: i64, total: i64) -> i64 {
    (mg * phase + eg * (total - phase)) / total
}

/// `x` as an evaluation: clamped to ±[`MAX_EVAL`].
fn clamp_eval(x: i64) -> i32 {
    x.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
}

fn clamp16(x: i64) -> i16 {
    x.clamp(i64::from(i16::MIN / 2), i64::from(i16::MAX / 2)) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(name: &str, fen: Option<&str>, mode: EvalMode) -> i32 {
        let v = Arc::new(Variant::builtin(name, &[]).unwrap());
        let pos = match fen {
            Some(f) => Position::from_fen(v.clone(), f).unwrap(),
            None => Position::start(v.clone()),
        };
        Evaluator::new(v, mode).evaluate(&pos)
    }

    #[test]
    fn start_positions_are_level_but_for_tempo() {
        for name in ["courier", "courier-modern", "courier-albers", "sho-shogi"] {
            assert_eq!(eval(name, None, EvalMode::Full), 12, "{name}");
            assert_eq!(eval(name, None, EvalMode::Material), 0, "{name}");
        }
    }

    #[test]
    fn a_knight_is_worth_more_in_the_centre() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let e = Evaluator::new(v.clone(), EvalMode::Full);
        let n = v.piece_by_key("knight").unwrap();
        let code = Piece::new(n, Side::First).0 as usize;
        let g = &v.geometry;
        let corner = g.compact(g.square(0, 0).unwrap());
        let centre = g.compact(g.square(5, 3).unwrap());
        assert!(e.pst[code * e.squares + centre][0] > e.pst[code * e.squares + corner][0]);
    }

    #[test]
    fn an_extra_piece_shows_in_the_score_from_both_sides() {
        // Courier start without Black's a-file Rook: White is ahead; from
        // Black's view the same position scores the other way.
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let start = Position::start(v.clone());
        let fen = start.fen();
        let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
        fields[0] = fields[0].replacen('r', "1", 1);
        let w = eval("courier", Some(&fields.join(" ")), EvalMode::Full);
        fields[1] = "b".into();
        let b = eval("courier", Some(&fields.join(" ")), EvalMode::Full);
        assert!(w > 300, "{w}");
        assert!(b < -300, "{b}");
    }

    #[test]
    fn weights_from_a_file_change_the_score() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let pos = Position::start(v.clone());
        let w = Weights::from_toml("tempo = { mg = 31, eg = 31 }").unwrap();
        let e = Evaluator::with_weights(v.clone(), EvalMode::Full, &w).unwrap();
        assert_eq!(e.evaluate(&pos), 31);
        let bad = Weights::from_toml("[piece_value]\nlion = { mg = 1, eg = 1 }").unwrap();
        assert!(Evaluator::with_weights(v, EvalMode::Full, &bad).is_err());
    }

    /// Positions of a random game of `name` (a simple generator: no rand
    /// crate in the engine).
    fn random_positions(name: &str, seed: u64, plies: usize) -> Vec<Position> {
        let v = Arc::new(Variant::builtin(name, &[]).unwrap());
        let mut pos = Position::start(v);
        let mut x = seed;
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            kamil_rules::movegen::legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(x >> 33) as usize % moves.len()];
            pos.make(m);
            out.push(pos.clone());
        }
        out
    }

    /// `fen` with the colours swapped: ranks in reverse order, each
    /// piece's case swapped, the other side to move (the move counters
    /// kept). For games whose start is a mirror image across the middle
    /// rank (Courier) and fields the mirror keeps (no castling or en
    /// passant square).
    fn colour_mirror(fen: &str) -> String {
        let mut f: Vec<String> = fen.split(' ').map(String::from).collect();
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        f[0] = board.join("/");
        f[1] = if f[1] == "w" { "b".into() } else { "w".into() };
        f.join(" ")
    }

    #[test]
    fn the_evaluation_is_the_same_for_either_colour() {
        // Every weight random and nonzero, so that each term is on: a
        // position and its colour mirror must score the same for the
        // side to move.
        use weights::Pair;
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let d = Params::defaults(&v);
        let mut x = 12345u64;
        let mut r = |lo: i32, hi: i32| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + ((x >> 33) % (hi - lo + 1) as u64) as i32
        };
        let pairs: Vec<Pair> = (0..d.pairs.len())
            .map(|i| {
                if d.is_piece_value(i) {
                    d.pairs[i]
                } else {
                    Pair::new(r(1, 40), r(1, 40))
                }
            })
            .collect();
        let e =
            Evaluator::with_params(v.clone(), EvalMode::Full, d.with_pairs(&v, &pairs).unwrap());
        let mut checked = 0;
        for seed in [3, 4, 5] {
            for pos in random_positions("courier", seed, 160) {
                let fen = pos.fen();
                if fen.split(' ').nth(2).is_some_and(|c| c != "-") {
                    continue;
                }
                let mirror = Position::from_fen(v.clone(), &colour_mirror(&fen)).unwrap();
                assert_eq!(
                    e.evaluate(&pos),
                    e.evaluate(&mirror),
                    "{fen} against {}",
                    mirror.fen()
                );
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn the_trace_dotted_with_the_weights_is_the_evaluation() {
        use weights::Pair;
        for (n, name) in [
            "courier",
            "sho-shogi",
            "chu-shogi",
            "tamerlane",
            "hiashatar",
            "ordinary-variant",
            "frolov-10x10",
            "alfonso-great-chess",
        ]
        .into_iter()
        .enumerate()
        {
            let v = Arc::new(Variant::builtin(name, &[]).unwrap());
            let d = Params::defaults(&v);
            // Every weight random (the new terms too), percent terms in
            // multiples of 100 so that no square entry is truncated.
            let mut x = 99 + n as u64;
            let mut r = |lo: i32, hi: i32| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                lo + ((x >> 33) % (hi - lo + 1) as u64) as i32
            };
            let pairs: Vec<Pair> = (0..d.pairs.len())
                .map(|i| {
                    if d.is_piece_value(i) {
                        let b = d.pairs[i].mg;
                        Pair::new(b + r(-50, 50), b + r(-50, 50))
                    } else if [
                        Term::Centralisation as usize,
                        Term::PromotionZone as usize,
                        Term::PromotionApproach as usize,
                    ]
                    .contains(&i)
                    {
                        Pair::new(100 * r(-2, 2), 100 * r(-2, 2))
                    } else {
                        Pair::new(r(-20, 20), r(-20, 20))
                    }
                })
                .collect();
            for params in [d.clone(), d.with_pairs(&v, &pairs).unwrap()] {
                let e = Evaluator::with_params(v.clone(), EvalMode::Full, params.clone());
                let mut checked = 0;
                let mut table = PawnTable::new();
                for pos in random_positions(name, 7 + n as u64, 120).iter().step_by(3) {
                    let t = e.trace(pos);
                    let score = e.evaluate(pos);
                    assert_eq!(t.score, score, "{name}");
                    // Computed into the pawn table, then read from it.
                    for _ in 0..2 {
                        assert_eq!(e.evaluate_cached(pos, &mut table), score, "{name}");
                    }
                    if score.abs() >= MAX_EVAL {
                        continue;
                    }
                    let dot = t.dot(&params);
                    // The defaults' percent weights (50) truncate square
                    // entries: under 1 per piece; else only the final
                    // truncations (under 4).
                    let pieces = pos.pieces_on_board();
                    let bound = if params == d {
                        4.0 + pieces as f64
                    } else {
                        4.0
                    };
                    assert!(
                        (dot - f64::from(score)).abs() <= bound,
                        "{name} {}: dot {dot} eval {score}",
                        pos.fen()
                    );
                    checked += 1;
                }
                assert!(checked > 10, "{name}");
                let read = table.hit_rate() >= 0.5;
                assert_eq!(
                    read,
                    e.pawn_terms_on,
                    "{name}: hit rate {}",
                    table.hit_rate()
                );
            }
        }
    }

    /// The traced feature of `term` in `fen` (both phases' coefficients
    /// summed: its count from the side to move's view).
    fn feature(e: &Evaluator, fen: &str, term: Term) -> f64 {
        let pos = Position::from_fen(e.variant().clone(), fen).unwrap();
        e.trace(&pos)
            .coefficients
            .iter()
            .filter(|&&(k, _)| k as usize / 2 == term as usize)
            .map(|&(_, c)| c)
            .sum()
    }

    #[test]
    fn a_piece_an_enemy_pawn_attacks_is_a_pawn_threat_by_its_value() {
        // Courier: Black's Pawn on d6 takes towards rank 1, on c5 and e5.
        let e = Evaluator::new(
            Arc::new(Variant::builtin("courier", &[]).unwrap()),
            EvalMode::Full,
        );
        let threat = |fen: &str| feature(&e, fen, Term::PawnThreat);
        // The Knight (300) on e5: three units against White, to move.
        let on_e5 = threat("11k/12/3p8/4N7/12/12/12/K11 w - - 0 1");
        assert!((on_e5 - 3.0).abs() < 1e-9, "{on_e5}");
        // From Black's view the same threat counts for it.
        let black_to_move = threat("11k/12/3p8/4N7/12/12/12/K11 b - - 0 1");
        assert!((black_to_move + 3.0).abs() < 1e-9, "{black_to_move}");
        // On e4 nothing attacks it; a Pawn or a King is never threatened.
        assert_eq!(threat("11k/12/3p8/12/4N7/12/12/K11 w - - 0 1"), 0.0);
        assert_eq!(threat("11k/12/3p8/4P7/12/12/12/K11 w - - 0 1"), 0.0);
        assert_eq!(threat("11k/12/3p8/4K7/12/12/12/12 w - - 0 1"), 0.0);
        // The default weight makes the threatened side's score lower.
        assert!(e.params().term(Term::PawnThreat).mg < 0);
    }

    #[test]
    fn a_piece_a_lesser_enemy_piece_attacks_is_a_piece_threat_by_its_value() {
        let e = Evaluator::new(
            Arc::new(Variant::builtin("courier", &[]).unwrap()),
            EvalMode::Full,
        );
        let threat = |fen: &str| feature(&e, fen, Term::PieceThreat);
        // Black's Knight (300) on d7 attacks White's Rook (500) on e5: five
        // units against White, to move; a second Knight on f7 adds none.
        let one = threat("11k/3n8/12/4R7/12/12/12/K11 w - - 0 1");
        assert!((one - 5.0).abs() < 1e-9, "{one}");
        let two = threat("11k/3n1n6/12/4R7/12/12/12/K11 w - - 0 1");
        assert!((two - 5.0).abs() < 1e-9, "{two}");
        let black_to_move = threat("11k/3n8/12/4R7/12/12/12/K11 b - - 0 1");
        assert!((black_to_move + 5.0).abs() < 1e-9, "{black_to_move}");
        // A Rook attacked by a Rook, a Knight by a Rook: no threat.
        assert_eq!(threat("11k/12/12/r3R7/12/12/12/K11 w - - 0 1"), 0.0);
        assert_eq!(threat("11k/12/12/r3N7/12/12/12/K11 w - - 0 1"), 0.0);
    }

    #[test]
    fn new_terms_weigh_nothing_by_default_but_are_traced() {
        // Pawn structure and per-type terms show in the trace of a courier
        // position with pawns, though the default weights are 0.
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let e = Evaluator::new(v.clone(), EvalMode::Full);
        let pos = random_positions("courier", 3, 30).pop().unwrap();
        let t = e.trace(&pos);
        let p = e.params();
        let has = |i: usize| t.coefficients.iter().any(|&(k, _)| k as usize / 2 == i);
        let pawn_terms = [
            Term::PassedPawn,
            Term::IsolatedPawn,
            Term::DoubledPawn,
            Term::PawnPhalanx,
        ];
        assert!(pawn_terms.iter().any(|&t| has(t as usize)));
        let n = v.pieces.len();
        assert!((0..n).any(|t| has(p.mobility_index(t))));
        assert!((0..n).any(|t| has(p.piece_value_index(t))));
    }
}
