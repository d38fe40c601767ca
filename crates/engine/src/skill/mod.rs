//! Strength levels: an opponent a beginner can beat that still plays like
//! a person would (issue 48). A level below [`Skill::FULL`] searches to a
//! shallow depth within a node budget and several lines (MultiPV), then picks among those lines
//! by chance, the weaker levels taking worse lines more often and further
//! from the best. Every move it plays is one of the search's lines, so it
//! is always legal and never random. The idea is Stockfish's "Skill Level"
//! (0 to 20), written anew for kamil's search.
//!
//! Every front end sets one [`Skill`] on its [`crate::Engine`]
//! ([`crate::Engine::set_skill`]); the search applies it.

pub mod elo;

use crate::limits::Limits;
use crate::score::Score;
use kamil_rules::Move;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A strength level, 0 (weakest) to [`Skill::FULL`] (the full engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
}

/// One line of a search at a level: its first move and its score for the
/// side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's moves, first move first (never empty).
    pub pv: Vec<Move>,
    /// Its score for the side to move.
    pub score: Score,
}

/// Centipawns a mate score counts as when lines are compared: beyond
/// every evaluation, nearer mates worth more.
const MATE_CP: i32 = 20_000;

/// Largest spread between the best and the worst line that the chance
/// term uses, centipawns (about a Pawn): a level does not throw away a
/// piece because a line far below was searched.
const SPREAD_CAP: i32 = 100;

impl Skill {
    /// The full engine's level: no limit, no chance.
    pub const FULL: u8 = 20;

    /// Lines a level searches at least.
    pub const LINES: u32 = 4;

    /// The level `level`, clamped to 0..=[`Skill::FULL`].
    pub fn new(level: u8) -> Skill {
        Skill {
            level: level.min(Skill::FULL),
        }
    }

    /// The level, 0 to [`Skill::FULL`].
    pub fn level(self) -> u8 {
        self.level
    }

    /// Does this level weaken play (below [`Skill::FULL`])?
    pub fn weakens(self) -> bool {
        self.level < Skill::FULL
    }

    /// Deepest iteration at this level, plies: 1 at level 0, one more a
    /// level (no limit at [`Skill::FULL`]).
    pub fn depth(self) -> Option<u32> {
        self.weakens().then(|| 1 + u32::from(self.level))
    }

    /// Most nodes a move at this level, all its lines together: 1,000 at
    /// level 0, 30% more a level (146,192 at level 19; no limit at
    /// [`Skill::FULL`]). A budget in nodes, not in time, makes a level the
    /// same opponent on a fast machine and a slow one, at any clock, and
    /// lets its Elo be measured once (`skill::elo`).
    pub fn nodes(self) -> Option<u64> {
        self.weakens()
            .then(|| (1000.0 * 1.3f64.powi(i32::from(self.level))).round() as u64)
    }

    /// `limits` with this level's depth and node limits added (the smaller
    /// one wins).
    pub fn limit(self, limits: &Limits) -> Limits {
        let mut l = limits.clone();
        if let Some(d) = self.depth() {
            l.depth = Some(l.depth.map_or(d, |x| x.min(d)));
        }
        if let Some(n) = self.nodes() {
            l.nodes = Some(l.nodes.map_or(n, |x| x.min(n)));
        }
        l
    }

    /// Centipawns below the best line that a line may be and still be
    /// played at this level: 320 at level 0, 15 less a level (35 at
    /// level 19). Stockfish's levels take any searched line; a cap keeps
    /// the weakest levels from giving a Rook away.
    pub fn reach(self) -> i32 {
        20 + 15 * (i32::from(Skill::FULL) - i32::from(self.level))
    }

    /// How far from the best this level strays: 120 at level 0, falling
    /// by 2 a level.
    fn weakness(self) -> i32 {
        120 - 2 * i32::from(self.level)
    }

    /// Picks the line to play among `lines` (best first, as the search
    /// reports them): each line's score gets a push that grows with its
    /// distance from the best and with a draw from `rng`, both scaled by
    /// the level's weakness; the line with the highest pushed score among
    /// those within [`Skill::reach`] of the best is played. Returns its
    /// index (0 for no lines or at full strength).
    pub fn pick(self, lines: &[Line], rng: &mut impl Rng) -> usize {
        if !self.weakens() || lines.len() < 2 {
            return 0;
        }
        let cp = |s: Score| match s {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => MATE_CP - n,
            Score::Mate(n) => -MATE_CP - n,
        };
        let top = lines.iter().map(|l| cp(l.score)).max().unwrap_or(0);
        let bottom = lines.iter().map(|l| cp(l.score)).min().unwrap_or(0);
        let spread = (top - bottom).min(SPREAD_CAP);
        let w = self.weakness();
        let mut best = (i32::MIN, 0);
        for (i, l) in lines.iter().enumerate() {
            let s = cp(l.score);
            if top - s > self.reach() {
                continue;
            }
            // Worse lines are pushed up more: (top - s) counts for them.
            let push = (w * (top - s).min(MATE_CP) + spread * rng.random_range(0..w)) / 128;
            if s.saturating_add(push) > best.0 {
                best = (s.saturating_add(push), i);
            }
        }
        best.1
    }
}

impl Default for Skill {
    /// The full engine.
    fn default() -> Skill {
        Skill::new(Skill::FULL)
    }
}

/// The chance draws of a level: seeded by the engine's seed and the
/// position's key, so a level plays the same move in the same position of
/// the same game, and tests are reproducible.
pub fn rng(seed: u64, position_key: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ position_key.rotate_left(17))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_rules::{Position, Variant, movegen::legal_moves};
    use std::sync::Arc;

    fn lines(scores: &[i32]) -> Vec<Line> {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let mut pos = Position::start(v);
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        scores
            .iter()
            .zip(moves)
            .map(|(&s, m)| Line {
                pv: vec![m],
                score: Score::Cp(s),
            })
            .collect()
    }

    #[test]
    fn levels_clamp_and_limit_depth() {
        assert_eq!(Skill::new(200).level(), Skill::FULL);
        assert_eq!(Skill::new(0).depth(), Some(1));
        assert_eq!(Skill::new(19).depth(), Some(20));
        assert_eq!(Skill::default().depth(), None);
        let l = Skill::new(3).limit(&Limits::depth(9));
        assert_eq!(l.depth, Some(4));
        let l = Skill::new(3).limit(&Limits::depth(2));
        assert_eq!(l.depth, Some(2));
        assert_eq!(Skill::default().limit(&Limits::nodes(5)).depth, None);
        assert_eq!(Skill::default().limit(&Limits::nodes(5)).nodes, Some(5));
        assert_eq!(Skill::default().nodes(), None);
        assert_eq!(Skill::new(0).nodes(), Some(1000));
        assert_eq!(Skill::new(19).nodes(), Some(146_192));
        let budgets: Vec<u64> = (0..Skill::FULL)
            .filter_map(|l| Skill::new(l).nodes())
            .collect();
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
        assert_eq!(Skill::new(3).limit(&Limits::nodes(500)).nodes, Some(500));
        assert_eq!(Skill::new(3).limit(&Limits::depth(9)).nodes, Some(2197));
    }

    #[test]
    fn full_strength_plays_the_best_line_and_weak_levels_stray_more() {
        let ls = lines(&[50, 40, 10, -30]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!((0..200).all(|_| Skill::default().pick(&ls, &mut rng) == 0));
        let strays = |level| {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            (0..2000)
                .filter(|_| Skill::new(level).pick(&ls, &mut rng) != 0)
                .count()
        };
        let (weak, mid, strong) = (strays(0), strays(10), strays(19));
        assert!(weak > mid && mid > strong, "{weak} {mid} {strong}");
        assert!(weak > 300, "{weak}");
    }

    #[test]
    fn a_lost_line_is_never_preferred_to_a_sound_one_by_far() {
        // A line a Rook down is not chosen over an even one at any level:
        // it is out of every level's reach.
        let ls = lines(&[0, -500]);
        for level in 0..Skill::FULL {
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(level));
            for _ in 0..500 {
                assert_eq!(Skill::new(level).pick(&ls, &mut rng), 0, "level {level}");
            }
        }
    }

    #[test]
    fn the_draws_are_seeded_by_seed_and_position() {
        let a: u64 = rng(1, 99).random();
        let b: u64 = rng(1, 99).random();
        let c: u64 = rng(1, 98).random();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
