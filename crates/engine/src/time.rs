//! Time management: from [`Limits`] to a soft and a hard deadline.

use crate::limits::{Clock, Limits};
use kamil_rules::Side;

/// Milliseconds kept in hand for process and pipe latency, and for a busy
/// machine that does not schedule us at once.
const OVERHEAD_MS: u64 = 50;

/// Moves the time left is shared over when the clock has no move count
/// (sudden death or increment). Fewer than a game's remaining moves: the
/// time saved now is spent in later moves' increments, and the opening and
/// middle game decide more than the ending played on the increment.
const HORIZON_MOVES: u64 = 25;

/// The time budget of one search, ms from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<u64>,
    /// Stop the search at this point, whatever it is doing.
    pub hard: Option<u64>,
}

impl Budget {
    /// The budget for `side` to move under `limits`. A fixed move time is
    /// used in full; a clock is spent as a share of the time left and the
    /// increments to come over `HORIZON_MOVES` moves (or the moves to the
    /// next control), never more than a quarter of the time left plus half
    /// the increment; a byoyomi is added whole, less the overhead.
    pub fn new(limits: &Limits, side: Side) -> Budget {
        if limits.infinite {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(OVERHEAD_MS.min(mt / 2)).max(1);
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(c) = limits.clock {
            let (s, h) = clock_budget(&c, side);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        Budget { soft, hard }
    }
}

/// The soft and hard deadlines of a clock (see [`Budget::new`]), ms. With
/// a byoyomi, what it allows (less the overhead) comes on top of the
/// budget of the time left, which is none when no time is left: the
/// byoyomi is lost when not used, so a move takes it all but the margin.
fn clock_budget(c: &Clock, side: Side) -> (u64, u64) {
    let (mut soft, mut hard) = (0, 0);
    if c.byoyomi == 0 || c.time[side.index()] > 0 {
        (soft, hard) = main_time_budget(c, side);
    }
    if c.byoyomi > 0 {
        let usable = c.byoyomi.saturating_sub(OVERHEAD_MS.min(c.byoyomi / 2));
        soft = soft.saturating_add(usable);
        hard = hard.saturating_add(usable);
    }
    (soft.max(1), hard.max(1))
}

/// The soft and hard deadlines of a clock's time left and increments
/// (see [`Budget::new`]), ms.
fn main_time_budget(c: &Clock, side: Side) -> (u64, u64) {
    let left = c.time[side.index()];
    let inc = c.inc[side.index()];
    let usable = left.saturating_sub(OVERHEAD_MS.min(left / 2));
    let moves = c
        .moves_to_go
        .map(|m| m.clamp(1, 40) as u64)
        .unwrap_or(HORIZON_MOVES);
    // The time left and the increments of the moves still to come
    // (`moves` is at least 1), shared over them. Saturating: a GUI
    // may send any clock (`level 0 2:30 1e40`).
    let share = usable.saturating_add(inc.saturating_mul(moves - 1)) / moves;
    let cap = (usable / 4).saturating_add(inc / 2);
    let s = share.min(cap).max(1);
    // Never more than half of what is left: the increment comes only
    // after the move, and a loaded machine answers late.
    let h = s
        .saturating_mul(4)
        .min((usable / 3).saturating_add(inc / 2))
        .min(usable / 2)
        .max(1);
    let s = s.min(h);
    (s, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_used_almost_in_full() {
        let b = Budget::new(&Limits::movetime(1000), Side::First);
        assert_eq!(b.hard, Some(950));
    }

    #[test]
    fn clock_budget_stays_well_inside_the_time_left() {
        let limits = Limits {
            clock: Some(Clock {
                time: [10_000, 200],
                inc: [100, 100],
                moves_to_go: None,
                byoyomi: 0,
            }),
            ..Limits::default()
        };
        let b = Budget::new(&limits, Side::First);
        assert!(b.soft.unwrap() < 1_000 && b.soft.unwrap() > 100);
        assert!(b.hard.unwrap() <= 10_000 / 3 + 50);
        let low = Budget::new(&limits, Side::Second);
        assert!(low.hard.unwrap() <= 200 / 2, "{low:?}");
        assert!(low.soft.unwrap() <= low.hard.unwrap(), "{low:?}");
    }

    /// The increments of the moves to come are spent in advance: with
    /// 10 s left, 0.1 s a move adds about 0.1 s to the share, not 0.075 s.
    #[test]
    fn increments_to_come_are_shared_out() {
        let soft = |inc: u64| {
            let limits = Limits {
                clock: Some(Clock {
                    time: [10_000, 10_000],
                    inc: [inc, inc],
                    moves_to_go: None,
                    byoyomi: 0,
                }),
                ..Limits::default()
            };
            Budget::new(&limits, Side::First).soft.unwrap()
        };
        assert_eq!(soft(0), (10_000 - OVERHEAD_MS) / HORIZON_MOVES);
        let added = soft(100) - soft(0);
        assert!((90..=100).contains(&added), "{added}");
    }

    /// Short of time with a large increment (HaChu matches at 10 s + 0.3 s):
    /// the increment is not spent before it is given.
    #[test]
    fn low_clock_keeps_half_in_hand() {
        let limits = Limits {
            clock: Some(Clock {
                time: [200, 200],
                inc: [300, 300],
                moves_to_go: None,
                byoyomi: 0,
            }),
            ..Limits::default()
        };
        let b = Budget::new(&limits, Side::First);
        assert!(b.hard.unwrap() <= 100, "{b:?}");
        assert!(b.soft.unwrap() <= b.hard.unwrap(), "{b:?}");
    }

    /// Found by the `cecp` fuzz target (`level 0 2:30 2222…1.5`): an
    /// absurd increment overflowed the budget's sums (a panic where overflow
    /// is checked, a budget of a few ms where it wraps).
    #[test]
    fn any_clock_gives_a_budget_within_the_time_left() {
        let limits = Limits {
            clock: Some(Clock {
                time: [1_000, u64::MAX],
                inc: [u64::MAX, u64::MAX],
                moves_to_go: None,
                byoyomi: 0,
            }),
            ..Limits::default()
        };
        let b = Budget::new(&limits, Side::First);
        let usable = 1_000 - OVERHEAD_MS.min(500);
        assert_eq!(b.hard, Some(usable / 2), "{b:?}");
        assert_eq!(b.soft, b.hard, "{b:?}");
        let b = Budget::new(&limits, Side::Second);
        assert!(b.hard.unwrap() <= (u64::MAX - OVERHEAD_MS) / 2, "{b:?}");
        assert!(b.soft.unwrap() > 0 && b.soft <= b.hard, "{b:?}");
    }

    /// Shogi's byoyomi (USI `go btime 0 wtime 0 byoyomi 1000`): with no
    /// time left the move takes the byoyomi less the overhead, like a move
    /// time; with time left, that share of it and the byoyomi on top.
    #[test]
    fn byoyomi_is_spent_on_top_of_the_time_left() {
        let clock = |time: u64, byoyomi: u64| Limits {
            clock: Some(Clock {
                time: [time, 60_000],
                byoyomi,
                ..Clock::default()
            }),
            ..Limits::default()
        };
        let b = Budget::new(&clock(0, 1000), Side::First);
        assert_eq!((b.soft, b.hard), (Some(950), Some(950)));
        let b = Budget::new(&clock(0, 60), Side::First);
        assert_eq!(b.hard, Some(30));
        let main = Budget::new(&clock(10_000, 0), Side::First);
        let both = Budget::new(&clock(10_000, 1000), Side::First);
        assert_eq!(both.soft.unwrap(), main.soft.unwrap() + 950);
        assert_eq!(both.hard.unwrap(), main.hard.unwrap() + 950);
        assert!(both.hard.unwrap() < 10_000 + 1000, "{both:?}");
    }

    #[test]
    fn infinite_has_no_deadline() {
        let l = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(Budget::new(&l, Side::First).hard, None);
    }
}
