//! `train-net --stream N`: training on a binary data file larger than
//! memory (issue 77: tens of millions of positions). Each epoch reads the
//! file a game at a time ([`kamil_train::data::Reader`]) and trains on
//! each `N` positions as they come (the trainer shuffles within them), so
//! memory holds `N` training positions and the held-out ones, never the
//! file's. The held-out positions are whole games, drawn by the seed from
//! the games' indices, the same in every epoch; or `--validate`'s.

use anyhow::{Context, Result, bail};
use kamil_engine::nnue::features::Features;
use kamil_rules::Variant;
use kamil_rules::splitmix::SplitMix64;
use kamil_train::data;
use kamil_train::nnue::{Sample, Trainer};
use kamil_train::samples::{self, Blend};
use std::path::Path;
use std::sync::Arc;

/// What a streamed run reads and how it prepares each position.
pub(super) struct Stream<'a> {
    /// The data's variant and its inputs.
    pub v: &'a Arc<Variant>,
    pub features: &'a Features,
    /// The binary data file.
    pub path: &'a Path,
    pub blend: Blend<'a>,
    /// Training positions a step of reading holds.
    pub chunk: usize,
    /// The share of games held out (0 with `--validate`).
    pub holdout: f64,
    pub seed: u64,
    /// Train on each position's mirror image too.
    pub mirror: bool,
    /// Add the factoriser's inputs.
    pub factor: bool,
    /// Leave out positions with fewer pieces (`--only-net-positions`; 0
    /// keeps all).
    pub min_pieces: u16,
}

impl Stream<'_> {
    /// Is game `index` held out? Drawn by the seed, the same each epoch.
    fn held(&self, index: u32) -> bool {
        let mut rng = SplitMix64::new(self.seed ^ 0x7374_7265_616d ^ (u64::from(index) << 20));
        rng.unit() < self.holdout
    }

    fn games(&self) -> Result<impl Iterator<Item = Result<data::Game, data::DataError>> + '_> {
        if !super::is_binary_file(self.path)? {
            bail!(
                "--stream reads a binary data file (gen-data --format compact or binary); `{}` is not one",
                self.path.display()
            );
        }
        Ok(data::open_file(self.v, self.path)?)
    }

    /// The samples of one game, prepared: positions left out, mirror
    /// images added (training only), the factoriser's inputs.
    fn samples(&self, game: data::Game, training: bool) -> Result<Vec<Sample>> {
        let index = game.index;
        let mut out =
            samples::from_games(self.v, self.features, std::iter::once(Ok(game)), self.blend)
                .with_context(|| format!("data file `{}`, game {index}", self.path.display()))?;
        out.retain(|s| s.pieces >= self.min_pieces);
        if training && self.mirror {
            let images: Vec<Sample> = out.iter().map(|s| s.mirrored(self.features)).collect();
            out.extend(images);
        }
        if self.factor {
            for s in &mut out {
                *s = s.factored(self.features);
            }
        }
        Ok(out)
    }

    /// A first pass over the file: the held-out positions and the number
    /// of training positions an epoch holds.
    ///
    /// Errors: the file does not read (naming it and the game).
    pub fn first_pass(&self) -> Result<(Vec<Sample>, usize)> {
        let (mut held, mut count) = (Vec::new(), 0);
        let named = || format!("data file `{}`", self.path.display());
        for game in self.games()? {
            let game = game.with_context(named)?;
            if self.held(game.index) {
                held.extend(self.samples(game, false)?);
            } else {
                count += self.samples(game, true)?.len();
            }
        }
        Ok((held, count))
    }

    /// One epoch: trains on each `chunk` positions as the file gives them.
    /// A second thread reads and prepares the next chunk while the
    /// trainer steps through this one, so an epoch takes about the longer
    /// of the two, not their sum. Returns the mean loss before each step
    /// (weighted by positions) and the positions trained.
    ///
    /// Errors: the file does not read, or a position's inputs are out of
    /// the model's range.
    pub fn epoch(
        &self,
        trainer: &mut Trainer,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(f64, usize)> {
        let (total, trained) = std::thread::scope(|scope| -> Result<(f64, usize)> {
            // One chunk read ahead at most: memory holds two.
            let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<Sample>>>(1);
            scope.spawn(move || {
                let sent = self.read_chunks(&mut |chunk| tx.send(Ok(chunk)).is_ok());
                if let Err(e) = sent {
                    let _ = tx.send(Err(e));
                }
            });
            let (mut total, mut trained) = (0.0, 0usize);
            for chunk in rx {
                let chunk = chunk?;
                trainer.check(&chunk)?;
                total += trainer.epoch(&chunk, progress) * chunk.len() as f64;
                trained += chunk.len();
            }
            Ok((total, trained))
        })?;
        Ok((total / trained.max(1) as f64, trained))
    }

    /// Reads the file's training positions, prepared, and gives them to
    /// `take` in chunks of at least `chunk` (the last may be smaller);
    /// stops early when `take` says false (the trainer has gone).
    ///
    /// Errors: the file does not read.
    fn read_chunks(&self, take: &mut dyn FnMut(Vec<Sample>) -> bool) -> Result<()> {
        let mut buffer: Vec<Sample> = Vec::with_capacity(self.chunk.min(1 << 22));
        let named = || format!("data file `{}`", self.path.display());
        for game in self.games()? {
            let game = game.with_context(named)?;
            if self.held(game.index) {
                continue;
            }
            buffer.extend(self.samples(game, true)?);
            if buffer.len() >= self.chunk {
                let full =
                    std::mem::replace(&mut buffer, Vec::with_capacity(self.chunk.min(1 << 22)));
                if !take(full) {
                    return Ok(());
                }
            }
        }
        if !buffer.is_empty() {
            take(buffer);
        }
        Ok(())
    }
}
