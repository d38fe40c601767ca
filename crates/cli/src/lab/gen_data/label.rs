//! `kamil gen-data --label ENGINE --from-data FILE`: positions labelled by
//! another engine's search instead of by the result of the game they came
//! from. A game's result says little about one position of it (a drawn game
//! between two near-equal builds labels every position 0.5); a stronger
//! engine's score after a short search says how that engine judges the
//! position itself, which is what the evaluation is tuned towards.
//!
//! The label is a win expectation for the first player,
//! `1 / (1 + 10^(-cp / scale))` of the engine's score `cp` from the side to
//! move's view (turned for the second player). Each position is searched
//! from a new game (`ucinewgame`, CECP `new`), so with a node or depth limit
//! and one thread an engine labels the same position the same way whatever
//! the order or `--concurrency`.

use crate::lab::engines::client::{GameStart, Turn, VariantSpec, peer_fen};
use crate::lab::engines::config::EngineConfig;
use crate::lab::engines::seat::Seat;
use anyhow::{Context, Result, anyhow, bail};
use kamil_rules::{Position, Side, Variant};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long one labelling search may take before the engine is given up.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(60);

/// What labelling needs besides the positions.
pub struct LabelSettings<'a> {
    /// The labelling engine, as `kamil match --engine` takes it; it must
    /// carry its own limit (`nodes=`, `depth=` or `movetime=`).
    pub engine: &'a str,
    /// Centipawns of the engine's score that make odds of 10 to 1.
    pub scale: f64,
    /// Engines searching at once.
    pub concurrency: u32,
}

/// The first player's win expectation, 0 to 1, for a score of `cp`
/// centipawns from the view of `side` to move, at `scale` centipawns per
/// factor of 10 in the odds.
pub fn expectation(cp: i32, side: Side, scale: f64) -> f64 {
    let p = 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / scale));
    if side == Side::First { p } else { 1.0 - p }
}

/// Labels every FEN of `fens` with the engine's score and writes
/// `FEN;LABEL` lines to `out`, in input order. Positions the engine gave no
/// exact score for are left out. Returns the number of lines written.
///
/// Errors: a FEN that does not read (named by its line), an engine without
/// a limit, an engine that cannot be started or fails on a position (it is
/// named, with the position).
pub fn label(
    variant: &Arc<Variant>,
    fens: &[String],
    s: &LabelSettings,
    out: &mut impl Write,
) -> Result<u64> {
    let cfg = EngineConfig::parse(s.engine).context("--label")?;
    if cfg.limits.nodes.is_none() && cfg.limits.depth.is_none() && cfg.limits.movetime.is_none() {
        bail!("--label: give the engine a limit (nodes=N, depth=N or movetime=SECONDS)");
    }
    if cfg.limits.tc.is_some() {
        bail!(
            "--label: a clock (tc=) does not fit one search a position; use nodes=, depth= or movetime="
        );
    }
    if !(s.scale.is_finite() && s.scale > 0.0) {
        bail!("--label-scale must be a positive number of centipawns");
    }
    if s.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let positions = fens
        .iter()
        .enumerate()
        .map(|(i, f)| {
            Position::from_fen(variant.clone(), f)
                .with_context(|| format!("data position {}: `{f}`", i + 1))
        })
        .collect::<Result<Vec<_>>>()?;
    let spec = VariantSpec::of(variant);
    let bar = indicatif::ProgressBar::new(positions.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let mut labels: Vec<Option<f64>> = vec![None; positions.len()];
    let found = std::thread::scope(|scope| -> Result<Vec<(usize, Option<f64>)>> {
        let workers: Vec<_> = (0..s.concurrency.min(positions.len().max(1) as u32))
            .map(|w| {
                let (cfg, spec, positions, next, bar) = (&cfg, &spec, &positions, &next, &bar);
                scope.spawn(move || -> Result<Vec<(usize, Option<f64>)>> {
                    let name = format!("{}#{w}", cfg.default_name());
                    let mut seat = Seat::new(cfg.clone(), spec, name, None);
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(pos) = positions.get(i) else { break };
                        let cp = score(&mut seat, cfg, pos)
                            .with_context(|| format!("data position {}: `{}`", i + 1, fens[i]))?;
                        mine.push((i, cp.map(|c| expectation(c, pos.side(), s.scale))));
                        bar.inc(1);
                    }
                    Ok(mine)
                })
            })
            .collect();
        let mut all = Vec::new();
        for w in workers {
            all.extend(
                w.join()
                    .map_err(|_| anyhow!("a labelling thread panicked"))??,
            );
        }
        Ok(all)
    })?;
    bar.finish();
    for (i, l) in found {
        labels[i] = l;
    }
    let mut written = 0u64;
    for (f, l) in fens.iter().zip(&labels) {
        if let Some(l) = l {
            writeln!(out, "{f};{l:.4}")?;
            written += 1;
        }
    }
    Ok(written)
}

/// The engine's score of `pos` from a new game, centipawns from the side to
/// move's view; `None` when it reported no exact score.
fn score(seat: &mut Seat, cfg: &EngineConfig, pos: &Position) -> Result<Option<i32>> {
    let fen = peer_fen(pos);
    let side = pos.side();
    let limits = [&cfg.limits, &cfg.limits];
    let client = seat.client().map_err(|e| anyhow!(e))?;
    let start = GameStart {
        start: pos,
        fen: &fen,
        is_variant_start: false,
        side,
        limits,
    };
    client
        .new_game(&start)
        .map_err(|f| anyhow!("{}: {f}", client.name()))?;
    let turn = Turn {
        fen: &fen,
        moves: &[],
        clocks: [None, None],
        limits,
        side,
        deadline: Instant::now() + SEARCH_TIMEOUT,
    };
    client
        .think(&turn)
        .map_err(|f| anyhow!("{}: {f}", client.name()))?;
    Ok(client.last_score())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_are_for_the_first_player() {
        assert!((expectation(0, Side::First, 400.0) - 0.5).abs() < 1e-12);
        assert!((expectation(400, Side::First, 400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expectation(400, Side::Second, 400.0) - 1.0 / 11.0).abs() < 1e-12);
        assert!(expectation(100_000, Side::First, 400.0) > 0.999);
    }
}
