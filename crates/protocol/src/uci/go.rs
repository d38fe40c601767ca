//! The words of `go` in UCI and USI: limits, the clock, pondering.
//!
//! The clocks are named by colour, and the colours differ: in UCI `wtime`
//! is the first player's (White moves first in chess), in USI `btime` is
//! (Black, Sente, moves first in shogi). kamil's clock is indexed by
//! [`kamil_rules::Side`], the first player at 0, so each dialect maps its
//! letters there. USI adds `byoyomi`, ms every move may take once the main
//! time is spent.

use super::dialect::Dialect;
use kamil_engine::{Clock, Limits};

/// A `go` command read: the search's limits, and whether it is a ponder
/// search (`go ponder`: think on the expected move until `ponderhit`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The limits of the search (for a ponder search: from `ponderhit`).
    pub limits: Limits,
    /// `go ponder`.
    pub ponder: bool,
}

/// The clock index (0 = the first player) of a side's letter in `wtime`,
/// `btime`, `winc`, `binc` of `dialect`.
fn clock_index(dialect: Dialect, letter: char) -> usize {
    let first = match dialect {
        Dialect::Uci => 'w',
        Dialect::Usi => 'b',
    };
    usize::from(letter != first)
}

/// Reads the arguments of `go` in `dialect`. Negative times (some GUIs let
/// clocks run below zero) count as zero.
///
/// Errors: a word that is not a `go` argument of the dialect, or a missing
/// or bad number; the message names the word.
pub fn parse_go(words: &[&str], dialect: Dialect) -> Result<Go, String> {
    let mut go = Go::default();
    let limits = &mut go.limits;
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    let num = |i: usize, name: &str| -> Result<u64, String> {
        let w = words
            .get(i + 1)
            .ok_or_else(|| format!("go: `{name}` needs a number"))?;
        if let Ok(n) = w.parse::<i64>() {
            return Ok(n.max(0) as u64);
        }
        Err(format!("go: `{name}` needs a number, not `{w}`"))
    };
    while i < words.len() {
        let w = words[i];
        match w {
            "infinite" | "ponder" => {
                limits.infinite |= w == "infinite";
                go.ponder |= w == "ponder";
                i += 1;
                continue;
            }
            "depth" => limits.depth = Some(num(i, w)?.min(u32::MAX as u64) as u32),
            "nodes" => limits.nodes = Some(num(i, w)?),
            "movetime" => limits.movetime = Some(num(i, w)?),
            "wtime" | "btime" => {
                clock.time[clock_index(dialect, w.as_bytes()[0] as char)] = num(i, w)?;
                has_clock = true;
            }
            "winc" | "binc" => {
                clock.inc[clock_index(dialect, w.as_bytes()[0] as char)] = num(i, w)?
            }
            "byoyomi" if dialect == Dialect::Usi => {
                clock.byoyomi = num(i, w)?;
                has_clock = true;
            }
            "movestogo" => clock.moves_to_go = Some(num(i, w)?.min(u32::MAX as u64) as u32),
            "mate" if dialect == Dialect::Uci => {
                limits.depth = Some((num(i, w)?.min(60) as u32) * 2)
            }
            "searchmoves" => return Err("go: `searchmoves` is not supported".into()),
            _ => return Err(format!("go: unknown word `{w}`")),
        }
        i += 2;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_reads_clock_and_limits_white_first() {
        let words = [
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "movestogo",
            "20",
        ];
        let l = parse_go(&words, Dialect::Uci).unwrap().limits;
        let c = l.clock.unwrap();
        assert_eq!(c.time, [1000, 0]);
        assert_eq!(c.inc, [10, 0]);
        assert_eq!(c.moves_to_go, Some(20));
        let l = parse_go(&["depth", "5", "nodes", "100", "infinite"], Dialect::Uci)
            .unwrap()
            .limits;
        assert_eq!((l.depth, l.nodes, l.infinite), (Some(5), Some(100), true));
    }

    /// USI's `b` is Black, Sente, the first player: clock index 0.
    #[test]
    fn usi_reads_black_first_and_byoyomi() {
        let words = "btime 0 wtime 60000 binc 5 winc 7 byoyomi 1000";
        let words: Vec<&str> = words.split(' ').collect();
        let go = parse_go(&words, Dialect::Usi).unwrap();
        let c = go.limits.clock.unwrap();
        assert_eq!(c.time, [0, 60_000]);
        assert_eq!(c.inc, [5, 7]);
        assert_eq!(c.byoyomi, 1000);
        assert!(!go.ponder);
        let go = parse_go(&["ponder", "byoyomi", "300"], Dialect::Usi).unwrap();
        assert!(go.ponder && !go.limits.infinite);
        assert_eq!(go.limits.clock.unwrap().byoyomi, 300);
        assert!(parse_go(&["byoyomi", "300"], Dialect::Uci).is_err());
    }

    #[test]
    fn bad_words_are_named() {
        for d in [Dialect::Uci, Dialect::Usi] {
            assert!(parse_go(&["depth"], d).unwrap_err().contains("depth"));
            assert!(parse_go(&["depth", "x"], d).unwrap_err().contains("`x`"));
            assert!(parse_go(&["sideways"], d).unwrap_err().contains("sideways"));
        }
    }
}
