//! What a move changes in material, centipawns: the pieces it captures and
//! what its promotion gains. Move ordering, static exchange and the search
//! all weigh moves by it.

use crate::values::PieceValues;
use kamil_rules::{Move, Position};

/// Value captured by `m`, centipawns: every enemy piece it removes
/// ([`Position::for_each_capture`]), 0 if none.
#[inline(always)]
pub fn captured_value(pos: &Position, values: &PieceValues, m: Move) -> i32 {
    let enemy = pos.side().flip();
    let mut v = 0;
    pos.for_each_capture(m, |_, p| {
        if p.is_side(enemy) {
            v += values.value(p.kind());
        }
    });
    v
}

/// Does `m` capture anything ([`Position::is_capture`])?
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    pos.is_capture(m)
}

/// Value gained by the promotion in `m`, centipawns (0 if none): the new
/// piece less the old, a loss of both when the new piece goes to the
/// opponent (Frolov's hostile generals), plus what a piece gains by
/// becoming its compound (Frolov's capture promotion and upgrades).
#[inline(always)]
pub fn promotion_gain(pos: &Position, values: &PieceValues, m: Move) -> i32 {
    let v = pos.variant();
    let mut gain = match m.promotion() {
        Some(t) => {
            let old = values.value(pos.at(m.from).kind());
            if v.specials.is_hostile_promotion(t) {
                -(values.value(t) + old)
            } else {
                values.value(t) - old
            }
        }
        None => 0,
    };
    if let Some((old, new)) = v.specials.upgrade_by(pos, m) {
        gain += values.value(new.kind()) - values.value(old.kind());
    }
    gain
}
