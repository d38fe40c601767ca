//! The engine's settings in the XBoard dialect: `feature` (the options
//! offered), `option NAME=VALUE`, `memory`, `cores`; each read into the
//! session core ([`crate::session`]), which sets the engine.

use super::*;

impl Session {
    /// `memory MB`: the hash table's size, at most the session's bound; a
    /// size the engine cannot take is told to the user and the old one kept.
    pub(super) fn set_memory(&mut self, args: &[&str], line: &str) {
        match args.first().map(|s| s.parse::<usize>()) {
            Some(Ok(mb)) if mb >= 1 => {
                self.abort_search();
                let failed = match self.engine.lock() {
                    Ok(mut e) => session::set_hash(&mut e, mb, self.bounds.max_hash_mb)
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
    pub(super) fn set_cores(&mut self, args: &[&str], line: &str) {
        match args.first().map(|s| s.parse::<usize>()) {
            Some(Ok(n)) if n >= 1 => {
                self.abort_search();
                if let Ok(mut e) = self.engine.lock() {
                    session::set_threads(&mut e, n);
                }
                self.resume_analysis();
            }
            _ => self.error("cores needs a number of threads, 1 or more", line),
        }
    }

    pub(super) fn features(&mut self) {
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
            self.elo_feature(),
        ];
        self.elo_announced = self.core.elo_range();
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
    pub(super) fn option(&mut self, rest: &str, line: &str) {
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
                self.core.set_eval_mode(mode);
                if let Ok(mut e) = self.engine.lock() {
                    self.core.apply_eval_mode(&mut e);
                }
                self.resume_analysis();
            }
            ("EvalFile", v) => {
                let v = v.unwrap_or("").trim();
                let file = (!v.is_empty()).then(|| v.into());
                match self.core.set_eval_file(file) {
                    Some(note @ EvalNote::Refused(..)) => {
                        self.say(&format!("tellusererror {}", note.message()))
                    }
                    Some(note) => self.say(&format!(
                        "# {} for {}",
                        note.message(),
                        self.core.variant().name
                    )),
                    None => {}
                }
                self.apply_evaluation();
                self.resume_analysis();
            }
            ("Use NNUE", Some(v)) => {
                self.core.set_use_nnue(match v {
                    "1" => true,
                    "0" => false,
                    _ => return self.error("Use NNUE is 1 or 0", line),
                });
                self.apply_evaluation();
                self.resume_analysis();
            }
            ("Skill Level", Some(v)) => {
                self.core.set_level(match v.parse::<u8>() {
                    Ok(n) if n <= Skill::FULL => n,
                    _ => return self.error("Skill Level is 0 to 20", line),
                });
                self.apply_strength();
            }
            ("UCI_LimitStrength", Some(v)) => {
                self.core.set_limit(match v {
                    "1" => true,
                    "0" => false,
                    _ => return self.error("UCI_LimitStrength is 1 or 0", line),
                });
                self.announce_elo_range();
                self.apply_strength();
            }
            ("UCI_Elo", Some(v)) => {
                let (lo, hi) = self.core.elo_range();
                self.core.set_elo(match v.parse::<i32>() {
                    Ok(n) if (lo..=hi).contains(&n) => n,
                    _ => return self.error(&format!("UCI_Elo is {lo} to {hi}"), line),
                });
                self.announce_elo_range();
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
                if self.core.variant().name == game && self.pos.depth() == 0 {
                    self.load(game, line);
                    self.resume_analysis();
                }
            }
            _ => self.error("unknown option", line),
        }
    }

    /// Loads `game` with its chosen options at its start position.
    /// Returns false (after an error line) when it cannot be loaded.
    pub(super) fn load(&mut self, game: &str, line: &str) -> bool {
        let opts = self.options.get(game).cloned().unwrap_or_default();
        let old = self.core.variant().clone();
        match self.core.select(game, opts) {
            Ok(()) => {
                self.clamp_elo();
                self.announce_elo_range();
                let v = self.core.variant().clone();
                let other = v.name != old.name || v.chosen != old.chosen;
                self.ids = XboardIds::new(&v);
                self.pos = Position::start(v);
                self.no_position = false;
                self.over = false;
                self.hint = None;
                if other && self.core.has_eval_file() {
                    self.apply_evaluation();
                }
                if other && self.core.strength_per_game() {
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

    /// The `UCI_Elo` option feature: the selected game's own range (its
    /// ladder, [`kamil_engine::skill::elo::ladder`]), the Elo in force as
    /// its value (the top while none was set).
    fn elo_feature(&self) -> String {
        let (lo, hi) = self.core.elo_range();
        let elo = if self.core.elo_is_set() {
            self.core.strength().elo
        } else {
            hi
        };
        format!("feature option=\"UCI_Elo -spin {elo} {lo} {hi}\"")
    }

    /// After a change of game: an Elo set outside the new game's range is
    /// clamped and said (`telluser`), for a GUI that keeps the old range.
    fn clamp_elo(&mut self) {
        if let Some(was) = self.core.clamp_elo() {
            self.say(&format!(
                "telluser UCI_Elo {was} is outside {}'s range: playing at {}",
                self.core.variant().name,
                self.core.strength().elo
            ));
        }
    }

    /// Sends the `UCI_Elo` option feature again (an engine may send an
    /// option feature again to change it) when the game's range differs
    /// from the one the GUI was told and the strength options are in use
    /// (`UCI_LimitStrength` on, or `UCI_Elo` set): a GUI that does not
    /// limit strength hears nothing new on a change of game.
    fn announce_elo_range(&mut self) {
        let range = self.core.elo_range();
        let in_use = self.core.strength_per_game() || self.core.elo_is_set();
        if in_use && range != self.elo_announced {
            self.say(&self.elo_feature());
            self.elo_announced = range;
        }
    }

    /// Gives the engine the evaluation of the settings for the selected
    /// game (stopping a search; [`Core::evaluation`]). A network that
    /// cannot be used is said (`tellusererror`, naming the file and what
    /// differs) and the default evaluation plays.
    pub(super) fn apply_evaluation(&mut self) {
        self.abort_search();
        let note = match self.engine.lock() {
            Ok(mut e) => self.core.apply_evaluation(&mut e),
            Err(_) => None,
        };
        match note {
            Some(note @ EvalNote::InUse(_)) => self.say(&format!(
                "# {} for {}",
                note.message(),
                self.core.variant().name
            )),
            Some(note) => self.say(&format!("tellusererror {}", note.message())),
            None => {}
        }
    }

    /// Sets the engine's level from the strength options for the
    /// selected game (`UCI_Elo` reads the game's ladder), stopping and
    /// resuming an analysis.
    pub(super) fn apply_strength(&mut self) {
        self.abort_search();
        self.set_skill();
        self.resume_analysis();
    }

    /// Gives the engine the level the strength options ask for in the
    /// selected game (no search may be running).
    pub(super) fn set_skill(&mut self) {
        if let Ok(mut e) = self.engine.lock() {
            self.core.apply_strength(&mut e);
        }
    }
}
