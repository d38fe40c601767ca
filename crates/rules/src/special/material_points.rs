//! Endings decided by a material count (rules/frolov-10x10.md 7.1, B12,
//! B13): every ending that is not a win by the rules (the move-count rule,
//! repetition, the game-length limit, an adjudication) is decided by the
//! value of each side's pieces on the board, plus a bonus for the second
//! player; the higher total wins, never a draw when the values make a tie
//! impossible.
//!
//! Hook point: [`crate::outcome::draw_or_points`], which turns such an
//! ending into an [`Outcome::Points`] result when the variant has this
//! module.

use crate::board::Board;
use crate::outcome::kinds::{Outcome, Points, Reason, Scoring};
use crate::piece::Side;

/// The compiled `[special.material_points]` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialPoints {
    /// Per piece type, its value in half-points (B13: pieces count for the
    /// side whose colour they have).
    pub halves: Vec<u32>,
    /// Half-points the second player adds (7.1: 0.5 is 1).
    pub second_bonus: u32,
}

/// Each side's points on the board now.
pub fn count<B: Board>(mp: &MaterialPoints, pos: &B) -> Points {
    let total = |side: Side| -> u32 {
        pos.pieces(side)
            .iter()
            .map(|&s| mp.halves[pos.at(s).kind() as usize])
            .sum()
    };
    Points {
        first: total(Side::First),
        second: total(Side::Second) + mp.second_bonus,
    }
}

/// The ending `reason` decided on points (7.1): the side with more points
/// wins the whole game.
pub fn decide<B: Board>(mp: &MaterialPoints, pos: &B, reason: Reason) -> Outcome {
    Outcome::Points {
        points: count(mp, pos),
        scoring: Scoring::Decisive,
        reason,
        by: None,
    }
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::MaterialPointsSpec;

impl MaterialPoints {
    /// Compiles `[special.material_points]` (rules/frolov-10x10.md 7.1):
    /// points are kept in halves, pieces not listed count 0.
    ///
    /// Errors: a key that names no piece; points that are negative, not
    /// whole or half, or above a million.
    pub fn compile(
        spec: &MaterialPointsSpec,
        ctx: &Context,
    ) -> Result<MaterialPoints, VariantError> {
        let key = "special.material_points";
        let halves = |what: &str, x: f64| {
            let h = x * 2.0;
            if h < 0.0 || h.fract() != 0.0 || h > 1e6 {
                Err(ctx.err(
                    &format!("{key}.{what}"),
                    format!("{x}: points must be whole or half, not negative"),
                ))
            } else {
                Ok(h as u32)
            }
        };
        let mut per_type = vec![0u32; ctx.pieces.len()];
        for (k, &x) in &spec.values {
            let t = ctx.piece(&format!("{key}.values"), k)?;
            per_type[t as usize] = halves("values", x)?;
        }
        Ok(MaterialPoints {
            halves: per_type,
            second_bonus: halves("second_player", spec.second_player)?,
        })
    }
}
