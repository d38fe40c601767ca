//! The game in the XBoard dialect: `new`, `variant`, `setboard`, the
//! user's moves (`usermove`, a bare move, `lift`/`put`), `undo` and
//! `remove`, colours, and the game's end reported once.

use super::*;

impl Session {
    /// `hint`: the move the last search expected, if any.
    pub(super) fn say_hint(&self) {
        if let Some(m) = self.hint {
            let text = self.ids.move_text(self.core.variant(), m);
            self.say(&format!("Hint: {text}"));
        }
    }

    /// A line that is no command: a bare move (protocol 1 style, or
    /// usermove off) when it looks like one, else an error line.
    pub(super) fn bare_move(&mut self, cmd: &str, args: &[&str], line: &str) {
        if cmd.as_bytes()[0].is_ascii_lowercase()
            && cmd.as_bytes().get(1).is_some_and(|b| b.is_ascii_digit())
            && args.is_empty()
        {
            self.user_move(cmd, line);
        } else {
            self.error("unknown command", line);
        }
    }

    pub(super) fn new_game(&mut self) {
        self.abort_search();
        let name = self.core.variant().name.clone();
        self.load(&name, "new");
        self.engine_side = Some(Side::Second);
        self.tc.depth = None;
        self.tc.per_move_ms = None;
        if let Ok(mut e) = self.engine.lock() {
            e.new_game();
        }
        self.resume_analysis();
    }

    pub(super) fn select_variant(&mut self, name: &str, line: &str) {
        self.abort_search();
        let Some(game) = kamil_rules::variant::aliases::from_xboard_name(name) else {
            return self.error("unknown variant", line);
        };
        if !self.load(game, line) {
            return;
        }
        match setup::setup_lines(self.core.variant(), &self.pos) {
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
    pub(super) fn load_fen(&mut self, fen: &str, what: &str, line: &str) {
        match Position::from_fen(self.core.variant().clone(), fen) {
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

    pub(super) fn setboard(&mut self, fen: &str, line: &str) {
        self.abort_search();
        let fen = self.ids.fen_from_xboard(self.core.variant(), fen);
        self.load_fen(&fen, "bad FEN", line);
        self.resume_analysis();
    }

    /// The obsolete `white` / `black`: that side to move, the engine the other.
    pub(super) fn colour_command(&mut self, cmd: &str) {
        self.abort_search();
        let side = if cmd == "white" {
            Side::First
        } else {
            Side::Second
        };
        if self.pos.side() != side {
            let fen = self.pos.fen();
            let mut fields: Vec<&str> = fen.split_whitespace().collect();
            let letter = self.core.variant().fen.side_letters[side.index()].clone();
            if fields.len() < 2 {
                fields.push(&letter);
            } else {
                fields[1] = &letter;
            }
            if let Ok(p) = Position::from_fen(self.core.variant().clone(), &fields.join(" ")) {
                self.pos = p;
            }
        }
        self.engine_side = Some(side.flip());
    }

    pub(super) fn take_back(&mut self, plies: usize, line: &str) {
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

    pub(super) fn user_move(&mut self, text: &str, line: &str) {
        if self.searching(Purpose::Move) {
            return self.error("command not legal now", line);
        }
        if self.no_position {
            return self.say(&format!(
                "Illegal move (no position: the last setboard failed): {text}"
            ));
        }
        self.abort_search();
        let ours = self.ids.move_from_xboard(self.core.variant(), text);
        match read_move(&mut self.pos, &ours, Accept::Only(Notation::XBoard)) {
            Ok((m, _)) => {
                self.pos.make(m);
                self.entry = highlight::Entry::default();
            }
            Err(e) => return self.say(&format!("Illegal move ({}): {text}", e.what())),
        }
        if self.analyzing {
            self.resume_analysis();
        } else if self.engine_side == Some(self.pos.side()) {
            self.think();
        } else if self.engine_side.is_some() {
            self.report_end();
        }
    }

    pub(super) fn lift_or_put(&mut self, cmd: &str, sq: &str, line: &str) {
        let g = &self.core.variant().geometry;
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
    pub(super) fn report_end(&mut self) -> bool {
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
}
