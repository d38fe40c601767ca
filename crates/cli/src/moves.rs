//! `kamil moves`: the legal moves of a position, one per line.

use crate::game_args::GameArgs;
use anyhow::Result;
use kamil_rules::notation::move_text;
use std::io::Write;

/// Arguments of `kamil moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Print a JSON array instead of one move per line.
    #[arg(long)]
    json: bool,
}

/// Prints the legal moves of the position reached (none when the game has
/// ended by a rule), sorted.
pub fn run(args: Args) -> Result<()> {
    let mut pos = args.game.position()?;
    let mut moves = Vec::new();
    pos.legal_moves_into(&mut moves);
    let v = pos.variant().clone();
    let mut texts: Vec<String> = moves.iter().map(|m| move_text(&v, *m)).collect();
    texts.sort();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&texts)?)?;
    } else {
        for t in texts {
            writeln!(out, "{t}")?;
        }
    }
    out.flush()?;
    Ok(())
}
