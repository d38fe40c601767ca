//! Variant = geometry + pieces + setup + rules + options, loaded from TOML.
//!
//! [`Variant::builtin`] loads a game shipped in `variants/`;
//! [`Variant::from_toml`] loads a user's file. Both take option choices
//! (`KEY=VALUE`, names as in the rule book) and return a checked, compiled
//! variant, or a [`VariantError`] naming the file, line, key and problem.

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

pub use builtin::BUILTIN;
pub use core::Core;
pub use error::VariantError;
pub use tables::{
    AttackTables, BareKing, CastleRule, CompulsoryOpening, FenField, FenRules, Promotion,
    PromotionWhen, RiderReach, Rules, VariantOption, Verdict,
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
    /// The generic rules.
    pub core: Core,
    /// The special-rule families in force (the only place that names them).
    pub specials: Specials,
}

impl std::ops::Deref for Variant {
    type Target = Core;

    #[inline(always)]
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl Variant {
    /// Loads a built-in variant by name (`courier`, `sho-shogi`...) with
    /// option choices `(name, value)`.
    ///
    /// Errors: an unknown name (the message lists the built-in ones), an
    /// unknown option or value.
    pub fn builtin(name: &str, options: &[(String, String)]) -> Result<Variant, VariantError> {
        let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            return Err(VariantError {
                file: name.to_string(),
                line: None,
                key: None,
                what: format!("no such variant; built-in variants: {}", names.join(", ")),
            });
        };
        compile::load(&format!("variants/{name}.toml"), text, options)
    }

    /// Loads a variant from TOML text; `file` names it in errors. `extends`
    /// may name a built-in variant.
    ///
    /// Errors: TOML syntax, unknown or missing keys, bad values (with the
    /// line and key), bad Betza, an unknown piece, an impossible start FEN.
    pub fn from_toml(
        file: &str,
        text: &str,
        options: &[(String, String)],
    ) -> Result<Variant, VariantError> {
        compile::load(file, text, options)
    }

    /// The value of an option in force.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.chosen
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}
