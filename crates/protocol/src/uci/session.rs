//! One UCI or USI conversation: commands to engine calls, the search in
//! its own thread (or inline, where there are no threads), its reports
//! back as lines. What the two protocols write differently is asked of the
//! [`Dialect`].

use super::dialect::Dialect;
use super::go::parse_go;
use super::report::{bestmove_line, info_line, refused_move_text};
use super::usi;
use crate::bounds::SessionBounds;
use crate::out::{Out, send};
use crate::session::Core;
use kamil_engine::{Engine, Limits};
use kamil_rules::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The state of one UCI or USI conversation.
pub struct Session {
    pub(super) out: Out,
    pub(super) dialect: Dialect,
    /// The game, evaluation and strength ([`crate::session`]).
    pub(super) core: Core,
    pub(super) position: Position,
    pub(super) engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    searching: Arc<AtomicBool>,
    /// Set before stopping a search whose `bestmove` nobody waits for (a
    /// ponder search at `ponderhit`, any search at USI's `gameover`).
    quiet: Arc<AtomicBool>,
    /// While a `go ponder` search runs: the limits of the search that
    /// `ponderhit` starts.
    pondering: Option<Limits>,
    pub(super) bounds: SessionBounds,
    /// Searches run inline, in [`Session::handle`] ([`Session::inline`]).
    inline: bool,
    /// Inline only: the `bestmove` line of a `go infinite` or `go ponder`
    /// search that has ended, held until `stop` as the protocol asks.
    held: Option<String>,
}

impl Session {
    /// A UCI session writing to `out`, with the first built-in game selected.
    pub fn new(out: Out) -> Session {
        Session::with_bounds(out, SessionBounds::default())
    }

    /// A UCI session writing to `out`, with the first built-in game
    /// selected, whose searches and hash table stay within `bounds`
    /// whatever the GUI asks.
    pub fn with_bounds(out: Out, bounds: SessionBounds) -> Session {
        Session::with_dialect(out, Dialect::Uci, bounds)
    }

    /// A session of `dialect` writing to `out`, with no bounds beyond the
    /// defaults.
    pub fn speaking(out: Out, dialect: Dialect) -> Session {
        Session::with_dialect(out, dialect, SessionBounds::default())
    }

    /// A session of `dialect` writing to `out`, with the dialect's first
    /// game ([`Dialect::default_variant`]) selected, whose searches and hash
    /// table stay within `bounds`.
    pub fn with_dialect(out: Out, dialect: Dialect, bounds: SessionBounds) -> Session {
        let core = Core::new(dialect.default_variant()).expect("built-in variants load");
        let engine = Engine::new(bounds.engine_config());
        let stop = engine.stop_handle();
        Session {
            out,
            dialect,
            position: Position::start(core.variant().clone()),
            core,
            engine: Arc::new(Mutex::new(engine)),
            stop,
            search: None,
            searching: Arc::new(AtomicBool::new(false)),
            quiet: Arc::new(AtomicBool::new(false)),
            pondering: None,
            bounds,
            inline: false,
            held: None,
        }
    }

    /// A session of `dialect` writing to `out` whose searches run inline:
    /// `go` returns when the search has ended, for a host with one thread
    /// (WebAssembly in a Web Worker). What stops a search there is its
    /// limits or `poll` ([`Engine::set_poll`]: the host's way to see a
    /// `stop` sent while the search runs). The search of `go infinite` or
    /// `go ponder` runs to its end or the poll's stop, and its `bestmove`
    /// waits for `stop` (or is dropped at `ponderhit`, which starts the
    /// search on the clock).
    pub fn inline(
        out: Out,
        dialect: Dialect,
        bounds: SessionBounds,
        poll: Option<fn() -> bool>,
    ) -> Session {
        let mut s = Session::with_dialect(out, dialect, bounds);
        s.inline = true;
        if let Ok(mut e) = s.engine.lock() {
            e.set_poll(poll);
        }
        s
    }

    /// The settings in force (the game, evaluation and strength).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The engine, for a look at its configuration (tests).
    pub fn engine(&self) -> &Arc<Mutex<Engine>> {
        &self.engine
    }

    /// Says `text` to the GUI as an `info string` line.
    pub fn info(&self, text: &str) {
        send(&self.out, &format!("info string {text}"));
    }

    fn busy(&self) -> bool {
        self.searching.load(Ordering::SeqCst) || self.held.is_some()
    }

    /// Waits for a running search to end (after `stop` or on its own).
    fn join(&mut self) {
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
        self.pondering = None;
    }

    /// Stops any search and waits for its `bestmove`.
    pub fn finish(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.join();
        if let Some(line) = self.held.take() {
            send(&self.out, &line);
        }
    }

    /// Stops any search without its `bestmove` and waits for it to end.
    fn abandon_search(&mut self) {
        self.quiet.store(true, Ordering::SeqCst);
        self.held = None;
        self.finish();
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
        let hello = self.dialect.word();
        match cmd {
            _ if cmd == hello => self.hello(),
            "isready" => send(&self.out, "readyok"),
            "quit" => {
                self.finish();
                return false;
            }
            "stop" => self.finish(),
            "ponderhit" => self.ponderhit(),
            "gameover" if self.dialect == Dialect::Usi => self.abandon_search(),
            "debug" | "register" => {}
            _ if self.busy() => self.info(&format!(
                "`{cmd}` ignored: a search is running (send `stop` first)"
            )),
            _ if cmd.strip_prefix(hello) == Some("newgame") => {
                self.join();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game();
                }
            }
            "setoption" => self.setoption(&rest),
            "position" => self.set_position(&rest),
            "go" => self.go(&rest),
            "d" | "fen" | "sfen" => self.show_position(),
            _ => self.info(&format!("unknown command `{cmd}`")),
        }
        true
    }

    /// The position as an `info string` (debugging): its FEN, in USI its
    /// SFEN where the game has one.
    fn show_position(&self) {
        match (self.dialect, self.position.sfen()) {
            (Dialect::Usi, Some(s)) => self.info(&format!("sfen {s}")),
            _ => self.info(&format!("fen {}", self.position.fen())),
        }
    }

    fn set_position(&mut self, rest: &[&str]) {
        let mpos = rest.iter().position(|w| *w == "moves");
        let (setup, moves) = match mpos {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let dialect = self.dialect;
        let read = match (setup.first(), dialect) {
            (Some(&"startpos"), _) if setup.len() == 1 => {
                Ok(Position::start(self.core.variant().clone()))
            }
            (Some(&"fen"), Dialect::Uci) if setup.len() > 1 => {
                Position::from_fen(self.core.variant().clone(), &setup[1..].join(" "))
                    .map_err(|e| format!("bad FEN: {e}"))
            }
            (Some(&"sfen" | &"fen"), Dialect::Usi) if setup.len() > 1 => {
                usi::read_position(self.core.variant().clone(), &setup[1..].join(" "))
            }
            _ => Err(match dialect {
                Dialect::Uci => "position needs `startpos` or `fen <FEN>`, then `moves ...`",
                Dialect::Usi => "position needs `startpos` or `sfen <SFEN>`, then `moves ...`",
            }
            .to_string()),
        };
        let mut pos = match read {
            Ok(p) => p,
            Err(e) if e.starts_with("position") => return self.info(&e),
            Err(e) => return self.info(&format!("position not changed: {e}")),
        };
        for (i, m) in moves.iter().enumerate() {
            match dialect.parse_move(&mut pos, m) {
                Ok(mv) => pos.make(mv),
                Err(why) => {
                    self.info(&refused_move_text(i, moves, &why));
                    break;
                }
            }
        }
        self.position = pos;
    }

    fn go(&mut self, rest: &[&str]) {
        if self.dialect == Dialect::Usi && rest.first() == Some(&"mate") {
            return usi::refuse_mate_search(&self.out);
        }
        let go = match parse_go(rest, self.dialect) {
            Ok(g) => g,
            Err(e) => return self.info(&e),
        };
        let limits = self.bounds.limit(go.limits);
        self.join();
        if go.ponder {
            // Until `ponderhit` (which starts the search on `limits`) or
            // `stop`, think on the expected move without a deadline.
            let think = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start_search(self.bounds.limit(think));
            self.pondering = Some(limits);
        } else {
            self.start_search(limits);
        }
    }

    /// `ponderhit`: the expected move was played; the ponder search gives
    /// way to one on the clock of `go ponder` (the hash table keeps what
    /// it found). Without a ponder search, nothing to do.
    fn ponderhit(&mut self) {
        let Some(limits) = self.pondering.take() else {
            return;
        };
        self.abandon_search();
        self.start_search(limits);
    }

    /// Starts the search of the current position on `limits` in its own
    /// thread, which reports `info` lines and ends with `bestmove` (unless
    /// the session sets `quiet` before stopping it); inline, runs it.
    fn start_search(&mut self, limits: Limits) {
        if self.inline {
            return self.search_inline(limits);
        }
        self.stop.store(false, Ordering::SeqCst);
        self.quiet.store(false, Ordering::SeqCst);
        self.searching.store(true, Ordering::SeqCst);
        let engine = self.engine.clone();
        let out = self.out.clone();
        let mut pos = self.position.clone();
        let searching = self.searching.clone();
        let quiet = self.quiet.clone();
        let dialect = self.dialect;
        let handle = std::thread::spawn(move || {
            let v = pos.variant().clone();
            let result = match engine.lock() {
                Ok(mut e) => e.search(&pos, &limits, &mut |info| {
                    send(&out, &info_line(dialect, &v, info));
                }),
                Err(_) => {
                    send(&out, "info string engine unavailable");
                    searching.store(false, Ordering::SeqCst);
                    send(&out, &format!("bestmove {}", dialect.no_move(&mut pos)));
                    return;
                }
            };
            searching.store(false, Ordering::SeqCst);
            if !quiet.load(Ordering::SeqCst) {
                send(&out, &bestmove_line(dialect, &mut pos, &result));
            }
        });
        self.search = Some(handle);
    }

    /// The search of [`Session::start_search`] on this thread: `info`
    /// lines as it goes, then `bestmove`, held until `stop` for a search
    /// the GUI ends (`infinite`, and a ponder search's). The engine never
    /// waits for `stop` itself here: it could not see it arrive.
    fn search_inline(&mut self, limits: Limits) {
        self.stop.store(false, Ordering::SeqCst);
        let hold = limits.infinite;
        let limits = Limits {
            infinite: false,
            ..limits
        };
        let mut pos = self.position.clone();
        let v = pos.variant().clone();
        let (out, dialect) = (self.out.clone(), self.dialect);
        let line = match self.engine.lock() {
            Ok(mut e) => {
                let result = e.search(&pos, &limits, &mut |info| {
                    send(&out, &info_line(dialect, &v, info));
                });
                bestmove_line(dialect, &mut pos, &result)
            }
            Err(_) => {
                self.info("engine unavailable");
                format!("bestmove {}", dialect.no_move(&mut pos))
            }
        };
        if hold {
            self.held = Some(line);
        } else {
            send(&self.out, &line);
        }
    }
}
