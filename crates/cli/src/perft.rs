//! `kamil perft`: move-tree leaf counts, with speed.

use crate::game_args::GameArgs;
use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kamil_rules::notation::move_text;
use kamil_rules::perft::perft;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Arguments of `kamil perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Depth in plies.
    depth: u32,
    /// Print the count below each legal move first (`move count` lines,
    /// sorted by move); shows progress on stderr when it is a terminal.
    #[arg(long)]
    divide: bool,
}

/// Prints (with `--divide`) `move count` lines, then
/// `nodes N time SECONDS nps N`.
pub fn run(args: Args) -> Result<()> {
    if args.depth > 64 {
        bail!("depth {} is too deep (at most 64)", args.depth);
    }
    let mut pos = args.game.position()?;
    let v = pos.variant().clone();
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        // As `kamil_rules::perft::divide`, one root move at a time for the progress bar.
        let mut moves = Vec::new();
        pos.legal_moves_into(&mut moves);
        let bar = progress(moves.len() as u64);
        let mut rows: Vec<(String, u64)> = Vec::with_capacity(moves.len());
        for m in moves {
            let text = move_text(&v, m);
            bar.set_message(text.clone());
            pos.make(m);
            let n = perft(&mut pos, args.depth - 1);
            pos.unmake();
            rows.push((text, n));
            bar.inc(1);
        }
        bar.finish_and_clear();
        rows.sort();
        let mut total = 0;
        for (m, n) in rows {
            writeln!(out, "{m} {n}")?;
            total += n;
        }
        total
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    writeln!(out, "nodes {nodes} time {secs:.3} nps {nps}")?;
    out.flush()?;
    Ok(())
}

/// A bar of root moves on stderr, or nothing when stderr is not a terminal.
fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} root moves {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
