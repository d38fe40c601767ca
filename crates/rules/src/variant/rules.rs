//! Compiling `[promotion]`, `[rules]` (castling included) and `[fen]`:
//! the generic rules every variant states.

use super::context::Context;
use super::error::VariantError;
use super::schema::{
    CastlingSpec, Check, FenSpec, PromotionSpec, PromotionStyle, RoyalCount, RulesSpec,
};
use super::tables::{CastleRule, FenRules, Promotion, Rules};
use crate::geometry::Square;

/// The FEN conventions of `[fen]`.
pub(super) fn fen_rules(spec: &FenSpec) -> FenRules {
    FenRules {
        side_letters: spec.side_letters.clone(),
        xboard_side_letters: spec.xboard_side_letters.clone(),
        fields: spec.fields.clone(),
    }
}

/// The promotion rules of `[promotion]`.
///
/// Errors: a zone deeper than the board, an unknown piece in `relief`.
pub(super) fn promotion(spec: &PromotionSpec, ctx: &Context) -> Result<Promotion, VariantError> {
    if spec.zone > ctx.geometry.ranks() as u32 {
        return Err(ctx.err("promotion.zone", "deeper than the board"));
    }
    Ok(Promotion {
        zone: spec.zone as u8,
        shogi: spec.style == PromotionStyle::Shogi,
        when: spec.when,
        forced_if_dead: spec.forced_if_dead,
        relief: ctx.type_flags("promotion.relief", &spec.relief)?,
        silent: spec.silent,
    })
}

/// The game rules of `[rules]`.
///
/// Errors: an unknown piece, a castling rule whose squares are not on the
/// board or whose moves would leave it.
pub(super) fn rules(spec: &RulesSpec, ctx: &Context) -> Result<Rules, VariantError> {
    let bare_king_uncounted =
        ctx.type_flags("rules.bare_king_uncounted", &spec.bare_king_uncounted)?;
    let castling = match &spec.castling {
        Some(c) if c.enabled => Some(castling(c, ctx)?),
        _ => None,
    };
    Ok(Rules {
        royal_safety: spec.check == Check::RoyalSafety,
        royals_counted_before_move: spec.royal_count == RoyalCount::BeforeMove,
        stalemate: spec.stalemate,
        bare_king: spec.bare_king,
        bare_king_uncounted,
        repetition: spec.repetition,
        perpetual_check_loses: spec.perpetual_check_loses,
        repetition_forbidden: spec.repetition_forbidden,
        move_rule: spec.move_rule,
        max_plies: spec.max_plies,
        en_passant: spec.en_passant,
        castling,
        insufficient_material: ctx
            .type_mask("rules.insufficient_material", &spec.insufficient_material)?,
    })
}

/// Castling of `[rules.castling]`: the second player's squares are the
/// first player's mirrored across the middle rank unless given.
///
/// Errors: a name that is no square, a missing mirror square, a Rook off
/// its King's rank, distances outside 1 to 8 or that leave the board.
fn castling(c: &CastlingSpec, ctx: &Context) -> Result<CastleRule, VariantError> {
    let mirror = |s: Square| {
        ctx.geometry
            .mirror(s)
            .ok_or_else(|| ctx.err("rules.castling", "the mirror square does not exist"))
    };
    let k1 = ctx.square("rules.castling.king", &c.king)?;
    let k2 = match &c.king_second {
        Some(n) => ctx.square("rules.castling.king_second", n)?,
        None => mirror(k1)?,
    };
    let r1 = [
        ctx.square("rules.castling.rooks", &c.rooks[0])?,
        ctx.square("rules.castling.rooks", &c.rooks[1])?,
    ];
    let r2 = match &c.rooks_second {
        Some(rs) => [
            ctx.square("rules.castling.rooks_second", &rs[0])?,
            ctx.square("rules.castling.rooks_second", &rs[1])?,
        ],
        None => [mirror(r1[0])?, mirror(r1[1])?],
    };
    if c.distances.is_empty() || c.distances.iter().any(|&d| !(1..=8).contains(&d)) {
        return Err(ctx.err("rules.castling.distances", "give distances from 1 to 8"));
    }
    for (k, rooks) in [(k1, r1), (k2, r2)] {
        for rook in rooks {
            castling_fits(ctx, k, rook, &c.distances)?;
        }
    }
    Ok(CastleRule {
        king: [k1, k2],
        rooks: [r1, r2],
        distances: c.distances.iter().map(|&d| d as u8).collect(),
    })
}

/// Checks that every castling move of the King on `king` with the Rook on
/// `rook` lands both on squares.
fn castling_fits(
    ctx: &Context,
    king: Square,
    rook: Square,
    distances: &[u32],
) -> Result<(), VariantError> {
    let g = ctx.geometry;
    let (kf, rf, rank) = (
        g.file(king) as i32,
        g.file(rook) as i32,
        g.rank(king) as i32,
    );
    if g.rank(rook) as i32 != rank || kf == rf {
        return Err(ctx.err(
            "rules.castling.rooks",
            "each Rook must stand on its King's rank",
        ));
    }
    let dir = if rf > kf { 1 } else { -1 };
    for &d in distances {
        let kt = kf + dir * d as i32;
        // A King that would pass its Rook has no such castling.
        if (rf - kt) * dir <= 0 {
            continue;
        }
        if g.square(kt, rank).is_none() || g.square(kt - dir, rank).is_none() {
            return Err(ctx.err(
                "rules.castling.distances",
                format!("castling by {d} would leave the board"),
            ));
        }
    }
    Ok(())
}
