//! `kamil match`: games between two engines, each a command speaking UCI or
//! CECP (XBoard), refereed by kamil's rules. Time controls with increment,
//! colours alternating over a set of openings, several games at once, a
//! live progress line, the score with an Elo estimate and an optional SPRT
//! stop, every game saved as PGN.
//!
//! The engines themselves are [`crate::lab::engines`]'s; here `game.rs` referees
//! one game, `openings.rs` gives start positions and `stats.rs` the numbers.

mod game;
mod openings;
mod stats;

use crate::game_args::load_variant;
use crate::lab::engines::client::MATE_CP;
use crate::lab::engines::client::VariantSpec;
use crate::lab::engines::config::{self, EngineConfig, Limits, Proto, TimeControl};
use crate::lab::engines::{process, seat};
use anyhow::{Context, Result, bail};
use game::{DrawAdjudication, GameRules, Played, Unplayed, WinAdjudication};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kamil_rules::pgn::{Annotation, GameRecord, outcome_tags, write_annotated};
use kamil_rules::{Side, Variant};
use openings::Opening;
use stats::{Score, SprtParams, SprtState, format_elo};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::Duration;

const AFTER_HELP: &str = "\
ENGINES
  --engine takes comma-separated KEY=VALUE fields (quote a value holding a comma):
    cmd=COMMAND          the program and its arguments (required)
    proto=uci|usi|xboard the protocol (default uci; usi = the shogi engines' USI,
                         SFEN positions and USI moves; xboard = CECP version 2)
    name=NAME            the name in reports and PGN (default: the engine's own)
    variant=NAME         the engine's name for the variant (default: kamil's name,
                         or an alias it offers: sho-shogi -> shoshogi or sho)
    option.NAME=VALUE    an engine option (UCI setoption; CECP option NAME=VALUE)
    memory=MB            hash size sent to CECP engines asking for it (default 64)
    setup=auto|setboard|edit|startpos|board
                         how the engine gets the start position: for CECP,
                         setboard when it offers it, else edit mode (auto); UCI:
                         position fen; USI: position sfen. startpos: the variant's
                         start and the moves that lead to the game's start (`new`
                         then the moves; UCI and USI `position startpos moves
                         ...`), so an engine without set-up plays --random-plies
                         openings; a position from --openings still goes by FEN.
                         board: CECP `setboard` with the FEN's board alone, for
                         HaChu, which reads no more and gives the move to the
                         first player (a start with the second to move cannot be
                         given so: the game is not played)
    tc=, depth=, nodes=, movetime=   this engine's own limits (override the match's)

REFEREE
  kamil's rules decide legality and the end of every game. An illegal move, a
  crash, a lost connection, a flag fall (beyond --time-margin), a false result
  claim, `bestmove (none)` in a live position, or refusing a legal move loses
  the game (USI's `bestmove resign` resigns); the reason is printed and
  written in the PGN (Termination tag and a comment). A claim that the opponent has won is a resignation. A CECP
  multi-leg move goes out as comma-separated legs (`e5e6,e6e7`) and may come
  back one leg a line (`move e5e6,` then `move e6e7`). Each opening is played
  twice, colours swapped.
  An engine that cannot start a game is no loss: a refused set-up (an `Error`,
  `Illegal` or `tellusererror` reply to the position; HaChu's `Unknown piece`),
  a crash or silence before its first move, or a complaint about the position
  followed by no legal first move. The match stops with an error naming the
  engine, the game and what the engine said, and prints no score; with
  --keep-going it plays on and lists such games apart, outside the score.

EXAMPLES
  kamil match courier --games 100 --concurrency 2 --random-plies 4 --tc 10+0.1 \\
    --engine 'cmd=kamil uci,name=full' \\
    --engine 'cmd=kamil uci,name=material,option.Eval=material' --pgn eval.pgn
  kamil match courier --tc 10+0.1 --games 40 --concurrency 2 --random-plies 4 \\
    --engine 'cmd=kamil uci' --engine cmd=fairy-stockfish --pgn fsf.pgn
  kamil match courier --tc 10+0.1 --games 40 --concurrency 2 --random-plies 4 \\
    --engine 'cmd=kamil uci' --engine cmd=fairymax,proto=xboard
  kamil match chu-shogi --tc 10+0.1 --games 20 --random-plies 8 \\
    --engine 'cmd=kamil usi,proto=usi' --engine 'cmd=kamil uci'

PEERS
  Debian installs engines in /usr/games, often not on PATH: a bare command name
  not found on PATH is looked for there too.
  Fairy-Stockfish (UCI): its `courier` is kamil's (same start after the
  compulsory advances, same letters); Debian's version 11.1 has no `shoshogi`
  (newer ones do, and VariantPath can add variants: option.VariantPath=FILE).
  Fairy-Max (xboard): its `courier` starts from the array before the compulsory
  advances and it has no setboard, so every game's start position is given in
  edit mode (`black` first when the second player moves), with the same piece
  letters (K F B E M W N R P). Promotions are written with the new piece's
  letter (`a7a8f`), as both programs read and write them.
  HaChu (xboard) gets `memory` before any search (it crashes without it).
  Sho Shogi FENs go to other programs in XBoard's convention
  (`w` = first player: `... w - - 0 1`); kamil uci reads them too, and engines
  offering kamil's `VariantOptions` get the match's --option values.

OUTPUT
  stderr: a progress line (+wins -losses =draws, Elo) and one line per game
  (without a terminal, each game's line ends with that running score instead:
  `[A: +3 -1 =2  Elo +58.5 +/- 201.1]`);
  stdout at the end: `Score of A vs B: W - L - D  [fraction] N` (A = the first
  --engine), the logistic Elo difference A - B with its 95% margin (from the
  trinomial variance), the SPRT's LLR and decision, the games that ended by a
  failure and (--keep-going) the games not played. --log FILE records every
  line exchanged with the engines.";

/// Arguments of `kamil match`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct Args {
    /// A built-in variant (`kamil variants` lists them) or a path to a variant TOML file.
    pub variant: String,
    /// A variant option, `KEY=VALUE` (a bare `KEY` means `KEY=true`); repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// An engine, `cmd=COMMAND,proto=uci|usi|xboard[,name=N][,option.NAME=VALUE]...`; give two.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Number of games (the most, with --sprt).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Time control, BASE[+INC] in seconds (`10+0.1`, `1:00+1`).
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Fixed time per move, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub movetime: Option<String>,
    /// Fixed search depth (for fast, deterministic tests).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move (UCI engines only).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at once (each pair of engines on its own threads).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings: a file with one FEN per line (`#` comments), used in order.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Openings: K random legal plies from the start position (see --seed).
    #[arg(long, value_name = "K")]
    pub random_plies: Option<u32>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adjudicate a draw after N plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// Adjudicate a win when both engines report at least CP centipawns for
    /// the same side on MOVES moves in a row each (UCI engines' `info`
    /// scores), `CP:MOVES` as `1000:4`.
    #[arg(long, value_name = "CP:MOVES")]
    pub adjudicate_win: Option<String>,
    /// Adjudicate a draw from ply PLY on when both engines report at most
    /// CP centipawns either way on MOVES moves in a row each (UCI engines'
    /// `info` scores), `PLY:CP:MOVES` as `80:10:8`.
    #[arg(long, value_name = "PLY:CP:MOVES")]
    pub adjudicate_draw: Option<String>,
    /// Write every game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Stop early on a sequential probability ratio test, `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// How far past its clock an engine may answer, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,
    /// Seconds per move for an engine without a clock (depth, nodes, movetime) before it loses.
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    pub move_timeout: String,
    /// Log everything said to and by the engines to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Play on past a game an engine could not start (a refused set-up, a
    /// crash or silence before its first move): such games are listed
    /// apart and not scored. Without it the match stops with an error.
    #[arg(long)]
    pub keep_going: bool,
}

/// A game that ended, with its number and who played first.
struct Finished {
    index: usize,
    /// Index of the engine that played first.
    first: usize,
    /// The game, or why it was not played.
    played: Result<Played, Unplayed>,
}

/// A move's comment: the score its engine reported with it, in pawns from
/// the mover's view as cutechess writes it (`+0.35`, `-1.20`), a mate as
/// `+M` (the mover mates) or `-M`.
fn score_comment(cp: i32) -> String {
    if cp.abs() >= MATE_CP {
        return if cp > 0 { "+M" } else { "-M" }.to_string();
    }
    format!("{:+.2}", f64::from(cp) / 100.0)
}

/// Today's date as PGN writes it, `2025.01.31` (UTC).
fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Merges an engine's own limits over the match's, field by field.
fn merged(own: &Limits, global: &Limits) -> Limits {
    Limits {
        tc: own.tc.or(global.tc),
        movetime: own.movetime.or(global.movetime),
        depth: own.depth.or(global.depth),
        nodes: own.nodes.or(global.nodes),
    }
}

fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:25}] {pos}/{len} games  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A line on stderr, above the progress bar when there is one.
fn say(bar: &ProgressBar, line: &str) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// The progress message: `+3 -1 =2  Elo +58.5 +/- 201.1  LLR 0.12`.
fn summary(score: &Score, sprt: Option<&SprtParams>) -> String {
    let mut s = format!("+{} -{} ={}", score.wins, score.losses, score.draws);
    if let Some(e) = score.elo() {
        s.push_str(&format!("  Elo {}", format_elo(&e)));
    }
    if let Some(p) = sprt {
        s.push_str(&format!("  LLR {:.2}", score.llr(p)));
    }
    s
}

/// A match ready to play: the engines (started once, so a wrong command
/// fails before any game), their limits and the games' settings.
struct Match {
    cfgs: Vec<EngineConfig>,
    /// Each engine's names in reports and PGN, told apart when equal.
    names: Vec<String>,
    /// Each engine's limits: its own over the match's.
    limits: Vec<Limits>,
    rules: GameRules,
    openings: Vec<Opening>,
    spec: VariantSpec,
    log: Option<process::Log>,
    sprt: Option<SprtParams>,
    games: usize,
    concurrency: usize,
    /// Play on past games an engine could not start (`--keep-going`).
    keep_going: bool,
}

/// What the finished games add up to.
struct Tally {
    score: Score,
    /// The games that ended by a failure, as `game N: why`.
    problems: Vec<String>,
    /// The games an engine could not start, as `game N: why` (not scored).
    broken: Vec<String>,
    /// Without `--keep-going`: the first such game, which stopped the match.
    stopped_by: Option<String>,
    sprt: SprtState,
    /// The first error writing the PGN file (the games go on without it).
    pgn_error: Option<std::io::Error>,
}

/// Runs the match: reads the arguments, starts each engine once, plays the
/// games and prints the score.
///
/// Errors: bad arguments or engine strings, an engine that cannot start,
/// a game an engine could not start (without `--keep-going`; no score is
/// printed), a file that cannot be read or created, a PGN write that
/// failed (after the score is printed).
pub fn run(args: Args) -> Result<()> {
    let variant = load_variant(&args.variant, &args.options)?;
    if args.engines.len() != 2 {
        bail!(
            "give exactly two --engine arguments ({} given)",
            args.engines.len()
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let (cfgs, limits) = engine_configs(&args)?;
    let sprt = args.sprt.as_deref().map(SprtParams::parse).transpose()?;
    let rules = game_rules(&args)?;
    let openings = match_openings(&args, &variant)?;
    let log = match &args.log {
        Some(p) => Some(
            process::Log::create(p).with_context(|| format!("creating log `{}`", p.display()))?,
        ),
        None => None,
    };
    let spec = VariantSpec::of(&variant);
    let names = engine_names(&cfgs, &spec, &log)?;
    let mut pgn = match &args.pgn {
        Some(p) => {
            Some(std::fs::File::create(p).with_context(|| format!("creating `{}`", p.display()))?)
        }
        None => None,
    };
    let m = Match {
        cfgs,
        names,
        limits,
        rules,
        openings,
        spec,
        log,
        sprt,
        games: args.games as usize,
        concurrency: args.concurrency.clamp(1, 64),
        keep_going: args.keep_going,
    };
    let tally = m.play(pgn.as_mut());
    if let Some(why) = &tally.stopped_by {
        bail!(
            "{why}\nthe match is stopped and no game is scored (--keep-going plays on and lists such games apart)"
        );
    }
    m.report(&tally, args.pgn.as_deref())?;
    match tally.pgn_error {
        Some(e) => Err(e).context("writing the PGN file"),
        None => Ok(()),
    }
}

/// The two `--engine` configurations and each engine's limits (its own
/// over the match's `--tc`, `--movetime`, `--depth`, `--nodes`).
///
/// Errors: a limit or engine string that does not read, an engine with no
/// limit, a CECP engine limited by nodes alone.
fn engine_configs(args: &Args) -> Result<(Vec<EngineConfig>, Vec<Limits>)> {
    let global = Limits {
        tc: args.tc.as_deref().map(TimeControl::parse).transpose()?,
        movetime: args
            .movetime
            .as_deref()
            .map(config::seconds)
            .transpose()
            .context("--movetime")?,
        depth: args.depth,
        nodes: args.nodes,
    };
    let mut cfgs = Vec::new();
    for (i, text) in args.engines.iter().enumerate() {
        let cfg = EngineConfig::parse(text).with_context(|| format!("engine {}", i + 1))?;
        cfgs.push(cfg);
    }
    let limits: Vec<Limits> = cfgs.iter().map(|c| merged(&c.limits, &global)).collect();
    for (i, (c, l)) in cfgs.iter().zip(&limits).enumerate() {
        if l.is_empty() {
            bail!(
                "engine {} has no limit: give --tc, --movetime, --depth or --nodes",
                i + 1
            );
        }
        if c.proto == Proto::Cecp
            && l.nodes.is_some()
            && l.tc.is_none()
            && l.depth.is_none()
            && l.movetime.is_none()
        {
            bail!(
                "engine {}: the XBoard protocol has no node limit; give it depth=, movetime= or tc=",
                i + 1
            );
        }
    }
    Ok((cfgs, limits))
}

/// The referee's settings shared by every game.
///
/// Errors: a `--move-timeout`, `--adjudicate-win` or `--adjudicate-draw`
/// that does not read.
fn game_rules(args: &Args) -> Result<GameRules> {
    let move_timeout = config::seconds(&args.move_timeout).context("--move-timeout")?;
    Ok(GameRules {
        max_plies: args.max_plies,
        time_margin: Duration::from_millis(args.time_margin),
        move_timeout,
        win: args
            .adjudicate_win
            .as_deref()
            .map(WinAdjudication::parse)
            .transpose()
            .map_err(anyhow::Error::msg)
            .context("--adjudicate-win")?,
        draw: args
            .adjudicate_draw
            .as_deref()
            .map(DrawAdjudication::parse)
            .transpose()
            .map_err(anyhow::Error::msg)
            .context("--adjudicate-draw")?,
    })
}

/// The start positions: `--openings`' FENs, `--random-plies` openings
/// (one per pair of games), else the variant's start.
///
/// Errors: an openings file that does not read, no random line found.
fn match_openings(args: &Args, variant: &Arc<Variant>) -> Result<Vec<Opening>> {
    let start = Opening::variant_start(variant);
    Ok(if let Some(f) = &args.openings {
        openings::from_file(variant, f)?
    } else if let Some(k) = args.random_plies {
        let n = (args.games as usize).div_ceil(2);
        openings::random(&start.start, n, k, args.seed)?
    } else {
        vec![start]
    })
}

/// Starts each engine once for its name (a wrong command fails here, not
/// as lost games); equal names get ` #1` and ` #2`.
///
/// Errors: an engine that cannot be started, named by its number.
fn engine_names(
    cfgs: &[EngineConfig],
    spec: &VariantSpec,
    log: &Option<process::Log>,
) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for (i, cfg) in cfgs.iter().enumerate() {
        let fallback = cfg.default_name();
        let c = seat::start(cfg, spec, &fallback, log.clone())
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("engine {}", i + 1))?;
        names.push(c.name().to_string());
    }
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    Ok(names)
}

impl Match {
    /// Plays the games, `concurrency` at once, each thread with its own
    /// pair of seats, and takes in each game as it ends: its line on
    /// stderr, the progress line, the PGN (into `pgn`), the SPRT's verdict
    /// (which stops the match once decided). A game an engine could not
    /// start stops the match at once (the games under way are dropped),
    /// unless `keep_going`.
    fn play(&self, mut pgn: Option<&mut std::fs::File>) -> Tally {
        let bar = progress(self.games as u64);
        let date = pgn_date();
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let abort = AtomicBool::new(false);
        // A rendezvous channel: a player thread waits until this thread
        // takes in its game before it starts another, so this thread is
        // never more than a game a player behind, and a stopped SPRT
        // counts at most one more game a player.
        let (tx, rx) = sync_channel::<Finished>(0);
        let mut tally = Tally {
            score: Score::default(),
            problems: Vec::new(),
            broken: Vec::new(),
            stopped_by: None,
            sprt: SprtState::Continue,
            pgn_error: None,
        };
        std::thread::scope(|s| {
            for _ in 0..self.concurrency.min(self.games) {
                let tx = tx.clone();
                let flags = [&stop, &abort];
                let next = &next;
                s.spawn(move || self.serve(next, flags, &tx));
            }
            drop(tx);
            for f in rx {
                let played = match &f.played {
                    Ok(p) => p,
                    Err(u) => {
                        self.not_played(f.index, u, &mut tally, &bar);
                        if tally.stopped_by.is_some() {
                            abort.store(true, Ordering::Relaxed);
                            stop.store(true, Ordering::Relaxed);
                        }
                        continue;
                    }
                };
                self.take_in(f.index, f.first, played, &mut tally, &bar);
                if let Some(file) = pgn.as_mut() {
                    let text = self.pgn_text(f.index, f.first, played, &date);
                    if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                        tally.pgn_error.get_or_insert(e);
                    }
                }
                bar.set_message(summary(&tally.score, self.sprt.as_ref()));
                bar.inc(1);
                if let Some(sp) = &self.sprt
                    && tally.sprt == SprtState::Continue
                {
                    tally.sprt = stats::sprt_state(&tally.score, sp);
                    if tally.sprt != SprtState::Continue {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        bar.finish_and_clear();
        tally
    }

    /// One thread's work: takes the next game number until all are taken
    /// or `stop` is set, plays it (each opening twice, colours swapped;
    /// `abort` drops it) and sends it on `tx`.
    fn serve(
        &self,
        next: &AtomicUsize,
        [stop, abort]: [&AtomicBool; 2],
        tx: &SyncSender<Finished>,
    ) {
        let mut seats = [0, 1].map(|i| {
            seat::Seat::new(
                self.cfgs[i].clone(),
                &self.spec,
                self.names[i].clone(),
                self.log.clone(),
            )
        });
        loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= self.games {
                break;
            }
            let first = index % 2;
            let opening = &self.openings[(index / 2) % self.openings.len()];
            let [s0, s1] = &mut seats;
            let (a, b) = if first == 0 { (s0, s1) } else { (s1, s0) };
            let lim = [&self.limits[first], &self.limits[1 - first]];
            let played = game::play([a, b], opening, lim, &self.rules, abort);
            if tx
                .send(Finished {
                    index,
                    first,
                    played,
                })
                .is_err()
            {
                break;
            }
        }
    }

    /// Game number `index` (from 0), which was not played: listed
    /// apart with `keep_going`, else the reason the match stops (the first
    /// such game's). A game dropped because the match stopped is ignored.
    fn not_played(&self, index: usize, u: &Unplayed, tally: &mut Tally, bar: &ProgressBar) {
        let Unplayed::Broken { why, .. } = u else {
            return;
        };
        let line = format!("game {}: {why}", index + 1);
        if self.keep_going {
            say(bar, &format!("Not played: {line}"));
            tally.broken.push(line);
            bar.inc(1);
        } else {
            tally.stopped_by.get_or_insert(line);
        }
    }

    /// Counts a finished game in `tally` (from the first engine's side)
    /// and says it on stderr: game number `index` (from 0), `first` the
    /// index of the engine that played first.
    fn take_in(
        &self,
        index: usize,
        first: usize,
        p: &Played,
        tally: &mut Tally,
        bar: &ProgressBar,
    ) {
        let white = &self.names[first];
        let black = &self.names[1 - first];
        // Points from engine 0's side.
        let engine0 = if first == 0 {
            Side::First
        } else {
            Side::Second
        };
        tally.score.record(p.value(engine0));
        if p.fault.is_some() {
            tally
                .problems
                .push(format!("game {}: {}", index + 1, p.why));
        }
        let mut line = format!(
            "Finished game {} ({white} vs {black}): {} {{{}}}",
            index + 1,
            p.result(),
            p.why
        );
        // Without a terminal there is no bar to show the running score (a
        // long match logged to a file): each game's line carries it.
        if bar.is_hidden() {
            line.push_str(&format!(
                "  [{}: {}]",
                self.names[0],
                summary(&tally.score, self.sprt.as_ref())
            ));
        }
        say(bar, &line);
    }

    /// A finished game as PGN, its tags naming the engines, the round, the
    /// time control (each side's limits when they differ or have no clock)
    /// and how it ended.
    fn pgn_text(&self, index: usize, first: usize, p: &Played, date: &str) -> String {
        let lw = &self.limits[first];
        let lb = &self.limits[1 - first];
        let tc = match (lw.tc, lb.tc) {
            (Some(a), Some(b)) if a == b => a.pgn(),
            _ => "-".to_string(),
        };
        let mut tags = vec![
            ("Event".to_string(), "kamil match".to_string()),
            ("Site".to_string(), "?".to_string()),
            ("Date".to_string(), date.to_string()),
            ("Round".to_string(), (index + 1).to_string()),
            ("White".to_string(), self.names[first].clone()),
            ("Black".to_string(), self.names[1 - first].clone()),
            ("TimeControl".to_string(), tc),
            ("Termination".to_string(), p.termination.tag().to_string()),
            ("PlyCount".to_string(), p.moves.len().to_string()),
        ];
        if let Some(o) = &p.outcome {
            // The points tags; the Termination tag above stays PGN's own word.
            tags.extend(
                outcome_tags(o)
                    .into_iter()
                    .filter(|(k, _)| k != "Termination"),
            );
        }
        if lw != lb || lw.tc.is_none() {
            tags.push(("WhiteLimits".to_string(), lw.describe()));
            tags.push(("BlackLimits".to_string(), lb.describe()));
        }
        let notes: Vec<Annotation> = p
            .scores
            .iter()
            .map(|s| Annotation {
                nag: None,
                comment: s.map(score_comment),
            })
            .collect();
        write_annotated(
            &GameRecord {
                start: &p.start,
                moves: &p.moves,
                tags: &tags,
                result: p.result(),
                termination: Some(&p.why),
            },
            &notes,
        )
    }

    /// Prints the result on stdout: the score, the Elo difference, the
    /// SPRT's verdict, the games lost by a failure, and the PGN file
    /// (`pgn`) when it was written without error.
    fn report(&self, tally: &Tally, pgn: Option<&Path>) -> Result<()> {
        let mut out = std::io::stdout().lock();
        let score = &tally.score;
        let n = score.games();
        let frac = score.fraction().unwrap_or(0.5);
        writeln!(
            out,
            "Score of {} vs {}: {} - {} - {}  [{frac:.3}] {n}",
            self.names[0], self.names[1], score.wins, score.losses, score.draws
        )?;
        if let Some(e) = score.elo() {
            writeln!(out, "Elo difference: {} (95%)", format_elo(&e))?;
        }
        if let Some(sp) = &self.sprt {
            let (lo, hi) = stats::sprt_bounds(sp);
            let verdict = match tally.sprt {
                SprtState::Continue => "no decision".to_string(),
                SprtState::H0 => format!("H0 accepted (elo0 = {})", sp.elo0),
                SprtState::H1 => format!("H1 accepted (elo1 = {})", sp.elo1),
            };
            writeln!(
                out,
                "SPRT: LLR {:.2} (bounds {lo:.2}, {hi:.2}) - {verdict}",
                score.llr(sp)
            )?;
        }
        if !tally.problems.is_empty() {
            writeln!(out, "Problems:")?;
            for p in &tally.problems {
                writeln!(out, "  {p}")?;
            }
        }
        if !tally.broken.is_empty() {
            writeln!(
                out,
                "Not played, not in the score ({} games an engine could not start):",
                tally.broken.len()
            )?;
            for b in &tally.broken {
                writeln!(out, "  {b}")?;
            }
        }
        if let (Some(p), None) = (pgn, &tally.pgn_error) {
            writeln!(out, "PGN: {}", p.display())?;
        }
        out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_in_pawns_from_the_movers_view() {
        assert_eq!(score_comment(35), "+0.35");
        assert_eq!(score_comment(-120), "-1.20");
        assert_eq!(score_comment(0), "+0.00");
        assert_eq!(score_comment(MATE_CP), "+M");
        assert_eq!(score_comment(-MATE_CP), "-M");
    }
}
