//! Time controls as CECP sends them (section 11): `level MPS BASE INC`,
//! `st SECONDS`, `sd DEPTH`, and the clocks `time` / `otim` in
//! centiseconds; turned into the engine's [`Limits`].

use kamil_engine::{Clock, Limits};
use kamil_rules::Side;

/// XBoard's default when no time control was sent: 40 moves in 5 minutes.
const DEFAULT_LEVEL: Level = Level {
    moves: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

/// A `level` time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per session (0: the whole game).
    pub moves: u32,
    /// Time per session, ms.
    pub base_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
}

/// Everything that bounds the engine's thinking in a game.
#[derive(Clone, Debug, Default)]
pub struct TimeControl {
    /// The last `level`, unless `st` came after it.
    pub level: Option<Level>,
    /// `st`: fixed time per move, ms.
    pub per_move_ms: Option<u64>,
    /// `sd`: deepest search, plies.
    pub depth: Option<u32>,
    /// `time`: the engine's clock, ms.
    pub own_ms: Option<u64>,
    /// `otim`: the opponent's clock, ms.
    pub other_ms: Option<u64>,
}

/// Reads `level MPS BASE INC` (BASE `MIN` or `MIN:SEC`, anything after the
/// number ignored as the protocol asks; INC in seconds, may be fractional).
///
/// Errors: a missing or non-numeric field, named.
pub fn parse_level(args: &[&str]) -> Result<Level, String> {
    let [mps, base, inc] = args else {
        return Err(format!(
            "level needs MPS BASE INC, got {} fields",
            args.len()
        ));
    };
    let moves = mps
        .parse::<u32>()
        .map_err(|_| format!("moves per session `{mps}` is not a number"))?;
    let base_ms =
        parse_base(base).ok_or_else(|| format!("base time `{base}` is not MIN or MIN:SEC"))?;
    let inc = inc
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| format!("increment `{inc}` is not a number of seconds"))?;
    Ok(Level {
        moves,
        base_ms,
        inc_ms: (inc * 1000.0).round() as u64,
    })
}

fn leading_number(s: &str) -> Option<(u64, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

fn parse_base(s: &str) -> Option<u64> {
    let (min, rest) = leading_number(s)?;
    let sec = match rest.strip_prefix(':') {
        Some(r) => leading_number(r)?.0,
        None => 0,
    };
    Some((min * 60 + sec) * 1000)
}

/// Reads a non-negative number of seconds (`st`), as ms.
///
/// Errors: not a number.
pub fn parse_seconds(s: &str) -> Result<u64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .map(|x| (x * 1000.0).round() as u64)
        .ok_or_else(|| format!("`{s}` is not a number of seconds"))
}

/// Reads a clock in centiseconds (`time`, `otim`), as ms; a clock run
/// below zero counts as zero.
///
/// Errors: not a number.
pub fn parse_centiseconds(s: &str) -> Result<u64, String> {
    s.parse::<i64>()
        .map(|cs| cs.max(0) as u64 * 10)
        .map_err(|_| format!("`{s}` is not a number of centiseconds"))
}

impl TimeControl {
    /// The limits of the engine's next search: `side` to move (the
    /// engine), `moves_done` of its moves so far in the game.
    pub fn limits(&self, side: Side, moves_done: u32) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(ms) = self.per_move_ms {
            l.movetime = Some(ms.max(1));
            return l;
        }
        let level = match self.level {
            Some(lv) => lv,
            // Only a depth was set: search to it.
            None if self.depth.is_some() => return l,
            None => DEFAULT_LEVEL,
        };
        let own = self.own_ms.unwrap_or(level.base_ms);
        let other = self.other_ms.unwrap_or(own);
        let mut clock = Clock {
            moves_to_go: (level.moves > 0).then(|| level.moves - moves_done % level.moves),
            ..Clock::default()
        };
        clock.time[side.index()] = own;
        clock.time[side.flip().index()] = other;
        clock.inc = [level.inc_ms; 2];
        l.clock = Some(clock);
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_minutes_seconds_and_fractions() {
        assert_eq!(
            parse_level(&["40", "5", "0"]).unwrap(),
            Level {
                moves: 40,
                base_ms: 300_000,
                inc_ms: 0
            }
        );
        let l = parse_level(&["0", "0:30", "0.5"]).unwrap();
        assert_eq!((l.moves, l.base_ms, l.inc_ms), (0, 30_000, 500));
        assert_eq!(
            parse_level(&["40", "25+5", "0"]).unwrap().base_ms,
            1_500_000
        );
        assert!(parse_level(&["x", "5", "0"]).unwrap_err().contains("`x`"));
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["40", "5", "-1"]).is_err());
    }

    #[test]
    fn limits_follow_the_last_time_control() {
        let mut tc = TimeControl {
            level: Some(parse_level(&["40", "1", "2"]).unwrap()),
            own_ms: Some(30_000),
            other_ms: Some(20_000),
            ..TimeControl::default()
        };
        let c = tc.limits(Side::Second, 45).clock.unwrap();
        assert_eq!(c.time, [20_000, 30_000]);
        assert_eq!(c.inc, [2_000, 2_000]);
        assert_eq!(c.moves_to_go, Some(35));
        tc.per_move_ms = Some(1500);
        tc.depth = Some(4);
        let l = tc.limits(Side::First, 0);
        assert_eq!((l.movetime, l.depth, l.clock), (Some(1500), Some(4), None));
        let only_depth = TimeControl {
            depth: Some(3),
            ..TimeControl::default()
        };
        assert_eq!(only_depth.limits(Side::First, 0), Limits::depth(3));
        assert_eq!(parse_centiseconds("-20").unwrap(), 0);
        assert_eq!(parse_seconds("2.5").unwrap(), 2500);
    }
}
