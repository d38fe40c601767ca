//! `kamil`: the command line of the kamil engine and toolkit.

mod game_args;
mod moves;
mod perft;
mod variants;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// kamil: engine and toolkit for the great historical chess variants.
#[derive(Parser)]
#[command(name = "kamil", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in games and their options.
    Variants(variants::Args),
    /// Print the legal moves of a position, one per line.
    Moves(moves::Args),
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(perft::Args),
}

fn main() {
    let cli = Cli::parse();
    let result: Result<()> = match cli.command {
        Command::Variants(a) => variants::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Perft(a) => perft::run(a),
    };
    if let Err(e) = result {
        eprintln!("kamil: {e:#}");
        std::process::exit(1);
    }
}
