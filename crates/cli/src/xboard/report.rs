//! What the XBoard dialect writes of the engine's work: the game's result
//! (`RESULT {comment}`) and the thinking output.

use super::ids::XboardIds;
use super::setup;
use kamil_engine::{Info, Score};
use kamil_rules::{Outcome, Variant};

/// `RESULT {comment}` for a game ended by rule (XBoard calls the first
/// player White); a result in points gives them (`56-44`).
pub fn result_line(o: Outcome) -> String {
    let reason = o.reason();
    let comment = match (o.winner(), o.points()) {
        (Some(w), Some(p)) => format!("{} wins {p} on points, {reason}", setup::colour(w)),
        (None, Some(p)) => format!("Draw {p} on points, {reason}"),
        (Some(w), None) => format!("{} wins by {reason}", setup::colour(w)),
        (None, None) => format!("Draw by {reason}"),
    };
    format!("{} {{{comment}}}", o.score())
}

/// Thinking output: `ply score time nodes pv`, score in centipawns (mate
/// in N moves as 100000 + N, mated as -100000 - N), time in centiseconds;
/// PV moves in XBoard's text with the game's piece IDs (`ids`).
pub fn thinking_line(v: &Variant, ids: &XboardIds, i: &Info) -> String {
    let score = match i.score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 + m,
        Score::Mate(m) => -100_000 + m,
    };
    let pv: Vec<String> = i.pv.iter().map(|m| ids.move_text(v, *m)).collect();
    format!(
        "{} {score} {} {} {}",
        i.depth,
        i.time_ms / 10,
        i.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_rules::outcome::{Points, Scoring};
    use kamil_rules::{Reason, Side};

    #[test]
    fn results_name_the_winner_by_xboard_colour_and_give_points() {
        let win = Outcome::Win {
            winner: Side::Second,
            reason: Reason::Checkmate,
        };
        assert_eq!(result_line(win), "0-1 {Black wins by checkmate}");
        let draw = Outcome::Draw {
            reason: Reason::Repetition,
        };
        assert_eq!(result_line(draw), "1/2-1/2 {Draw by repetition}");
        let points = Outcome::Points {
            points: Points::whole(56, 44),
            scoring: Scoring::Shared,
            reason: Reason::Checkmate,
            by: Some(Side::First),
        };
        assert_eq!(
            result_line(points),
            "1-0 {White wins 56-44 on points, checkmate}"
        );
    }
}
