//! The options of `kamil uci` and `kamil usi`, in one place for both: the
//! handshake's `option` lines and `setoption`. The dialects differ only in
//! two names (`UCI_Variant`/`USI_Variant`, `Hash`/`USI_Hash`), and each
//! takes the other's too; USI GUIs also send `USI_Ponder`.

use super::dialect::Dialect;
use super::session::Session;
use crate::bounds::machine_threads;
use crate::loading::load_variant;
use crate::out::send;
use crate::session;

use kamil_engine::{EvalMode, Skill};
use kamil_rules::Position;
use kamil_rules::variant::BUILTIN;
use kamil_rules::variant::aliases;

impl Session {
    /// The handshake (`uci`, `usi`): `id` lines, the options, `uciok` or
    /// `usiok`.
    pub(super) fn hello(&self) {
        // Our games, then other programs' names for them (Fairy-Stockfish's
        // `shoshogi`...), which tools look for in this list.
        let names = BUILTIN
            .iter()
            .map(|(n, _)| *n)
            .chain(aliases::program_aliases().map(|a| a.name));
        let vars: String = names.map(|n| format!(" var {n}")).collect();
        let d = self.dialect;
        let mut lines = vec![
            format!("id name kamil {}", env!("CARGO_PKG_VERSION")),
            "id author the kamil developers".to_string(),
            format!(
                "option name {} type combo default {}{vars}",
                d.variant_option(),
                self.core.game()
            ),
            format!(
                "option name {} type spin default {} min 1 max {}",
                d.hash_option(),
                self.bounds.engine_config().hash_mb,
                self.bounds.max_hash_mb
            ),
        ];
        if d == Dialect::Usi {
            lines.push("option name USI_Ponder type check default false".to_string());
        }
        lines.extend([
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
            "option name UCI_LimitStrength type check default false".to_string(),
            self.elo_option(),
            "option name Eval type combo default full var full var material".to_string(),
            "option name VariantOptions type string default <empty>".to_string(),
            "option name Use NNUE type check default true".to_string(),
            "option name EvalFile type string default <empty>".to_string(),
            format!("{}ok", d.word()),
        ]);
        for l in lines {
            send(&self.out, &l);
        }
    }

    /// `setoption name <name words> [value <value words>]`: every option of
    /// both dialects. A bad value or an unknown option is said.
    pub(super) fn setoption(&mut self, rest: &[&str]) {
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
            "uci_variant" | "usi_variant" => {
                drop(engine);
                // The options were the last game's: a GUI that switches
                // games need not clear those the new game lacks.
                let kept = self.core.options().to_vec();
                let loads = |opts: &[String]| {
                    let (game, all) = aliases::resolve(&value, opts);
                    load_variant(&game, &all).is_ok()
                };
                if !kept.is_empty() && !loads(&kept) && loads(&[]) {
                    if self.select_variant(&value, Vec::new()) {
                        self.info(&format!(
                            "VariantOptions `{}` do not fit {value}: cleared",
                            kept.join(",")
                        ));
                    }
                } else {
                    self.select_variant(&value, kept);
                }
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
                let game = self.core.game().to_owned();
                self.select_variant(&game, opts);
            }
            "hash" | "usi_hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=self.bounds.max_hash_mb).contains(&mb) => {
                    if let Err(e) = session::set_hash(&mut engine, mb, self.bounds.max_hash_mb) {
                        let kept = engine.config().hash_mb;
                        self.info(&format!("{name} not changed: {e}; keeping {kept} MB"));
                    }
                }
                _ => self.info(&format!(
                    "{name} must be 1 to {} MB, not `{value}`",
                    self.bounds.max_hash_mb
                )),
            },
            "clear hash" => engine.new_game(),
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=machine_threads()).contains(&n) => {
                    session::set_threads(&mut engine, n)
                }
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
                    drop(engine);
                    self.core.set_level(n);
                    self.apply_strength();
                }
                _ => self.info(&format!(
                    "Skill Level must be 0 to {}, not `{value}`",
                    Skill::FULL
                )),
            },
            "uci_limitstrength" => match value.as_str() {
                "true" | "false" => {
                    drop(engine);
                    self.core.set_limit(value == "true");
                    self.apply_strength();
                }
                _ => self.info(&format!(
                    "UCI_LimitStrength must be true or false, not `{value}`"
                )),
            },
            "uci_elo" => {
                let (lo, hi) = self.core.elo_range();
                match value.parse::<i32>() {
                    Ok(n) if (lo..=hi).contains(&n) => {
                        drop(engine);
                        self.core.set_elo(n);
                        self.apply_strength();
                    }
                    _ => self.info(&format!("UCI_Elo must be {lo} to {hi}, not `{value}`")),
                }
            }
            "eval" => match value.as_str() {
                "full" | "material" => {
                    let mode = if value == "full" {
                        EvalMode::Full
                    } else {
                        EvalMode::Material
                    };
                    self.core.set_eval_mode(mode);
                    self.core.apply_eval_mode(&mut engine);
                }
                _ => self.info(&format!("Eval must be full or material, not `{value}`")),
            },
            "evalfile" => {
                drop(engine);
                let v = value.trim();
                let file = (!v.is_empty() && v != "<empty>").then(|| v.into());
                if let Some(note) = self.core.set_eval_file(file) {
                    self.info(&note.message());
                }
                self.apply_evaluation();
            }
            "use nnue" => match value.as_str() {
                "true" | "false" => {
                    drop(engine);
                    self.core.set_use_nnue(value == "true");
                    self.apply_evaluation();
                }
                _ => self.info(&format!("Use NNUE must be true or false, not `{value}`")),
            },
            // Pondering needs no setting: `go ponder` is always understood.
            "ponder" | "usi_ponder" | "uci_analysemode" | "uci_chess960" => {}
            _ => self.info(&format!("unknown option `{name}`")),
        }
    }

    /// Chooses the game ([`session::Core::select`]: a built-in name, another
    /// program's (`shoshogi`) or a variant file, with the weights file
    /// beside it) and gives the engine its evaluation and level for it.
    /// Returns whether the game was changed (else it says why).
    fn select_variant(&mut self, name: &str, options: Vec<String>) -> bool {
        let range = self.core.elo_range();
        match self.core.select(name, options) {
            Ok(()) => {
                self.position = Position::start(self.core.variant().clone());
                self.announce_elo_range(range);
                self.apply_evaluation();
                self.apply_strength();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game();
                }
                true
            }
            Err(e) => {
                self.info(&format!("variant not changed: {e:#}"));
                false
            }
        }
    }

    /// The `UCI_Elo` option line: the game's own range ([`kamil_engine::skill::elo::ladder`]),
    /// the Elo in force as its default.
    fn elo_option(&self) -> String {
        let (lo, hi) = self.core.elo_range();
        format!(
            "option name UCI_Elo type spin default {} min {lo} max {hi}",
            self.core.strength().elo
        )
    }

    /// After a change of game whose `UCI_Elo` range was `old`: a range of
    /// its own is announced again (UCI and USI allow an `option` line after
    /// the handshake), and an Elo outside it is clamped and said.
    fn announce_elo_range(&mut self, old: (i32, i32)) {
        if let Some(was) = self.core.clamp_elo() {
            self.info(&format!(
                "UCI_Elo {was} is outside {}'s range: {}",
                self.core.variant().name,
                self.core.strength().elo
            ));
        }
        if self.core.elo_range() != old {
            send(&self.out, &self.elo_option());
        }
    }

    /// Gives the engine the level the strength options ask for in the
    /// selected game: `UCI_Elo` is read on that game's ladder
    /// ([`kamil_engine::skill::elo::ladder`]), so it is set again when the game changes.
    fn apply_strength(&mut self) {
        if let Ok(mut e) = self.engine.lock() {
            self.core.apply_strength(&mut e);
        }
    }

    /// Gives the engine the evaluation of the settings
    /// ([`session::Core::evaluation`]), saying whether `EvalFile`'s network is in
    /// use or, naming the file and what is wrong, why not.
    fn apply_evaluation(&mut self) {
        let note = match self.engine.lock() {
            Ok(mut e) => self.core.apply_evaluation(&mut e),
            Err(_) => None,
        };
        if let Some(note) = note {
            self.info(&note.message());
        }
    }
}
