//! The session core: what every front end sets, in one place. The game
//! (a built-in name, another program's alias or a variant file) with its
//! options and the weights file beside a variant file; the evaluation
//! (`Use NNUE`, `EvalFile`, `--eval`, `Eval`); the strength (`Skill
//! Level`, `UCI_LimitStrength`, `UCI_Elo`, `--skill`, `--elo`); the hash
//! table and the threads. The protocols (`uci`, `usi`, `xboard`), the
//! server and the terminal commands only read their own words into these
//! settings and report what [`Core::apply`] says, so that one setting
//! means one engine configuration whatever the front end.

use crate::loading::{HAND, load_variant, load_weights};
use anyhow::Result;
use kamil_engine::eval::weights::Weights;
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::nnue::{NetFileError, Nnue};
use kamil_engine::skill::elo;
use kamil_engine::tt::AllocError;
use kamil_engine::{Engine, EvalMode, Skill, Strength};
use kamil_rules::Variant;
use kamil_rules::variant::aliases;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a front end sets: see the module's comment.
#[derive(Clone, Debug)]
pub struct Core {
    /// The game as asked for (`courier`, `shoshogi`, `path/foo.toml`).
    game: String,
    /// The user's option choices, `KEY=VALUE`, as given.
    options: Vec<String>,
    /// The variant loaded from `game` and `options` (an alias's own
    /// choices first).
    variant: Arc<Variant>,
    /// A variant file's weights (`foo.eval.toml` beside `foo.toml`).
    weights: Option<Weights>,
    /// Search with a network (`Use NNUE`): `eval_file`'s where it loads,
    /// else the game's built-in one where it has one.
    use_nnue: bool,
    /// A network file for the game (`EvalFile`, `--eval FILE`).
    eval_file: Option<PathBuf>,
    /// The network read from `eval_file` for the game in play, kept so
    /// that it is read once and plays on when a new file is refused.
    net: Option<Nnue>,
    /// The evaluation's terms (`Eval full|material`).
    eval_mode: EvalMode,
    /// The strength options.
    strength: Strength,
    /// Was `UCI_Elo` set? Until it is, it follows the game's top.
    elo_set: bool,
}

/// What choosing the evaluation has to say: a network file was loaded,
/// could not be used for the game in play (the default evaluation plays),
/// or was refused when it was set (the evaluation that was playing plays
/// on).
#[derive(Debug)]
pub enum EvalNote {
    /// The network file is in use.
    InUse(PathBuf),
    /// The network file set cannot be used for the game in play (a game
    /// chosen since it was set, or a file that no longer reads): the
    /// default evaluation plays. The file and why.
    NotUsed(PathBuf, NetFileError),
    /// A network file given to replace the evaluation in play could not be
    /// used: the settings are unchanged and the evaluation that was
    /// playing plays on. The file and why.
    Refused(PathBuf, NetFileError),
}

impl EvalNote {
    /// The note in words, for a front end's message (`info string`,
    /// `tellusererror`): the file, what plays and, for a file not used,
    /// why (each cause of the error once).
    pub fn message(&self) -> String {
        match self {
            EvalNote::InUse(path) => format!("EvalFile {} in use", path.display()),
            EvalNote::NotUsed(_, e) => {
                format!(
                    "EvalFile not used, the default evaluation plays: {}",
                    kamil_rules::error_chain(e)
                )
            }
            EvalNote::Refused(_, e) => format!(
                "EvalFile not used, the evaluation that was playing plays on: {}",
                kamil_rules::error_chain(e)
            ),
        }
    }
}

impl Core {
    /// The settings of a new session: the game `game` without options,
    /// the default evaluation at full strength.
    ///
    /// Errors: `game` does not load.
    pub fn new(game: &str) -> Result<Core> {
        let (name, options) = aliases::resolve(game, &[]);
        let mut core = Core::with_variant(&name, load_variant(&name, &options)?)?;
        core.game = game.to_string();
        Ok(core)
    }

    /// The settings of a command that loaded its variant itself (with a
    /// FEN and moves): the game `game` as asked for (a built-in name or a
    /// variant file, whose weights file is read) loaded as `variant`.
    ///
    /// Errors: the weights file beside a variant file does not load.
    pub fn with_variant(game: &str, variant: Arc<Variant>) -> Result<Core> {
        let weights = load_weights(game, &variant)?;
        Ok(Core::of(game.to_string(), Vec::new(), variant, weights))
    }

    /// The settings of a built-in game already loaded (the server's games):
    /// no weights file, the default evaluation at full strength.
    pub fn builtin(variant: Arc<Variant>) -> Core {
        let options = variant
            .chosen
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        Core::of(variant.name.clone(), options, variant, None)
    }

    /// The default settings of a loaded game: full strength, the default
    /// evaluation, `UCI_Elo` at the game's top.
    fn of(
        game: String,
        options: Vec<String>,
        variant: Arc<Variant>,
        weights: Option<Weights>,
    ) -> Core {
        let mut core = Core {
            game,
            options,
            variant,
            weights,
            use_nnue: true,
            eval_file: None,
            net: None,
            eval_mode: EvalMode::Full,
            strength: Strength::default(),
            elo_set: false,
        };
        core.clamp_elo();
        core
    }

    /// Chooses the game: a built-in name, another program's name for one
    /// ([`aliases`]: `shoshogi` loads ours with that program's rule
    /// options, before the user's) or a variant file, with the weights
    /// file beside a variant file. The settings are unchanged on an error;
    /// `UCI_Elo` is left for the front end to fit ([`Core::clamp_elo`]),
    /// so that it can say what changed.
    ///
    /// Errors: the game, an option or the weights file does not load
    /// (the message names it).
    pub fn select(&mut self, game: &str, options: Vec<String>) -> Result<()> {
        let (name, all) = aliases::resolve(game, &options);
        let variant = load_variant(&name, &all)?;
        let weights = load_weights(&name, &variant)?;
        self.game = game.to_string();
        self.options = options;
        self.variant = variant;
        self.weights = weights;
        Ok(())
    }

    /// The game as asked for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The user's option choices, `KEY=VALUE`.
    pub fn options(&self) -> &[String] {
        &self.options
    }

    /// The variant in play.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// Sets `Use NNUE`.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.use_nnue = on;
    }

    /// Sets the network file (`None`: none), reading it for the game in
    /// play. A file that cannot be used changes nothing: the evaluation
    /// that was playing plays on. Returns what the file gave:
    /// [`EvalNote::InUse`] or [`EvalNote::Refused`] (`None` for `None`).
    pub fn set_eval_file(&mut self, file: Option<PathBuf>) -> Option<EvalNote> {
        let Some(path) = file else {
            self.eval_file = None;
            self.net = None;
            return None;
        };
        match Nnue::load(&self.variant, &path) {
            Ok(n) => {
                self.eval_file = Some(path.clone());
                self.net = Some(n);
                Some(EvalNote::InUse(path))
            }
            Err(e) => Some(EvalNote::Refused(path, e)),
        }
    }

    /// Sets the evaluation as the terminal commands' `--eval` gives it:
    /// none, the default; `hand`, the hand-written evaluation; else a
    /// network file.
    pub fn set_eval_arg(&mut self, eval: Option<&Path>) {
        match eval {
            None => {}
            Some(p) if p.as_os_str() == HAND => self.use_nnue = false,
            Some(p) => {
                self.eval_file = Some(p.to_path_buf());
                self.net = None;
            }
        }
    }

    /// Is a network file set?
    pub fn has_eval_file(&self) -> bool {
        self.eval_file.is_some()
    }

    /// Sets the evaluation's terms.
    pub fn set_eval_mode(&mut self, mode: EvalMode) {
        self.eval_mode = mode;
    }

    /// The strength options.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// Sets `Skill Level` (clamped to [`Skill::FULL`]).
    pub fn set_level(&mut self, level: u8) {
        self.strength.level = level.min(Skill::FULL);
    }

    /// Sets `UCI_LimitStrength`.
    pub fn set_limit(&mut self, limit: bool) {
        self.strength.limit = limit;
    }

    /// Sets `UCI_Elo` (the front end checks its range).
    pub fn set_elo(&mut self, elo: i32) {
        self.strength.elo = elo;
        self.elo_set = true;
    }

    /// The game's own `UCI_Elo` range, its ladder's ([`elo::ladder`]).
    pub fn elo_range(&self) -> (i32, i32) {
        elo::ladder(&self.variant).range()
    }

    /// Fits `UCI_Elo` to the game's range ([`Core::elo_range`]): one never
    /// set follows the game's top; one set and outside is clamped, and the
    /// Elo it had is returned.
    pub fn clamp_elo(&mut self) -> Option<i32> {
        let (lo, hi) = self.elo_range();
        let old = self.strength.elo;
        if !self.elo_set {
            self.strength.elo = hi;
            return None;
        }
        self.strength.elo = old.clamp(lo, hi);
        (old != self.strength.elo).then_some(old)
    }

    /// Was `UCI_Elo` set (else it follows the game's top)?
    pub fn elo_is_set(&self) -> bool {
        self.elo_set
    }

    /// Does strength depend on the game (`UCI_Elo` is read on each game's
    /// own ladder)?
    pub fn strength_per_game(&self) -> bool {
        self.strength.limit
    }

    /// The level to play the game at.
    pub fn skill(&self) -> Skill {
        self.strength.skill(&self.variant)
    }

    /// The evaluation these settings ask for: with `Use NNUE`, the network
    /// file's where it loads for the game, else the default (a variant
    /// file's weights, else the game's built-in network where it has
    /// one); without, the hand-written evaluation (with a variant file's
    /// weights). The network read for the game in play is kept, so a file
    /// is read again only for another game. Returns the evaluation with
    /// what the network file gave when it was read here.
    pub fn evaluation(&mut self) -> (EvalChoice, Option<EvalNote>) {
        if !self.use_nnue {
            return (EvalChoice::hand(self.weights.clone()), None);
        }
        let default = EvalChoice::from(self.weights.clone());
        let Some(path) = &self.eval_file else {
            return (default, None);
        };
        if let Some(n) = self.net.as_ref().filter(|n| n.fits(&self.variant)) {
            return (EvalChoice::Net(Box::new(n.clone())), None);
        }
        match Nnue::load(&self.variant, path) {
            Ok(n) => {
                self.net = Some(n.clone());
                (
                    EvalChoice::Net(Box::new(n)),
                    Some(EvalNote::InUse(path.clone())),
                )
            }
            Err(e) => {
                self.net = None;
                (default, Some(EvalNote::NotUsed(path.clone(), e)))
            }
        }
    }

    /// Gives `engine` the evaluation ([`Core::evaluation`]) and its terms;
    /// returns what the network file gave.
    pub fn apply_evaluation(&mut self, engine: &mut Engine) -> Option<EvalNote> {
        let (choice, note) = self.evaluation();
        engine.set_evaluation(choice);
        engine.set_eval_mode(self.eval_mode);
        note
    }

    /// Gives `engine` the evaluation's terms alone (`Eval`), keeping the
    /// evaluation.
    pub fn apply_eval_mode(&self, engine: &mut Engine) {
        engine.set_eval_mode(self.eval_mode);
    }

    /// Gives `engine` the level to play the game at ([`Core::skill`]).
    pub fn apply_strength(&self, engine: &mut Engine) {
        engine.set_level(self.skill());
    }

    /// Gives `engine` every setting: evaluation and level; returns what
    /// the network file gave.
    pub fn apply(&mut self, engine: &mut Engine) -> Option<EvalNote> {
        let note = self.apply_evaluation(engine);
        self.apply_strength(engine);
        note
    }

    /// [`Core::apply`] for a terminal command, where a network file
    /// (`--eval FILE`) that cannot be used is an error rather than a note.
    ///
    /// Errors: the network file cannot be read or is no network of the
    /// game (the message names the file and what differs).
    pub fn apply_or_fail(&mut self, engine: &mut Engine) -> Result<()> {
        engine.set_evaluation(self.checked_evaluation()?);
        engine.set_eval_mode(self.eval_mode);
        self.apply_strength(engine);
        Ok(())
    }

    /// [`Core::evaluation`] for a terminal command: a network file that
    /// cannot be used is an error.
    ///
    /// Errors: as [`Core::apply_or_fail`].
    pub fn checked_evaluation(&mut self) -> Result<EvalChoice> {
        match self.evaluation() {
            (_, Some(EvalNote::NotUsed(_, e) | EvalNote::Refused(_, e))) => {
                Err(anyhow::Error::new(e).context("--eval: the network file cannot be used"))
            }
            (choice, _) => Ok(choice),
        }
    }
}

/// Resizes `engine`'s hash table to `mb` MB, at most `max_mb`.
///
/// Errors: the table cannot be had (the engine keeps its old one).
pub fn set_hash(engine: &mut Engine, mb: usize, max_mb: usize) -> Result<(), AllocError> {
    engine.set_hash_mb(mb.clamp(1, max_mb.max(1)))
}

/// Sets `engine`'s search threads, at most the machine's.
pub fn set_threads(engine: &mut Engine, n: usize) {
    engine.set_threads(n.clamp(1, crate::bounds::machine_threads()));
}
