//! The engine for the page: one search thread (WebAssembly has no other
//! here), its table kept between the moves of a game, each search's
//! result as JSON. Plain Rust, so the native tests check what the
//! WebAssembly module does.

use crate::game::{GameCore, MoveText};
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::{Engine, EngineConfig, Limits, Score, Skill};
use serde_json::json;

/// An engine with its transposition table.
pub struct SearchCore {
    engine: Engine,
}

impl SearchCore {
    /// An engine with a table of `hash_mb` MB (1 or more) and one thread.
    ///
    /// Errors: a size of 0, or a table that cannot be had.
    pub fn new(hash_mb: usize) -> Result<SearchCore, String> {
        if hash_mb == 0 {
            return Err("the table's size must be at least 1 MB".to_string());
        }
        let config = EngineConfig {
            hash_mb,
            threads: 1,
            ..EngineConfig::default()
        };
        let engine = Engine::try_new(config).map_err(|e| e.to_string())?;
        Ok(SearchCore { engine })
    }

    /// Forgets the last game (the table and the move ordering).
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Evaluates with the game's built-in network (`true`, the default)
    /// or the hand-written evaluation (`false`), as UCI's `Use NNUE`.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.engine.set_evaluation(if on {
            EvalChoice::Builtin
        } else {
            EvalChoice::Hand
        });
    }

    /// Plays at strength level `level` (0 to 20, 20 full strength).
    ///
    /// Errors: a level above 20.
    pub fn set_level(&mut self, level: u8) -> Result<(), String> {
        if level > Skill::FULL {
            return Err(format!("level {level}: must be 0 to {}", Skill::FULL));
        }
        self.engine.set_skill(Skill::new(level), 0);
        Ok(())
    }

    /// Searches `game`'s position within the limits given (plies, nodes,
    /// ms; at least one) and returns JSON `{best, ponder, score_cp, mate,
    /// depth, seldepth, nodes, time_ms, pv}`, moves in `text`'s notation
    /// (`best` null when the game is over).
    ///
    /// Errors: no limit, or a limit of 0.
    pub fn search(
        &mut self,
        game: &GameCore,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
        text: MoveText,
    ) -> Result<String, String> {
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err("give a limit: depth (plies), nodes or movetime (ms)".to_string());
        }
        if depth == Some(0) || nodes == Some(0) || movetime == Some(0) {
            return Err("depth, nodes and movetime must be at least 1".to_string());
        }
        let limits = Limits {
            depth,
            nodes,
            movetime,
            ..Limits::default()
        };
        let r = self.engine.search(game.position(), &limits, &mut |_| {});
        let (score_cp, mate) = match r.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        let say = |m| game.move_text(m, text);
        Ok(json!({
            "best": r.best.map(say),
            "ponder": r.ponder.map(say),
            "score_cp": score_cp,
            "mate": mate,
            "depth": r.depth,
            "seldepth": r.seldepth,
            "nodes": r.nodes,
            "time_ms": r.time_ms,
            "pv": r.pv.iter().map(|&m| say(m)).collect::<Vec<_>>(),
        })
        .to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_search_finds_a_legal_move_the_same_way_twice() {
        let mut game = GameCore::new("courier", &[], None).unwrap();
        let legal = game.legal_moves(MoveText::Kamil);
        let run = || {
            let mut s = SearchCore::new(4).unwrap();
            let r: Value = serde_json::from_str(
                &s.search(&game, Some(3), None, None, MoveText::Kamil)
                    .unwrap(),
            )
            .unwrap();
            (
                r["best"].as_str().unwrap().to_string(),
                r["nodes"].as_u64().unwrap(),
            )
        };
        let (best, nodes) = run();
        assert!(legal.contains(&best), "{best}");
        assert!(nodes > 0);
        assert_eq!(run(), (best, nodes), "one thread: the same search");
        let mut s = SearchCore::new(4).unwrap();
        assert!(s.search(&game, None, None, None, MoveText::Kamil).is_err());
        assert!(
            s.search(&game, Some(0), None, None, MoveText::Kamil)
                .is_err()
        );
        assert!(s.set_level(21).is_err());
        assert!(SearchCore::new(0).is_err());
        // The hand-written evaluation searches another tree.
        let mut hand = SearchCore::new(4).unwrap();
        hand.set_use_nnue(false);
        let r: Value = serde_json::from_str(
            &hand
                .search(&game, Some(3), None, None, MoveText::Kamil)
                .unwrap(),
        )
        .unwrap();
        assert!(legal.contains(&r["best"].as_str().unwrap().to_string()));
        assert_ne!(
            r["nodes"].as_u64().unwrap(),
            nodes,
            "the same tree with the net and without"
        );
    }
}
