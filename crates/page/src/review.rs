//! Game review: the engine searches every position of a game for a bounded
//! time, and each move's loss against the engine's best is judged. One
//! module for `kamil analyse` and `kamil serve`'s review endpoint, so both
//! judge alike.
//!
//! How a move is judged, all in centipawns:
//! - every position of the game (before the first move, after each move)
//!   gets an evaluation: the search's score, or the result if the game has
//!   ended there. Evaluations are capped at ±[`CAP_CP`] (a mate counts as
//!   the cap), so that a won position thrown from +15 to +10 is no loss;
//! - a move's loss is the evaluation before it minus the evaluation after
//!   it, both from the mover's view, at least 0; the engine's own best
//!   move loses nothing;
//! - a loss of at least [`INACCURACY_CP`] (50) is an inaccuracy (`?!`,
//!   NAG 6), of at least [`MISTAKE_CP`] (100) a mistake (`?`, NAG 2), of
//!   at least [`BLUNDER_CP`] (300) a blunder (`??`, NAG 4).

use anyhow::{Context, Result};
use kamil_engine::{Engine, Limits, Score};
use kamil_rules::excerpt;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::move_text;
use kamil_rules::pgn::Annotation;
use kamil_rules::{Move, Position, Side};
use std::sync::atomic::{AtomicBool, Ordering};

/// Smallest loss of an inaccuracy, centipawns.
pub const INACCURACY_CP: i32 = 50;
/// Smallest loss of a mistake, centipawns.
pub const MISTAKE_CP: i32 = 100;
/// Smallest loss of a blunder, centipawns.
pub const BLUNDER_CP: i32 = 300;
/// Evaluations are capped at ± this, centipawns; a mate counts as the cap.
pub const CAP_CP: i32 = 1000;

/// How bad a move was, by its loss (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// A loss of [`INACCURACY_CP`] up to [`MISTAKE_CP`].
    Inaccuracy,
    /// A loss of [`MISTAKE_CP`] up to [`BLUNDER_CP`].
    Mistake,
    /// A loss of [`BLUNDER_CP`] or more.
    Blunder,
}

impl Judgement {
    /// The judgement of a loss of `loss_cp` centipawns, if it is bad enough.
    pub fn of_loss(loss_cp: i32) -> Option<Judgement> {
        if loss_cp >= BLUNDER_CP {
            Some(Judgement::Blunder)
        } else if loss_cp >= MISTAKE_CP {
            Some(Judgement::Mistake)
        } else if loss_cp >= INACCURACY_CP {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The PGN NAG: 6 (`?!`), 2 (`?`) or 4 (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The mark: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The word: `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// The evaluation of one position of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyEval {
    /// Plies played before this position (0: the game's start).
    pub ply: usize,
    /// The side to move here.
    pub side: Side,
    /// The score for the side to move (the result's if the game has ended).
    pub score: Score,
    /// The evaluation for the first player, capped at ±[`CAP_CP`], centipawns.
    pub eval_cp: i32,
    /// The engine's best move here (none once the game has ended).
    pub best: Option<Move>,
    /// Depth of the search, plies (0 once the game has ended).
    pub depth: u32,
    /// Whether the game has ended here.
    pub ended: bool,
}

/// The judgement of one move of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Plies after this move (1 for the first move).
    pub ply: usize,
    /// The move played.
    pub played: Move,
    /// Who played it.
    pub side: Side,
    /// What it lost against the engine's best, centipawns (at least 0).
    pub loss_cp: i32,
    /// How bad that is, if bad enough.
    pub judgement: Option<Judgement>,
    /// The engine's best move instead, when it differs from the move played.
    pub better: Option<Move>,
}

/// A capped centipawn value of a score for the side to move.
fn capped(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-CAP_CP, CAP_CP),
        Score::Mate(m) if m > 0 => CAP_CP,
        Score::Mate(_) => -CAP_CP,
    }
}

/// `+1` for the first player, `-1` for the second.
fn sign(side: Side) -> i32 {
    if side == Side::First { 1 } else { -1 }
}

/// Evaluates `pos` (ply `ply` of its game): its result if the game has
/// ended there, else a search by `engine` within `movetime_ms`
/// milliseconds. The search ends early when the engine's stop flag is set.
pub fn evaluate(engine: &mut Engine, pos: &Position, ply: usize, movetime_ms: u64) -> PlyEval {
    let side = pos.side();
    let mut p = pos.clone();
    if let Some(o) = p.outcome() {
        let score = Score::from_internal(kamil_engine::search::outcome_score(o, side, 0));
        return PlyEval {
            ply,
            side,
            score,
            eval_cp: sign(side) * capped(score),
            best: None,
            depth: 0,
            ended: true,
        };
    }
    let r = engine.search(pos, &Limits::movetime(movetime_ms.max(1)), &mut |_| {});
    PlyEval {
        ply,
        side,
        score: r.score,
        eval_cp: sign(side) * capped(r.score),
        best: r.best,
        depth: r.depth,
        ended: false,
    }
}

/// Judges every move whose positions before and after are both evaluated:
/// `evals[i]` is the position after `moves[..i]`, so move `i` is judged
/// when `evals` has `i + 2` entries or more.
pub fn judge(moves: &[Move], evals: &[PlyEval]) -> Vec<MoveReview> {
    moves
        .iter()
        .zip(evals.windows(2))
        .enumerate()
        .map(|(i, (&played, w))| {
            let (before, after) = (&w[0], &w[1]);
            let mover = before.side;
            let better = before.best.filter(|&b| b != played);
            let loss_cp = if better.is_none() {
                0
            } else {
                (sign(mover) * (before.eval_cp - after.eval_cp)).max(0)
            };
            MoveReview {
                ply: i + 1,
                played,
                side: mover,
                loss_cp,
                judgement: Judgement::of_loss(loss_cp),
                better,
            }
        })
        .collect()
}

/// A review: the evaluations of the positions reviewed and the moves judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// One per position, from the start: fewer than `moves + 1` if stopped.
    pub evals: Vec<PlyEval>,
    /// The moves judged (those whose both positions are evaluated).
    pub moves: Vec<MoveReview>,
    /// Whether every position was evaluated (not stopped early).
    pub complete: bool,
}

/// Reviews the game `moves` from `start` with `engine`: searches each of
/// its `moves.len() + 1` positions for `movetime_ms` milliseconds, in
/// order, calling `on_ply` after each; then judges the moves. Stops early
/// (a partial review) once `cancel` is set; set the engine's stop flag too
/// to end the running search at once. The moves must be legal in turn
/// (as the server's games and [`parse_moves`] give them).
pub fn review(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    movetime_ms: u64,
    cancel: &AtomicBool,
    on_ply: &mut dyn FnMut(&PlyEval),
) -> Review {
    let mut pos = start.clone();
    let mut evals = Vec::with_capacity(moves.len() + 1);
    for ply in 0..=moves.len() {
        if cancel.load(Ordering::SeqCst) {
            break;
        }
        let e = evaluate(engine, &pos, ply, movetime_ms);
        if cancel.load(Ordering::SeqCst) {
            // Cut short by the stop: not a whole evaluation.
            break;
        }
        on_ply(&e);
        evals.push(e);
        if let Some(&m) = moves.get(ply) {
            pos.make(m);
        }
    }
    let complete = evals.len() == moves.len() + 1;
    Review {
        moves: judge(moves, &evals),
        evals,
        complete,
    }
}

/// A score as text for the first player: `+0.35`, `-2.10`, `#3` (the
/// first player mates in 3), `#-2` (is mated in 2).
pub fn score_text(score: Score, side: Side) -> String {
    match score {
        Score::Cp(c) => format!("{:+.2}", f64::from(sign(side) * c) / 100.0),
        Score::Mate(m) => format!("#{}", sign(side) * m),
    }
}

/// The PGN annotations of a review, one per move played (empty for the
/// moves not reviewed): the evaluation after the move for the first
/// player and the search depth (`+0.35/12`), then for a judged move its
/// word, loss in pawns and the engine's better move
/// (`blunder, -3.20; best c2c3`), and the NAG.
pub fn annotations(start: &Position, moves: &[Move], review: &Review) -> Vec<Annotation> {
    let v = start.variant();
    moves
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let Some(after) = review.evals.get(i + 1) else {
                return Annotation::default();
            };
            let mut comment = if after.ended {
                score_text(after.score, after.side)
            } else {
                format!("{}/{}", score_text(after.score, after.side), after.depth)
            };
            let mut nag = None;
            if let Some(r) = review.moves.get(i)
                && let Some(j) = r.judgement
            {
                nag = Some(j.nag());
                comment.push_str(&format!(
                    " {}, -{:.2}",
                    j.name(),
                    f64::from(r.loss_cp) / 100.0
                ));
                if let Some(b) = r.better {
                    comment.push_str(&format!("; best {}", move_text(v, b)));
                }
            }
            Annotation {
                nag,
                comment: Some(comment),
            }
        })
        .collect()
}

/// Reads move texts one after another from `pos` (which ends after them),
/// each in any notation ([`read_move`], kamil's first), and returns the
/// moves.
///
/// Errors: the first text that is not a legal move there, named with its
/// number (1-based) and the reason.
pub fn parse_moves(pos: &mut Position, texts: &[String]) -> Result<Vec<Move>> {
    let mut out = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let (m, _) = read_move(pos, t, Accept::First(Notation::Kamil))
            .with_context(|| format!("move {} ({})", i + 1, excerpt(t)))?;
        pos.make(m);
        out.push(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_engine::EngineConfig;
    use kamil_rules::Variant;
    use std::sync::Arc;

    #[test]
    fn thresholds_in_centipawns() {
        assert_eq!(Judgement::of_loss(49), None);
        assert_eq!(Judgement::of_loss(50), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(100), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(299), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(300), Some(Judgement::Blunder));
        assert_eq!(
            [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder
            ]
            .map(Judgement::nag),
            [6, 2, 4]
        );
    }

    fn eval(ply: usize, side: Side, eval_cp: i32, best: Option<Move>) -> PlyEval {
        PlyEval {
            ply,
            side,
            score: Score::Cp(sign(side) * eval_cp),
            eval_cp,
            best,
            depth: 1,
            ended: false,
        }
    }

    #[test]
    fn a_loss_is_measured_from_the_movers_view_and_the_best_move_loses_nothing() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let mut pos = Position::start(v);
        let legal = pos.legal_moves();
        let (a, b) = (legal[0], legal[1]);
        // The first player plays a (not the best, b): +20 -> -400.
        // The second player then plays the best move: no loss.
        let evals = [
            eval(0, Side::First, 20, Some(b)),
            eval(1, Side::Second, -400, Some(a)),
            eval(2, Side::First, 900, None),
        ];
        let r = judge(&[a, a], &evals);
        assert_eq!(r[0].loss_cp, 420);
        assert_eq!(r[0].judgement, Some(Judgement::Blunder));
        assert_eq!(r[0].better, Some(b));
        assert_eq!((r[1].loss_cp, r[1].judgement, r[1].better), (0, None, None));
        // The second player gaining (-400 -> -500) loses nothing; losing
        // (-400 -> -300) is a loss of 100, a mistake.
        let mut evals = evals.to_vec();
        evals[2] = eval(2, Side::First, -500, Some(b));
        assert_eq!(judge(&[a, b], &evals)[1].loss_cp, 0);
        evals[2] = eval(2, Side::First, -300, Some(b));
        let r = judge(&[a, b], &evals);
        assert_eq!((r[1].loss_cp, r[1].side), (100, Side::Second));
        assert_eq!(r[1].judgement, Some(Judgement::Mistake));
    }

    #[test]
    fn a_stopped_review_is_partial_and_judges_only_what_it_evaluated() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let start = Position::start(v);
        let mut pos = start.clone();
        let moves = parse_moves(&mut pos, &["b2b3".into(), "b7b6".into()]).unwrap();
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        });
        let cancel = AtomicBool::new(false);
        let mut seen = 0;
        let r = review(&mut engine, &start, &moves, 5, &cancel, &mut |e| {
            seen += 1;
            if e.ply == 1 {
                cancel.store(true, Ordering::SeqCst);
            }
        });
        assert_eq!(
            (seen, r.evals.len(), r.moves.len(), r.complete),
            (2, 2, 1, false)
        );
        let full = review(
            &mut engine,
            &start,
            &moves,
            5,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(full.complete);
        assert_eq!((full.evals.len(), full.moves.len()), (3, 2));
        assert_eq!(annotations(&start, &moves, &full).len(), 2);
    }
}
