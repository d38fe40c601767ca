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
//! - **tempo**: a bonus for the side to move.
//!
//! Board terms are tapered between a middle game and an end game weight by
//! the non-pawn material left on the board. The weights are data
//! ([`weights`]): a `NAME.eval.toml` file beside the variant file, or the
//! defaults.

pub mod squares;
pub mod weights;

use crate::score::MAX_EVAL;
use kamil_rules::{Piece, Position, Side, Variant};
use squares::{average_mobility, square_shape};
use std::sync::Arc;
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
    /// Per piece code: the slides whose reach counts as mobility
    /// (offset, most steps), and the average reach on an empty board.
    slides: Vec<(Vec<(i16, u8)>, i32)>,
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
            .map(|p| weights::base_value(p.royal, p.value))
            .collect();
        let royal: Vec<bool> = v.pieces.iter().map(|p| p.royal).collect();
        let phase_piece: Vec<bool> = v.pieces.iter().map(|p| !p.pawn && !p.royal).collect();
        let mut pst = vec![[0i16; 2]; (2 + 2 * n) * squares];
        if mode == EvalMode::Full {
            for t in 0..n {
                for side in Side::BOTH {
                    let code = Piece::new(t as u8, side).0 as usize;
                    let avg = average_mobility(g, &v.movesets[t][side.index()]);
                    for sq in g.squares() {
                        let c = g.compact(sq);
                        let shape = square_shape(v, &value, t, side, sq, avg);
                        let (mg, eg) = shape.weighted(&params);
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
        let mut slides = vec![(Vec::new(), 0); 2 + 2 * n];
        if mode == EvalMode::Full {
            for (t, info) in v.pieces.iter().enumerate() {
                if info.royal || info.pawn {
                    continue;
                }
                for side in Side::BOTH {
                    let ms = &v.movesets[t][side.index()];
                    let list: Vec<(i16, u8)> = ms
                        .rides
                        .iter()
                        .filter(|r| !r.initial && r.max > 1)
                        .map(|r| (r.off, r.max))
                        .collect();
                    if list.is_empty() {
                        continue;
                    }
                    let only = kamil_rules::piece::Moveset {
                        rides: ms
                            .rides
                            .iter()
                            .filter(|r| !r.initial && r.max > 1)
                            .cloned()
                            .collect(),
                        ..Default::default()
                    };
                    let avg = average_mobility(g, &only).round() as i32;
                    slides[Piece::new(t as u8, side).0 as usize] = (list, avg);
                }
            }
        }
        Evaluator {
            slides,
            variant: variant.clone(),
            mode,
            params,
            value,
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

    /// Value of a piece type in centipawns (what move ordering and pruning
    /// weigh captures by).
    #[inline]
    pub fn value(&self, t: u8) -> i32 {
        self.value[t as usize]
    }

    /// Does `side` have a piece that is neither pawn nor royal? (Null-move
    /// pruning is unsound without one: zugzwang.)
    pub fn has_pieces(&self, pos: &Position, side: Side) -> bool {
        pos.pieces(side)
            .iter()
            .any(|&sq| self.phase_piece[pos.at(sq).kind() as usize])
    }

    /// The position's score in centipawns from the side to move's view,
    /// within ±[`MAX_EVAL`] whatever the variant's piece values.
    /// Game ends are not detected here (search does that).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        // Sums in 64 bits: a variant's values may be up to
        // MAX_PIECE_VALUE each, on boards of hundreds of squares.
        let g = &self.variant.geometry;
        let mut material = [0i64; 2];
        let mut mg = [0i64; 2];
        let mut eg = [0i64; 2];
        let mut phase = 0i64;
        for side in Side::BOTH {
            let s = side.index();
            for &sq in pos.pieces(side) {
                let p = pos.at(sq);
                let t = p.kind() as usize;
                let value = i64::from(self.value[t]);
                material[s] += value;
                if self.phase_piece[t] {
                    phase += value;
                }
                let e = self.pst[p.0 as usize * self.squares + g.compact(sq)];
                mg[s] += i64::from(e[0]);
                eg[s] += i64::from(e[1]);
                let (list, avg) = &self.slides[p.0 as usize];
                if !list.is_empty() {
                    let reach = i64::from(slide_reach(pos, sq, list, side) - avg);
                    let w = self.params.term(Term::SliderMobility);
                    mg[s] += reach * i64::from(w.mg);
                    eg[s] += reach * i64::from(w.eg);
                }
            }
        }
        let us = pos.side();
        let (u, o) = (us.index(), us.flip().index());
        let lead = material[u] - material[o];
        if self.mode == EvalMode::Material {
            return clamp_eval(lead);
        }
        let (shelter, near) = (
            self.params.term(Term::Shelter),
            self.params.term(Term::AttackerNear),
        );
        for side in Side::BOTH {
            let r = pos.royals(side);
            if r.len() == 1 {
                let (friends, enemies) = self.royal_safety(pos, r[0], side);
                let (f, e) = (i64::from(friends), i64::from(enemies));
                mg[side.index()] += f * i64::from(shelter.mg) + e * i64::from(near.mg);
                eg[side.index()] += f * i64::from(shelter.eg) + e * i64::from(near.eg);
            }
        }
        if lead.abs() >= i64::from(self.params.mop_up_lead) {
            let (strong, weak) = if lead > 0 {
                (us, us.flip())
            } else {
                (us.flip(), us)
            };
            let (edge, close) = self.mop_up(pos, strong, weak);
            let (we, wc) = (
                self.params.term(Term::MopUpEdge),
                self.params.term(Term::MopUpClose),
            );
            let (edge, close) = (i64::from(edge), i64::from(close));
            mg[strong.index()] += edge * i64::from(we.mg) + close * i64::from(wc.mg);
            eg[strong.index()] += edge * i64::from(we.eg) + close * i64::from(wc.eg);
        }
        let total = self.phase_total.max(1);
        let phase = phase.clamp(0, total);
        let mg_score = mg[u] - mg[o];
        let eg_score = eg[u] - eg[o];
        let score = lead + (mg_score * phase + eg_score * (total - phase)) / total;
        let score = self.progress_scaled(pos, score);
        let tempo = self.params.term(Term::Tempo);
        let tempo = (i64::from(tempo.mg) * phase + i64::from(tempo.eg) * (total - phase)) / total;
        clamp_eval(score + tempo)
    }

    /// Under a move-count rule an advantage fades as the count runs on
    /// (to half at the limit), so the stronger side makes progress:
    /// captures and pawn moves that reset the count.
    #[inline]
    fn progress_scaled(&self, pos: &Position, score: i64) -> i64 {
        let limit = i64::from(self.variant.rules.move_rule);
        if limit == 0 {
            return score;
        }
        let count = i64::from(pos.halfmove()).min(limit);
        score * (2 * limit - count) / (2 * limit)
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

    /// Friends next to the royal and enemies (not royal) within two steps:
    /// (friends, enemies).
    fn royal_safety(&self, pos: &Position, royal: kamil_rules::Square, side: Side) -> (i32, i32) {
        let (mut friends, mut enemies) = (0, 0);
        for &off in &self.ring1 {
            let p = pos.at(royal.shift(off));
            if p.is_side(side) {
                friends += 1;
            } else if p.is_side(side.flip()) && !self.royal[p.kind() as usize] {
                enemies += 1;
            }
        }
        for &off in &self.ring2 {
            let p = pos.at(royal.shift(off));
            if p.is_side(side.flip()) && !self.royal[p.kind() as usize] {
                enemies += 1;
            }
        }
        (friends, enemies)
    }
}

/// Squares a slider on `sq` reaches: empty ones, and enemy pieces it could take.
#[inline]
fn slide_reach(pos: &Position, sq: kamil_rules::Square, list: &[(i16, u8)], side: Side) -> i32 {
    let mut n = 0;
    for &(off, max) in list {
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
}
