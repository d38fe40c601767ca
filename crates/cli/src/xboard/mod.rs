//! `kamil xboard`: the Chess Engine Communication Protocol (CECP, XBoard
//! protocol version 2) on standard input and output. This module only
//! translates text to engine calls and back: the search runs on its own
//! thread and reports back through the same queue as the input lines, so
//! the position is only ever changed here, one event at a time.

mod clock;
mod highlight;
mod ids;
pub mod setup;

use crate::bounds::{SessionBounds, machine_threads};
use crate::game_args::load_variant;
use crate::input::{self, ProtocolLine};
use crate::out::{self, Out, send};
use anyhow::Result;
use clock::{TimeControl, parse_centiseconds, parse_level, parse_seconds};
use ids::XboardIds;
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::nnue::Nnue;
use kamil_engine::skill::elo;
use kamil_engine::{Engine, EvalMode, Info, Limits, Score, SearchResult, Skill, Strength};
use kamil_rules::notation::{parse_xboard_move, xboard_square};
use kamil_rules::outcome::outcome;
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, Outcome, Position, Side, Square, Variant};
use std::collections::BTreeMap;
use std::path::Path;
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
    /// A line longer than [`input::MAX_LINE`] was skipped.
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
    variant: Arc<Variant>,
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
    /// `EvalFile`: a network file for the selected game.
    eval_file: Option<String>,
    /// `Use NNUE`: search with a network, `EvalFile`'s where it loads, else
    /// the game's built-in one where it has one.
    use_nnue: bool,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`.
    strength: Strength,
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
        let variant =
            Arc::new(Variant::builtin(BUILTIN[0].0, &[]).expect("built-in variants load"));
        let engine = Engine::new(bounds.engine_config());
        let stop = engine.stop_handle();
        Session {
            out,
            events,
            pos: Position::start(variant.clone()),
            ids: XboardIds::new(&variant),
            variant,
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
            eval_file: None,
            use_nnue: true,
            strength: Strength::default(),
        }
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

    /// `?`: play the move now (stops a search for the engine's move).
    fn move_now(&self) {
        if self.searching(Purpose::Move) {
            self.stop.store(true, Ordering::SeqCst);
        }
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

    /// `memory MB`: the hash table's size, at most the session's bound; a
    /// size the engine cannot take is told to the user and the old one kept.
    fn set_memory(&mut self, args: &[&str], line: &str) {
        match args.first().map(|s| s.parse::<usize>()) {
            Some(Ok(mb)) if mb >= 1 => {
                self.abort_search();
                let failed = match self.engine.lock() {
                    Ok(mut e) => e
                        .set_hash_mb(mb.min(self.bounds.max_hash_mb))
                        .err()
                        .map(|err| (err, e.config().hash_mb)),
                    Err(_) => None,
                };
                if let Some((err, kept)) = failed {
                    self.say(&format!(
                        "telluser memory not changed: {err}; keeping {kept} MB"
                    ));
                }
                self.resume_analysis();
            }
            _ => self.error("memory needs a size in MB, 1 or more", line),
        }
    }

    /// `cores N`: search threads, at most the machine's.
    fn set_cores(&mut self, args: &[&str], line: &str) {
        match args.first().map(|s| s.parse::<usize>()) {
            Some(Ok(n)) if n >= 1 => {
                self.abort_search();
                if let Ok(mut e) = self.engine.lock() {
                    e.set_threads(n.min(machine_threads()));
                }
                self.resume_analysis();
            }
            _ => self.error("cores needs a number of threads, 1 or more", line),
        }
    }

    /// `edit`: enters edit mode on the current board, first player to set up.
    fn start_edit(&mut self) {
        self.abort_search();
        self.edit = Some(Edit {
            side: Side::First,
            cells: BTreeMap::new(),
        });
        self.edit_seed();
    }

    /// `exit`: leaves analyze mode; an error outside it.
    fn exit_analysis(&mut self, line: &str) {
        if self.analyzing {
            self.abort_search();
            self.analyzing = false;
        } else {
            self.error("command not legal now", line);
        }
    }

    /// `hint`: the move the last search expected, if any.
    fn say_hint(&self) {
        if let Some(m) = self.hint {
            let text = self.ids.move_text(&self.variant, m);
            self.say(&format!("Hint: {text}"));
        }
    }

    /// A line that is no command: a bare move (protocol 1 style, or
    /// usermove off) when it looks like one, else an error line.
    fn bare_move(&mut self, cmd: &str, args: &[&str], line: &str) {
        if cmd.as_bytes()[0].is_ascii_lowercase()
            && cmd.as_bytes().get(1).is_some_and(|b| b.is_ascii_digit())
            && args.is_empty()
        {
            self.user_move(cmd, line);
        } else {
            self.error("unknown command", line);
        }
    }

    fn features(&self) {
        let mut lines = vec![
            "feature done=0".to_string(),
            format!(
                "feature myname=\"kamil {}\" variants=\"{}\"",
                env!("CARGO_PKG_VERSION"),
                setup::variant_list()
            ),
            "feature setboard=1 ping=1 playother=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 \
             reuse=1 analyze=1 colors=0 memory=1 smp=1 highlight=1 nps=0 name=0 exclude=0 debug=1"
                .to_string(),
            "feature option=\"Eval -combo *full /// material\"".to_string(),
            "feature option=\"Clear Hash -button\"".to_string(),
            "feature option=\"EvalFile -file \"".to_string(),
            "feature option=\"Use NNUE -check 1\"".to_string(),
            format!(
                "feature option=\"Skill Level -spin {0} 0 {0}\"",
                Skill::FULL
            ),
            "feature option=\"UCI_LimitStrength -check 0\"".to_string(),
            format!(
                "feature option=\"UCI_Elo -spin {} {} {}\"",
                self.strength.elo,
                elo::elo_range().0,
                elo::elo_range().1
            ),
        ];
        for (name, _) in BUILTIN {
            let Ok(v) = Variant::builtin(name, &[]) else {
                continue;
            };
            for o in &v.options {
                let spec = if o.values.is_empty() {
                    format!("-string {}", o.default)
                } else {
                    let choices: Vec<String> = o
                        .values
                        .iter()
                        .map(|c| {
                            if *c == o.default {
                                format!("*{c}")
                            } else {
                                c.clone()
                            }
                        })
                        .collect();
                    format!("-combo {}", choices.join(" /// "))
                };
                lines.push(format!("feature option=\"{name} {} {spec}\"", o.name));
            }
        }
        lines.push("feature done=1".to_string());
        for l in lines {
            self.say(&l);
        }
    }

    /// `option NAME=VALUE`: engine settings, or a game's option (`GAME KEY`),
    /// used from the next `new` or `variant` (at once if no move was made).
    fn option(&mut self, rest: &str, line: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        match (name, value) {
            ("Eval", Some(v)) => {
                let mode = match v {
                    "full" => EvalMode::Full,
                    "material" => EvalMode::Material,
                    _ => return self.error("Eval is full or material", line),
                };
                self.abort_search();
                if let Ok(mut e) = self.engine.lock() {
                    e.set_eval_mode(mode);
                }
                self.resume_analysis();
            }
            ("EvalFile", v) => {
                let v = v.unwrap_or("").trim();
                self.eval_file = (!v.is_empty()).then(|| v.to_string());
                self.apply_evaluation();
                self.resume_analysis();
            }
            ("Use NNUE", Some(v)) => {
                self.use_nnue = match v {
                    "1" => true,
                    "0" => false,
                    _ => return self.error("Use NNUE is 1 or 0", line),
                };
                self.apply_evaluation();
                self.resume_analysis();
            }
            ("Skill Level", Some(v)) => {
                self.strength.level = match v.parse::<u8>() {
                    Ok(n) if n <= Skill::FULL => n,
                    _ => return self.error("Skill Level is 0 to 20", line),
                };
                self.apply_strength();
            }
            ("UCI_LimitStrength", Some(v)) => {
                self.strength.limit = match v {
                    "1" => true,
                    "0" => false,
                    _ => return self.error("UCI_LimitStrength is 1 or 0", line),
                };
                self.apply_strength();
            }
            ("UCI_Elo", Some(v)) => {
                let (lo, hi) = elo::elo_range();
                self.strength.elo = match v.parse::<i32>() {
                    Ok(n) if (lo..=hi).contains(&n) => n,
                    _ => return self.error(&format!("UCI_Elo is {lo} to {hi}"), line),
                };
                self.apply_strength();
            }
            ("Clear Hash", _) => {
                self.abort_search();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game();
                }
                self.resume_analysis();
            }
            (name, Some(value)) => {
                let Some((game, key)) = name.split_once(' ') else {
                    return self.error("unknown option", line);
                };
                let known = Variant::builtin(game, &[])
                    .ok()
                    .and_then(|v| v.options.iter().find(|o| o.name == key).cloned());
                let Some(opt) = known else {
                    return self.error("unknown option", line);
                };
                if !opt.values.is_empty() && !opt.values.iter().any(|c| c == value) {
                    return self.error(&format!("{key} is one of {}", opt.values.join(", ")), line);
                }
                let choices = self.options.entry(game.to_string()).or_default();
                choices.retain(|c| c.split('=').next() != Some(key));
                if value != opt.default {
                    choices.push(format!("{key}={value}"));
                }
                if self.variant.name == game && self.pos.depth() == 0 {
                    self.load(game, line);
                    self.resume_analysis();
                }
            }
            _ => self.error("unknown option", line),
        }
    }

    /// Loads `game` with its chosen options at its start position.
    /// Returns false (after an error line) when it cannot be loaded.
    fn load(&mut self, game: &str, line: &str) -> bool {
        let opts = self.options.get(game).cloned().unwrap_or_default();
        match load_variant(game, &opts) {
            Ok(v) => {
                let other = v.name != self.variant.name || v.chosen != self.variant.chosen;
                self.ids = XboardIds::new(&v);
                self.variant = v.clone();
                self.pos = Position::start(v);
                self.no_position = false;
                self.over = false;
                self.hint = None;
                if other && self.eval_file.is_some() {
                    self.apply_evaluation();
                }
                if other && self.strength.limit {
                    self.abort_search();
                    self.set_skill();
                }
                true
            }
            Err(e) => {
                self.error(&format!("{e:#}"), line);
                false
            }
        }
    }

    /// Sets the engine's evaluation for the selected game (stopping a
    /// search). With `Use NNUE` on: the network of `EvalFile` when one is
    /// set and it loads, else the default ([`EvalChoice::Builtin`], the
    /// game's built-in network where it has one); with it off, the
    /// hand-written one. A network that cannot be used is said
    /// (`tellusererror`, naming the file and what differs) and the default
    /// evaluation plays.
    fn apply_evaluation(&mut self) {
        self.abort_search();
        let mut choice = if self.use_nnue {
            EvalChoice::Builtin
        } else {
            EvalChoice::Hand
        };
        if self.use_nnue
            && let Some(path) = &self.eval_file
        {
            match Nnue::load(&self.variant, Path::new(path)) {
                Ok(n) => {
                    self.say(&format!(
                        "# EvalFile {path} in use for {}",
                        self.variant.name
                    ));
                    choice = EvalChoice::Net(Box::new(n));
                }
                Err(e) => self.say(&format!(
                    "tellusererror EvalFile not used, the default evaluation plays: {e}"
                )),
            }
        }
        if let Ok(mut e) = self.engine.lock() {
            e.set_evaluation(choice);
        }
    }

    /// Sets the engine's level from the strength options for the
    /// selected game (`UCI_Elo` reads the game's ladder), stopping and
    /// resuming an analysis.
    fn apply_strength(&mut self) {
        self.abort_search();
        self.set_skill();
        self.resume_analysis();
    }

    /// Gives the engine the level the strength options ask for in the
    /// selected game (no search may be running).
    fn set_skill(&mut self) {
        let skill = self.strength.skill(&self.variant);
        if let Ok(mut e) = self.engine.lock() {
            e.set_level(skill);
        }
    }

    fn new_game(&mut self) {
        self.abort_search();
        let name = self.variant.name.clone();
        self.load(&name, "new");
        self.engine_side = Some(Side::Second);
        self.tc.depth = None;
        self.tc.per_move_ms = None;
        if let Ok(mut e) = self.engine.lock() {
            e.new_game();
        }
        self.resume_analysis();
    }

    fn select_variant(&mut self, name: &str, line: &str) {
        self.abort_search();
        let Some(game) = setup::builtin_for(name) else {
            return self.error("unknown variant", line);
        };
        if !self.load(game, line) {
            return;
        }
        match setup::setup_lines(&self.variant, &self.pos) {
            Ok(lines) => {
                for l in lines {
                    self.say(&l);
                }
            }
            Err(e) => self.say(&format!("tellusererror {e}")),
        }
        self.resume_analysis();
    }

    /// Sets the game to `fen` (kamil's form); a FEN that does not read
    /// leaves no position and is reported as `Error (what: reason): line`.
    fn load_fen(&mut self, fen: &str, what: &str, line: &str) {
        match Position::from_fen(self.variant.clone(), fen) {
            Ok(p) => {
                self.pos = p;
                self.no_position = false;
                self.over = false;
            }
            Err(e) => {
                self.no_position = true;
                self.error(&format!("{what}: {e}"), line);
            }
        }
    }

    fn setboard(&mut self, fen: &str, line: &str) {
        self.abort_search();
        let fen = self.ids.fen_from_xboard(&self.variant, fen);
        self.load_fen(&fen, "bad FEN", line);
        self.resume_analysis();
    }

    /// The obsolete `white` / `black`: that side to move, the engine the other.
    fn colour_command(&mut self, cmd: &str) {
        self.abort_search();
        let side = if cmd == "white" {
            Side::First
        } else {
            Side::Second
        };
        if self.pos.side() != side {
            let fen = self.pos.fen();
            let mut fields: Vec<&str> = fen.split_whitespace().collect();
            let letter = self.variant.fen.side_letters[side.index()].clone();
            if fields.len() < 2 {
                fields.push(&letter);
            } else {
                fields[1] = &letter;
            }
            if let Ok(p) = Position::from_fen(self.variant.clone(), &fields.join(" ")) {
                self.pos = p;
            }
        }
        self.engine_side = Some(side.flip());
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        self.abort_search();
        if self.pos.depth() < plies {
            return self.error("command not legal now", line);
        }
        for _ in 0..plies {
            self.pos.unmake();
        }
        self.over = false;
        self.resume_analysis();
    }

    fn user_move(&mut self, text: &str, line: &str) {
        if self.searching(Purpose::Move) {
            return self.error("command not legal now", line);
        }
        if self.no_position {
            return self.say(&format!(
                "Illegal move (no position: the last setboard failed): {text}"
            ));
        }
        self.abort_search();
        let ours = self.ids.move_from_xboard(&self.variant, text);
        match parse_xboard_move(&mut self.pos, &ours) {
            Ok(m) => {
                self.pos.make(m);
                self.entry = highlight::Entry::default();
            }
            Err(e) => return self.say(&format!("Illegal move ({}): {text}", e.kind)),
        }
        if self.analyzing {
            self.resume_analysis();
        } else if self.engine_side == Some(self.pos.side()) {
            self.think();
        } else if self.engine_side.is_some() {
            self.report_end();
        }
    }

    fn lift_or_put(&mut self, cmd: &str, sq: &str, line: &str) {
        let g = &self.variant.geometry;
        let cell = g
            .squares()
            .find(|&s| xboard_square(g, s) == sq.trim_end_matches(','));
        let Some(sq) = cell else {
            return self.error("not a square", line);
        };
        let answer = if cmd == "lift" {
            highlight::lift(&mut self.pos, sq, &mut self.entry)
        } else {
            highlight::put(&mut self.pos, sq, &mut self.entry, &self.ids)
        };
        if let Some(a) = answer {
            self.say(&a);
        }
    }

    /// Sends `RESULT {comment}` if the game has ended by rule and has not
    /// been reported yet; returns whether the game is over.
    fn report_end(&mut self) -> bool {
        if self.over {
            return true;
        }
        match outcome(&mut self.pos) {
            Some(o) => {
                self.over = true;
                self.say(&result_line(o));
                true
            }
            None => false,
        }
    }

    fn searching(&self, purpose: Purpose) -> bool {
        self.search.as_ref().is_some_and(|r| r.purpose == purpose)
    }

    /// Starts the search for the engine's move, unless the game is over.
    fn think(&mut self) {
        if self.no_position || self.report_end() {
            return;
        }
        let moves_done = (self.pos.fullmove().saturating_sub(1)) + self.pos.depth() as u32 / 2;
        let limits = self.tc.limits(self.pos.side(), moves_done);
        self.start_search(Purpose::Move, limits);
    }

    /// Restarts the analysis after the position changed, in analyze mode.
    fn resume_analysis(&mut self) {
        if self.analyzing && self.search.is_none() && !self.no_position {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start_search(Purpose::Analyze, limits);
        }
    }

    fn start_search(&mut self, purpose: Purpose, limits: Limits) {
        self.abort_search();
        let limits = self.bounds.limit(limits);
        self.next_id += 1;
        let id = self.next_id;
        self.stop.store(false, Ordering::SeqCst);
        let engine = self.engine.clone();
        let out = self.out.clone();
        let post = self.post.clone();
        let pos = self.pos.clone();
        let events = self.events.clone();
        let ids = self.ids.clone();
        let handle = std::thread::spawn(move || {
            let v = pos.variant().clone();
            let result = engine.lock().ok().map(|mut e| {
                e.search(&pos, &limits, &mut |info| {
                    if post.load(Ordering::SeqCst) {
                        send(&out, &thinking_line(&v, &ids, info));
                    }
                })
            });
            let _ = events.send(Event::SearchDone(id));
            result
        });
        self.search = Some(Running {
            id,
            purpose,
            handle,
        });
    }

    /// Stops a running search and forgets its result.
    fn abort_search(&mut self) {
        if let Some(r) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = r.handle.join();
        }
    }

    /// Waits for the running search and acts on its result: the engine's
    /// move is made and sent (one `move` line per leg), then the game end
    /// is reported if the move ended it.
    fn finish_search(&mut self) {
        let Some(r) = self.search.take() else { return };
        let result = r.handle.join().ok().flatten();
        if r.purpose == Purpose::Analyze {
            return;
        }
        let Some(result) = result else {
            return self.say("tellusererror the search failed");
        };
        self.hint = result.ponder;
        match result.best {
            Some(m) if self.engine_side == Some(self.pos.side()) => {
                let text = self.ids.move_text(&self.variant, m);
                self.pos.make(m);
                let legs: Vec<&str> = text.split(',').collect();
                for (i, leg) in legs.iter().enumerate() {
                    let comma = if i + 1 < legs.len() { "," } else { "" };
                    self.say(&format!("move {leg}{comma}"));
                }
                self.report_end();
            }
            Some(_) => {}
            None => {
                if !self.report_end() {
                    self.say("resign");
                }
            }
        }
    }

    /// Edit mode starts from the current board.
    fn edit_seed(&mut self) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        for side in Side::BOTH {
            for &sq in self.pos.pieces(side) {
                edit.cells.insert(sq, self.variant.token(self.pos.at(sq)));
            }
        }
    }

    /// A line of edit mode: `#` clears, `c` changes colour, `Pa4` places a
    /// piece of the current colour, `xa4` empties a square, `.` ends.
    fn edit_line(&mut self, line: &str) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        let g = &self.variant.geometry;
        match line {
            "#" => edit.cells.clear(),
            "c" => edit.side = edit.side.flip(),
            "." => {
                let edit = self.edit.take().expect("in edit mode");
                self.finish_edit(edit);
            }
            _ => {
                // The square is the longest tail that names one.
                let split = (1..line.len()).find(|&i| {
                    line.is_char_boundary(i)
                        && line.as_bytes()[i].is_ascii_lowercase()
                        && g.squares().any(|s| xboard_square(g, s) == line[i..])
                });
                let Some(i) = split else {
                    return self.error("edit: expected a piece and a square", line);
                };
                let sq = g
                    .squares()
                    .find(|&s| xboard_square(g, s) == line[i..])
                    .expect("found above");
                let piece = &line[..i];
                if piece == "x" {
                    edit.cells.remove(&sq);
                } else {
                    // XBoard's ID in the colour being placed, as our token.
                    let id = match edit.side {
                        Side::First => piece.to_uppercase(),
                        Side::Second => piece.to_lowercase(),
                    };
                    edit.cells.insert(sq, self.ids.token(&id));
                }
            }
        }
    }

    fn finish_edit(&mut self, edit: Edit) {
        let g = &self.variant.geometry;
        let mut rows = Vec::new();
        for r in (0..g.ranks()).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..g.files() {
                let cell = g.cell(f, r);
                let content = if !g.is_square(cell) {
                    Some("*".to_string())
                } else {
                    edit.cells.get(&cell).cloned()
                };
                match content {
                    Some(t) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(&t);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = &self.variant.fen.side_letters[self.pos.side().index()];
        let fen = format!("{} {side}", rows.join("/"));
        self.load_fen(&fen, "edit", ".");
        self.resume_analysis();
    }
}

/// `RESULT {comment}` for a game ended by rule (XBoard calls the first
/// player White); a result in points gives them (`56-44`).
pub fn result_line(o: Outcome) -> String {
    let reason = o.reason();
    let comment = match (o.winner(), o.points()) {
        (Some(w), Some(p)) => format!("{} wins {p} on points, {reason}", setup::colour(w)),
        (None, Some(p)) => format!("Draw {p} on points, {reason}"),
        (Some(w), None) => format!("{} wins by {reason}", setup::colour(w)),
        (None, None) => format!("Draw by {reason}"),
    };
    format!("{} {{{comment}}}", o.score())
}

/// Thinking output: `ply score time nodes pv`, score in centipawns (mate
/// in N moves as 100000 + N, mated as -100000 - N), time in centiseconds;
/// PV moves in XBoard's text with the game's piece IDs (`ids`).
pub fn thinking_line(v: &Variant, ids: &XboardIds, i: &Info) -> String {
    let score = match i.score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 + m,
        Score::Mate(m) => -100_000 + m,
    };
    let pv: Vec<String> = i.pv.iter().map(|m| ids.move_text(v, *m)).collect();
    format!(
        "{} {score} {} {} {}",
        i.depth,
        i.time_ms / 10,
        i.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_rules::Reason;
    use kamil_rules::outcome::{Points, Scoring};

    #[test]
    fn results_name_the_winner_by_xboard_colour_and_give_points() {
        let win = Outcome::Win {
            winner: Side::Second,
            reason: Reason::Checkmate,
        };
        assert_eq!(result_line(win), "0-1 {Black wins by checkmate}");
        let draw = Outcome::Draw {
            reason: Reason::Repetition,
        };
        assert_eq!(result_line(draw), "1/2-1/2 {Draw by repetition}");
        let points = Outcome::Points {
            points: Points::whole(56, 44),
            scoring: Scoring::Shared,
            reason: Reason::Checkmate,
            by: Some(Side::First),
        };
        assert_eq!(
            result_line(points),
            "1-0 {White wins 56-44 on points, checkmate}"
        );
    }
}
