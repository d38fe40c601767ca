//! The lines a UCI or USI session writes about a search and a refused
//! move: `info depth ...`, `bestmove ...`, the `position` report.

use super::dialect::Dialect;
use kamil_engine::{Info, Score, SearchResult};
use kamil_rules::{Position, Variant};

/// The report of a `position` command whose move `i` (from 0) of `moves`
/// was refused for `why`: which move, and where the position was left.
pub(super) fn refused_move_text(i: usize, moves: &[&str], why: &str) -> String {
    let left = match i {
        0 => "at the start (no move made)".to_string(),
        _ => format!("after move {i} `{}`", moves[i - 1]),
    };
    format!(
        "position: move {} `{}` is not legal here ({why}); position left {left}",
        i + 1,
        moves[i]
    )
}

/// The score words of an `info` line: `cp N`, or `mate N` where UCI counts
/// N in moves and USI in plies (both negative when the engine is mated).
fn score_text(dialect: Dialect, i: &Info) -> String {
    match (i.score, dialect, i.mate_plies) {
        (Score::Cp(c), _, _) => format!("cp {c}"),
        (Score::Mate(_), Dialect::Usi, Some(p)) => format!("mate {p}"),
        (Score::Mate(m), _, _) => format!("mate {m}"),
    }
}

/// The `info` line of a search report, moves written in `dialect`.
pub fn info_line(dialect: Dialect, v: &Variant, i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|m| dialect.move_text(v, *m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score_text(dialect, i),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        pv.join(" ")
    )
}

/// The `bestmove` line of a result of a search of `pos`, with `ponder`
/// when the line has a reply; without a move (the game is over) UCI's
/// `bestmove (none)`, USI's `bestmove win` or `bestmove resign`
/// ([`Dialect::no_move`]).
pub fn bestmove_line(dialect: Dialect, pos: &mut Position, r: &SearchResult) -> String {
    let v = pos.variant().clone();
    let text = |m| dialect.move_text(&v, m);
    match (r.best, r.ponder) {
        (Some(m), Some(p)) => format!("bestmove {} ponder {}", text(m), text(p)),
        (Some(m), None) => format!("bestmove {}", text(m)),
        (None, _) => format!("bestmove {}", dialect.no_move(pos)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_refused_move_says_which_and_where_the_position_stays() {
        let moves = ["b2b3", "b7b6", "q9q9"];
        assert_eq!(
            refused_move_text(0, &moves, "why"),
            "position: move 1 `b2b3` is not legal here (why); position left at the start (no move made)"
        );
        assert_eq!(
            refused_move_text(2, &moves, "why"),
            "position: move 3 `q9q9` is not legal here (why); position left after move 2 `b7b6`"
        );
    }

    /// A win 3 plies away is `mate 2` (moves) in UCI, `mate 3` in USI; a
    /// loss 2 plies away `mate -1` and `mate -2`.
    #[test]
    fn mates_count_moves_in_uci_and_plies_in_usi() {
        let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
        let m = Position::start(v.clone()).legal_moves()[0];
        let info = |score, plies| Info {
            depth: 3,
            seldepth: 3,
            multipv: 1,
            score,
            mate_plies: Some(plies),
            nodes: 10,
            time_ms: 1,
            nps: 10_000,
            pv: vec![m],
            hashfull: 0,
        };
        let win = info(Score::Mate(2), 3);
        assert!(info_line(Dialect::Uci, &v, &win).contains(" score mate 2 "));
        assert!(info_line(Dialect::Usi, &v, &win).contains(" score mate 3 "));
        let loss = info(Score::Mate(-1), -2);
        assert!(info_line(Dialect::Uci, &v, &loss).contains(" score mate -1 "));
        assert!(info_line(Dialect::Usi, &v, &loss).contains(" score mate -2 "));
        let usi = info_line(Dialect::Usi, &v, &win);
        let uci = info_line(Dialect::Uci, &v, &win);
        assert!(usi.ends_with(&format!(" pv {}", kamil_rules::usi::move_text(&v, m))));
        assert!(uci.ends_with(&format!(" pv {}", kamil_rules::notation::move_text(&v, m))));
    }
}
