//! One refereed game: kamil's rules decide what is legal and when the game
//! is over; an illegal move, a crash, a lost connection, a flag fall, a
//! false claim or a refused legal move loses the game. An engine that
//! cannot start the game (it refuses the set-up, crashes or stays silent
//! before its first move, or complained about the set-up and then could
//! not move) leaves it unplayed: no one won or lost.

use super::openings::Opening;
use crate::lab::engines::client::{Failure, GameStart, Reply, Turn, peer_fen};
use crate::lab::engines::config::Limits;
use crate::lab::engines::seat::Seat;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::move_text;
use kamil_rules::outcome::{Reason, draw_or_points, outcome};
use kamil_rules::{Move, Position, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a game ended, for the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (mate, stalemate, repetition...) or resignation.
    Normal,
    /// A clock ran out.
    TimeForfeit,
    /// An illegal move, a false claim or a refused legal move.
    RulesInfraction,
    /// An engine crashed, hung up or did not start.
    Abandoned,
    /// Stopped by the match's game-length limit or its win adjudication.
    Adjudication,
}

impl Termination {
    /// The PGN tag value.
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::Adjudication => "adjudication",
        }
    }
}

/// Settings shared by every game of a match.
pub struct GameRules {
    /// Plies after which the game is adjudicated a draw.
    pub max_plies: Option<u32>,
    /// How far past its clock an engine may answer.
    pub time_margin: Duration,
    /// Time per move for engines without a clock.
    pub move_timeout: Duration,
    /// Adjudicate a win when both engines agree on it.
    pub win: Option<WinAdjudication>,
    /// Adjudicate a draw when both engines see a level game.
    pub draw: Option<DrawAdjudication>,
}

/// Draw adjudication: from ply `from_ply` on, the game is drawn (or, where
/// the rules score such an ending on points, scored) when both engines
/// reported at most `cp` centipawns either way for `moves` moves in a row
/// each. It saves playing out dead-level games to the ply limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// First ply at which a draw may be adjudicated.
    pub from_ply: u32,
    /// Score bound, centipawns either way.
    pub cp: i32,
    /// Moves in a row of each engine.
    pub moves: u32,
}

impl DrawAdjudication {
    /// Parses `PLY:CP:MOVES` (`80:10:8`).
    ///
    /// Errors: not three integers separated by colons, CP negative or
    /// MOVES zero.
    pub fn parse(text: &str) -> Result<DrawAdjudication, String> {
        let bad = || format!("bad draw adjudication {text:?}: expected PLY:CP:MOVES, as 80:10:8");
        let f: Vec<&str> = text.split(':').map(str::trim).collect();
        let [ply, cp, moves] = f[..] else {
            return Err(bad());
        };
        let from_ply: u32 = ply.parse().map_err(|_| bad())?;
        let cp: i32 = cp.parse().map_err(|_| bad())?;
        let moves: u32 = moves.parse().map_err(|_| bad())?;
        if cp < 0 || moves == 0 {
            return Err(bad());
        }
        Ok(DrawAdjudication {
            from_ply,
            cp,
            moves,
        })
    }
}

/// Win adjudication: the game goes to a side when, for `moves` moves in a
/// row of each engine, its engine reported at least `cp` centipawns for
/// itself and the opponent's engine at most `-cp` (a mate counts as
/// either). It saves playing out won end games that the engines would
/// convert only slowly, or not before the draw adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinAdjudication {
    /// Score threshold, centipawns.
    pub cp: i32,
    /// Moves in a row of each engine.
    pub moves: u32,
}

impl WinAdjudication {
    /// Parses `CP:MOVES` (`1000:4`).
    ///
    /// Errors: not two positive integers separated by a colon.
    pub fn parse(text: &str) -> Result<WinAdjudication, String> {
        let bad = || format!("bad win adjudication {text:?}: expected CP:MOVES, as 1000:4");
        let (cp, moves) = text.split_once(':').ok_or_else(bad)?;
        let cp: i32 = cp.trim().parse().map_err(|_| bad())?;
        let moves: u32 = moves.trim().parse().map_err(|_| bad())?;
        if cp <= 0 || moves == 0 {
            return Err(bad());
        }
        Ok(WinAdjudication { cp, moves })
    }
}

/// Each side's run of moves in a row with a winning and with a losing
/// reported score, for [`WinAdjudication`].
#[derive(Default)]
struct Streaks {
    winning: [u32; 2],
    losing: [u32; 2],
    level: [u32; 2],
}

impl Streaks {
    /// Records `side`'s reported score (none breaks both runs); returns
    /// the winner once the rule is met.
    fn record(&mut self, rule: &WinAdjudication, side: Side, score: Option<i32>) -> Option<Side> {
        let i = side.index();
        let (win, lose) = match score {
            Some(s) => (s >= rule.cp, s <= -rule.cp),
            None => (false, false),
        };
        self.winning[i] = if win { self.winning[i] + 1 } else { 0 };
        self.losing[i] = if lose { self.losing[i] + 1 } else { 0 };
        let j = side.flip().index();
        if self.winning[i] >= rule.moves && self.losing[j] >= rule.moves {
            Some(side)
        } else if self.losing[i] >= rule.moves && self.winning[j] >= rule.moves {
            Some(side.flip())
        } else {
            None
        }
    }

    /// Records `side`'s reported score for [`DrawAdjudication`] (none
    /// breaks the run); true once both engines saw a level game long
    /// enough.
    fn record_level(&mut self, rule: &DrawAdjudication, side: Side, score: Option<i32>) -> bool {
        let i = side.index();
        let level = score.is_some_and(|s| s.abs() <= rule.cp);
        self.level[i] = if level { self.level[i] + 1 } else { 0 };
        self.level.iter().all(|&n| n >= rule.moves)
    }
}

/// A finished game.
pub struct Played {
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The score each move's engine reported with it, centipawns from the
    /// mover's view (a mate as ±[`crate::lab::engines::client::MATE_CP`]), where it reported one.
    pub scores: Vec<Option<i32>>,
    /// The winner, if any.
    pub winner: Option<Side>,
    /// The rules' result, when the rules ended the game (points results
    /// score their share: 56-44 is 0.56 of a game to the first player).
    pub outcome: Option<kamil_rules::Outcome>,
    /// Why the game ended, in words (`checkmate`, `B: illegal move ...`).
    pub why: String,
    /// The kind of ending.
    pub termination: Termination,
    /// The side at fault when the game ended by a failure (not by the
    /// rules, a resignation or adjudication).
    pub fault: Option<Side>,
}

impl Played {
    /// A game at `start` with no move played yet.
    fn new(start: &Position) -> Played {
        Played {
            start: start.clone(),
            moves: Vec::new(),
            scores: Vec::new(),
            winner: None,
            outcome: None,
            why: String::new(),
            termination: Termination::Normal,
            fault: None,
        }
    }

    /// Ends the game as `loss` says. The side at fault is the loser, except
    /// after a resignation (the one `Normal` loss): resigning is no failure,
    /// the engine stays and is not reported.
    fn lose(&mut self, loss: Loss) {
        self.winner = Some(loss.side.flip());
        self.fault = (loss.termination != Termination::Normal).then_some(loss.side);
        self.termination = loss.termination;
        self.why = loss.why;
    }

    /// What the game is worth to `side`, 0.0 to 1.0: the rules' share
    /// for a points result, else 1, 0.5 or 0 by the winner.
    pub fn value(&self, side: Side) -> f64 {
        match (&self.outcome, self.winner) {
            (Some(o), _) => o.value(side),
            (None, Some(w)) if w == side => 1.0,
            (None, Some(_)) => 0.0,
            (None, None) => 0.5,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// A game that was not played to an end, and so is not scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unplayed {
    /// An engine could not start it: the side it played, and why in words
    /// naming the engine and what it said (`HaChu could not start the
    /// game: crashed (exit status 255; it said `tellusererror ...`)`).
    Broken {
        /// The side of the engine that failed.
        side: Side,
        /// Why, in words.
        why: String,
    },
    /// The match was stopped (`abort`) while it was under way.
    Stopped,
}

/// Plays one game between the engines of `seats` (first player first)
/// from `opening`, each with its limits, until its end or until `abort`
/// is set (checked before each move).
///
/// Errors: the game could not start ([`Unplayed::Broken`]) or was stopped.
pub fn play(
    seats: [&mut Seat; 2],
    opening: &Opening,
    limits: [&Limits; 2],
    rules: &GameRules,
    abort: &AtomicBool,
) -> Result<Played, Unplayed> {
    let mut seats = seats;
    let mut game = Played::new(&opening.start);
    let mut referee = Referee::new(opening, limits, rules);
    let run = referee
        .set_up(&mut seats)
        .and_then(|()| referee.play_out(&mut seats, &mut game, abort));
    match run {
        Ok(()) => {
            finish(&mut seats, &game);
            Ok(game)
        }
        Err(u) => {
            abandon(&mut seats, &u);
            Err(u)
        }
    }
}

/// A game lost by one engine: its side, the kind of ending, why in words.
struct Loss {
    side: Side,
    termination: Termination,
    why: String,
}

/// Why a turn ended the game early: a loss, or a start that failed.
enum Stop {
    Lost(Loss),
    Broken(Unplayed),
}

impl From<Loss> for Stop {
    fn from(l: Loss) -> Stop {
        Stop::Lost(l)
    }
}

/// A failure to move of `side`'s engine on its first move (`first`):
/// when it complained about the set-up before, the game could not start;
/// otherwise (or later in the game) the `loss` stands.
fn broken_if_complained(first: bool, side: Side, seat: &mut Seat, loss: Loss) -> Stop {
    let said = seat
        .running()
        .and_then(|c| c.complaint().map(str::to_string));
    match said {
        Some(c) if first => {
            seat.stop();
            Stop::Broken(Unplayed::Broken {
                side,
                why: format!(
                    "{} could not start the game: it said `{c}`, then {}",
                    seat.name, loss.why
                ),
            })
        }
        _ => Stop::Lost(loss),
    }
}

/// The referee of one game: the position, the moves as sent to the
/// engines, the clocks and the adjudication runs.
struct Referee<'a> {
    pos: Position,
    /// The start position's FEN for other programs.
    fen: String,
    /// The moves from the variant's start to the game's start, if known.
    line: Option<&'a [String]>,
    /// Whether each side's engine has moved yet (first player first).
    moved: [bool; 2],
    texts: Vec<String>,
    clocks: [Option<Duration>; 2],
    limits: [&'a Limits; 2],
    rules: &'a GameRules,
    streaks: Streaks,
}

impl<'a> Referee<'a> {
    /// A game from `opening`, the engines' limits by side, no move yet.
    fn new(opening: &'a Opening, limits: [&'a Limits; 2], rules: &'a GameRules) -> Referee<'a> {
        let start = &opening.start;
        Referee {
            pos: start.clone(),
            fen: peer_fen(start),
            line: opening.line.as_deref(),
            moved: [false; 2],
            texts: Vec::new(),
            clocks: [0, 1].map(|i| limits[i].tc.map(|tc| tc.base)),
            limits,
            rules,
            streaks: Streaks::default(),
        }
    }

    /// Starts both engines and tells them the game, before its first move.
    ///
    /// Errors: the first engine that fails to, which is stopped: the game
    /// could not start.
    fn set_up(&self, seats: &mut [&mut Seat; 2]) -> Result<(), Unplayed> {
        let start = &self.pos;
        let is_variant_start = start.fen() == Position::start(start.variant().clone()).fen();
        for side in Side::BOTH {
            let seat = &mut seats[side.index()];
            let g = GameStart {
                start,
                fen: &self.fen,
                is_variant_start,
                side,
                limits: self.limits,
            };
            let ready = match seat.client() {
                Ok(c) => c.start_game(&g, self.line).map_err(|f| f.to_string()),
                Err(e) => Err(e),
            };
            if let Err(e) = ready {
                seat.stop();
                return Err(Unplayed::Broken {
                    side,
                    why: format!("{} could not start the game: {e}", seat.name),
                });
            }
        }
        Ok(())
    }

    /// Plays moves until the rules, an adjudication or a loss end the game.
    ///
    /// Errors: an engine could not start the game, or `abort` was set.
    fn play_out(
        &mut self,
        seats: &mut [&mut Seat; 2],
        game: &mut Played,
        abort: &AtomicBool,
    ) -> Result<(), Unplayed> {
        loop {
            if abort.load(Ordering::Relaxed) {
                return Err(Unplayed::Stopped);
            }
            if self.ended(game) {
                return Ok(());
            }
            let seat = &mut *seats[self.pos.side().index()];
            match self.turn(seat, game) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(Stop::Lost(loss)) => {
                    game.lose(loss);
                    return Ok(());
                }
                Err(Stop::Broken(u)) => return Err(u),
            }
        }
    }

    /// Ends `game` when the rules end it, or the ply limit (a draw, or in a
    /// game that decides such endings on points, rules/frolov-10x10.md 7.1,
    /// the points). Returns true when it is over.
    fn ended(&mut self, game: &mut Played) -> bool {
        if let Some(o) = outcome(&mut self.pos) {
            game.winner = o.winner();
            game.outcome = Some(o);
            game.why = o.reason().to_string();
            return true;
        }
        let Some(max) = self.rules.max_plies else {
            return false;
        };
        if (game.moves.len() as u32) < max {
            return false;
        }
        let o = draw_or_points(&self.pos, Reason::MaxPlies);
        game.winner = o.winner();
        game.termination = Termination::Adjudication;
        game.why = match o.points() {
            Some(p) => format!("adjudicated on points {p} after {max} plies"),
            None => format!("adjudicated a draw after {max} plies"),
        };
        game.outcome = o.points().map(|_| o);
        true
    }

    /// One move of the side to move: asked of its engine, timed, read and
    /// made, then the adjudications. Returns false when an adjudication
    /// ended the game.
    ///
    /// Errors: the loss of an engine that failed, answered without a move,
    /// overstepped its clock or played an illegal move; before its first
    /// move, a failure to answer (and, after a complaint about the set-up,
    /// any failure to move) means it could not start the game.
    fn turn(&mut self, seat: &mut Seat, game: &mut Played) -> Result<bool, Stop> {
        let side = self.pos.side();
        let first = !self.moved[side.index()];
        let clock = self.clocks[side.index()];
        let (reply, elapsed) = match self.ask(seat) {
            Ok(r) => r,
            Err(f) => {
                seat.stop();
                if first {
                    return Err(Stop::Broken(Unplayed::Broken {
                        side,
                        why: format!("{} could not start the game: {f}", seat.name),
                    }));
                }
                return Err(self.failure_loss(&f, &seat.name, clock).into());
            }
        };
        let text = move_of(reply, &seat.name, side)
            .map_err(|l| broken_if_complained(first, side, seat, l))?;
        self.charge_clock(seat, elapsed)?;
        let score = seat.running().and_then(|c| c.last_score());
        // In kamil's notation or USI's (a USI engine's).
        let m = match read_move(&mut self.pos, &text, Accept::Only(Notation::Kamil)) {
            Ok((m, _)) => m,
            Err(e) => {
                let loss = Loss {
                    side,
                    termination: Termination::RulesInfraction,
                    why: format!("{} played an illegal move: {e}", seat.name),
                };
                return Err(broken_if_complained(first, side, seat, loss));
            }
        };
        self.moved[side.index()] = true;
        self.pos.make(m);
        game.moves.push(m);
        game.scores.push(score);
        self.texts.push(move_text(self.pos.variant(), m));
        Ok(!self.adjudicate_win(side, score, game) && !self.adjudicate_draw(side, score, game))
    }

    /// Asks the engine of the side to move for a move, by its clock's
    /// deadline (or the move timeout): returns its reply and the time it
    /// took.
    ///
    /// Errors: the engine did not answer in time, crashed or broke the
    /// protocol.
    fn ask(&self, seat: &mut Seat) -> Result<(Reply, Duration), Failure> {
        let side = self.pos.side();
        let clock = self.clocks[side.index()];
        let t0 = Instant::now();
        let allowed = match clock {
            Some(c) => c + self.rules.time_margin,
            None => self.rules.move_timeout,
        };
        let turn = Turn {
            fen: &self.fen,
            moves: &self.texts,
            clocks: self.clocks,
            limits: self.limits,
            side,
            deadline: t0 + allowed,
        };
        let reply = match seat.client() {
            Ok(c) => c.think(&turn),
            Err(e) => Err(Failure::Crash(e)),
        };
        let elapsed = t0.elapsed();
        reply.map(|r| (r, elapsed))
    }

    /// The loss of `side`'s engine `name` after a failure to answer, with
    /// `clock` left on its clock.
    fn failure_loss(&self, f: &Failure, name: &str, clock: Option<Duration>) -> Loss {
        let (termination, why) = match f {
            Failure::Timeout(s) => match clock {
                Some(c) => (
                    Termination::TimeForfeit,
                    format!(
                        "{name} lost on time ({s} within the {:.3} s on its clock)",
                        c.as_secs_f64()
                    ),
                ),
                None => (
                    Termination::Abandoned,
                    format!(
                        "{name} did not move within {:.1} s",
                        self.rules.move_timeout.as_secs_f64()
                    ),
                ),
            },
            Failure::Rejected(s) => (
                Termination::RulesInfraction,
                format!(
                    "{name} refused the legal move {}: {s}",
                    self.texts.last().map(String::as_str).unwrap_or("(none)")
                ),
            ),
            Failure::Crash(_)
            | Failure::Protocol(_)
            | Failure::Refused(_)
            | Failure::Unsupported(_) => (Termination::Abandoned, format!("{name} {f}")),
        };
        Loss {
            side: self.pos.side(),
            termination,
            why,
        }
    }

    /// Takes `elapsed` off the mover's clock and adds its increment.
    ///
    /// Errors: the loss on time of an engine that answered past its clock
    /// and the margin (it is stopped).
    fn charge_clock(&mut self, seat: &mut Seat, elapsed: Duration) -> Result<(), Loss> {
        let side = self.pos.side();
        let me = side.index();
        let Some(c) = self.clocks[me] else {
            return Ok(());
        };
        if elapsed > c + self.rules.time_margin {
            seat.stop();
            return Err(Loss {
                side,
                termination: Termination::TimeForfeit,
                why: format!(
                    "{} lost on time ({:.3} s used, {:.3} s left)",
                    seat.name,
                    elapsed.as_secs_f64(),
                    c.as_secs_f64()
                ),
            });
        }
        let inc = self.limits[me].tc.map(|tc| tc.inc).unwrap_or_default();
        self.clocks[me] = Some(c.saturating_sub(elapsed) + inc);
        Ok(())
    }

    /// After `side`'s move with its engine's `score`: ends `game` as a win
    /// when both engines agree on it (and the rules have not ended it).
    /// Returns true when it did.
    fn adjudicate_win(&mut self, side: Side, score: Option<i32>, game: &mut Played) -> bool {
        let Some(rule) = &self.rules.win else {
            return false;
        };
        let Some(w) = self.streaks.record(rule, side, score) else {
            return false;
        };
        if outcome(&mut self.pos).is_some() {
            return false;
        }
        game.winner = Some(w);
        game.termination = Termination::Adjudication;
        game.why = format!(
            "adjudicated a win: both engines scored it {} cp or more for {} moves",
            rule.cp, rule.moves
        );
        true
    }

    /// After `side`'s move with its engine's `score`: ends `game` as a draw
    /// (or on points) when both engines have seen a level game long enough
    /// (and the rules have not ended it). Returns true when it did.
    fn adjudicate_draw(&mut self, side: Side, score: Option<i32>, game: &mut Played) -> bool {
        let Some(rule) = &self.rules.draw else {
            return false;
        };
        if !self.streaks.record_level(rule, side, score)
            || (game.moves.len() as u32) < rule.from_ply
            || outcome(&mut self.pos).is_some()
        {
            return false;
        }
        let o = draw_or_points(&self.pos, Reason::MaxPlies);
        game.winner = o.winner();
        game.termination = Termination::Adjudication;
        game.why = match o.points() {
            Some(p) => format!("adjudicated on points {p}: both engines saw a level game"),
            None => format!(
                "adjudicated a draw: both engines scored it within {} cp for {} moves",
                rule.cp, rule.moves
            ),
        };
        game.outcome = o.points().map(|_| o);
        true
    }
}

/// The move text of an engine's reply. A claim that the opponent has won
/// is a resignation (HaChu with no move left: `1-0 {resign}` as the second
/// player).
///
/// Errors: the loss of `side`'s engine `name` by resigning, by a false
/// claim or by saying it has no move in a live game.
fn move_of(reply: Reply, name: &str, side: Side) -> Result<String, Loss> {
    let reply = match reply {
        Reply::Claim(c) if concedes(&c, side) => Reply::Resign,
        r => r,
    };
    let (termination, why) = match reply {
        Reply::Move(m) => return Ok(m),
        Reply::Resign => (Termination::Normal, format!("{name} resigns")),
        Reply::Claim(c) => (
            Termination::RulesInfraction,
            format!("{name} made a false claim: {c}"),
        ),
        Reply::NoMove => (
            Termination::RulesInfraction,
            format!("{name} said it has no move, but the game is not over"),
        ),
    };
    Err(Loss {
        side,
        termination,
        why,
    })
}

/// Tells both engines the result; drops the one at fault (restarted for
/// the next game) and any that asked to be restarted.
fn finish(seats: &mut [&mut Seat; 2], game: &Played) {
    for side in Side::BOTH {
        let seat = &mut seats[side.index()];
        if game.fault == Some(side) {
            seat.stop();
            continue;
        }
        if let Some(c) = seat.running() {
            c.end_game(game.result(), &game.why);
        }
        seat.after_game();
    }
}

/// After a game that was not played: stops the engine that could not start
/// it (restarted for the next game) and tells the other it is over.
fn abandon(seats: &mut [&mut Seat; 2], why: &Unplayed) {
    for side in Side::BOTH {
        let seat = &mut seats[side.index()];
        match why {
            Unplayed::Broken { side: s, .. } if *s == side => seat.stop(),
            _ => {
                if let Some(c) = seat.running() {
                    c.end_game("*", "not played");
                }
                seat.after_game();
            }
        }
    }
}

/// Does the result claim `c` (`1-0 {...}`) give the game to the claimer's
/// opponent? `side` is the claimer.
fn concedes(c: &str, side: Side) -> bool {
    let result = c.split_whitespace().next().unwrap_or("");
    matches!((result, side), ("1-0", Side::Second) | ("0-1", Side::First))
}

#[cfg(test)]
mod claim_tests {
    use super::{DrawAdjudication, Streaks, WinAdjudication, concedes};
    use kamil_rules::Side;

    #[test]
    fn a_win_is_adjudicated_only_when_both_engines_agree_long_enough() {
        let rule = WinAdjudication::parse("500:2").unwrap();
        let mut s = Streaks::default();
        let (w, b) = (Side::First, Side::Second);
        assert_eq!(s.record(&rule, w, Some(600)), None);
        assert_eq!(s.record(&rule, b, Some(-600)), None);
        assert_eq!(s.record(&rule, w, Some(700)), None);
        // A score that does not agree breaks the run.
        assert_eq!(s.record(&rule, b, Some(-100)), None);
        assert_eq!(s.record(&rule, w, Some(700)), None);
        assert_eq!(s.record(&rule, b, Some(-900)), None);
        assert_eq!(s.record(&rule, w, Some(800)), None);
        assert_eq!(s.record(&rule, b, Some(-900)), Some(w));
        // The losing side's own view counts as much as the winner's.
        let mut s = Streaks::default();
        assert_eq!(s.record(&rule, w, Some(-500)), None);
        assert_eq!(s.record(&rule, b, Some(500)), None);
        assert_eq!(s.record(&rule, w, None), None);
        assert_eq!(s.record(&rule, b, Some(500)), None);
        assert!(WinAdjudication::parse("500").is_err());
        assert!(WinAdjudication::parse("-5:2").is_err());
        assert!(WinAdjudication::parse("5:0").is_err());
    }

    #[test]
    fn a_draw_is_adjudicated_only_when_both_engines_see_a_level_game() {
        let rule = DrawAdjudication::parse("40:10:2").unwrap();
        let mut s = Streaks::default();
        let (w, b) = (Side::First, Side::Second);
        assert!(!s.record_level(&rule, w, Some(5)));
        assert!(!s.record_level(&rule, b, Some(-10)));
        assert!(!s.record_level(&rule, w, Some(0)));
        // One score out of the band breaks that engine's run.
        assert!(!s.record_level(&rule, b, Some(11)));
        assert!(!s.record_level(&rule, w, Some(3)));
        assert!(!s.record_level(&rule, b, Some(2)));
        assert!(!s.record_level(&rule, w, None));
        assert!(!s.record_level(&rule, b, Some(2)));
        assert!(!s.record_level(&rule, w, Some(1)));
        assert!(s.record_level(&rule, w, Some(1)));
        assert!(DrawAdjudication::parse("40:10").is_err());
        assert!(DrawAdjudication::parse("40:-1:2").is_err());
        assert!(DrawAdjudication::parse("40:10:0").is_err());
        assert!(DrawAdjudication::parse("x:10:2").is_err());
    }

    #[test]
    fn a_claim_for_the_opponent_is_a_resignation() {
        assert!(concedes("1-0 {resign}", Side::Second));
        assert!(concedes("0-1 {White resigns}", Side::First));
        assert!(!concedes("1-0 {checkmate}", Side::First));
        assert!(!concedes("1/2-1/2 {repetition}", Side::Second));
    }
}
