//! One refereed game: kamil's rules decide what is legal and when the game
//! is over; an illegal move, a crash, a lost connection, a flag fall, a
//! false claim or a refused legal move loses the game.

use crate::engines::client::{Failure, GameStart, Reply, Turn, peer_fen};
use crate::engines::config::Limits;
use crate::engines::seat::Seat;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::{Reason, draw_or_points, outcome};
use kamil_rules::{Move, Position, Side};
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

/// Plays one game between the engines of `seats` (first player first)
/// from `start`, each with its limits.
pub fn play(
    seats: [&mut Seat; 2],
    start: &Position,
    limits: [&Limits; 2],
    rules: &GameRules,
) -> Played {
    let mut seats = seats;
    let fen = peer_fen(start);
    let v = start.variant().clone();
    let is_variant_start = start.fen() == Position::start(v.clone()).fen();
    let mut game = Played {
        start: start.clone(),
        moves: Vec::new(),
        winner: None,
        outcome: None,
        why: String::new(),
        termination: Termination::Normal,
        fault: None,
    };
    let lose = |game: &mut Played, side: Side, t: Termination, why: String| {
        game.winner = Some(side.flip());
        game.termination = t;
        game.why = why;
        game.fault = Some(side);
    };

    // Start both engines and set up the game.
    for side in Side::BOTH {
        let seat = &mut seats[side.index()];
        let name = seat.name.clone();
        let g = GameStart {
            start,
            fen: &fen,
            is_variant_start,
            side,
            limits,
        };
        let ready = match seat.client() {
            Ok(c) => c.new_game(&g).map_err(|f| f.to_string()),
            Err(e) => Err(e),
        };
        if let Err(e) = ready {
            seat.stop();
            lose(
                &mut game,
                side,
                Termination::Abandoned,
                format!("{name} could not start the game: {e}"),
            );
            finish(&mut seats, &game);
            return game;
        }
    }

    let mut pos = start.clone();
    let mut texts: Vec<String> = Vec::new();
    let mut clocks: [Option<Duration>; 2] = [0, 1].map(|i| limits[i].tc.map(|tc| tc.base));
    let mut streaks = Streaks::default();
    loop {
        if let Some(o) = outcome(&mut pos) {
            game.winner = o.winner();
            game.outcome = Some(o);
            game.why = o.reason().to_string();
            break;
        }
        if let Some(max) = rules.max_plies
            && game.moves.len() as u32 >= max
        {
            // A draw, or in a game that decides such endings on points
            // (rules/frolov-10x10.md 7.1), the points.
            let o = draw_or_points(&pos, Reason::MaxPlies);
            game.winner = o.winner();
            game.termination = Termination::Adjudication;
            game.why = match o.points() {
                Some(p) => format!("adjudicated on points {p} after {max} plies"),
                None => format!("adjudicated a draw after {max} plies"),
            };
            game.outcome = o.points().map(|_| o);
            break;
        }
        let side = pos.side();
        let me = side.index();
        let seat = &mut seats[me];
        let name = seat.name.clone();
        let t0 = Instant::now();
        let allowed = match clocks[me] {
            Some(c) => c + rules.time_margin,
            None => rules.move_timeout,
        };
        let turn = Turn {
            fen: &fen,
            moves: &texts,
            clocks,
            limits,
            side,
            deadline: t0 + allowed,
        };
        let reply = match seat.client() {
            Ok(c) => c.think(&turn),
            Err(e) => Err(Failure::Crash(e)),
        };
        let elapsed = t0.elapsed();
        let reply = match reply {
            Ok(r) => r,
            Err(f) => {
                seat.stop();
                let (t, why) = match &f {
                    Failure::Timeout(s) => match clocks[me] {
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
                                rules.move_timeout.as_secs_f64()
                            ),
                        ),
                    },
                    Failure::Rejected(s) => (
                        Termination::RulesInfraction,
                        format!(
                            "{name} refused the legal move {}: {s}",
                            texts.last().map(String::as_str).unwrap_or("(none)")
                        ),
                    ),
                    Failure::Crash(_) | Failure::Protocol(_) => {
                        (Termination::Abandoned, format!("{name} {f}"))
                    }
                };
                lose(&mut game, side, t, why);
                break;
            }
        };
        // A claim that the opponent has won is a resignation (HaChu with no
        // move left: `1-0 {resign}` as the second player).
        let reply = match reply {
            Reply::Claim(c) if concedes(&c, side) => Reply::Resign,
            r => r,
        };
        let text = match reply {
            Reply::Move(m) => m,
            Reply::Resign => {
                lose(
                    &mut game,
                    side,
                    Termination::Normal,
                    format!("{name} resigns"),
                );
                // Resigning is no failure: the engine stays and is not reported.
                game.fault = None;
                break;
            }
            Reply::Claim(c) => {
                lose(
                    &mut game,
                    side,
                    Termination::RulesInfraction,
                    format!("{name} made a false claim: {c}"),
                );
                break;
            }
            Reply::NoMove => {
                lose(
                    &mut game,
                    side,
                    Termination::RulesInfraction,
                    format!("{name} said it has no move, but the game is not over"),
                );
                break;
            }
        };
        if let Some(c) = clocks[me] {
            if elapsed > c + rules.time_margin {
                seat.stop();
                lose(
                    &mut game,
                    side,
                    Termination::TimeForfeit,
                    format!(
                        "{name} lost on time ({:.3} s used, {:.3} s left)",
                        elapsed.as_secs_f64(),
                        c.as_secs_f64()
                    ),
                );
                break;
            }
            let inc = limits[me].tc.map(|tc| tc.inc).unwrap_or_default();
            clocks[me] = Some(c.saturating_sub(elapsed) + inc);
        }
        let score = seat.running().and_then(|c| c.last_score());
        match parse_move(&mut pos, &text) {
            Ok(m) => {
                pos.make(m);
                game.moves.push(m);
                texts.push(move_text(&v, m));
                if let Some(rule) = &rules.win
                    && let Some(w) = streaks.record(rule, side, score)
                    && outcome(&mut pos).is_none()
                {
                    game.winner = Some(w);
                    game.termination = Termination::Adjudication;
                    game.why = format!(
                        "adjudicated a win: both engines scored it {} cp or more for {} moves",
                        rule.cp, rule.moves
                    );
                    break;
                }
                if let Some(rule) = &rules.draw
                    && streaks.record_level(rule, side, score)
                    && game.moves.len() as u32 >= rule.from_ply
                    && outcome(&mut pos).is_none()
                {
                    let o = draw_or_points(&pos, Reason::MaxPlies);
                    game.winner = o.winner();
                    game.termination = Termination::Adjudication;
                    game.why = match o.points() {
                        Some(p) => {
                            format!("adjudicated on points {p}: both engines saw a level game")
                        }
                        None => format!(
                            "adjudicated a draw: both engines scored it within {} cp for {} moves",
                            rule.cp, rule.moves
                        ),
                    };
                    game.outcome = o.points().map(|_| o);
                    break;
                }
            }
            Err(e) => {
                lose(
                    &mut game,
                    side,
                    Termination::RulesInfraction,
                    format!("{name} played an illegal move: {e}"),
                );
                break;
            }
        }
    }
    finish(&mut seats, &game);
    game
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
