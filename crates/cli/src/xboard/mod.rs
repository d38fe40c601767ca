//! `kamil xboard`: the Chess Engine Communication Protocol (CECP, XBoard
//! protocol version 2) on standard input and output. This module only
//! translates text to engine calls and back: the search runs on its own
//! thread and reports back through the same queue as the input lines, so
//! the position is only ever changed here, one event at a time.
//!
//! By concern, as `uci/` is: the session and its dispatch here; the
//! engine's settings (`feature`, `option`, `memory`, `cores`) in
//! `options.rs`, read into the session core ([`crate::session`]); the game
//! (`new`, `variant`, `setboard`, moves, `undo`) in `game.rs`; the search
//! and analysis in `search.rs`; edit mode in `edit.rs`; the result and
//! thinking lines in `report.rs`; the time control in `clock.rs`; piece IDs
//! (`ids.rs`), legal-move highlights (`highlight.rs`) and the `setup` of a
//! game XBoard does not know (`setup.rs`).

mod clock;
mod edit;
mod game;
mod highlight;
mod ids;
mod options;
mod report;
mod search;
pub mod setup;

pub use report::{result_line, thinking_line};

use crate::bounds::SessionBounds;
use crate::input::{self, ProtocolLine};
use crate::out::{self, Out, send};
use crate::session::{self, Core, EvalNote};
use anyhow::Result;
use clock::{TimeControl, parse_centiseconds, parse_level, parse_seconds};
use ids::XboardIds;
use kamil_engine::{Engine, EvalMode, Limits, SearchResult, Skill};
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::xboard_square;
use kamil_rules::outcome::outcome;
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, Position, Side, Square, Variant};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Arguments of `kamil xboard` (none: everything is set through the protocol).
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

/// What the session reacts to, in arrival order.
pub enum Event {
    /// A line of input.
    Line(String),
    /// The search with this number has ended.
    SearchDone(u64),
    /// A line longer than `input::MAX_LINE` was skipped.
    TooLong,
    /// Input closed.
    Eof,
}

/// Runs the protocol until `quit` or the end of input; `first` is a line
/// already read (by the protocol autodetection of `kamil` and `kamil uci`).
pub fn run_with(first: Option<String>) -> Result<()> {
    let out = out::stdout();
    let (tx, rx) = channel();
    if let Some(l) = first {
        let _ = tx.send(Event::Line(l));
    }
    let reader = tx.clone();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        while let Ok(Some(line)) = input::read_protocol_line(&mut stdin) {
            let event = match line {
                ProtocolLine::Line(l) => Event::Line(l),
                ProtocolLine::TooLong => Event::TooLong,
            };
            if reader.send(event).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let mut session = Session::new(out, tx);
    session.run(&rx);
    Ok(())
}

/// Runs `kamil xboard`.
pub fn run(_args: Args) -> Result<()> {
    run_with(None)
}

/// Why a search runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// To play the engine's move.
    Move,
    /// Analyze mode: until the position changes.
    Analyze,
}

struct Running {
    id: u64,
    purpose: Purpose,
    handle: JoinHandle<Option<SearchResult>>,
}

/// Edit mode (`edit` ... `.`): the board being set up.
struct Edit {
    side: Side,
    cells: BTreeMap<Square, String>,
}

/// The state of one CECP conversation.
pub struct Session {
    out: Out,
    events: Sender<Event>,
    /// The game, evaluation and strength ([`crate::session`]).
    core: Core,
    /// The game's XBoard piece IDs (aliases for tokens XBoard cannot write).
    ids: XboardIds,
    /// Option choices per built-in game (`option NAME=VALUE`).
    options: BTreeMap<String, Vec<String>>,
    pos: Position,
    /// A `setboard` failed: moves are refused until a position is set.
    no_position: bool,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Side>,
    analyzing: bool,
    post: Arc<AtomicBool>,
    tc: TimeControl,
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    search: Option<Running>,
    next_id: u64,
    /// The game has been reported over (`RESULT` sent or `result` received).
    over: bool,
    entry: highlight::Entry,
    hint: Option<Move>,
    edit: Option<Edit>,
    bounds: SessionBounds,
    /// The `UCI_Elo` range the GUI was last told (`feature option`).
    elo_announced: (i32, i32),
}

impl Session {
    /// A session writing to `out`, with the first built-in game selected;
    /// searches report their end on `events`.
    pub fn new(out: Out, events: Sender<Event>) -> Session {
        Session::with_bounds(out, events, SessionBounds::default())
    }

    /// A session writing to `out`, with the first built-in game selected,
    /// whose searches report their end on `events` and, with the hash
    /// table, stay within `bounds` whatever the GUI asks.
    pub fn with_bounds(out: Out, events: Sender<Event>, bounds: SessionBounds) -> Session {
        let core = Core::new(BUILTIN[0].0).expect("built-in variants load");
        let variant = core.variant().clone();
        let engine = Engine::new(bounds.engine_config());
        let stop = engine.stop_handle();
        Session {
            out,
            events,
            pos: Position::start(variant.clone()),
            ids: XboardIds::new(&variant),
            core,
            options: BTreeMap::new(),
            no_position: false,
            engine_side: Some(Side::Second),
            analyzing: false,
            post: Arc::new(AtomicBool::new(false)),
            tc: TimeControl::default(),
            engine: Arc::new(Mutex::new(engine)),
            stop,
            search: None,
            next_id: 0,
            over: false,
            entry: highlight::Entry::default(),
            hint: None,
            edit: None,
            bounds,
            elo_announced: (0, 0),
        }
    }

    /// The settings in force (the game, evaluation and strength).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The engine, for a look at its configuration (tests).
    pub fn engine(&self) -> &Arc<Mutex<Engine>> {
        &self.engine
    }

    /// Handles events until `quit` or the end of input.
    pub fn run(&mut self, events: &Receiver<Event>) {
        while let Ok(ev) = events.recv() {
            match ev {
                Event::Line(l) => {
                    if !self.handle(&l) {
                        break;
                    }
                }
                Event::SearchDone(id) => {
                    if self.search.as_ref().is_some_and(|r| r.id == id) {
                        self.finish_search();
                    }
                }
                Event::TooLong => {
                    let limit = input::size(input::MAX_LINE);
                    self.error(&format!("line longer than {limit}"), "(skipped)");
                }
                Event::Eof => break,
            }
        }
        self.abort_search();
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn error(&self, reason: &str, line: &str) {
        self.say(&format!("Error ({reason}): {line}"));
    }

    /// Handles one line of input; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        if self.edit.is_some() {
            self.edit_line(line);
            return true;
        }
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let args: Vec<&str> = words.collect();
        let rest = line[cmd.len()..].trim();
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hover" | "bk" | "egtpath" | "." => {}
            "protover" => self.features(),
            "quit" => {
                self.abort_search();
                return false;
            }
            "new" => self.new_game(),
            "variant" => self.select_variant(rest, line),
            "force" => {
                self.abort_search();
                self.engine_side = None;
            }
            "go" => {
                self.abort_search();
                self.engine_side = Some(self.pos.side());
                self.think();
            }
            "playother" => {
                self.abort_search();
                self.engine_side = Some(self.pos.side().flip());
            }
            "white" | "black" => self.colour_command(cmd),
            "usermove" => self.user_move(rest, line),
            "?" => self.move_now(),
            "ping" => self.ping(rest),
            "level" | "st" | "sd" | "time" | "otim" => self.clock_command(cmd, &args, line),
            "post" => self.post.store(true, Ordering::SeqCst),
            "nopost" => self.post.store(false, Ordering::SeqCst),
            // No pondering: `hard` is accepted and changes nothing.
            "hard" | "easy" => {}
            "memory" => self.set_memory(&args, line),
            "cores" => self.set_cores(&args, line),
            "setboard" => self.setboard(rest, line),
            "edit" => self.start_edit(),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "result" => {
                self.abort_search();
                self.over = true;
                self.engine_side = None;
            }
            "analyze" => {
                self.abort_search();
                self.analyzing = true;
                self.resume_analysis();
            }
            "exit" => self.exit_analysis(line),
            "hint" => self.say_hint(),
            "option" => self.option(rest, line),
            "lift" | "put" => self.lift_or_put(cmd, rest, line),
            _ => self.bare_move(cmd, &args, line),
        }
        true
    }

    /// `ping N`: `pong N`, not before the move the engine is thinking about.
    fn ping(&mut self, rest: &str) {
        if self.searching(Purpose::Move) {
            self.finish_search();
        }
        self.say(&format!("pong {rest}"));
    }

    /// The time control: `level MPS BASE INC`, `st SECONDS`, `sd DEPTH`,
    /// and the clocks `time` (the engine's) and `otim` (the opponent's) in
    /// centiseconds. A value that does not read is an error line.
    fn clock_command(&mut self, cmd: &str, args: &[&str], line: &str) {
        match cmd {
            "level" => match parse_level(args) {
                Ok(l) => {
                    self.tc.level = Some(l);
                    self.tc.per_move_ms = None;
                }
                Err(e) => self.error(&e, line),
            },
            "st" => match args.first().map(|s| parse_seconds(s)) {
                Some(Ok(ms)) => self.tc.per_move_ms = Some(ms),
                Some(Err(e)) => self.error(&e, line),
                None => self.error("st needs a number of seconds", line),
            },
            "sd" => match args.first().map(|s| s.parse::<u32>()) {
                Some(Ok(d)) if d > 0 => self.tc.depth = Some(d),
                _ => self.error("sd needs a depth in plies, 1 or more", line),
            },
            _ => match args.first().map(|s| parse_centiseconds(s)) {
                Some(Ok(ms)) => {
                    if cmd == "time" {
                        self.tc.own_ms = Some(ms);
                    } else {
                        self.tc.other_ms = Some(ms);
                    }
                }
                Some(Err(e)) => self.error(&e, line),
                None => self.error("needs a number of centiseconds", line),
            },
        }
    }
}
