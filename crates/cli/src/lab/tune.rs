//! `kamil tune`: fits the evaluation's weights to labelled positions by
//! Texel's method ([`kamil_train::texel`]) and writes them as a weights
//! file (`NAME.eval.toml`, every term).

use crate::game_args::{load_variant, load_weights};
use crate::input;
use anyhow::{Context, Result, bail};
use kamil_engine::eval::weights::{Pair, Params, Weights};
use kamil_engine::{EvalMode, Evaluator};
use kamil_rules::Position;
use kamil_train::texel::{
    Fit, Sample, best_scale, descend, flat, flat_floors, frozen_weights, loss, sample,
};
use kamil_train::text;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `kamil tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant or a variant TOML file.
    variant: String,
    /// A variant option, `KEY=VALUE`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// The labelled positions (`FEN;RESULT` lines, from `kamil gen-data`).
    #[arg(long)]
    data: PathBuf,
    /// Start from this weights file (default: the variant's own weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Passes of gradient descent over the data.
    #[arg(long, default_value_t = 300)]
    epochs: u32,
    /// Adam's step size, centipawns (percent for the percent terms).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Leave the piece values as they are.
    #[arg(long)]
    fixed_values: bool,
    /// Leave these weights as they are: a name as the weights file keys it
    /// (`tempo`, `mobility.rook`) or a whole section (`mobility`,
    /// `royal_attacker`, `piece_value`); repeatable. Terms left at 0 this
    /// way also keep the evaluation's cost: mobility and royal attackers
    /// are only computed when one of their weights is not 0.
    #[arg(long, value_name = "NAME")]
    freeze: Vec<String>,
    /// Ridge penalty: adds `l2 · Σ (w - w₀)²` to the loss, `w₀` being the
    /// starting weights (centipawns², or percent² for the percent terms),
    /// so that a weight the data hardly constrains stays near its start.
    /// 0 turns it off.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// The weights file to write (default `NAME.eval.toml` here).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Held-out labelled positions (same format as --data, not fitted):
    /// their loss under the starting and the tuned weights, each with its
    /// own best K, is printed and written in the file's header. A fit that
    /// does not lower it has learnt the data, not the game.
    #[arg(long, value_name = "FILE")]
    validate: Option<PathBuf>,
    /// Fit without the promotion floors: by default a promoted piece is
    /// kept worth at least what it promotes from, in the middle and the
    /// end game (issue 45). For making again a weights file fitted before
    /// the floors (2026-12-05), whose header command lacks this flag.
    #[arg(long)]
    free_promotions: bool,
}

/// Traces the data, fits, writes the weights file; prints the loss per
/// epoch.
///
/// Errors: a variant, weights or data file that does not load (naming the
/// line), no positions, settings out of range, an output that cannot be
/// written.
pub fn run(args: Args) -> Result<()> {
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        bail!("--lr must be a positive number");
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        bail!("--l2 must be 0 or a positive number");
    }
    let variant = load_variant(&args.variant, &args.options)?;
    let start = match &args.weights {
        Some(path) => {
            let text = input::read_file(path, "weights file", input::MAX_FILE)?;
            let w = Weights::from_toml(&text)
                .with_context(|| format!("weights file `{}`", path.display()))?;
            Params::resolve(&variant, &w)
                .with_context(|| format!("weights file `{}`", path.display()))?
        }
        None => match load_weights(&args.variant, &variant)? {
            Some(w) => Params::resolve(&variant, &w)?,
            None => Params::builtin(&variant),
        },
    };
    let ev = Evaluator::with_params(variant.clone(), EvalMode::Full, start.clone());
    let samples = traced(&ev, &args.data)?;
    let held_out = match &args.validate {
        Some(path) => Some(traced(&ev, path)?),
        None => None,
    };
    let weights = flat(&start.pairs);
    let k = best_scale(&samples, &weights);
    let before = loss(&samples, &weights, k);
    println!(
        "{} positions, K = {k:.6} per centipawn, loss {before:.6}",
        samples.len()
    );
    let names = Params::names(&variant);
    let mut freeze = args.freeze.clone();
    if args.fixed_values {
        freeze.push("piece_value".into());
    }
    let frozen = frozen_weights(&names, &freeze).map_err(|f| {
        anyhow::anyhow!(
            "--freeze {f}: no weight or section of `{}` is called that",
            variant.name
        )
    })?;
    let bar = indicatif::ProgressBar::new(u64::from(args.epochs));
    let mut out = std::io::stdout().lock();
    let floors = if args.free_promotions {
        Vec::new()
    } else {
        flat_floors(&variant, &start)
    };
    let tuned = descend(
        &samples,
        &weights,
        &frozen,
        &floors,
        Fit {
            k,
            epochs: args.epochs,
            lr: args.lr,
            l2: args.l2,
        },
        &mut |epoch, l| {
            bar.inc(1);
            bar.set_message(format!("loss {l:.6}"));
            // A closed standard output only loses the log.
            let _ = writeln!(out, "epoch {epoch} loss {l:.6}");
        },
    );
    bar.finish_and_clear();
    let rounded: Vec<Pair> = tuned
        .chunks(2)
        .map(|c| Pair::new(c[0].round() as i32, c[1].round() as i32))
        .collect();
    let params = start.with_pairs(&variant, &rounded)?;
    let after = loss(&samples, &flat(&params.pairs), k);
    println!("loss before {before:.6}, after {after:.6} (rounded weights)");
    let validation = held_out.map(|h| {
        let of = |w: &[f64]| {
            let k = best_scale(&h, w);
            (loss(&h, w, k), k)
        };
        let ((l0, k0), (l1, k1)) = (of(&weights), of(&flat(&params.pairs)));
        let line = format!(
            "held-out loss {l0:.6} before (K = {k0:.6}), {l1:.6} after (K = {k1:.6}) on {} positions of `{}`",
            h.len(),
            args.validate.as_ref().map_or(String::new(), |p| p.display().to_string())
        );
        println!("{line}");
        format!("# {line}.\n")
    });
    let path = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("{}.eval.toml", variant.name)));
    let header = format!(
        "# Evaluation weights of `{}`, tuned by `kamil tune` on {} positions of `{}`:\n\
         # K = {k:.6}, loss {before:.6} before, {after:.6} after, {} epochs, lr {}, l2 {}.\n{}\n",
        variant.name,
        samples.len(),
        args.data.display(),
        args.epochs,
        args.lr,
        args.l2,
        validation.unwrap_or_default()
    );
    std::fs::write(&path, header + &params.to_weights(&variant).to_toml())
        .with_context(|| format!("writing `{}`", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// The traced samples of the data file `path` under `ev` (with a progress
/// bar), read a line at a time ([`text::TextReader`]), never whole.
/// Errors: a file that cannot be read, a line or FEN that does not read
/// (named), no positions.
fn traced(ev: &Evaluator, path: &std::path::Path) -> Result<Vec<Sample>> {
    let shown = path.display();
    let (mut records, len) = text::open_file(path)?;
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} {bar:40} {bytes}/{total_bytes}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message("tracing");
    let mut samples = Vec::new();
    while let Some(d) = records.next() {
        let d = d.with_context(|| format!("`{shown}`"))?;
        let pos = Position::from_fen(ev.variant().clone(), &d.fen).with_context(|| {
            format!(
                "`{shown}` position {} (line {}): bad FEN `{}`",
                samples.len() + 1,
                d.line,
                d.fen
            )
        })?;
        let result = d.needs_result().with_context(|| format!("`{shown}`"))?;
        samples.push(sample(ev, &pos, result));
        bar.set_position(records.bytes_read());
    }
    if samples.is_empty() {
        bar.finish_and_clear();
        bail!("`{shown}` holds no positions");
    }
    bar.finish_and_clear();
    Ok(samples)
}
