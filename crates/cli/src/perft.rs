//! `kamil perft`: move-tree leaf counts, with speed.

use crate::game_args::GameArgs;
use anyhow::{Result, bail};
use kamil_rules::notation::move_text;
use kamil_rules::perft::{divide, perft};
use std::time::Instant;

/// Arguments of `kamil perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant or a path to a variant file.
    variant: String,
    /// Depth in plies.
    depth: u32,
    /// Start from this FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, comma-separated.
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    /// A variant option, `KEY=VALUE`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

/// Prints (with `--divide`) `move count` lines, then
/// `nodes N time SECONDS nps N`.
pub fn run(args: Args) -> Result<()> {
    if args.depth > 64 {
        bail!("depth {} is too deep (at most 64)", args.depth);
    }
    let game = GameArgs {
        variant: args.variant,
        fen: args.fen,
        moves: args.moves,
        options: args.options,
    };
    let mut pos = game.position()?;
    let v = pos.variant().clone();
    let start = Instant::now();
    let nodes = if args.divide {
        let mut rows: Vec<(String, u64)> = divide(&mut pos, args.depth)
            .into_iter()
            .map(|(m, n)| (move_text(&v, m), n))
            .collect();
        rows.sort();
        let mut total = 0;
        for (m, n) in rows {
            println!("{m} {n}");
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
    println!("nodes {nodes} time {secs:.3} nps {nps}");
    Ok(())
}
