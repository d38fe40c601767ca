//! The choice of static evaluation an engine searches with: the
//! hand-written one (with built-in or given weights) or a network. Apart
//! from [`crate::evaluation`], which the evaluations implement, so that
//! the interface imports none of them.

use crate::eval::weights::Weights;
use crate::nnue::Nnue;

/// Which static evaluation an [`crate::Engine`] searches with.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The game's built-in network ([`Nnue::builtin`]) where it has one
    /// that fits the variant searched, else [`EvalChoice::Hand`]. A level
    /// below full strength ([`crate::skill::Skill::weakens`]) searches
    /// with [`EvalChoice::Hand`] too: the levels' Elo ladders were
    /// measured with it. So does a search in [`crate::EvalMode::Material`].
    #[default]
    Builtin,
    /// The hand-written evaluation with the variant's built-in weights
    /// (or the defaults), networks set aside (`Use NNUE false`).
    Hand,
    /// The hand-written evaluation with weights read by the front end (a
    /// user variant's `NAME.eval.toml`) over the defaults; weights that do
    /// not fit the variant searched fall back to [`EvalChoice::Hand`].
    HandWeights(Box<Weights>),
    /// A network ([`crate::nnue::Nnue`]) for its variant; another variant
    /// is searched with [`EvalChoice::Hand`], and so is a search in
    /// [`crate::EvalMode::Material`].
    Net(Box<Nnue>),
}

impl EvalChoice {
    /// The hand-written evaluation with `weights` read by a front end (a
    /// variant file's), or with the built-in ones for `None`.
    pub fn hand(weights: Option<Weights>) -> EvalChoice {
        match weights {
            Some(w) => EvalChoice::HandWeights(Box::new(w)),
            None => EvalChoice::Hand,
        }
    }
}

impl From<Option<Weights>> for EvalChoice {
    /// The default evaluation of a variant: `Some` weights read by a front
    /// end (a variant file's own, so no built-in network), or `None` for
    /// [`EvalChoice::Builtin`].
    fn from(w: Option<Weights>) -> EvalChoice {
        match w {
            Some(w) => EvalChoice::HandWeights(Box::new(w)),
            None => EvalChoice::Builtin,
        }
    }
}
