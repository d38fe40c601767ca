//! `kamil gen-data`: labelled positions for tuning the evaluation (`kamil
//! tune`), from kamil's self-play at a fixed node count per move or from
//! the games of a PGN file (`kamil match --pgn`, other engines' games).
//!
//! The output has one position a line, `FEN;RESULT` or, in self-play,
//! `FEN;RESULT;SCORE`: RESULT is what the game was worth to the first
//! player, `1` (won), `0.5` (drawn), `0` (lost), or the share of the points
//! where a game ends in shared points; SCORE is the self-play search's
//! score of the position in centipawns from the side to move's view (a mate
//! score written as ±[`MATE_SCORE_CP`]), which `kamil train-net` blends
//! with the result.
//! Lines starting with `#` are comments. Kept are quiet positions only:
//! not in check, and the move played from them (the engine's best move in
//! self-play) neither captures nor promotes. The first `--random-plies`
//! plies of a game (played at random in self-play) are not kept.
//!
//! `--label ENGINE --from-data FILE` labels the positions of a data file
//! by another engine's score instead ([`label`]).
//!
//! Self-play is reproducible: game `i` of a run depends only on the seed,
//! `i` and the settings, whatever `--concurrency`; the games are written in
//! order.

mod label;

use crate::game_args::{load_variant, load_weights};
use anyhow::{Context, Result, bail};
use kamil_engine::eval::weights::Weights;
use kamil_engine::material::is_capture;
use kamil_engine::{Engine, EngineConfig, EvalMode, Limits, Score};
use kamil_rules::movegen::{in_check, legal_moves};
use kamil_rules::outcome::outcome;
use kamil_rules::{Move, Position, Side, Variant, notation, pgn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

/// Arguments of `kamil gen-data`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant or a variant TOML file (its `NAME.eval.toml`
    /// beside it gives the weights the engine plays with).
    variant: String,
    /// A variant option, `KEY=VALUE`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Games of self-play.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Seed of the random opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies played at random from the start position before the engine
    /// plays (with --from-pgn: plies skipped at each game's start).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1, alias = "threads")]
    concurrency: u32,
    /// Transposition table per engine, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
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
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Plays (or reads) the games and writes the kept positions to `--out`.
///
/// Errors: a variant that does not load, settings out of range, a PGN file
/// that cannot be read, an output file that cannot be written.
pub fn run(args: Args) -> Result<()> {
    let variant = load_variant(&args.variant, &args.options)?;
    let weights = load_weights(&args.variant, &variant)?;
    let file = std::fs::File::create(&args.out)
        .with_context(|| format!("creating `{}`", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let kept = match (&args.from_pgn, &args.from_data, &args.label) {
        (Some(path), _, _) => from_pgn(&variant, path, args.random_plies, &mut out)?,
        (None, Some(path), Some(engine)) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading data file `{}`", path.display()))?;
            let settings = label::LabelSettings {
                engine,
                scale: args.label_scale,
                concurrency: args.concurrency,
            };
            label::label(&variant, &label::data_fens(&text), &settings, &mut out)?
        }
        _ => self_play(&args, &variant, weights, &mut out)?,
    };
    out.flush()
        .with_context(|| format!("writing `{}`", args.out.display()))?;
    eprintln!("{kept} positions written to {}", args.out.display());
    Ok(())
}

/// One game's kept positions as lines `FEN;RESULT[;SCORE]`.
type GameLines = Vec<String>;

/// The centipawns a mate score is written as in a data line: far enough
/// past any evaluation that the win expectation is all but certain.
pub const MATE_SCORE_CP: i32 = 4000;

/// A search score as a data line's SCORE: centipawns, mates at
/// ±[`MATE_SCORE_CP`].
fn data_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-MATE_SCORE_CP, MATE_SCORE_CP),
        Score::Mate(n) if n > 0 => MATE_SCORE_CP,
        Score::Mate(_) => -MATE_SCORE_CP,
    }
}

fn self_play(
    args: &Args,
    variant: &Arc<Variant>,
    weights: Option<Weights>,
    out: &mut impl Write,
) -> Result<u64> {
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let bar = indicatif::ProgressBar::new(u64::from(args.games));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {msg} positions, eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let next = AtomicU32::new(0);
    let (tx, rx) = mpsc::channel::<(u32, Result<GameLines>)>();
    let settings = Settings {
        nodes: args.nodes,
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        hash: args.hash,
    };
    let mut kept = 0u64;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..args.concurrency.min(args.games.max(1)) {
            let tx = tx.clone();
            let (next, weights, settings) = (&next, weights.clone(), &settings);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let r = play_game(variant, weights.clone(), settings, i);
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Written in game order, whichever thread finishes first.
        let mut done: BTreeMap<u32, GameLines> = BTreeMap::new();
        let mut written = 0u32;
        for (i, r) in rx {
            done.insert(i, r?);
            while let Some(lines) = done.remove(&written) {
                for l in &lines {
                    writeln!(out, "{l}")?;
                }
                kept += lines.len() as u64;
                written += 1;
                bar.inc(1);
                bar.set_message(kept.to_string());
            }
        }
        Ok(())
    })?;
    bar.finish();
    Ok(kept)
}

/// What one self-play game needs.
struct Settings {
    nodes: u64,
    seed: u64,
    random_plies: u32,
    max_plies: u32,
    hash: usize,
}

/// Plays game `index` of a run and returns its kept positions.
fn play_game(
    variant: &Arc<Variant>,
    weights: Option<Weights>,
    s: &Settings,
    index: u32,
) -> Result<GameLines> {
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    rng.set_stream(u64::from(index));
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb: s.hash,
        multipv: 1,
        eval: EvalMode::Full,
        threads: 1,
    })
    .context("--hash")?;
    engine.set_evaluation(weights.into());
    let mut pos = Position::start(variant.clone());
    let mut fens = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    let limits = Limits::nodes(s.nodes);
    let mut ply = 0u32;
    let result = loop {
        if let Some(o) = outcome(&mut pos) {
            break o.value(Side::First);
        }
        if ply >= s.max_plies {
            break 0.5;
        }
        let m = if ply < s.random_plies {
            moves.clear();
            legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break 0.5;
            }
            moves[rng.random_range(0..moves.len())]
        } else {
            let r = engine.search(&pos, &limits, &mut |_| {});
            let Some(m) = r.best else { break 0.5 };
            if quiet(&pos, m) {
                fens.push((pos.fen(), data_score(r.score)));
            }
            m
        };
        pos.make(m);
        ply += 1;
    };
    Ok(fens
        .into_iter()
        .map(|(f, cp)| format!("{f};{result};{cp}"))
        .collect())
}

/// Is `pos` quiet enough to label, `m` being the move played from it? Not
/// in check, and `m` neither captures nor promotes.
fn quiet(pos: &Position, m: Move) -> bool {
    !in_check(pos, pos.side()) && !is_capture(pos, m) && m.promotion().is_none()
}

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
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading PGN file `{}`", path.display()))?;
    let mut kept = 0u64;
    let mut games = 0u32;
    for (n, chunk) in split_games(&text).into_iter().enumerate() {
        let game = pgn::read(chunk).with_context(|| format!("game {} of the PGN", n + 1))?;
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

/// The games of a PGN text: a new game starts at a tag line after
/// movetext.
fn split_games(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_moves = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            if in_moves {
                out.push(&text[start..at]);
                start = at;
                in_moves = false;
            }
        } else if !t.trim().is_empty() {
            in_moves = true;
        }
        at += line.len();
    }
    if text[start..].trim().is_empty() {
        return out;
    }
    out.push(&text[start..]);
    out
}

/// One labelled position: a FEN and the result for the first player.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    /// The position, in the variant's FEN.
    pub fen: String,
    /// What the game was worth to the first player, 0 to 1.
    pub result: f64,
}

/// Reads a data file written by `kamil gen-data`.
///
/// Errors: a line that is not `FEN;RESULT` with RESULT from 0 to 1 (the
/// message names the line).
pub fn read_data(text: &str) -> Result<Vec<Labelled>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default();
        let r = fields
            .next()
            .with_context(|| format!("data line {}: no `;RESULT`", i + 1))?;
        let result: f64 = r
            .trim()
            .parse()
            .ok()
            .filter(|x: &f64| (0.0..=1.0).contains(x))
            .with_context(|| format!("data line {}: result `{r}` is not from 0 to 1", i + 1))?;
        out.push(Labelled {
            fen: fen.trim().to_string(),
            result,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(seed: u64) -> Settings {
        Settings {
            nodes: 200,
            seed,
            random_plies: 4,
            max_plies: 24,
            hash: 1,
        }
    }

    #[test]
    fn self_play_is_reproducible_for_a_seed() {
        let v = load_variant("courier", &[]).unwrap();
        let a = play_game(&v, None, &settings(7), 3).unwrap();
        let b = play_game(&v, None, &settings(7), 3).unwrap();
        let c = play_game(&v, None, &settings(8), 3).unwrap();
        assert!(!a.is_empty());
        assert_eq!(a, b);
        assert_ne!(a, c);
        // Drawn by the ply limit, every line says so, and reads back.
        let data = read_data(&a.join("\n")).unwrap();
        assert!(data.iter().all(|d| d.result == 0.5));
        assert_eq!(data.len(), a.len());
        // Each line carries its search score, centipawns in range.
        for l in &a {
            let cp: i32 = l.rsplit(';').next().unwrap().parse().unwrap();
            assert!(cp.abs() <= MATE_SCORE_CP, "{l}");
            assert_eq!(l.split(';').count(), 3, "{l}");
        }
    }

    #[test]
    fn games_of_a_pgn_become_labelled_positions() {
        let v = load_variant("courier", &[]).unwrap();
        let text = "[Variant \"courier\"]\n[Result \"1-0\"]\n\n1. e2e3 e7e6 2. f2f3 f7f6 1-0\n\n\
                    [Variant \"courier\"]\n[Result \"*\"]\n\n1. e2e3 *\n";
        assert_eq!(split_games(text).len(), 2);
        let mut out = Vec::new();
        let kept = from_pgn_text(&v, text, 1, &mut out);
        assert_eq!(kept, 3);
        let data = read_data(std::str::from_utf8(&out).unwrap()).unwrap();
        assert!(data.iter().all(|d| d.result == 1.0));
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

    #[test]
    fn bad_data_lines_are_errors_naming_the_line() {
        let e = read_data("# c\nabc;1\nxyz;2\n").unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        assert!(read_data("abc").is_err());
    }
}
