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
