//! `kamil play`: a game against the engine in the terminal.
//!
//! The board is drawn by [`kamil_rules::board_text`]; the user types moves in
//! kamil's notation (in the shogi games also USI, `7g7f`) or one of the
//! commands `moves`, `undo`, `fen`, `sfen` (shogi games), `board`,
//! `hint`, `save FILE`, `resign`, `help` and `quit`. Input is read line by
//! line, so a game can be piped in; the end of input ends the session as
//! `quit` does. This module only turns text into calls of the rules
//! library and the engine and back.

use crate::game_args::GameArgs;
use crate::input;
use crate::session::Core;
use anyhow::{Context, Result, bail};
use kamil_engine::skill::elo::ELO_FLOOR;
use kamil_engine::{Engine, EngineConfig, Limits, Score, SearchResult, Skill};
use kamil_rules::board_text::{self as board_view, Style};
use kamil_rules::excerpt;
use kamil_rules::move_reader::{Accept, AnyMoveError, Notation, read_move};
use kamil_rules::movegen::in_check;
use kamil_rules::notation::{MoveErrorKind, move_text};
use kamil_rules::outcome::{Outcome, claimable, outcome};
use kamil_rules::pgn::{GameRecord, outcome_tags, write as write_pgn};
use kamil_rules::usi::UsiMoveErrorKind;
use kamil_rules::{Move, MoveKind, Position, Side, Variant};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Engine time per move when neither `--movetime` nor `--depth` is given, ms.
const DEFAULT_MOVETIME_MS: u64 = 2000;

/// Which side the user plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideArg {
    /// The side that moves first (White; Black/Sente in the shogi games).
    First,
    /// The side that moves second.
    Second,
}

/// Arguments of `kamil play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// The side you play; the engine plays the other.
    #[arg(long, value_enum, default_value = "first")]
    side: SideArg,
    /// Engine thinking time per move, ms [default: 2000].
    #[arg(long, value_name = "MS", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Engine search depth per move, plies, instead of a time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Save the game as PGN to this file when it ends and on leaving.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Draw the board without colours even on a terminal (as does `NO_COLOR`).
    #[arg(long)]
    no_color: bool,
    /// Evaluate with this network file (`kamil train-net`'s `.nnue`) for
    /// the game, or `hand` for the hand-written evaluation, instead of the
    /// default (the game's built-in network where it has one).
    #[arg(long, value_name = "FILE|hand")]
    eval: Option<PathBuf>,
    /// The engine's strength level, 0 (weakest) to 20 (full strength),
    /// as UCI's `Skill Level`.
    #[arg(long, value_name = "LEVEL", conflicts_with = "elo",
          value_parser = clap::value_parser!(u8).range(0..=20))]
    skill: Option<u8>,
    /// The engine's strength on the levels' Elo scale of this game (1000:
    /// level 0), as UCI's `UCI_Elo` with `UCI_LimitStrength`.
    #[arg(long, value_name = "ELO", value_parser = elo_arg)]
    elo: Option<i32>,
}

/// Reads `--elo`: a whole number in `UCI_Elo`'s range.
fn elo_arg(text: &str) -> std::result::Result<i32, String> {
    let (lo, hi) = kamil_engine::skill::elo::elo_range();
    text.parse::<i32>()
        .ok()
        .filter(|e| (lo..=hi).contains(e))
        .ok_or_else(|| format!("must be a whole number from {lo} to {hi}"))
}

/// Plays a game between the user (standard input) and the engine, printing
/// to standard output, until the user quits or the input ends.
///
/// Errors: a variant, option or FEN that does not load; a network file
/// (`--eval`) that cannot be used for the game; a PGN file given
/// with `--pgn` that cannot be written on leaving; output that cannot be
/// written.
pub fn run(args: Args) -> Result<()> {
    let pos = args.game.position()?;
    let mut engine = Engine::new(EngineConfig::default());
    let mut core = Core::with_variant(&args.game.variant, pos.variant().clone())?;
    core.set_eval_arg(args.eval.as_deref());
    core.set_level(args.skill.unwrap_or(Skill::FULL));
    core.set_limit(args.elo.is_some());
    core.set_elo(args.elo.unwrap_or(ELO_FLOOR));
    core.apply_or_fail(&mut engine)?;
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let color = !args.no_color
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let limits = match (args.depth, args.movetime) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(ms)) => Limits::movetime(ms),
        (None, None) => Limits::movetime(DEFAULT_MOVETIME_MS),
    };
    let user = match args.side {
        SideArg::First => Side::First,
        SideArg::Second => Side::Second,
    };
    let mut session = Session {
        start: start_of(&pos),
        pos,
        user,
        engine,
        limits,
        out: std::io::stdout().lock(),
        style: Style {
            color,
            flipped: user == Side::Second,
        },
        pgn: args.pgn,
        echo,
        announced: false,
        resigned: None,
        claimed: None,
        board_shown: false,
    };
    session.play(&mut stdin.lock())
}

/// The position a game began from: `pos` with every move taken back.
fn start_of(pos: &Position) -> Position {
    let mut p = pos.clone();
    while p.depth() > 0 {
        p.unmake();
    }
    p
}

/// How a game ended, for the announcement and the PGN record.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ending {
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: &'static str,
    /// The winner, if not drawn.
    winner: Option<Side>,
    /// `checkmate`, `White resigns`...
    reason: String,
    /// The rules' result, when the rules ended the game.
    outcome: Option<Outcome>,
}

/// One game in progress and where its text goes.
struct Session<W: Write> {
    /// Where the game began (no moves to unmake).
    start: Position,
    /// The position now; its moves since `start` are the game.
    pos: Position,
    /// The user's side.
    user: Side,
    engine: Engine,
    limits: Limits,
    out: W,
    style: Style,
    /// Save here when the game ends and on leaving.
    pgn: Option<PathBuf>,
    /// Repeat each input line after the prompt (input is not a terminal).
    echo: bool,
    /// The current ending has been announced.
    announced: bool,
    /// The side that resigned, if one did.
    resigned: Option<Side>,
    /// A result claimed instead of a move (Dynamic Scoring's bare King).
    claimed: Option<Outcome>,
    /// The board on screen shows the position now.
    board_shown: bool,
}

/// What a line of input asks for.
enum Command<'a> {
    Help,
    Moves,
    Undo,
    Fen,
    Sfen,
    Board,
    Hint,
    Save(&'a str),
    Resign,
    Claim,
    Quit,
    Move(&'a str),
}

fn command(line: &str) -> Command<'_> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    match word.to_ascii_lowercase().as_str() {
        "help" | "?" => Command::Help,
        "moves" => Command::Moves,
        "undo" | "takeback" => Command::Undo,
        "fen" => Command::Fen,
        "sfen" => Command::Sfen,
        "board" | "show" => Command::Board,
        "hint" => Command::Hint,
        "save" => Command::Save(rest),
        "resign" => Command::Resign,
        "claim" => Command::Claim,
        "quit" | "exit" | "q" => Command::Quit,
        _ => Command::Move(line),
    }
}

impl<W: Write> Session<W> {
    fn variant(&self) -> &Variant {
        self.pos.variant()
    }

    fn side_name(&self, side: Side) -> &'static str {
        board_view::side_name(self.variant(), side)
    }

    /// Runs the game until `quit` or the end of `input`, then saves the
    /// PGN if `--pgn` was given.
    ///
    /// Errors: besides output that cannot be written, input that cannot be
    /// read or a line longer than [`input::MAX_LINE`] (the game is saved
    /// first).
    fn play(&mut self, input: &mut dyn BufRead) -> Result<()> {
        self.intro()?;
        let mut failed = None;
        loop {
            let over = self.check_end()?;
            if !over && self.pos.side() != self.user {
                self.engine_move()?;
                continue;
            }
            self.prompt(over)?;
            let line = match input::read_line(input) {
                Ok(Some(line)) => line,
                Ok(None) => {
                    // The prompt's line is still open.
                    writeln!(self.out)?;
                    writeln!(self.out, "End of input: leaving.")?;
                    break;
                }
                Err(e) => {
                    writeln!(self.out)?;
                    failed = Some(e);
                    break;
                }
            };
            if self.echo {
                writeln!(self.out, "{line}")?;
            }
            if line.is_empty() {
                continue;
            }
            match command(&line) {
                Command::Help => self.help()?,
                Command::Moves => self.list_moves()?,
                Command::Undo => self.undo()?,
                Command::Fen => writeln!(self.out, "{}", self.pos.fen())?,
                Command::Sfen => {
                    let text = self.pos.sfen().unwrap_or_else(|| {
                        let title = &self.variant().title;
                        format!("{title} has no SFEN (the shogi games have); `fen` prints the FEN.")
                    });
                    writeln!(self.out, "{text}")?;
                }
                Command::Board => self.show_board()?,
                Command::Hint => self.hint(over)?,
                Command::Save(file) => self.save_command(file)?,
                Command::Resign => self.resign(over)?,
                Command::Claim => self.claim(over)?,
                Command::Quit => {
                    writeln!(self.out, "Bye.")?;
                    break;
                }
                Command::Move(text) => self.user_move(text, over)?,
            }
        }
        if let Some(path) = self.pgn.clone() {
            self.save(&path)?;
            writeln!(self.out, "Game saved to {}.", path.display())?;
        }
        self.out.flush()?;
        failed.map_or(Ok(()), Err)
    }

    fn intro(&mut self) -> Result<()> {
        let v = self.pos.variant().clone();
        let title = if v.title.is_empty() {
            &v.name
        } else {
            &v.title
        };
        let thinking = match (self.limits.depth, self.limits.movetime) {
            (Some(d), _) => format!("{d} plies a move"),
            (None, Some(ms)) => format!("{ms} ms a move"),
            _ => "its own time".to_string(),
        };
        writeln!(self.out, "kamil play: {title} ({})", v.name)?;
        writeln!(
            self.out,
            "You play {}; kamil plays {} ({thinking}).",
            self.side_name(self.user),
            self.side_name(self.user.flip()),
        )?;
        write!(self.out, "{}", board_view::legend(&v))?;
        writeln!(
            self.out,
            "Type a move in coordinate notation ({}), or `help` for the commands.",
            example_move(&mut self.pos, self.user)
        )?;
        writeln!(
            self.out,
            "Your pieces are {}, at the bottom.",
            board_view::side_marking(&v, self.user)
        )?;
        writeln!(self.out)?;
        self.show_board()
    }

    fn show_board(&mut self) -> Result<()> {
        let board = board_view::render(&self.pos, self.pos.last_move(), self.style);
        write!(self.out, "{board}")?;
        self.board_shown = true;
        if let Some(m) = self.pos.last_move() {
            let mover = self.pos.side().flip();
            writeln!(
                self.out,
                "Last move: {} by {}.",
                move_text(self.variant(), m),
                self.side_name(mover)
            )?;
        }
        Ok(())
    }

    fn prompt(&mut self, over: bool) -> Result<()> {
        if over {
            write!(self.out, "game over> ")?;
        } else {
            let n = self.pos.fullmove().max(1);
            let side = self.side_name(self.pos.side());
            write!(self.out, "{n}. {side} to move> ")?;
        }
        self.out.flush()?;
        Ok(())
    }

    /// The ending of the game as it stands, if it has ended.
    fn ending(&mut self) -> Option<Ending> {
        if let Some(s) = self.resigned {
            return Some(Ending {
                result: if s == Side::First { "0-1" } else { "1-0" },
                winner: Some(s.flip()),
                reason: format!("{} resigns", self.side_name(s)),
                outcome: None,
            });
        }
        self.claimed
            .or_else(|| outcome(&mut self.pos))
            .map(|o| Ending {
                result: o.score(),
                winner: o.winner(),
                reason: match o.points() {
                    Some(p) => format!("{} {p}", o.reason()),
                    None => o.reason().to_string(),
                },
                outcome: Some(o),
            })
    }

    /// Is the game over? Announces the ending (and saves the PGN) the
    /// first time it is seen.
    fn check_end(&mut self) -> Result<bool> {
        let Some(end) = self.ending() else {
            self.announced = false;
            return Ok(false);
        };
        if self.announced {
            return Ok(true);
        }
        self.announced = true;
        if !self.board_shown {
            self.show_board()?;
        }
        writeln!(self.out, "Result {} ({})", end.result, end.reason)?;
        let verdict = match end.winner {
            Some(w) if w == self.user => "You win. Well played!".to_string(),
            Some(w) => format!("kamil wins, playing {}.", self.side_name(w)),
            None => "The game is drawn.".to_string(),
        };
        writeln!(self.out, "{verdict}")?;
        if let Some(path) = self.pgn.clone() {
            match self.save(&path) {
                Ok(()) => writeln!(self.out, "Game saved to {}.", path.display())?,
                Err(e) => writeln!(self.out, "Could not save the game: {e:#}")?,
            }
        }
        writeln!(
            self.out,
            "Type `undo` to take moves back, `save FILE` to keep the game, `quit` to leave."
        )?;
        Ok(true)
    }

    fn engine_move(&mut self) -> Result<()> {
        writeln!(self.out, "kamil is thinking...")?;
        self.out.flush()?;
        let r = self.engine.search(&self.pos, &self.limits, &mut |_| {});
        if let Some(c) = claimable(&self.pos) {
            // Claim when the points are worth more than the search expects.
            let side = self.pos.side();
            let claim = kamil_engine::search::outcome_score(c, side, 0);
            let better = match r.score {
                Score::Cp(cp) => claim > cp,
                Score::Mate(n) => n < 0,
            };
            if better || r.best.is_none() {
                writeln!(self.out, "kamil claims {c}.")?;
                self.claimed = Some(c);
                return Ok(());
            }
        }
        let Some(m) = r.best else {
            bail!(
                "the engine found no move in a game that has not ended (FEN {})",
                self.pos.fen()
            );
        };
        let text = move_text(self.variant(), m);
        writeln!(self.out, "kamil plays {text}  ({})", search_summary(&r))?;
        self.pos.make(m);
        self.show_board()?;
        self.announce_check()
    }

    fn announce_check(&mut self) -> Result<()> {
        let side = self.pos.side();
        if self.pos.royals(side).len() == 1
            && in_check(&self.pos, side)
            && outcome(&mut self.pos).is_none()
        {
            writeln!(self.out, "Check.")?;
        }
        Ok(())
    }

    fn user_move(&mut self, text: &str, over: bool) -> Result<()> {
        if over {
            writeln!(
                self.out,
                "The game is over: `undo` takes moves back, `quit` leaves."
            )?;
            return Ok(());
        }
        match read_move(&mut self.pos, text, Accept::First(Notation::Kamil)) {
            Ok((m, _)) => {
                self.pos.make(m);
                self.board_shown = false;
                self.announce_check()?;
            }
            Err(e) => {
                writeln!(self.out, "{e}")?;
                // The error already lists the piece's legal moves (or says it has none).
                let listed = match &e {
                    AnyMoveError::Kamil(k) => matches!(k.kind, MoveErrorKind::NotLegal { .. }),
                    AnyMoveError::Usi(u) => matches!(u.kind, UsiMoveErrorKind::NotLegal { .. }),
                };
                if !listed {
                    self.piece_moves_hint(text)?;
                }
                writeln!(
                    self.out,
                    "Type `moves` for every legal move, `help` for the commands."
                )?;
            }
        }
        Ok(())
    }

    /// After a bad move: the legal moves of the user's piece on the square
    /// the text begins with, if it names one.
    fn piece_moves_hint(&mut self, text: &str) -> Result<()> {
        let v = self.pos.variant().clone();
        let t = text.trim().to_lowercase();
        let Some((from, _)) = v.geometry.parse_square_prefix(&t) else {
            return Ok(());
        };
        let p = self.pos.at(from);
        if p.is_piece() && !p.is_side(self.pos.side()) {
            writeln!(
                self.out,
                "The piece on {} is kamil's; yours are {}.",
                v.geometry.name(from),
                board_view::side_marking(&v, self.pos.side())
            )?;
            return Ok(());
        }
        if !p.is_piece() {
            return Ok(());
        }
        let name = &v.pieces[p.kind() as usize].name;
        let mut moves = Vec::new();
        if self.ending().is_none() {
            self.pos.legal_moves_into(&mut moves);
        }
        let mut texts: Vec<String> = moves
            .iter()
            .filter(|m| m.from == from)
            .map(|m| move_text(&v, *m))
            .collect();
        texts.sort();
        if texts.is_empty() {
            writeln!(
                self.out,
                "The {name} on {} has no legal move.",
                v.geometry.name(from)
            )?;
        } else {
            writeln!(
                self.out,
                "Legal moves of the {name} on {}: {}",
                v.geometry.name(from),
                texts.join(" ")
            )?;
        }
        Ok(())
    }

    fn list_moves(&mut self) -> Result<()> {
        let mut moves = Vec::new();
        if self.ending().is_none() {
            self.pos.legal_moves_into(&mut moves);
        }
        let v = self.pos.variant().clone();
        let mut texts: Vec<String> = moves.iter().map(|m| move_text(&v, *m)).collect();
        texts.sort();
        let noun = if texts.len() == 1 { "move" } else { "moves" };
        writeln!(self.out, "{} legal {noun}:", texts.len())?;
        let mut line = String::new();
        for t in texts {
            if !line.is_empty() && line.len() + 1 + t.len() > 78 {
                writeln!(self.out, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        if !line.is_empty() {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// Takes back moves until it is the user's turn again, at least one of
    /// the user's moves included; after a resignation, withdraws it.
    fn undo(&mut self) -> Result<()> {
        if self.resigned.take().is_some() {
            self.announced = false;
            writeln!(self.out, "Resignation withdrawn.")?;
            return Ok(());
        }
        if self.claimed.take().is_some() {
            self.announced = false;
            writeln!(self.out, "Claim withdrawn.")?;
            return Ok(());
        }
        let plies = if self.pos.side() == self.user { 2 } else { 1 };
        if self.pos.depth() < plies {
            writeln!(self.out, "Nothing to take back.")?;
            return Ok(());
        }
        let mut taken = Vec::new();
        for _ in 0..plies {
            if let Some(m) = self.pos.last_move() {
                taken.push(move_text(self.variant(), m));
            }
            self.pos.unmake();
        }
        taken.reverse();
        self.announced = false;
        writeln!(self.out, "Took back {}.", taken.join(" "))?;
        self.show_board()
    }

    fn hint(&mut self, over: bool) -> Result<()> {
        if over {
            writeln!(self.out, "The game is over.")?;
            return Ok(());
        }
        writeln!(self.out, "kamil is thinking for you...")?;
        self.out.flush()?;
        // A hint is the full engine's, whatever level kamil plays at
        // (issue 80): the level is set back after it.
        let level = self.engine.skill();
        self.engine.set_level(Skill::default());
        let r = self.engine.search(&self.pos, &self.limits, &mut |_| {});
        self.engine.set_level(level);
        match r.best {
            Some(m) => writeln!(
                self.out,
                "Hint: {}  ({})",
                move_text(self.variant(), m),
                search_summary(&r)
            )?,
            None => writeln!(self.out, "No move to suggest.")?,
        }
        Ok(())
    }

    /// Claims the result the rules let the user claim instead of moving
    /// (Dynamic Scoring's bare King, rules/ordinary-variant.md 7.2).
    fn claim(&mut self, over: bool) -> Result<()> {
        if over {
            writeln!(self.out, "The game is over already.")?;
        } else if let Some(o) = claimable(&self.pos).filter(|_| self.pos.side() == self.user) {
            self.claimed = Some(o);
        } else {
            writeln!(self.out, "There is nothing to claim here.")?;
        }
        Ok(())
    }

    fn resign(&mut self, over: bool) -> Result<()> {
        if over {
            writeln!(self.out, "The game is over already.")?;
        } else {
            self.resigned = Some(self.user);
        }
        Ok(())
    }

    fn save_command(&mut self, file: &str) -> Result<()> {
        if file.is_empty() {
            writeln!(self.out, "Usage: save FILE")?;
            return Ok(());
        }
        match self.save(Path::new(file)) {
            Ok(()) => writeln!(self.out, "Game saved to {file}.")?,
            Err(e) => writeln!(self.out, "Could not save the game: {e:#}")?,
        }
        Ok(())
    }

    /// Writes the game so far as PGN to `path`.
    fn save(&mut self, path: &Path) -> Result<()> {
        let text = self.pgn_text();
        std::fs::write(path, text)
            .with_context(|| format!("writing `{}`", excerpt(&path.display().to_string())))
    }

    /// The game so far as PGN: result `*` while it goes on.
    fn pgn_text(&mut self) -> String {
        let end = self.ending();
        let moves: Vec<Move> = self.pos.moves_played().collect();
        let user = std::env::var("USER")
            .ok()
            .filter(|u| !u.trim().is_empty())
            .unwrap_or_else(|| "You".to_string());
        let (white, black) = if self.user == Side::First {
            (user, "kamil".to_string())
        } else {
            ("kamil".to_string(), user)
        };
        let mut tags = vec![
            ("Event".to_string(), "kamil play".to_string()),
            ("Site".to_string(), "kamil".to_string()),
            ("Date".to_string(), today()),
            ("Round".to_string(), "-".to_string()),
            ("White".to_string(), white),
            ("Black".to_string(), black),
        ];
        if let Some(o) = end.as_ref().and_then(|e| e.outcome) {
            tags.extend(outcome_tags(&o));
        }
        write_pgn(&GameRecord {
            start: &self.start,
            moves: &moves,
            tags: &tags,
            result: end.as_ref().map_or("*", |e| e.result),
            termination: end.as_ref().map(|e| e.reason.as_str()),
        })
    }

    fn help(&mut self) -> Result<()> {
        let legend = board_view::legend(self.variant());
        let example = example_move(&mut self.pos, self.user);
        write!(
            self.out,
            "Moves are written square to square: {example}; ranks may have two digits (b10c12).
A promotion adds `+` in the shogi games, the new piece's letter in the chess games.
Commands:
  moves       list every legal move
  undo        take back your last move (and kamil's reply)
  fen         print the position as FEN
  sfen        print the position as SFEN (shogi games; they also take USI moves, 7g7f)
  board       draw the board again
  hint        ask kamil for a move
  save FILE   write the game so far as PGN
  resign      give up the game
  claim       take a result the rules let you claim (a bared King)
  help        this text
  quit        leave (the end of input does the same)
Scores are kamil's view, in pawns; `mate in N` counts kamil's moves.
{legend}"
        )?;
        Ok(())
    }
}

/// A move of `side` to show as an example of the notation: a Pawn's plain
/// move if there is one, else another plain move, else any; `a1a2` if
/// `side` has none.
fn example_move(pos: &mut Position, side: Side) -> String {
    let mut moves = Vec::new();
    if pos.side() == side {
        pos.legal_moves_into(&mut moves);
    } else {
        let undo = pos.make_null();
        pos.legal_moves_into(&mut moves);
        pos.unmake_null(undo);
    }
    let v = pos.variant().clone();
    let mut ranked: Vec<(u8, String)> = moves
        .iter()
        .map(|m| {
            let plain = m.promotion().is_none() && m.kind == MoveKind::Normal;
            let pawn = v.pieces[pos.at(m.from).kind() as usize].pawn;
            let rank = match (plain, pawn) {
                (true, true) => 0,
                (true, false) => 1,
                (false, _) => 2,
            };
            (rank, move_text(&v, *m))
        })
        .collect();
    ranked.sort();
    ranked
        .into_iter()
        .next()
        .map_or_else(|| "a1a2".to_string(), |(_, t)| t)
}

/// `depth 7, score +0.35, 1.9 s, 812k nodes`.
fn search_summary(r: &SearchResult) -> String {
    let score = match r.score {
        Score::Cp(cp) => format!("score {:+.2}", cp as f64 / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    };
    let nodes = if r.nodes >= 10_000_000 {
        format!("{}M", r.nodes / 1_000_000)
    } else if r.nodes >= 10_000 {
        format!("{}k", r.nodes / 1_000)
    } else {
        r.nodes.to_string()
    };
    format!(
        "depth {}, {score}, {:.1} s, {nodes} nodes",
        r.depth,
        r.time_ms as f64 / 1000.0
    )
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`; `????.??.??` if the
/// clock is before 1970.
fn today() -> String {
    let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) else {
        return "????.??.??".to_string();
    };
    let (y, m, day) = civil_from_days((d.as_secs() / 86_400) as i64);
    format!("{y:04}.{m:02}.{day:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_day_numbers() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }

    #[test]
    fn commands_are_recognised_and_the_rest_is_a_move() {
        assert!(matches!(command("undo"), Command::Undo));
        assert!(matches!(command("QUIT"), Command::Quit));
        assert!(matches!(
            command("save my game.pgn"),
            Command::Save("my game.pgn")
        ));
        assert!(matches!(command("e2e4"), Command::Move("e2e4")));
        assert!(matches!(command("b10c12"), Command::Move("b10c12")));
    }

    #[test]
    fn summary_shows_depth_score_and_time() {
        let r = SearchResult {
            best: None,
            ponder: None,
            score: Score::Cp(-35),
            depth: 7,
            seldepth: 9,
            nodes: 812_345,
            time_ms: 1_940,
            pv: Vec::new(),
        };
        assert_eq!(
            search_summary(&r),
            "depth 7, score -0.35, 1.9 s, 812k nodes"
        );
        let m = SearchResult {
            score: Score::Mate(-2),
            ..r
        };
        assert!(search_summary(&m).contains("mated in 2"));
    }
}
