//! The self-play generator's core (`kamil gen-data`): random opening
//! plies, then the engine at a fixed node count, optionally choosing at
//! random among the near-best MultiPV moves for the first plies after the
//! opening; the games go to a [`Sink`] in game order (text lines,
//! [`TextSink`], or the binary data file, [`BinarySink`]).
//!
//! Game `i` of a run depends only on the seed, `i` and the [`Settings`]
//! (its random numbers are stream `i` of the seed's generator), so any
//! range of games played anywhere, at any `--concurrency`, equals the same
//! games of one run.

use crate::data::{Game, MoveGame, Ply, Record};
use crate::text;
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::material::is_capture;
use kamil_engine::{Engine, EngineConfig, EvalMode, Info, Limits, Score};
use kamil_rules::movegen::{in_check, legal_moves};
use kamil_rules::outcome::outcome;
use kamil_rules::{Move, Position, Side, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

/// The centipawns a mate score is written as: far enough past any
/// evaluation that the win expectation is all but certain.
pub const MATE_SCORE_CP: i32 = 4000;

/// A search score as data: centipawns, mates at ±[`MATE_SCORE_CP`].
pub fn data_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-MATE_SCORE_CP, MATE_SCORE_CP),
        Score::Mate(n) if n > 0 => MATE_SCORE_CP,
        Score::Mate(_) => -MATE_SCORE_CP,
    }
}

/// What one self-play game needs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes searched per move (unless `depth` is set).
    pub nodes: u64,
    /// Plies searched per move, in place of `nodes` (the cheap labels of
    /// Fairy-Stockfish's generator are depth 2 to 6; issue 77).
    pub depth: Option<u32>,
    /// Seed of the run's random numbers.
    pub seed: u64,
    /// Plies played uniformly at random from the start position.
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Transposition table per engine, MB.
    pub hash: usize,
    /// Lines searched while choosing at random among near-best moves (1:
    /// always the best move).
    pub random_multipv: u32,
    /// How far below the best line's score a line may be and still be
    /// chosen, centipawns.
    pub random_cp: i32,
    /// Near-best moves are chosen at random before this ply.
    pub random_until: u32,
    /// The network the games are played with, as the header names it
    /// (`NAME fnv1a=HASH` of the net as written); `None`: the hand-written
    /// evaluation.
    pub net: Option<String>,
}

impl Settings {
    /// The settings as text, for a data file's header: a run resumes only
    /// a file made with the same text.
    pub fn describe(&self) -> String {
        let net = match &self.net {
            Some(n) => format!(" net={n}"),
            None => String::new(),
        };
        let text = format!(
            "self-play nodes={} seed={} random-plies={} max-plies={} hash={} \
             random-multipv={} random-cp={} random-until={}",
            self.nodes,
            self.seed,
            self.random_plies,
            self.max_plies,
            self.hash,
            self.random_multipv,
            self.random_cp,
            self.random_until
        );
        let depth = match self.depth {
            Some(d) => format!(" depth={d}"),
            None => String::new(),
        };
        text + &depth + &net
    }
}

/// One kept position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// The position's FEN.
    pub fen: String,
    /// The search's score, side to move's view ([`data_score`]).
    pub score: i32,
    /// Plies from the start position.
    pub ply: u32,
}

/// A played game: its kept positions and what it was worth to the first
/// player; for the compact format also its start and every move.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The kept positions, in the order played.
    pub kept: Vec<Kept>,
    /// 0 to 1, the first player's share of the points.
    pub result: f64,
    /// The start position's FEN.
    pub start: String,
    /// Every ply played, in order, with the score of each kept position
    /// (the same positions as `kept`).
    pub plies: Vec<PlayedPly>,
}

/// One ply of a played game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayedPly {
    /// The move played.
    pub mv: Move,
    /// The position before it, if kept: its score ([`Kept::score`]).
    pub kept_score: Option<i32>,
}

/// An error of a [`Sink`], whatever its output.
pub type SinkError = Box<dyn std::error::Error + Send + Sync>;

/// Takes the played games, in game order.
pub trait Sink {
    /// Writes game `index`. Errors: the output cannot be written.
    fn game(&mut self, index: u32, game: &Played) -> Result<(), SinkError>;
}

/// Text lines `FEN;RESULT;SCORE` ([`crate::text`]).
pub struct TextSink<W: Write> {
    /// Where the lines go.
    pub out: W,
}

impl<W: Write> Sink for TextSink<W> {
    fn game(&mut self, _index: u32, game: &Played) -> Result<(), SinkError> {
        for k in &game.kept {
            text::write_line(&mut self.out, &k.fen, game.result, Some(k.score))?;
        }
        Ok(())
    }
}

/// Game chunks of the binary format ([`crate::data`]), each written whole
/// and flushed, so that a stopped run loses at most the game being
/// written.
pub struct BinarySink<W: Write> {
    /// Where the chunks go.
    pub out: W,
}

impl<W: Write> Sink for BinarySink<W> {
    fn game(&mut self, index: u32, game: &Played) -> Result<(), SinkError> {
        let g = binary_game(index, game);
        self.out.write_all(&g.to_bytes()?)?;
        self.out.flush()?;
        Ok(())
    }
}

/// Compact game chunks of the binary format ([`crate::data::MoveGame`]:
/// the start, the moves, the kept positions' scores; a few bytes a
/// position), each written whole and flushed like [`BinarySink`]'s.
pub struct CompactSink<W: Write> {
    /// Where the chunks go.
    pub out: W,
    /// The games' variant (the moves are stored by their place among the
    /// legal moves, found by replaying the game).
    pub variant: Arc<Variant>,
}

impl<W: Write> Sink for CompactSink<W> {
    fn game(&mut self, index: u32, game: &Played) -> Result<(), SinkError> {
        let g = compact_game(index, game);
        self.out.write_all(&g.to_bytes(&self.variant)?)?;
        self.out.flush()?;
        Ok(())
    }
}

/// A played game as the compact chunk's [`MoveGame`]: scores clamped to
/// `i16`.
pub fn compact_game(index: u32, game: &Played) -> MoveGame {
    let clamp = |s: i32| s.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    MoveGame {
        index,
        result: game.result as f32,
        start: game.start.clone(),
        plies: game
            .plies
            .iter()
            .map(|p| Ply {
                mv: p.mv,
                kept_score: p.kept_score.map(clamp),
            })
            .collect(),
    }
}

/// A played game as the binary format's [`Game`]: scores clamped to
/// `i16`, plies to `u16`.
pub fn binary_game(index: u32, game: &Played) -> Game {
    Game {
        index,
        records: game
            .kept
            .iter()
            .map(|k| Record {
                fen: k.fen.clone(),
                score: k.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                result: game.result as f32,
                ply: k.ply.min(u32::from(u16::MAX)) as u16,
            })
            .collect(),
    }
}

/// Why a self-play run stopped.
#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    /// A setting out of range (named by its command-line flag).
    #[error("{0} must be at least 1")]
    Setting(&'static str),
    /// The engine's transposition table cannot be had.
    #[error("--hash: {0}")]
    Hash(#[from] kamil_engine::tt::AllocError),
    /// The sink failed (its output cannot be written).
    #[error(transparent)]
    Sink(SinkError),
}

/// The games of shard `shard` (`I/N`, I from 1 to N) of a run of `games`
/// games: the I-th of N contiguous ranges as near equal as can be, so the
/// shards' files concatenated in order hold the run's games in order;
/// `None`: all of them.
///
/// Errors: a shard that is not `I/N` with 1 ≤ I ≤ N (the message names
/// it).
pub fn shard_range(shard: Option<&str>, games: u32) -> Result<Range<u32>, String> {
    let Some(text) = shard else {
        return Ok(0..games);
    };
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    let Some((i, n)) = parsed.filter(|&(i, n)| i >= 1 && i <= n) else {
        return Err(format!(
            "--shard `{text}`: expected I/N with 1 <= I <= N, such as 2/8"
        ));
    };
    let at = |k: u64| (u64::from(games) * k / n) as u32;
    Ok(at(i - 1)..at(i))
}

/// Plays games `games` with `concurrency` threads and hands each to
/// `sink` in game order, calling `progress(games written, positions
/// kept)` after each. Returns the positions kept.
///
/// Errors: settings out of range, an engine that cannot be made, a sink
/// that fails.
pub fn play(
    variant: &Arc<Variant>,
    eval: EvalChoice,
    settings: &Settings,
    games: Range<u32>,
    concurrency: u32,
    sink: &mut dyn Sink,
    progress: &mut dyn FnMut(u32, u64),
) -> Result<u64, SelfPlayError> {
    if settings.nodes == 0 {
        return Err(SelfPlayError::Setting("--nodes"));
    }
    if concurrency == 0 {
        return Err(SelfPlayError::Setting("--concurrency"));
    }
    if settings.random_multipv == 0 {
        return Err(SelfPlayError::Setting("--random-multipv"));
    }
    let next = AtomicU32::new(games.start);
    let (tx, rx) = mpsc::channel::<(u32, Result<Played, SelfPlayError>)>();
    let mut kept = 0u64;
    let threads = concurrency.min((games.end - games.start).max(1));
    std::thread::scope(|scope| -> Result<(), SelfPlayError> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, eval, end) = (&next, eval.clone(), games.end);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    let r = play_game(variant, eval.clone(), settings, i);
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Written in game order, whichever thread finishes first.
        let mut done: BTreeMap<u32, Played> = BTreeMap::new();
        let mut written = games.start;
        for (i, r) in rx {
            done.insert(i, r?);
            while let Some(game) = done.remove(&written) {
                sink.game(written, &game).map_err(SelfPlayError::Sink)?;
                kept += game.kept.len() as u64;
                written += 1;
                progress(written - games.start, kept);
            }
        }
        Ok(())
    })?;
    Ok(kept)
}

/// Plays game `index` of a run.
///
/// Errors: the engine's transposition table cannot be had.
pub fn play_game(
    variant: &Arc<Variant>,
    eval: EvalChoice,
    s: &Settings,
    index: u32,
) -> Result<Played, SelfPlayError> {
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    rng.set_stream(u64::from(index));
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb: s.hash,
        multipv: 1,
        eval: EvalMode::Full,
        threads: 1,
    })?;
    engine.set_evaluation(eval);
    let mut pos = Position::start(variant.clone());
    let start = pos.fen();
    let mut plies = Vec::new();
    let mut kept = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    let limits = match s.depth {
        Some(d) => Limits::depth(d),
        None => Limits::nodes(s.nodes),
    };
    let mut ply = 0u32;
    let result = loop {
        if let Some(o) = outcome(&mut pos) {
            break o.value(Side::First);
        }
        if ply >= s.max_plies {
            break 0.5;
        }
        let m = if ply < s.random_plies {
            moves.clear();
            legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break 0.5;
            }
            moves[rng.random_range(0..moves.len())]
        } else {
            let choosing = ply < s.random_until && s.random_multipv > 1;
            engine.set_multipv(if choosing { s.random_multipv } else { 1 });
            let mut lines: Vec<Line> = Vec::new();
            let r = engine.search(&pos, &limits, &mut |info: &Info| {
                if choosing && let Some(&m) = info.pv.first() {
                    lines.push(Line {
                        depth: info.depth,
                        cp: data_score(info.score),
                        first: m,
                    });
                }
            });
            let Some(best) = r.best else { break 0.5 };
            if quiet(&pos, best) {
                kept.push(Kept {
                    fen: pos.fen(),
                    score: data_score(r.score),
                    ply,
                });
            }
            if choosing {
                near_best(&lines, r.depth, s.random_cp, &mut rng).unwrap_or(best)
            } else {
                best
            }
        };
        let kept_score = kept.last().filter(|k| k.ply == ply).map(|k| k.score);
        plies.push(PlayedPly { mv: m, kept_score });
        pos.make(m);
        ply += 1;
    };
    Ok(Played {
        kept,
        result,
        start,
        plies,
    })
}

/// One line of a MultiPV search, as reported.
struct Line {
    /// The iteration's depth, plies.
    depth: u32,
    /// Its score, side to move's view ([`data_score`]).
    cp: i32,
    /// Its first move.
    first: Move,
}

/// A move drawn uniformly from the lines of the last completed iteration
/// (`depth`) that score within `margin` centipawns of its best; `None`
/// when that iteration reported no line.
fn near_best(lines: &[Line], depth: u32, margin: i32, rng: &mut ChaCha8Rng) -> Option<Move> {
    let last: Vec<&Line> = lines.iter().filter(|l| l.depth == depth).collect();
    let best = last.iter().map(|l| l.cp).max()?;
    let near: Vec<Move> = last
        .iter()
        .filter(|l| l.cp >= best - margin)
        .map(|l| l.first)
        .collect();
    match near[..] {
        [m] => Some(m),
        _ => Some(near[rng.random_range(0..near.len())]),
    }
}

/// Is `pos` quiet enough to label, `m` being its best move? Not in check,
/// and `m` neither captures nor promotes.
pub fn quiet(pos: &Position, m: Move) -> bool {
    !in_check(pos, pos.side()) && !is_capture(pos, m) && m.promotion().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_variant(
        name: &str,
        options: &[(String, String)],
    ) -> Result<Arc<Variant>, kamil_rules::VariantError> {
        Variant::builtin(name, options).map(Arc::new)
    }

    pub(crate) fn settings(seed: u64) -> Settings {
        Settings {
            nodes: 200,
            depth: None,
            seed,
            random_plies: 4,
            max_plies: 24,
            hash: 1,
            random_multipv: 1,
            random_cp: 0,
            random_until: 0,
            net: None,
        }
    }

    #[test]
    fn a_net_plays_other_games_and_is_named_in_the_settings() {
        use kamil_engine::nnue::Nnue;
        use kamil_engine::nnue::features::Features;
        use kamil_engine::nnue::network::{Buckets, Network};
        let v = load_variant("courier", &[]).unwrap();
        let f = Features::new(&v);
        let net = Nnue::new(&v, f.clone(), Network::seeded(&f, 16, Buckets::ONE, 3));
        let hand = play_game(&v, EvalChoice::Hand, &settings(7), 3).unwrap();
        let by_net = play_game(&v, EvalChoice::Net(Box::new(net)), &settings(7), 3).unwrap();
        assert_ne!(hand, by_net);
        let named = Settings {
            net: Some("c.nnue fnv1a=00".into()),
            ..settings(7)
        };
        assert!(named.describe().ends_with(" net=c.nnue fnv1a=00"));
        assert!(!settings(7).describe().contains("net="));
    }

    #[test]
    fn self_play_is_reproducible_for_a_seed() {
        let v = load_variant("courier", &[]).unwrap();
        let a = play_game(&v, EvalChoice::Hand, &settings(7), 3).unwrap();
        let b = play_game(&v, EvalChoice::Hand, &settings(7), 3).unwrap();
        let c = play_game(&v, EvalChoice::Hand, &settings(8), 3).unwrap();
        assert!(!a.kept.is_empty());
        assert_eq!(a, b);
        assert_ne!(a, c);
        // Drawn by the ply limit; scores in range; plies after the
        // random opening, increasing.
        assert_eq!(a.result, 0.5);
        for k in &a.kept {
            assert!(k.score.abs() <= MATE_SCORE_CP, "{k:?}");
            assert!((4..24).contains(&k.ply), "{k:?}");
        }
        assert!(a.kept.windows(2).all(|w| w[0].ply < w[1].ply));
    }

    /// A fixed depth in place of nodes: seeded games of their own, the
    /// depth in the header's text (so a run resumes only with it), every
    /// move and kept score in `plies`.
    #[test]
    fn a_fixed_depth_labels_its_own_games() {
        let v = load_variant("courier", &[]).unwrap();
        let shallow = Settings {
            depth: Some(1),
            ..settings(7)
        };
        assert!(shallow.describe().ends_with(" depth=1"));
        assert!(!settings(7).describe().contains("depth"));
        let a = play_game(&v, EvalChoice::Hand, &shallow, 3).unwrap();
        assert_eq!(a, play_game(&v, EvalChoice::Hand, &shallow, 3).unwrap());
        assert_ne!(a, play_game(&v, EvalChoice::Hand, &settings(7), 3).unwrap());
        assert_eq!(a.plies.len(), 24, "drawn at the ply limit");
        let scores: Vec<i32> = a.plies.iter().filter_map(|p| p.kept_score).collect();
        assert_eq!(scores, a.kept.iter().map(|k| k.score).collect::<Vec<_>>());
    }

    #[test]
    fn near_best_moves_are_chosen_at_random_within_the_margin() {
        let v = load_variant("courier", &[]).unwrap();
        let choosing = Settings {
            random_multipv: 4,
            random_cp: 1000,
            random_until: 24,
            ..settings(7)
        };
        // Seeded: the same game twice.
        let a = play_game(&v, EvalChoice::Hand, &choosing, 3).unwrap();
        assert_eq!(a, play_game(&v, EvalChoice::Hand, &choosing, 3).unwrap());
        // A wide margin over many games leaves the best move somewhere:
        // the games differ from those of the best move always.
        let differ = (0..4)
            .filter(|&i| {
                play_game(&v, EvalChoice::Hand, &choosing, i).unwrap()
                    != play_game(&v, EvalChoice::Hand, &settings(7), i).unwrap()
            })
            .count();
        assert!(differ > 0);
        // A margin of 0 centipawns at one line chooses the best move.
        let one = Settings {
            random_multipv: 1,
            ..choosing
        };
        assert_eq!(
            play_game(&v, EvalChoice::Hand, &one, 3).unwrap(),
            play_game(&v, EvalChoice::Hand, &settings(7), 3).unwrap()
        );
    }

    #[test]
    fn near_best_draws_only_from_the_last_iteration_within_the_margin() {
        let v = load_variant("courier", &[]).unwrap();
        let mut pos = Position::start(v);
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        let line = |depth, cp, k: usize| Line {
            depth,
            cp,
            first: moves[k],
        };
        let lines = [
            line(1, 90, 0),
            line(2, 30, 1),
            line(2, 25, 2),
            line(2, -40, 3),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..64 {
            seen.insert(near_best(&lines, 2, 10, &mut rng).unwrap());
        }
        assert_eq!(seen, [moves[1], moves[2]].into_iter().collect());
        assert_eq!(near_best(&lines, 2, 0, &mut rng), Some(moves[1]));
        assert_eq!(near_best(&lines, 3, 10, &mut rng), None);
    }
}
