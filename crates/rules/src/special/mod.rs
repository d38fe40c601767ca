//! Rules that Betza cannot say, one module per rule family, called at fixed
//! hook points of move generation and make (ARCHITECTURE.md): the variant
//! holds a typed configuration per module, never a name looked up in play.

pub mod bodyguard;
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

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{CompulsoryOpeningSpec, SpecialSpec};
use crate::variant::tables::CompulsoryOpening;

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
