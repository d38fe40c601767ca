//! Frolov's optional citadel win (rules/frolov-10x10.md 6 B15
//! `fr.citadel-win`): a King standing in an enemy citadel that cannot be
//! captured on the opponent's next move wins. Under the check rule a King
//! is never left capturable, so the King that reaches an enemy citadel by a
//! legal move wins at once; the test below still asks that it is not
//! attacked, as the rule says.
//!
//! Hook point: [`ended`] in [`crate::outcome::ended_by_rule`].

use crate::board::Board;
use crate::geometry::Square;
use crate::outcome::kinds::{Outcome, Reason};

/// The compiled `[special.citadel_win]` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CitadelWin {
    /// Per side, the citadels of its opponent: where its royal wins.
    pub enemy_citadels: [Vec<Square>; 2],
}

/// Has the player who just moved a royal on an enemy citadel, not attacked?
pub fn ended<B: Board>(cw: &CitadelWin, pos: &B) -> Option<Outcome> {
    let mover = pos.side().flip();
    let won = pos
        .royals(mover)
        .iter()
        .any(|&r| cw.enemy_citadels[mover.index()].contains(&r) && !pos.is_attacked(r, pos.side()));
    won.then_some(Outcome::Win {
        winner: mover,
        reason: Reason::Citadel,
    })
}
