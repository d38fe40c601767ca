//! `kamil`: the command line of the kamil engine and toolkit, as a library.
//!
//! The binary `kamil` is [`main`]. The protocol sessions ([`uci`], which
//! speaks USI too, and [`xboard`]) and the web server's application
//! ([`serve::app`]) are public so that tests and fuzz targets can drive
//! them in-process, without standard input or a socket.

#![deny(missing_docs)]

mod analyse;
mod bench;
mod game_args;
mod lab;
mod moves;
mod perft;
mod play;
use kamil_page::review;
mod rules;
pub mod serve;
pub mod uci;
mod variants;
pub mod xboard;

pub use kamil_protocol::{bounds, out, session};
// The bounded reads of files and standard input (kamil-protocol's).
use kamil_protocol::input;

use anyhow::Result;
use clap::{FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// kamil: engine and toolkit for the great historical chess variants.
#[derive(Parser)]
#[command(name = "kamil", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in games and their options.
    Variants(variants::Args),
    /// Print the legal moves of a position, one per line.
    Moves(moves::Args),
    /// Count the leaf nodes of the legal move tree (perft).
    Perft(perft::Args),
    /// Play a game against the engine in the terminal.
    Play(play::Args),
    /// Speak UCI on standard input and output (for GUIs and tools).
    Uci(uci::Args),
    /// Speak USI (the shogi GUIs' protocol) on standard input and output.
    Usi(uci::usi::Args),
    /// Speak the XBoard protocol (CECP v2) on standard input and output.
    Xboard(xboard::Args),
    /// Search fixed positions to a fixed depth, with one thread (so that
    /// the node count is deterministic): node count and speed.
    Bench(bench::Args),
    /// Play games between two engines, with kamil's rules as referee.
    // Boxed: its arguments are by far the largest.
    Match(Box<lab::matches::Args>),
    /// Print a game's rules in words, with each piece's diagram.
    Rules(rules::Args),
    /// Serve the web page: play any game in the browser (and a JSON API).
    Serve(serve::Args),
    /// Labelled positions for tuning: self-play at fixed nodes, or a PGN.
    GenData(lab::gen_data::Args),
    /// Fit the evaluation's weights to labelled positions (Texel's method).
    Tune(lab::tune::Args),
    /// Train a network (NNUE) on labelled positions; write a `.nnue` file.
    TrainNet(lab::train_net::Args),
    /// Print a binary data file (`gen-data --format binary`) as text lines,
    /// `FEN;RESULT;SCORE`.
    DataText(lab::data_text::Args),
    /// Review a PGN game: evaluate every position, mark inaccuracies,
    /// mistakes and blunders, write the PGN back with comments and NAGs.
    Analyse(analyse::Args),
}

/// The whole `kamil` command: reads the command line, runs the command,
/// reports an error on standard error. Returns the process's exit code:
/// success, or failure after an error (a closed standard output, as in
/// `kamil moves ... | head`, counts as success).
pub fn main() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result: Result<()> = match cli.command {
        None => autodetect(),
        Some(c) => run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`kamil moves ... | head`): nothing more to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kamil: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Variants(a) => variants::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Play(a) => play::run(a),
        Command::Uci(a) => uci::run(a),
        Command::Usi(a) => uci::run_usi(a),
        Command::Bench(a) => bench::run(a),
        Command::Match(a) => lab::matches::run(*a),
        Command::Xboard(a) => xboard::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Serve(a) => serve::run(a),
        Command::GenData(a) => lab::gen_data::run(a),
        Command::Tune(a) => lab::tune::run(a),
        Command::TrainNet(a) => lab::train_net::run(a),
        Command::DataText(a) => lab::data_text::run(a),
        Command::Analyse(a) => analyse::run(a),
    }
}

/// The commands by what they are for, in `kamil --help` (issue 80): a
/// player's first, then the protocols, then the tools for engine authors.
const GROUPS: &[(&str, &[&str])] = &[
    (
        "Play and study",
        &["play", "serve", "analyse", "rules", "variants", "moves"],
    ),
    (
        "Engines and protocols (for GUIs)",
        &["uci", "usi", "xboard"],
    ),
    (
        "Tools for engine authors",
        &[
            "perft",
            "bench",
            "match",
            "gen-data",
            "tune",
            "train-net",
            "data-text",
        ],
    ),
];

/// The command line, its help listing the commands in [`GROUPS`] (each
/// command's own line, from its doc comment).
fn command() -> clap::Command {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let width = cmd
        .get_subcommands()
        .map(|c| c.get_name().len())
        .max()
        .unwrap_or(0);
    let mut groups = String::new();
    for (title, names) in GROUPS {
        groups.push_str(&format!("{title}:\n"));
        for name in *names {
            let about = cmd
                .find_subcommand(name)
                .and_then(|c| c.get_about())
                .map(|a| a.to_string())
                .unwrap_or_default();
            groups.push_str(&format!("  {name:width$}  {about}\n"));
        }
        groups.push('\n');
    }
    cmd.help_template(format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{groups}Options:\n{{options}}{{after-help}}"
    ))
}

/// `kamil` without a command, as GUIs start engines: the first line read
/// chooses the protocol (`uci`, `usi` or `xboard`). On a terminal, the help.
fn autodetect() -> Result<()> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        command().print_help()?;
        return Ok(());
    }
    let mut stdin = std::io::stdin().lock();
    let first = loop {
        match input::read_line(&mut stdin)? {
            None => return Ok(()),
            Some(l) if l.is_empty() => {}
            Some(l) => break l,
        }
    };
    drop(stdin);
    match first.as_str() {
        "xboard" => xboard::run_with(Some(first)),
        "uci" => uci::run_with(Some(first)),
        "usi" => uci::run_usi_with(Some(first)),
        _ => anyhow::bail!(
            "the first line `{first}` names no protocol: expected `uci`, `usi` or `xboard` (or give a command, see `kamil --help`)"
        ),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every command is in one group of the help, once (a new command
    /// must be given its place), and the help lists them under the groups.
    #[test]
    fn the_help_groups_every_command_once() {
        let grouped: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        let names: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        for n in &names {
            assert_eq!(grouped.iter().filter(|g| **g == n).count(), 1, "{n}");
        }
        assert_eq!(grouped.len(), names.len());
        let help = command().render_help().to_string();
        let at = |s: &str| help.find(s).unwrap_or_else(|| panic!("{s}: {help}"));
        assert!(at("Play and study:") < at("  play "));
        assert!(at("  moves ") < at("Engines and protocols"));
        assert!(at("Tools for engine authors:") < at("  train-net "));
        assert!(
            help.contains("Options:") && help.contains("--version"),
            "{help}"
        );
        assert!(!help.contains("boxed"), "{help}");
    }
}
