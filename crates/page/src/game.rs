//! One game: where it began, the moves played since, and a generation
//! bumped at every change.

use kamil_rules::{Move, Position};

/// One game: where it began and the moves played since.
#[derive(Clone)]
pub struct Game {
    /// The game's id in URLs.
    pub id: String,
    /// The position the game began from (from the start or a FEN).
    pub start: Position,
    /// The position after every move played: `start` plus the game's moves.
    pub pos: Position,
    /// Bumped at every change, so a search result can tell it is stale.
    pub generation: u64,
}

impl Game {
    /// A new game at `pos` (which may carry moves: they become the game's
    /// moves, played from the position before them).
    pub fn new(id: String, pos: Position) -> Game {
        let mut start = pos.clone();
        while start.depth() > 0 {
            start.unmake();
        }
        Game {
            id,
            start,
            pos,
            generation: 0,
        }
    }

    /// The moves played from `start`, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.pos.moves_played().collect()
    }

    /// The position after the first `ply` moves (`ply` at most the number
    /// of moves played, which callers check).
    pub fn position_at(&self, ply: usize) -> Position {
        let mut p = self.start.clone();
        for m in self.pos.moves_played().take(ply) {
            p.make(m);
        }
        p
    }

    /// The `state` event's data: `{"generation":G,"plies":N}`.
    pub fn state_data(&self) -> String {
        format!(
            "{{\"generation\":{},\"plies\":{}}}",
            self.generation,
            self.pos.depth()
        )
    }
}
