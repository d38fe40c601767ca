//! Move pushing: a move from one square to another with the promotion
//! choices the variant gives it there. A primitive below both the generic
//! generator ([`crate::movegen`]) and the special-rule families.

use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::Piece;
use crate::variant::core::Core;
use crate::variant::tables::PromotionWhen;

/// A non-capture to `t`: pushed when generating every move; when only
/// noisy moves are wanted, only its promoting forms.
#[inline(always)]
pub(crate) fn push_quiet<const QUIET: bool>(
    v: &Core,
    p: Piece,
    promotable: bool,
    sq: Square,
    t: Square,
    out: &mut Vec<Move>,
) {
    if QUIET {
        push(v, p, sq, t, Square::NONE, false, false, out);
    } else if promotable {
        let before = out.len();
        push(v, p, sq, t, Square::NONE, false, false, out);
        keep_promotions(out, before);
    }
}

pub(crate) fn keep_promotions(out: &mut Vec<Move>, start: usize) {
    let mut k = start;
    for i in start..out.len() {
        if out[i].promo != 0 {
            out[k] = out[i];
            k += 1;
        }
    }
    out.truncate(k);
}

/// Adds the move from `from` to `to` with the promotion choices it has.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn push(
    v: &Core,
    p: Piece,
    from: Square,
    to: Square,
    via: Square,
    via_cap: bool,
    capture: bool,
    out: &mut Vec<Move>,
) {
    let mut m = Move::new(from, to);
    m.via = via;
    m.via_capture = via_cap;
    if !v.any_promotion {
        out.push(m);
        return;
    }
    let info = &v.pieces[p.kind() as usize];
    let side = p.side();
    if !info.promotes_to.is_empty() {
        if v.in_zone(to, side) {
            for &t in &info.promotes_to {
                m.promo = t + 1;
                out.push(m);
            }
        } else {
            out.push(m);
        }
        return;
    }
    let Some(promoted) = info.promoted else {
        out.push(m);
        return;
    };
    let pr = &v.promotion;
    let (zf, zt) = (v.in_zone(from, side), v.in_zone(to, side));
    let captured = capture || via_cap;
    let dead = v.dead[p.kind() as usize][side.index()][v.geometry.compact(to)];
    let may = match pr.when {
        PromotionWhen::StartOrEnd => zf || zt,
        PromotionWhen::End => zt,
        PromotionWhen::Chu => (!zf && zt) || (zf && captured),
    } || (pr.relief[p.kind() as usize] && !captured && dead);
    if !may {
        out.push(m);
        return;
    }
    if !(pr.forced_if_dead && dead) {
        out.push(m);
    }
    m.promo = promoted + 1;
    out.push(m);
}
