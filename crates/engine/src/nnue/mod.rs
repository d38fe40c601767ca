//! The learned evaluation (NNUE): a small network per variant whose first
//! layer is kept up to date move by move from each move's board changes.
//! - [`features`]: the inputs, (piece type, owner, square) from each
//!   player's side;
//! - [`network`]: the quantised weights and the output;
//! - [`accumulator`]: the first layer's sums per ply of the search's path;
//! - [`file`](mod@file): the documented file format (`variants/NAME.nnue`);
//! - [`simd`]: the instruction set of its loops, chosen at run time.
//!
//! The trainer that makes networks is in the `kamil-train` crate.
//!
//! [`Nnue`] is a [`StaticEval`]: the search pushes an accumulator after
//! each move and pops it at the take-back.

pub mod accumulator;
pub mod features;
pub mod file;
pub mod hybrid;
pub mod network;
pub mod simd;

use crate::evaluation::StaticEval;
use crate::files;
use crate::score::MAX_EVAL;
use crate::values::PieceValues;
use accumulator::Accumulators;
use features::Features;
use file::NetError;
use kamil_rules::BoardChange;
use kamil_rules::excerpt;
use kamil_rules::{Position, Variant};
use network::Network;
use simd::Simd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A network file that could not be used: its path and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum NetFileError {
    /// The file cannot be read: missing, not a regular file, larger
    /// than [`files::MAX_NET`] (the error names the file).
    #[error(transparent)]
    File(#[from] files::FileError),
    /// The bytes are no network for the variant (the source says why).
    #[error("network file `{}`", path.display())]
    Net {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: NetError,
    },
}

/// A network with its variant's feature layout and piece values.
#[derive(Clone, Debug)]
pub struct Nnue {
    /// The variant the network is for.
    variant: Arc<Variant>,
    net: Arc<Network>,
    features: Arc<Features>,
    values: PieceValues,
    /// The instruction set of the arithmetic.
    simd: Simd,
}

impl Nnue {
    /// The evaluation of `net`, a network of `v` with `features`, on the
    /// fastest instruction set of this processor ([`Simd::best`]).
    pub fn new(v: &Arc<Variant>, features: Features, net: Network) -> Nnue {
        Nnue {
            variant: v.clone(),
            net: Arc::new(net),
            features: Arc::new(features),
            values: PieceValues::new(v),
            simd: Simd::best(),
        }
    }

    /// The same evaluation on the instruction set `simd` (the same scores:
    /// for tests and measurements).
    pub fn with_simd(mut self, simd: Simd) -> Nnue {
        self.simd = simd;
        self
    }

    /// The instruction set of the arithmetic.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// Reads a network file's `bytes` for `v`.
    ///
    /// Errors: see [`NetError`].
    pub fn from_bytes(v: &Arc<Variant>, bytes: &[u8]) -> Result<Nnue, NetError> {
        let (net, features) = file::read(v, &Features::new(v), bytes)?;
        Ok(Nnue::new(v, features, net))
    }

    /// Reads the network file at `path` for `v`.
    ///
    /// Errors: the file cannot be read, is not a regular file or is larger
    /// than [`files::MAX_NET`] ([`files::FileError`]), or its bytes are no
    /// network of `v` ([`NetError`]); the message names the file.
    pub fn load(v: &Arc<Variant>, path: &Path) -> Result<Nnue, NetFileError> {
        let bytes = files::read(path, "network file", files::MAX_NET)?;
        Nnue::from_bytes(v, &bytes).map_err(|source| NetFileError::Net {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads the network file at `path` for the built-in variant its
    /// header names, with that variant's default options.
    ///
    /// Errors: as [`Nnue::load`], and [`NetError::NotBuiltIn`] for a
    /// network of a variant that is not built in.
    pub fn load_builtin(path: &Path) -> Result<Nnue, NetFileError> {
        let bytes = files::read(path, "network file", files::MAX_NET)?;
        let net = |source| NetFileError::Net {
            path: path.to_path_buf(),
            source,
        };
        let name = file::variant_name(&bytes).map_err(net)?;
        let v = Variant::builtin(&name, &[])
            .map_err(|_| net(NetError::NotBuiltIn(excerpt(&name).into_owned())))?;
        Nnue::from_bytes(&Arc::new(v), &bytes).map_err(net)
    }

    /// The built-in network of `v`'s game (`variants/NAME.nnue`, embedded
    /// in the binary), read for `v` itself, so with `v`'s options. `None`
    /// when the game has none, or when `v` is a variant file that extends
    /// the game keeping its name (it may have other pieces): the rule of
    /// the built-in weights ([`crate::eval::weights::Params::builtin`]).
    ///
    /// Errors: the embedded network is no network of `v` ([`NetError`]),
    /// as when an option changes the game's pieces.
    pub fn builtin(v: &Arc<Variant>) -> Option<Result<Nnue, NetError>> {
        if v.bases.contains(&v.name) {
            return None;
        }
        let (_, bytes) = crate::builtin::BUILTIN_NETS
            .iter()
            .find(|(name, _)| *name == v.name)?;
        Some(Nnue::from_bytes(v, bytes))
    }

    /// The variant the network is for.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The network file's bytes of this evaluation.
    pub fn to_bytes(&self) -> Vec<u8> {
        file::write(&self.variant, &self.features, &self.net)
    }

    /// Is this the network of `v` (same name, options and piece types)?
    pub fn fits(&self, v: &Variant) -> bool {
        self.variant.name == v.name
            && self.variant.chosen == v.chosen
            && self.variant.pieces.len() == v.pieces.len()
    }

    /// The feature layout.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The score of `pos` from its accumulators `acc` (side to move's view).
    fn score(&self, pos: &Position, acc: &Accumulators) -> i32 {
        let us = pos.side();
        let pieces = pos.pieces_on_board();
        let s = self
            .net
            .output(acc.view(us), acc.view(us.flip()), pieces, self.simd);
        s.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The score of `pos` computed from scratch (no incremental state):
    /// the reference the incremental evaluation must equal.
    pub fn evaluate_fresh(&self, pos: &Position) -> i32 {
        let acc = Accumulators::new(&self.net, &self.features, pos, self.simd);
        self.score(pos, &acc)
    }
}

impl StaticEval for Nnue {
    type State = Accumulators;

    fn piece_values(&self) -> &PieceValues {
        &self.values
    }

    fn new_state(&self, root: &Position) -> Accumulators {
        Accumulators::new(&self.net, &self.features, root, self.simd)
    }

    #[inline]
    fn push(&self, state: &mut Accumulators, pos: &Position, changes: &[BoardChange]) {
        state.push(&self.features, pos, changes);
    }

    #[inline]
    fn pop(&self, state: &mut Accumulators) {
        state.pop();
    }

    #[inline]
    fn evaluate(&self, pos: &Position, state: &mut Accumulators) -> i32 {
        state.update(&self.net, &self.features, pos, self.simd);
        self.score(pos, state)
    }
}
