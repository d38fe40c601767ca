//! `kamil bench`: fixed positions of every built-in game searched to a fixed
//! depth. The total node count is deterministic: it is the signature of the
//! search's behaviour (a change that should not alter search keeps it).
//! The bench always searches with one thread, whatever the machine has.

use crate::game_args::{load_network, load_variant};
use anyhow::{Context, Result, bail};
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::{Engine, EngineConfig, EvalMode, Limits};
use kamil_rules::Position;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The bench positions: `variant;FEN` per line (`#` starts a comment).
const POSITIONS: &str = include_str!("../data/bench.txt");

/// Arguments of `kamil bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only this built-in variant's positions (default: every game).
    variant: Option<String>,
    /// Depth of each search, plies.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Transposition table size, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluation: `full` (each game's default: its built-in network where
    /// it has one, else the hand-written evaluation), `hand` (the
    /// hand-written evaluation everywhere), `material` (its material
    /// terms), or a network FILE for VARIANT (then required).
    #[arg(long, default_value = "full", value_name = "full|hand|material|FILE")]
    eval: String,
    /// Print one line per position.
    #[arg(long, short)]
    verbose: bool,
}

/// Prints (with `--verbose`) `variant nodes ms` per position, then
/// `nodes N time S nps N`.
pub fn run(args: Args) -> Result<()> {
    if args.depth == 0 || args.depth > 64 {
        bail!("depth {} is out of range (1 to 64)", args.depth);
    }
    let (eval, net) = match (args.eval.as_str(), &args.variant) {
        ("full", _) => (EvalMode::Full, None),
        ("hand", _) => (EvalMode::Full, Some(EvalChoice::Hand)),
        ("material", _) => (EvalMode::Material, None),
        (file, Some(name)) => {
            let v = load_variant(name, &[])?;
            let net = load_network(&v, Path::new(file))?;
            if let EvalChoice::Net(n) = &net {
                eprintln!(
                    "kamil bench: network {file}, {} arithmetic",
                    n.simd().name()
                );
            }
            (EvalMode::Full, Some(net))
        }
        (file, None) => bail!(
            "--eval {file}: a network is for one game: name it (`kamil bench VARIANT --eval FILE`); \
             the evaluations by name are full, hand and material"
        ),
    };
    let mut list = Vec::new();
    for (i, line) in POSITIONS.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, fen) = line
            .split_once(';')
            .with_context(|| format!("bench.txt line {}: no `;`", i + 1))?;
        if args.variant.as_deref().is_some_and(|v| v != name) {
            continue;
        }
        list.push((name.to_string(), fen.to_string()));
    }
    if list.is_empty() {
        bail!(
            "no bench positions for `{}`",
            args.variant.as_deref().unwrap_or("")
        );
    }
    let mut out = std::io::stdout().lock();
    let mut total = 0u64;
    let start = Instant::now();
    for (name, fen) in &list {
        let v = load_variant(name, &[])?;
        let pos = Position::from_fen(v, fen).with_context(|| format!("bench FEN `{fen}`"))?;
        // A fresh engine per position: the count must not depend on order.
        let mut engine = Engine::try_new(EngineConfig {
            hash_mb: args.hash,
            multipv: 1,
            eval,
            threads: 1,
        })
        .context("--hash")?;
        if let Some(n) = &net {
            engine.set_evaluation(n.clone());
        }
        let t = Instant::now();
        let r = engine.search(&pos, &Limits::depth(args.depth), &mut |_| {});
        total += r.nodes;
        if args.verbose {
            writeln!(
                out,
                "{name} nodes {} time {} ms fen {fen}",
                r.nodes,
                t.elapsed().as_millis()
            )?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "nodes {total} time {secs:.3} nps {}",
        (total as f64 / secs.max(1e-9)) as u64
    )?;
    Ok(())
}
