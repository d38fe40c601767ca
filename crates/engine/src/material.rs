//! What a move changes in material, centipawns: the pieces it captures and
//! what its promotion gains. Move ordering, static exchange and the search
//! all weigh moves by it.

use crate::eval::Evaluator;
use kamil_rules::{Move, MoveKind, Position};

/// Value captured by `m`, centipawns (every piece it removes), 0 if none.
#[inline]
pub fn captured_value(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    let us = pos.side();
    let mut v = 0;
    if m.to != m.from {
        let t = pos.at(m.to);
        if t.is_side(us.flip()) {
            v += eval.value(t.kind());
        }
    }
    if m.via_capture {
        let t = pos.at(m.via);
        if t.is_piece() {
            v += eval.value(t.kind());
        }
    }
    if m.kind == MoveKind::EnPassant && m.extra.is_some() {
        let t = pos.at(m.extra);
        if t.is_piece() {
            v += eval.value(t.kind());
        }
    }
    if m.kind == MoveKind::Checker {
        // A Checker series: every piece its jumps take.
        pos.variant()
            .specials
            .for_each_series_capture(pos, &m, |sq| v += eval.value(pos.at(sq).kind()));
    }
    v
}

/// Does `m` capture anything?
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    (m.to != m.from && pos.at(m.to).is_side(pos.side().flip()))
        || m.via_capture
        || m.kind == MoveKind::EnPassant
        || (m.kind == MoveKind::Checker && {
            let mut any = false;
            pos.variant()
                .specials
                .for_each_series_capture(pos, &m, |_| any = true);
            any
        })
}

/// Value gained by the promotion in `m`, centipawns (0 if none): the new
/// piece less the old, a loss of both when the new piece goes to the
/// opponent (Frolov's hostile generals), plus what a piece gains by
/// becoming its compound (Frolov's capture promotion and upgrades).
#[inline]
pub fn promotion_gain(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    let v = pos.variant();
    let mut gain = match m.promotion() {
        Some(t) => {
            let old = eval.value(pos.at(m.from).kind());
            if v.specials.is_hostile_promotion(t) {
                -(eval.value(t) + old)
            } else {
                eval.value(t) - old
            }
        }
        None => 0,
    };
    if let Some((old, new)) = v.specials.upgrade_by(pos, m) {
        gain += eval.value(new.kind()) - eval.value(old.kind());
    }
    gain
}
