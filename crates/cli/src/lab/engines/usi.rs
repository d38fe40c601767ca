//! The USI client, for shogi engines (and `kamil usi`): the conversation
//! of the UCI client (`uci.rs`'s [`Link`]) in USI's words: `usi` /
//! `usiok`, `USI_Variant` (or the `UCI_Variant` an engine lists instead),
//! `usinewgame`, positions as `position sfen ... moves ...` (with
//! `setup=startpos`, `position startpos moves ...`) in USI move text, `go`
//! with `btime` for Black, the first player, a time per move as a
//! `byoyomi`, and `gameover` at the end. The engine's `bestmove` goes to
//! the referee as it is: the referee reads USI text too, and
//! `bestmove resign` resigns.

use super::client::{Client, Failure, GameStart, Reply, Turn, VariantSpec};
use super::config::{EngineConfig, Setup};
use super::process::Process;
use super::uci::{Link, Words, go_line};
use kamil_rules::{Position, Side, notation, usi};

/// USI's words.
const USI: Words = Words {
    hello: "usi",
    variant_options: &["USI_Variant", "UCI_Variant"],
    time: ["btime", "wtime"],
    inc: ["binc", "winc"],
    movetime: "byoyomi",
};

/// A USI engine.
pub struct Usi {
    link: Link,
    setup: Setup,
    /// The side this engine plays in the game.
    side: Side,
    /// The start of every `position` command of the game: `position sfen
    /// SFEN` or `position startpos`, with the moves from the variant's
    /// start to the game's start in the second case.
    head: String,
    /// The moves sent so far, in USI text.
    moves: Vec<String>,
    /// The position after them (to write the next moves in USI).
    pos: Option<Position>,
    /// The referee's moves already in `moves` (the opening line's are not).
    taken: usize,
}

impl Usi {
    /// Starts a USI engine: the handshake of [`Link::open`] in USI's words.
    ///
    /// Errors: see [`Link::open`].
    pub fn start(
        p: Process,
        cfg: &EngineConfig,
        variant: &VariantSpec,
        fallback_name: &str,
    ) -> Result<Usi, Failure> {
        Ok(Usi {
            link: Link::open(p, cfg, variant, fallback_name, &USI)?,
            setup: cfg.setup,
            side: Side::First,
            head: String::new(),
            moves: Vec::new(),
            pos: None,
            taken: 0,
        })
    }

    /// Writes kamil's move `text` in USI after the moves so far.
    ///
    /// Errors: a move the position does not have (the referee's moves are
    /// legal, so this is a fault of ours, said as a protocol error).
    fn push(&mut self, text: &str) -> Result<(), Failure> {
        let pos = self
            .pos
            .as_mut()
            .ok_or_else(|| Failure::Protocol("no game started".to_string()))?;
        let m = notation::parse_move(pos, text)
            .map_err(|e| Failure::Protocol(format!("cannot write {text} in USI: {e}")))?;
        self.moves.push(usi::move_text(pos.variant(), m));
        pos.make(m);
        Ok(())
    }
}

impl Client for Usi {
    fn name(&self) -> &str {
        &self.link.name
    }

    fn start_game(&mut self, g: &GameStart, line: Option<&[String]>) -> Result<(), Failure> {
        self.side = g.side;
        self.moves.clear();
        self.taken = 0;
        let line = match (self.setup, line) {
            (Setup::Startpos, Some(l)) => Some(l),
            (Setup::Startpos, None) if g.is_variant_start => Some(&[][..]),
            _ => None,
        };
        match line {
            Some(l) => {
                self.head = "position startpos".to_string();
                self.pos = Some(Position::start(g.start.variant().clone()));
                for m in l {
                    self.push(m)?;
                }
            }
            None => {
                // Games without SFEN go as kamil's FEN, which `kamil usi`
                // reads in its place.
                let text = g.start.sfen().unwrap_or_else(|| g.start.fen());
                self.head = format!("position sfen {text}");
                self.pos = Some(g.start.clone());
            }
        }
        self.link.new_game(&USI)
    }

    fn think(&mut self, t: &Turn) -> Result<Reply, Failure> {
        for m in t.moves.get(self.taken..).unwrap_or_default() {
            self.push(m)?;
        }
        self.taken = t.moves.len();
        let mut pos = self.head.clone();
        if !self.moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&self.moves.join(" "));
        }
        self.link.search(&pos, &go_line(t, &USI), t.deadline)
    }

    /// `gameover win`, `lose` or `draw` for this engine's side; nothing for
    /// a game not played (`*`).
    fn end_game(&mut self, result: &str, _why: &str) {
        let won = match result {
            "1-0" => Side::First,
            "0-1" => Side::Second,
            "1/2-1/2" => {
                let _ = self.link.p.send("gameover draw");
                return;
            }
            _ => return,
        };
        let word = if won == self.side { "win" } else { "lose" };
        let _ = self.link.p.send(&format!("gameover {word}"));
    }

    fn last_score(&self) -> Option<i32> {
        self.link.last_score
    }

    fn complaint(&self) -> Option<&str> {
        self.link.complaint.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::engines::config::{Limits, TimeControl};
    use std::time::{Duration, Instant};

    /// USI's clock words name Black, the first player, first: the first
    /// player's time goes as `btime` (UCI writes it `wtime`).
    #[test]
    fn clocks_go_by_colour_black_first() {
        let tc = TimeControl::parse("10+0.5").unwrap();
        let limits = Limits {
            tc: Some(tc),
            ..Limits::default()
        };
        let turn = Turn {
            fen: "",
            moves: &[],
            clocks: [
                Some(Duration::from_millis(9000)),
                Some(Duration::from_millis(7000)),
            ],
            limits: [&limits, &limits],
            side: Side::Second,
            deadline: Instant::now(),
        };
        assert_eq!(
            go_line(&turn, &USI),
            "go btime 9000 wtime 7000 binc 500 winc 500"
        );
    }
}
