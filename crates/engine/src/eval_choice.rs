//! The choice of static evaluation an engine searches with: the
//! hand-written one (with built-in or given weights) or a network. Apart
//! from [`crate::evaluation`], which the evaluations implement, so that
//! the interface imports none of them.

use crate::eval::weights::Weights;
use crate::nnue::Nnue;

/// Which static evaluation an [`crate::Engine`] searches with.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The hand-written evaluation with the variant's built-in weights
    /// (or the defaults).
    #[default]
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

impl From<Option<Weights>> for EvalChoice {
    /// `Some` weights read by a front end, or `None` for the built-in ones.
    fn from(w: Option<Weights>) -> EvalChoice {
        match w {
            Some(w) => EvalChoice::HandWeights(Box::new(w)),
            None => EvalChoice::Hand,
        }
    }
}
