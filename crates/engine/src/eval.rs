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
//! the non-pawn material left on the board.

use crate::score::MAX_EVAL;
use kamil_rules::geometry::Geometry;
use kamil_rules::piece::Moveset;
use kamil_rules::{Piece, Position, Side, Variant};
use std::sync::Arc;

/// Which terms the evaluation uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalMode {
    /// Every term.
    #[default]
    Full,
    /// Material only (a baseline to measure the other terms against).
    Material,
}

/// Bonus for the side to move, centipawns.
const TEMPO: i32 = 12;
/// Largest piece value the engine uses, centipawns: the most a variant file
/// may give ([`kamil_rules::piece::MAX_VALUE`]); values are clamped to it
/// too, for variants built in code. Keeps capture sums and move-ordering
/// scores far from overflow (64 pieces taken in one move, times 16, stay
/// below 2^27).
pub const MAX_PIECE_VALUE: i32 = kamil_rules::piece::MAX_VALUE;
/// Middle-game bonus per friendly piece next to a sole royal.
const SHELTER: i32 = 8;
/// Middle-game penalty per enemy piece within two steps of a sole royal.
const ATTACKER_NEAR: i32 = 10;
/// Middle-game penalty per rank a sole royal stands away from its home rank.
const ROYAL_ADVANCE: i32 = 14;
/// End-game bonus per step nearer the centre for a royal.
const ROYAL_CENTRE: i32 = 6;
/// Middle-game bonus per square a slider reaches beyond its empty-board
/// average on the board as it stands.
const MOBILITY_MG: i32 = 4;
/// End-game bonus per square a slider reaches beyond its average.
const MOBILITY_EG: i32 = 3;
/// Material lead (centipawns) from which the stronger side hunts the
/// weaker side's sole royal.
const MOP_UP_LEAD: i32 = 250;
/// End-game bonus per step the hunted royal stands from the centre.
const MOP_UP_EDGE: i32 = 12;
/// End-game bonus per step the hunter's royal stands nearer the hunted one.
const MOP_UP_CLOSE: i32 = 5;

/// The evaluation of one variant: tables computed once from its file.
#[derive(Clone, Debug)]
pub struct Evaluator {
    variant: Arc<Variant>,
    mode: EvalMode,
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
    /// Builds the tables for `variant`. Takes the variant and the terms to
    /// use; cannot fail.
    pub fn new(variant: Arc<Variant>, mode: EvalMode) -> Evaluator {
        let v = &*variant;
        let g = &v.geometry;
        let n = v.pieces.len();
        let squares = g.compact_len();
        let value: Vec<i32> = v
            .pieces
            .iter()
            .map(|p| {
                if p.royal && p.value == 0 {
                    // Only matters where royals can be gained or lost
                    // (Sho Shogi's Crown Prince): a spare royal is a life.
                    400
                } else {
                    p.value.clamp(-MAX_PIECE_VALUE, MAX_PIECE_VALUE)
                }
            })
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
                        let (mg, eg) = square_terms(v, &value, t, side, sq, avg);
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
                    mg[s] += reach * i64::from(MOBILITY_MG);
                    eg[s] += reach * i64::from(MOBILITY_EG);
                }
            }
        }
        let us = pos.side();
        let (u, o) = (us.index(), us.flip().index());
        let lead = material[u] - material[o];
        if self.mode == EvalMode::Material {
            return clamp_eval(lead);
        }
        let capture_royal = !self.variant.rules.royal_safety;
        for side in Side::BOTH {
            let r = pos.royals(side);
            if r.len() == 1 {
                let safety = i64::from(self.royal_safety(pos, r[0], side));
                mg[side.index()] += safety;
                if capture_royal {
                    eg[side.index()] += safety;
                }
            }
        }
        if lead.abs() >= i64::from(MOP_UP_LEAD) {
            let (strong, weak) = if lead > 0 {
                (us, us.flip())
            } else {
                (us.flip(), us)
            };
            eg[strong.index()] += i64::from(self.mop_up(pos, strong, weak));
        }
        let total = self.phase_total.max(1);
        let phase = phase.clamp(0, total);
        let mg_score = mg[u] - mg[o];
        let eg_score = eg[u] - eg[o];
        let score = lead + (mg_score * phase + eg_score * (total - phase)) / total;
        let score = self.progress_scaled(pos, score);
        clamp_eval(score + i64::from(TEMPO))
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
    /// and bring a royal of the stronger side near it.
    fn mop_up(&self, pos: &Position, strong: Side, weak: Side) -> i32 {
        let g = &self.variant.geometry;
        let [w] = pos.royals(weak) else { return 0 };
        let (wf, wr) = (g.file(*w) as i32, g.rank(*w) as i32);
        let (files, ranks) = (g.files() as i32, g.ranks() as i32);
        let edge = ((2 * wf - (files - 1)).abs()).max((2 * wr - (ranks - 1)).abs()) / 2;
        let mut s = MOP_UP_EDGE * edge;
        // Where royals are captured rather than mated, the hunter's royal
        // has no part in the hunt and must not walk out.
        if !self.variant.rules.royal_safety {
            return s;
        }
        if let Some(k) = pos.royals(strong).first() {
            let d = (g.file(*k) as i32 - wf)
                .abs()
                .max((g.rank(*k) as i32 - wr).abs());
            s += MOP_UP_CLOSE * (files.max(ranks) - d);
        }
        s
    }

    /// Friends around the royal, enemies near it (middle-game weight).
    fn royal_safety(&self, pos: &Position, royal: kamil_rules::Square, side: Side) -> i32 {
        let mut s = 0;
        for &off in &self.ring1 {
            let p = pos.at(royal.shift(off));
            if p.is_side(side) {
                s += SHELTER;
            } else if p.is_side(side.flip()) && !self.royal[p.kind() as usize] {
                s -= ATTACKER_NEAR;
            }
        }
        for &off in &self.ring2 {
            let p = pos.at(royal.shift(off));
            if p.is_side(side.flip()) && !self.royal[p.kind() as usize] {
                s -= ATTACKER_NEAR;
            }
        }
        s
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

fn clamp16(x: i32) -> i16 {
    x.clamp(i16::MIN as i32 / 2, i16::MAX as i32 / 2) as i16
}

/// Middle-game and end-game square terms of type `t` for `side` on `sq`;
/// `avg` is the type's average empty-board mobility.
fn square_terms(
    v: &Variant,
    value: &[i32],
    t: usize,
    side: Side,
    sq: kamil_rules::Square,
    avg: f64,
) -> (i32, i32) {
    let g = &v.geometry;
    let info = &v.pieces[t];
    let ms = &v.movesets[t][side.index()];
    let ranks = g.ranks() as i32;
    let files = g.files() as i32;
    let rank = g.rank(sq) as i32;
    let file = g.file(sq) as i32;
    // Ranks from the owner's side: 0 = home rank.
    let adv = if side == Side::First {
        rank
    } else {
        ranks - 1 - rank
    };
    let centre_dist = {
        let fx = (2 * file - (files - 1)).abs();
        let fy = (2 * rank - (ranks - 1)).abs();
        fx.max(fy) / 2
    };
    if info.royal {
        let home = -ROYAL_ADVANCE * adv.min(3);
        if !v.rules.royal_safety {
            // Without a check rule (Chu, Dai Shogi) a royal is lost by being
            // attacked at all, and long-range pieces outlive the middle game:
            // it stays home in the end game too.
            return (home, home);
        }
        let centre = -ROYAL_CENTRE * centre_dist;
        return (home, centre);
    }
    let mut mg = 0;
    let mut eg = 0;
    // Centralisation by empty-board mobility.
    if avg > 0.0 {
        let here = mobility(g, ms, sq) as f64;
        let c = (value[t] as f64 * (here - avg) / (avg * 6.0)) as i32;
        mg += c;
        eg += c / 2;
    }
    // Promotion potential: the best value the piece can become.
    let gain = promotion_gain(v, value, t);
    if gain > 0 {
        let zone = v.promotion.zone.max(1) as i32;
        let zone_start = ranks - zone;
        let g_f = gain as f64;
        let bonus = if v.promotion.shogi {
            if adv >= zone_start {
                0.45 * g_f
            } else {
                let d = (zone_start - adv) as f64;
                0.25 * g_f / (1.0 + d * d)
            }
        } else {
            // Chess style: promotion happens on arrival at the far rank.
            let d = (ranks - 1 - adv) as f64;
            if d <= 0.0 {
                0.0
            } else {
                0.5 * g_f / (d * d + 0.5)
            }
        };
        let b = bonus as i32;
        mg += b / 2;
        eg += b;
    } else if info.pawn {
        mg += 3 * adv;
        eg += 6 * adv;
    }
    (mg, eg)
}

/// The largest value increase from promoting a piece of type `t`.
fn promotion_gain(v: &Variant, value: &[i32], t: usize) -> i32 {
    let info = &v.pieces[t];
    let mut best = 0;
    if let Some(p) = info.promoted {
        best = best.max(value[p as usize] - value[t]);
    }
    for &p in &info.promotes_to {
        best = best.max(value[p as usize] - value[t]);
    }
    if let Some(p) = info.ripens_to {
        best = best.max(value[v.final_form(p) as usize] - value[t]);
    }
    best.max(0)
}

/// Moves of a piece from `sq` on an otherwise empty board.
fn mobility(g: &Geometry, ms: &Moveset, sq: kamil_rules::Square) -> usize {
    let mut n = 0;
    for l in &ms.leaps {
        if !l.initial && g.is_square(sq.shift(l.off)) {
            n += 1;
        }
    }
    for r in ms.rides.iter().filter(|r| !r.initial) {
        let mut t = sq.shift(r.off);
        let mut k = 0;
        while k < r.max && g.is_square(t) {
            n += 1;
            k += 1;
            t = t.shift(r.off);
        }
    }
    for (legs, initial) in &ms.multi {
        if !initial && legs.first().is_some_and(|l| g.is_square(sq.shift(l.off))) {
            n += 1;
        }
    }
    n
}

fn average_mobility(g: &Geometry, ms: &Moveset) -> f64 {
    let mut total = 0;
    let mut count = 0;
    for sq in g.squares() {
        total += mobility(g, ms, sq);
        count += 1;
    }
    if count == 0 {
        0.0
    } else {
        total as f64 / count as f64
    }
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
            assert_eq!(eval(name, None, EvalMode::Full), TEMPO, "{name}");
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
}
