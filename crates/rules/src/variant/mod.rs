//! Variant = geometry + pieces + setup + rules + options, loaded from TOML.
//!
//! [`Variant::builtin`] loads a game shipped in `variants/`;
//! [`Variant::from_toml`] loads a user's file. Both take option choices
//! (`KEY=VALUE`, names as in the rule book) and return a checked, compiled
//! variant, or a [`VariantError`] naming the file, line, key and problem.

pub mod aliases;
mod attacks;
mod builtin;
mod compile;
pub mod context;
pub mod core;
pub mod error;
mod pieces;
mod rules;
pub mod schema;
pub mod tables;

pub use crate::special::capabilities::Capabilities;
pub use builtin::BUILTIN;
pub use core::Core;
pub use error::VariantError;
pub use tables::{
    AttackTables, BareKing, CastleRule, CompulsoryOpening, FenField, FenRules, FromOffset,
    Promotion, PromotionWhen, RiderReach, Rules, VariantOption, Verdict,
};

use crate::special::Specials;

/// A compiled, checked variant: its generic rules ([`Core`], which it
/// dereferences to, so `variant.pieces` reads the core's pieces), its
/// special-rule families and what follows from them. Immutable; share it
/// with `Arc`.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Name on the command line.
    pub name: String,
    /// Human title.
    pub title: String,
    /// Short description.
    pub description: String,
    /// The rule book implemented.
    pub rules_source: String,
    /// The options this variant offers.
    pub options: Vec<VariantOption>,
    /// Options in force (name, value), defaults included.
    pub chosen: Vec<(String, String)>,
    /// The built-in variants this one `extends`, nearest first (empty for a
    /// variant that extends none): what it inherits, such as tuned weights.
    pub bases: Vec<String>,
    /// The generic rules.
    pub core: Core,
    /// The special-rule families in force (the only place that names them).
    pub specials: Specials,
    /// What follows from the rules and families, derived once at load.
    pub caps: Capabilities,
}

impl std::ops::Deref for Variant {
    type Target = Core;

    #[inline(always)]
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl Variant {
    /// The value of an option in force.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.chosen
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}
