//! What bounds a search: depth, nodes, time per move, a game clock, or nothing.

/// A game clock as the protocols send it. Times in milliseconds, indexed by
/// [`kamil_rules::Side::index`] (0 = the first player).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left per side, ms.
    pub time: [u64; 2],
    /// Increment per move per side, ms.
    pub inc: [u64; 2],
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
    /// Shogi's byoyomi (USI `byoyomi`), ms: the time every move may take
    /// on top of the time left, for both sides; unspent, it is lost. 0: none.
    pub byoyomi: u64,
}

/// Search limits. Any combination may be set; the search stops at the first
/// one reached. With none set (and `infinite` false) the search runs until
/// stopped or until it has proved the result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget (stops within a few thousand nodes of it, but never
    /// before the first iteration is complete: `nodes 0` and `nodes 1`
    /// search one ply).
    pub nodes: Option<u64>,
    /// Time for this move, ms.
    pub movetime: Option<u64>,
    /// Clock: the engine budgets its own time from it.
    pub clock: Option<Clock>,
    /// Search until stopped, even when the result is proved (UCI `go infinite`).
    pub infinite: bool,
}

impl Limits {
    /// A fixed depth in plies.
    pub fn depth(plies: u32) -> Limits {
        Limits {
            depth: Some(plies),
            ..Limits::default()
        }
    }

    /// A fixed time per move in ms.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// A node budget.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}
