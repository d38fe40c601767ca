//! `kamil uci`: the Universal Chess Interface on standard input and output,
//! with `UCI_Variant` naming the game. This module only translates text to
//! engine calls and back; the search runs in its own thread so `stop` and
//! `isready` are answered while it thinks.

use crate::bounds::{SessionBounds, machine_threads};
use crate::game_args::{load_variant, load_weights};
use crate::input::{self, ProtocolLine};
use crate::out::{self, Out, send};
use anyhow::Result;
use kamil_engine::eval::weights::Weights;
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::nnue::Nnue;
use kamil_engine::{Clock, Engine, EvalMode, Info, Limits, Score, SearchResult, Skill};
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::variant::BUILTIN;
use kamil_rules::variant::aliases::{self, ALIASES};
use kamil_rules::{Position, Variant};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Arguments of `kamil uci` (none: everything is set through the protocol).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the protocol until `quit` or the end of input. A first line
/// `xboard` switches to CECP (`kamil xboard`), for GUIs that start every
/// engine the same way.
pub fn run(_args: Args) -> Result<()> {
    run_with(None)
}

/// Runs the protocol; `first` is a line already read (by the protocol
/// autodetection of a bare `kamil`).
pub fn run_with(first: Option<String>) -> Result<()> {
    let mut session = Session::new(out::stdout());
    let mut stdin = std::io::stdin().lock();
    let mut first = first;
    let mut seen_command = false;
    loop {
        let line = match first.take() {
            Some(l) => l,
            None => match input::read_protocol_line(&mut stdin)? {
                None => break,
                Some(ProtocolLine::TooLong) => {
                    session.info(&format!(
                        "a line longer than {} was ignored",
                        input::size(input::MAX_LINE)
                    ));
                    continue;
                }
                Some(ProtocolLine::Line(l)) => l,
            },
        };
        if !seen_command && !line.trim().is_empty() {
            seen_command = true;
            if line.trim() == "xboard" {
                drop(stdin);
                return crate::xboard::run_with(Some(line));
            }
        }
        if !session.handle(&line) {
            break;
        }
    }
    session.finish();
    Ok(())
}

/// The state of one UCI conversation.
pub struct Session {
    out: Out,
    variant: Arc<Variant>,
    variant_name: String,
    variant_options: Vec<String>,
    position: Position,
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    searching: Arc<AtomicBool>,
    bounds: SessionBounds,
    /// The variant file's weights (`NAME.eval.toml`), if any.
    weights: Option<Weights>,
    /// `EvalFile`: a network file for the selected variant.
    eval_file: Option<String>,
    /// `Use NNUE`: search with the network of `EvalFile` where it loads.
    use_nnue: bool,
}

impl Session {
    /// A session writing to `out`, with the first built-in game selected.
    pub fn new(out: Out) -> Session {
        Session::with_bounds(out, SessionBounds::default())
    }

    /// A session writing to `out`, with the first built-in game selected,
    /// whose searches and hash table stay within `bounds` whatever the
    /// GUI asks.
    pub fn with_bounds(out: Out, bounds: SessionBounds) -> Session {
        let name = BUILTIN[0].0.to_string();
        let variant = Arc::new(Variant::builtin(&name, &[]).expect("built-in variants load"));
        let engine = Engine::new(bounds.engine_config());
        let stop = engine.stop_handle();
        Session {
            out,
            position: Position::start(variant.clone()),
            variant,
            variant_name: name,
            variant_options: Vec::new(),
            engine: Arc::new(Mutex::new(engine)),
            stop,
            search: None,
            searching: Arc::new(AtomicBool::new(false)),
            bounds,
            weights: None,
            eval_file: None,
            use_nnue: true,
        }
    }

    fn info(&self, text: &str) {
        send(&self.out, &format!("info string {text}"));
    }

    fn busy(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }

    /// Waits for a running search to end (after `stop` or on its own).
    fn join(&mut self) {
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    /// Stops any search and waits for its `bestmove`.
    pub fn finish(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.join();
    }

    /// Handles one line of input; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        if self.search.as_ref().is_some_and(|h| h.is_finished()) {
            self.join();
        }
        match cmd {
            "uci" => self.uci(),
            "isready" => send(&self.out, "readyok"),
            "quit" => {
                self.finish();
                return false;
            }
            "stop" => {
                self.stop.store(true, Ordering::SeqCst);
                self.join();
            }
            "ponderhit" => {}
            "debug" | "register" => {}
            _ if self.busy() => self.info(&format!(
                "`{cmd}` ignored: a search is running (send `stop` first)"
            )),
            "ucinewgame" => {
                self.join();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game();
                }
            }
            "setoption" => self.setoption(&rest),
            "position" => self.set_position(&rest),
            "go" => self.go(&rest),
            "d" | "fen" => self.info(&format!("fen {}", self.position.fen())),
            _ => self.info(&format!("unknown command `{cmd}`")),
        }
        true
    }

    fn uci(&self) {
        // Our games, then other programs' names for them (Fairy-Stockfish's
        // `shoshogi`...), which tools look for in this list.
        let names = BUILTIN
            .iter()
            .map(|(n, _)| *n)
            .chain(ALIASES.iter().map(|a| a.name));
        let vars: String = names.map(|n| format!(" var {n}")).collect();
        let lines = [
            format!("id name kamil {}", env!("CARGO_PKG_VERSION")),
            "id author the kamil developers".to_string(),
            format!(
                "option name UCI_Variant type combo default {}{vars}",
                self.variant_name
            ),
            format!(
                "option name Hash type spin default {} min 1 max {}",
                self.bounds.engine_config().hash_mb,
                self.bounds.max_hash_mb
            ),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name Threads type spin default 1 min 1 max {}",
                machine_threads()
            ),
            "option name MultiPV type spin default 1 min 1 max 64".to_string(),
            format!(
                "option name Skill Level type spin default {0} min 0 max {0}",
                Skill::FULL
            ),
            "option name Eval type combo default full var full var material".to_string(),
            "option name VariantOptions type string default <empty>".to_string(),
            "option name Use NNUE type check default true".to_string(),
            "option name EvalFile type string default <empty>".to_string(),
            "uciok".to_string(),
        ];
        for l in lines {
            send(&self.out, &l);
        }
    }

    fn setoption(&mut self, rest: &[&str]) {
        // setoption name <name words> [value <value words>]
        if rest.first() != Some(&"name") {
            self.info("setoption needs `name <option> [value <value>]`");
            return;
        }
        let vpos = rest.iter().position(|w| *w == "value");
        let name = rest[1..vpos.unwrap_or(rest.len())].join(" ");
        let value = vpos.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
        let Ok(mut engine) = self.engine.lock() else {
            return;
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                drop(engine);
                self.select_variant(&value, self.variant_options.clone());
            }
            "variantoptions" => {
                drop(engine);
                let opts: Vec<String> = if value == "<empty>" {
                    Vec::new()
                } else {
                    value
                        .split([',', ' '])
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect()
                };
                self.select_variant(&self.variant_name.clone(), opts);
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=self.bounds.max_hash_mb).contains(&mb) => {
                    if let Err(e) = engine.set_hash_mb(mb) {
                        let kept = engine.config().hash_mb;
                        self.info(&format!("Hash not changed: {e}; keeping {kept} MB"));
                    }
                }
                _ => self.info(&format!(
                    "Hash must be 1 to {} MB, not `{value}`",
                    self.bounds.max_hash_mb
                )),
            },
            "clear hash" => engine.new_game(),
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=machine_threads()).contains(&n) => engine.set_threads(n),
                _ => self.info(&format!(
                    "Threads must be 1 to {}, not `{value}`",
                    machine_threads()
                )),
            },
            "multipv" => match value.parse::<u32>() {
                Ok(n) if (1..=64).contains(&n) => engine.set_multipv(n),
                _ => self.info(&format!("MultiPV must be 1 to 64, not `{value}`")),
            },
            "skill level" => match value.parse::<u8>() {
                Ok(n) if n <= Skill::FULL => {
                    let seed = engine.skill_seed();
                    engine.set_skill(Skill::new(n), seed);
                }
                _ => self.info(&format!(
                    "Skill Level must be 0 to {}, not `{value}`",
                    Skill::FULL
                )),
            },
            "eval" => match value.as_str() {
                "full" => engine.set_eval_mode(EvalMode::Full),
                "material" => engine.set_eval_mode(EvalMode::Material),
                _ => self.info(&format!("Eval must be full or material, not `{value}`")),
            },
            "evalfile" => {
                drop(engine);
                let v = value.trim();
                self.eval_file = (!v.is_empty() && v != "<empty>").then(|| v.to_string());
                self.apply_evaluation();
            }
            "use nnue" => match value.as_str() {
                "true" | "false" => {
                    drop(engine);
                    self.use_nnue = value == "true";
                    self.apply_evaluation();
                }
                _ => self.info(&format!("Use NNUE must be true or false, not `{value}`")),
            },
            "ponder" | "uci_analysemode" | "uci_chess960" => {}
            _ => self.info(&format!("unknown option `{name}`")),
        }
    }

    /// Loads a built-in variant or a variant file, with the weights file
    /// beside a variant file (`foo.eval.toml`), as `kamil play` and
    /// `kamil gen-data` do: a variant defined in a file plays with its own
    /// weights here too. Another program's name for one of our games
    /// ([`aliases`]: `shoshogi`) loads ours with that program's rule
    /// options, before the user's `VariantOptions`.
    fn select_variant(&mut self, name: &str, options: Vec<String>) {
        let (game, all) = aliases::resolve(name, &options);
        let loaded =
            load_variant(&game, &all).and_then(|v| load_weights(&game, &v).map(|w| (v, w)));
        match loaded {
            Ok((v, weights)) => {
                self.variant = v;
                self.variant_name = name.to_string();
                self.variant_options = options;
                self.position = Position::start(self.variant.clone());
                self.weights = weights;
                self.apply_evaluation();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game();
                }
            }
            Err(e) => self.info(&format!("variant not changed: {e:#}")),
        }
    }

    /// Sets the engine's evaluation: the network of `EvalFile` for the
    /// selected variant when `Use NNUE` is on and it loads, else the
    /// hand-written one (with the variant file's weights). A network that
    /// cannot be used is said, naming the file and what is wrong.
    fn apply_evaluation(&mut self) {
        let mut choice: EvalChoice = self.weights.clone().into();
        if self.use_nnue
            && let Some(path) = &self.eval_file
        {
            match Nnue::load(&self.variant, Path::new(path)) {
                Ok(n) => {
                    self.info(&format!("EvalFile {path} in use"));
                    choice = EvalChoice::Net(Box::new(n));
                }
                Err(e) => self.info(&format!(
                    "EvalFile not used, the hand-written evaluation plays: {e}"
                )),
            }
        }
        if let Ok(mut e) = self.engine.lock() {
            e.set_evaluation(choice);
        }
    }

    fn set_position(&mut self, rest: &[&str]) {
        let mpos = rest.iter().position(|w| *w == "moves");
        let (setup, moves) = match mpos {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::start(self.variant.clone()),
            Some(&"fen") if setup.len() > 1 => {
                let fen = setup[1..].join(" ");
                match Position::from_fen(self.variant.clone(), &fen) {
                    Ok(p) => p,
                    Err(e) => {
                        self.info(&format!("position not changed: bad FEN: {e}"));
                        return;
                    }
                }
            }
            _ => {
                self.info("position needs `startpos` or `fen <FEN>`, then `moves ...`");
                return;
            }
        };
        for (i, m) in moves.iter().enumerate() {
            match parse_move(&mut pos, m) {
                Ok(mv) => pos.make(mv),
                Err(e) => {
                    self.info(&refused_move_text(i, moves, &e.what()));
                    break;
                }
            }
        }
        self.position = pos;
    }

    fn go(&mut self, rest: &[&str]) {
        let limits = match parse_go(rest) {
            Ok(l) => self.bounds.limit(l),
            Err(e) => {
                self.info(&e);
                return;
            }
        };
        self.join();
        self.stop.store(false, Ordering::SeqCst);
        self.searching.store(true, Ordering::SeqCst);
        let engine = self.engine.clone();
        let out = self.out.clone();
        let pos = self.position.clone();
        let searching = self.searching.clone();
        let handle = std::thread::spawn(move || {
            let v = pos.variant().clone();
            let result = match engine.lock() {
                Ok(mut e) => e.search(&pos, &limits, &mut |info| {
                    send(&out, &info_line(&v, info));
                }),
                Err(_) => {
                    send(&out, "info string engine unavailable");
                    searching.store(false, Ordering::SeqCst);
                    send(&out, "bestmove (none)");
                    return;
                }
            };
            searching.store(false, Ordering::SeqCst);
            send(&out, &bestmove_line(&v, &result));
        });
        self.search = Some(handle);
    }
}

/// Reads the arguments of `go`. Errors name the bad word.
pub fn parse_go(words: &[&str]) -> std::result::Result<Limits, String> {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    let num = |i: usize, name: &str| -> std::result::Result<u64, String> {
        let w = words
            .get(i + 1)
            .ok_or_else(|| format!("go: `{name}` needs a number"))?;
        // Clocks may run below zero in some GUIs: treat as zero.
        if let Ok(n) = w.parse::<i64>() {
            return Ok(n.max(0) as u64);
        }
        Err(format!("go: `{name}` needs a number, not `{w}`"))
    };
    while i < words.len() {
        let w = words[i];
        match w {
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                i += 1;
                continue;
            }
            "depth" => limits.depth = Some(num(i, w)?.min(u32::MAX as u64) as u32),
            "nodes" => limits.nodes = Some(num(i, w)?),
            "movetime" => limits.movetime = Some(num(i, w)?),
            "wtime" => {
                clock.time[0] = num(i, w)?;
                has_clock = true;
            }
            "btime" => {
                clock.time[1] = num(i, w)?;
                has_clock = true;
            }
            "winc" => clock.inc[0] = num(i, w)?,
            "binc" => clock.inc[1] = num(i, w)?,
            "movestogo" => clock.moves_to_go = Some(num(i, w)?.min(u32::MAX as u64) as u32),
            "mate" => limits.depth = Some((num(i, w)?.min(60) as u32) * 2),
            "searchmoves" => return Err("go: `searchmoves` is not supported".into()),
            _ => return Err(format!("go: unknown word `{w}`")),
        }
        i += 2;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    Ok(limits)
}

/// The report of a `position` command whose move `i` (from 0) of `moves`
/// was refused for `why`: which move, and where the position was left.
fn refused_move_text(i: usize, moves: &[&str], why: &str) -> String {
    let left = match i {
        0 => "at the start (no move made)".to_string(),
        _ => format!("after move {i} `{}`", moves[i - 1]),
    };
    format!(
        "position: move {} `{}` is not legal here ({why}); position left {left}",
        i + 1,
        moves[i]
    )
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// The `info` line for a search report.
pub fn info_line(v: &Variant, i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|m| move_text(v, *m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        pv.join(" ")
    )
}

/// The `bestmove` line for a result (`bestmove (none)` when the game is over).
pub fn bestmove_line(v: &Variant, r: &SearchResult) -> String {
    match r.best {
        Some(m) => match r.ponder {
            Some(p) => format!("bestmove {} ponder {}", move_text(v, m), move_text(v, p)),
            None => format!("bestmove {}", move_text(v, m)),
        },
        None => "bestmove (none)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_clock_and_limits() {
        let l = parse_go(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "movestogo",
            "20",
        ])
        .unwrap();
        let c = l.clock.unwrap();
        assert_eq!(c.time, [1000, 0]);
        assert_eq!(c.inc, [10, 0]);
        assert_eq!(c.moves_to_go, Some(20));
        let l = parse_go(&["depth", "5", "nodes", "100", "infinite"]).unwrap();
        assert_eq!((l.depth, l.nodes, l.infinite), (Some(5), Some(100), true));
    }

    #[test]
    fn a_refused_move_says_which_and_where_the_position_stays() {
        let moves = ["b2b3", "b7b6", "q9q9"];
        assert_eq!(
            refused_move_text(0, &moves, "why"),
            "position: move 1 `b2b3` is not legal here (why); position left at the start (no move made)"
        );
        assert_eq!(
            refused_move_text(2, &moves, "why"),
            "position: move 3 `q9q9` is not legal here (why); position left after move 2 `b7b6`"
        );
    }

    #[test]
    fn go_rejects_bad_words() {
        assert!(parse_go(&["depth"]).unwrap_err().contains("depth"));
        assert!(parse_go(&["depth", "x"]).unwrap_err().contains("`x`"));
        assert!(parse_go(&["sideways"]).unwrap_err().contains("sideways"));
    }
}
