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
