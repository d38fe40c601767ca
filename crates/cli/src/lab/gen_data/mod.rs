//! `kamil gen-data`: labelled positions for training and tuning the
//! evaluation (`kamil train-net`, `kamil tune`), from kamil's self-play at
//! a fixed node count per move or from the games of a PGN file (`kamil
//! match --pgn`, other engines' games).
//!
//! Self-play ([`self_play`]) writes text (`--format text`, the default)
//! or kamil's binary data file (`--format binary`,
//! [`kamil_train::data`]). Text has one position a line, `FEN;RESULT` or,
//! in self-play, `FEN;RESULT;SCORE`: RESULT is what the game was worth to
//! the first player, `1` (won), `0.5` (drawn), `0` (lost), or the share of
//! the points where a game ends in shared points; SCORE is the self-play
//! search's score of the position in centipawns from the side to move's
//! view (a mate score written as ±[`self_play::MATE_SCORE_CP`]), which
//! `kamil train-net` blends with the result. Lines starting with `#` are
//! comments. The binary file holds the same and each position's ply.
//!
//! Kept are quiet positions only: not in check, and the best move (the
//! move played, unless chosen among near-best moves) neither captures nor
//! promotes. The first `--random-plies` plies of a game (played at random
//! in self-play) are not kept.
//!
//! `--label ENGINE --from-data FILE` labels the positions of a data file
//! by another engine's score instead ([`label`]).
//!
//! Self-play is reproducible: game `i` of a run depends only on the seed,
//! `i` and the settings, whatever `--concurrency`; the games are written in
//! order. `--shard I/N` plays the I-th of N contiguous ranges of the
//! games, so shards concatenated in order equal one run. A binary file
//! that a stopped run left is resumed after its last complete game.

mod label;
mod output;

use crate::game_args::{HAND, load_net, load_variant, load_weights};
use anyhow::{Context, Result, bail};
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::files;
use kamil_engine::fingerprint;
use kamil_engine::nnue::Nnue;
use kamil_rules::{Position, Variant, notation, pgn};
use kamil_train::self_play::{self, BinarySink, CompactSink, TextSink, quiet};
use kamil_train::text;
use output::Format;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `kamil gen-data`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant or a variant TOML file (its `NAME.eval.toml`
    /// beside it gives the weights the engine plays with).
    variant: String,
    /// A variant option, `KEY=VALUE`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Games of self-play (of the whole run, all shards together).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Play only shard I of N (from 1): the I-th of N contiguous ranges of
    /// the run's games.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Plies searched per move, in place of `--nodes` (self-play).
    #[arg(long, value_name = "PLIES", conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Seed of the random opening plies and near-best choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies played at random from the start position before the engine
    /// plays (with --from-pgn: plies skipped at each game's start).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Lines the engine searches before --random-until, to choose among
    /// at random (1: always the best move).
    #[arg(long, default_value_t = 1)]
    random_multipv: u32,
    /// Before --random-until, a line within this many centipawns of the
    /// best may be chosen.
    #[arg(long, default_value_t = 0)]
    random_cp: i32,
    /// Near-best moves are chosen at random before this ply.
    #[arg(long, default_value_t = 0)]
    random_until: u32,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1, alias = "threads")]
    concurrency: u32,
    /// Transposition table per engine, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The output's format: text lines, written anew, or the binary data
    /// file, which a stopped run resumes (self-play only), with a FEN a
    /// position (`binary`) or each game as its moves (`compact`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Convert the games of this PGN file instead of playing.
    #[arg(long, value_name = "FILE")]
    from_pgn: Option<PathBuf>,
    /// Label the positions of this data file (`FEN;RESULT` or one FEN a
    /// line) by the `--label` engine's score instead of playing.
    #[arg(
        long,
        value_name = "FILE",
        requires = "label",
        conflicts_with = "from_pgn"
    )]
    from_data: Option<PathBuf>,
    /// The engine that labels `--from-data`, as `kamil match --engine`
    /// takes it, with its limit: `cmd=fairy-stockfish,nodes=3000`.
    #[arg(long, value_name = "ENGINE", requires = "from_data")]
    label: Option<String>,
    /// Centipawns of the labelling engine's score that make odds of 10 to 1
    /// (the label is `1 / (1 + 10^(-cp / scale))`).
    #[arg(long, default_value_t = 400.0)]
    label_scale: f64,
    /// Play with this network (`kamil train-net`'s `.nnue` for the
    /// variant), or `hand` for the hand-written evaluation, instead of
    /// the default (the game's built-in network where it has one): the
    /// next generation's data from this one's self-play. The binary
    /// file's header names the net and its hash, so a run resumes only
    /// with the same net.
    #[arg(long, value_name = "FILE|hand", conflicts_with_all = ["from_pgn", "from_data"])]
    eval: Option<PathBuf>,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Plays (or reads) the games and writes the kept positions to `--out`.
///
/// Errors: a variant that does not load, settings out of range, a PGN file
/// that cannot be read, an output file that cannot be written or (binary)
/// resumed.
pub fn run(args: Args) -> Result<()> {
    let variant = load_variant(&args.variant, &args.options)?;
    let playing = args.from_pgn.is_none() && args.from_data.is_none();
    if !playing && args.format != Format::Text {
        bail!("--format binary and compact are for self-play (they store the search's score)");
    }
    if !playing && args.depth.is_some() {
        bail!("--depth is for self-play (a labelling engine takes its limit in --label)");
    }
    if !playing && args.shard.is_some() {
        bail!("--shard is for self-play");
    }
    let kept = if playing {
        run_self_play(&args, &variant)?
    } else {
        let file = std::fs::File::create(&args.out)
            .with_context(|| format!("creating `{}`", args.out.display()))?;
        let mut out = std::io::BufWriter::new(file);
        let kept = match (&args.from_pgn, &args.from_data, &args.label) {
            (Some(path), _, _) => from_pgn(&variant, path, args.random_plies, &mut out)?,
            (None, Some(path), Some(engine)) => {
                let settings = label::LabelSettings {
                    engine,
                    scale: args.label_scale,
                    concurrency: args.concurrency,
                };
                // The FENs kept, the file read a line at a time.
                let (records, _) = text::open_file(path)?;
                let fens = records
                    .map(|r| r.map(|r| r.fen))
                    .collect::<Result<Vec<String>, _>>()
                    .with_context(|| format!("data file `{}`", path.display()))?;
                label::label(&variant, &fens, &settings, &mut out)?
            }
            _ => bail!("--from-data needs --label"),
        };
        out.flush()
            .with_context(|| format!("writing `{}`", args.out.display()))?;
        kept
    };
    eprintln!("{kept} positions written to {}", args.out.display());
    Ok(())
}

/// Plays the run's (or the shard's) games and writes them to `--out`.
fn run_self_play(args: &Args, variant: &Arc<Variant>) -> Result<u64> {
    // The net as it is written (its weights and header), so that the
    // same net in another file or format version matches.
    let named = |net: Nnue, name: String| {
        let hash = fingerprint::fnv1a(&net.to_bytes());
        (
            EvalChoice::Net(Box::new(net)),
            Some(format!("{name} fnv1a={hash:016x}")),
        )
    };
    let (eval, net) = match &args.eval {
        Some(path) if path.as_os_str() == HAND => (
            EvalChoice::hand(load_weights(&args.variant, variant)?),
            None,
        ),
        Some(path) => {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            named(load_net(variant, path)?, name)
        }
        None => match load_weights(&args.variant, variant)? {
            Some(w) => (EvalChoice::HandWeights(Box::new(w)), None),
            None => match Nnue::builtin(variant) {
                Some(net) => {
                    let net = net.context(
                        "the game's built-in network does not fit these options \
                         (`--eval hand` plays without it)",
                    )?;
                    named(net, format!("built-in {}.nnue", variant.name))
                }
                None => (EvalChoice::Hand, None),
            },
        },
    };
    let settings = self_play::Settings {
        nodes: args.nodes,
        depth: args.depth,
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        hash: args.hash,
        random_multipv: args.random_multipv,
        random_cp: args.random_cp,
        random_until: args.random_until,
        net,
    };
    let games =
        self_play::shard_range(args.shard.as_deref(), args.games).map_err(anyhow::Error::msg)?;
    let shown = args.out.display();
    let (c, v) = (args.concurrency, variant);
    let bar = indicatif::ProgressBar::new(u64::from(games.end - games.start));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {msg} positions, eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut progress = |_games: u32, kept: u64| {
        bar.inc(1);
        bar.set_message(kept.to_string());
    };
    match args.format {
        Format::Text => {
            let file =
                std::fs::File::create(&args.out).with_context(|| format!("creating `{shown}`"))?;
            let mut sink = TextSink {
                out: std::io::BufWriter::new(file),
            };
            let kept = self_play::play(v, eval, &settings, games, c, &mut sink, &mut progress)?;
            bar.finish();
            sink.out
                .flush()
                .with_context(|| format!("writing `{shown}`"))?;
            Ok(kept)
        }
        Format::Binary | Format::Compact => {
            let (file, left) =
                output::open_binary(v, &args.out, &settings.describe(), games.clone())?;
            bar.set_position(u64::from(left.start - games.start));
            let kept = if args.format == Format::Compact {
                let mut sink = CompactSink {
                    out: file,
                    variant: v.clone(),
                };
                self_play::play(v, eval, &settings, left, c, &mut sink, &mut progress)
            } else {
                let mut sink = BinarySink { out: file };
                self_play::play(v, eval, &settings, left, c, &mut sink, &mut progress)
            }
            .with_context(|| format!("writing `{shown}`"))?;
            bar.finish();
            Ok(kept)
        }
    }
}

/// One game's kept positions as lines `FEN;RESULT`.
type GameLines = Vec<String>;

fn lines(fens: Vec<String>, result: f64) -> GameLines {
    fens.into_iter().map(|f| format!("{f};{result}")).collect()
}

/// Converts the games of the PGN file at `path` for `variant`, skipping
/// each game's first `skip` plies and games without a result. Returns the
/// number of positions written.
fn from_pgn(
    variant: &Arc<Variant>,
    path: &std::path::Path,
    skip: u32,
    out: &mut impl Write,
) -> Result<u64> {
    let (file, _) = files::open(path, "PGN file", files::MAX_DATA)?;
    let src = std::io::BufReader::new(file.take(files::MAX_DATA));
    let mut kept = 0u64;
    let mut games = 0u32;
    for (n, chunk) in PgnGames::new(src).enumerate() {
        let chunk = chunk.with_context(|| format!("PGN file `{}`", path.display()))?;
        let game = pgn::read(&chunk).with_context(|| format!("game {} of the PGN", n + 1))?;
        if let Some(name) = game.tag("Variant")
            && name != variant.name
        {
            bail!(
                "game {} of the PGN is `{name}`, not `{}`",
                n + 1,
                variant.name
            );
        }
        let result = match game.result.as_deref() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        let mut pos = match game.tag("FEN") {
            Some(f) => Position::from_fen(variant.clone(), f)
                .with_context(|| format!("game {}: FEN tag", n + 1))?,
            None => Position::start(variant.clone()),
        };
        let mut fens = Vec::new();
        for (ply, text) in game.moves.iter().enumerate() {
            let m = notation::parse_move(&mut pos, text)
                .with_context(|| format!("game {}, ply {}: `{text}`", n + 1, ply + 1))?;
            if ply as u32 >= skip && quiet(&pos, m) {
                fens.push(pos.fen());
            }
            pos.make(m);
        }
        for l in lines(fens, result) {
            writeln!(out, "{l}")?;
            kept += 1;
        }
        games += 1;
    }
    eprintln!("{games} games read");
    Ok(kept)
}

/// Largest game of a PGN file, bytes: [`files::MAX_TEXT`] (a game of a
/// thousand moves is some ten KB).
const MAX_GAME: usize = files::MAX_TEXT as usize;

/// The games of a PGN source, read a line at a time ([`text::Lines`]) and
/// kept a game at a time, never whole: a new game starts at a tag line
/// after movetext. Each item is a game's text; an error ends the reading.
struct PgnGames<R> {
    lines: text::Lines<R>,
    game: String,
    in_moves: bool,
    done: bool,
}

impl<R: BufRead> PgnGames<R> {
    fn new(src: R) -> PgnGames<R> {
        PgnGames {
            lines: text::Lines::new(src, MAX_GAME),
            game: String::new(),
            in_moves: false,
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for PgnGames<R> {
    /// A game's text, or the line that does not read (too long, not UTF-8)
    /// or makes its game too long.
    type Item = Result<String>;

    fn next(&mut self) -> Option<Result<String>> {
        while !self.done {
            let (n, line) = match self.lines.next() {
                Some(Ok(l)) => l,
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e.into()));
                }
                None => {
                    self.done = true;
                    let game = std::mem::take(&mut self.game);
                    return (!game.trim().is_empty()).then_some(Ok(game));
                }
            };
            let t = line.trim_start();
            let mut ended = None;
            if t.starts_with('[') {
                if self.in_moves {
                    ended = Some(std::mem::take(&mut self.game));
                    self.in_moves = false;
                }
            } else if !t.trim().is_empty() {
                self.in_moves = true;
            }
            if self.game.len() + line.len() >= MAX_GAME {
                self.done = true;
                return Some(Err(anyhow::anyhow!(
                    "line {n}: its game is longer than {} (the limit for a game)",
                    files::size(MAX_GAME as u64)
                )));
            }
            self.game.push_str(&line);
            self.game.push('\n');
            if ended.is_some() {
                return ended.map(Ok);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_a_pgn_become_labelled_positions() {
        let v = load_variant("courier", &[]).unwrap();
        let text = "[Variant \"courier\"]\n[Result \"1-0\"]\n\n1. e2e3 e7e6 2. f2f3 f7f6 1-0\n\n\
                    [Variant \"courier\"]\n[Result \"*\"]\n\n1. e2e3 *\n";
        let games: Vec<String> = PgnGames::new(text.as_bytes()).map(Result::unwrap).collect();
        assert_eq!(games.len(), 2);
        assert!(games[1].starts_with("[Variant") && games[1].ends_with("1. e2e3 *\n"));
        let mut out = Vec::new();
        let kept = from_pgn_text(&v, text, 1, &mut out);
        assert_eq!(kept, 3);
        let data = text::read(std::str::from_utf8(&out).unwrap()).unwrap();
        assert!(data.iter().all(|d| d.result == Some(1.0)));
    }

    #[test]
    fn a_pgn_game_over_the_limit_is_an_error_naming_its_line() {
        let mut text = "[Result \"*\"]\n\n1. e2e3 *\n\n[Result \"*\"]\n\n".to_string();
        let moves = "1. e2e3 e7e6 2. f2f3 f7f6\n";
        text.push_str(&moves.repeat(MAX_GAME / moves.len() + 1));
        let mut games = PgnGames::new(text.as_bytes());
        assert!(games.next().unwrap().unwrap().ends_with("1. e2e3 *\n\n"));
        let e = games.next().unwrap().unwrap_err().to_string();
        let last = 6 + MAX_GAME / moves.len();
        assert!(
            e.contains(&format!("line {last}:")) && e.contains("4 MB"),
            "{e}"
        );
        assert!(games.next().is_none());
        // A gigabyte without a line end is refused at the limit, not read.
        let src = std::io::BufReader::new(std::io::repeat(b'1').take(1 << 30));
        let e = PgnGames::new(src).next().unwrap().unwrap_err().to_string();
        assert!(e.contains("line 1:") && e.contains("4 MB"), "{e}");
    }

    fn from_pgn_text(v: &Arc<Variant>, text: &str, skip: u32, out: &mut Vec<u8>) -> u64 {
        let dir = std::env::temp_dir().join(format!("kamil-gen-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        std::fs::write(&path, text).unwrap();
        let kept = from_pgn(v, &path, skip, out).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        kept
    }
}
