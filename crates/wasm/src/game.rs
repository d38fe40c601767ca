//! A game for the page: a built-in variant (or another program's name for
//! one, `chushogi`) with options, its position and the moves played, read
//! and written in kamil's, UCI's and USI's move text. Plain Rust, so the
//! native tests check what the WebAssembly module does.

use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::move_text;
use kamil_rules::outcome::Outcome;
use kamil_rules::sfen::{read_position, to_sfen};
use kamil_rules::variant::aliases;
use kamil_rules::{Move, Position, Variant, usi};
use serde_json::{Value, json};
use std::sync::Arc;

/// Which move text to write: kamil's (which UCI also speaks) or USI's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// `f3f5`, `f3g4f5`: kamil's coordinates, as UCI and the page use them.
    Kamil,
    /// `7g7f`, `7g7f+`: USI's, in the shogi games.
    Usi,
}

impl MoveText {
    /// `"kamil"`, `"uci"` (the same text) or `"usi"`.
    ///
    /// Errors: another word, named.
    pub fn parse(word: &str) -> Result<MoveText, String> {
        match word {
            "kamil" | "uci" | "" => Ok(MoveText::Kamil),
            "usi" => Ok(MoveText::Usi),
            other => Err(format!(
                "move text `{}`: kamil, uci or usi",
                kamil_rules::excerpt(other)
            )),
        }
    }
}

/// A variant by name (ours or another program's, whose rule options then
/// come before `options`) with `options` (`KEY=VALUE` pairs).
///
/// Errors: the variant loader's message (unknown game, option or value).
pub fn variant(name: &str, options: &[(String, String)]) -> Result<Arc<Variant>, String> {
    let (ours, all) = aliases::resolve_pairs(name, options);
    Variant::builtin(&ours, &all)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// The built-in games as JSON: `[{name, title, description, files, ranks,
/// start_fen, options: [{name, label, summary, default, values,
/// value_labels}]}]`.
pub fn variants_json() -> String {
    let list: Vec<Value> = kamil_rules::variant::BUILTIN
        .iter()
        .filter_map(|(name, _)| Variant::builtin(name, &[]).ok())
        .map(|v| {
            json!({
                "name": v.name,
                "title": v.title,
                "description": v.description,
                "files": v.geometry.files(),
                "ranks": v.geometry.ranks(),
                "start_fen": v.start_fen,
                "options": v.options.iter().map(|o| json!({
                    "name": o.name, "label": o.label, "summary": o.summary,
                    "default": o.default, "values": o.values, "value_labels": o.value_labels,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Value::Array(list).to_string()
}

/// A game in progress.
#[derive(Clone)]
pub struct GameCore {
    pos: Position,
}

impl GameCore {
    /// A game of `variant` with `options` from `position` (a FEN, or an
    /// SFEN in the shogi games; `None` for the start position).
    ///
    /// Errors: the variant's (see [`variant`]) or the position's message.
    pub fn new(
        name: &str,
        options: &[(String, String)],
        position: Option<&str>,
    ) -> Result<GameCore, String> {
        let v = variant(name, options)?;
        let pos = match position {
            Some(text) if !text.trim().is_empty() => {
                read_position(v, text.trim()).map_err(|e| e.to_string())?
            }
            _ => Position::start(v),
        };
        Ok(GameCore { pos })
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The SFEN of the position, in the shogi games.
    pub fn sfen(&self) -> Option<String> {
        to_sfen(&self.pos)
    }

    /// The side to move: 0 the first player, 1 the second.
    pub fn turn(&self) -> u8 {
        self.pos.side().index() as u8
    }

    /// The text of `m` in `text`'s notation (kamil's where the game has no
    /// USI text).
    pub fn move_text(&self, m: Move, text: MoveText) -> String {
        let v = self.pos.variant();
        match text {
            MoveText::Usi if kamil_rules::sfen::has_sfen(v) => usi::move_text(v, m),
            _ => move_text(v, m),
        }
    }

    /// The legal moves, in `text`'s notation, in generation order.
    pub fn legal_moves(&mut self, text: MoveText) -> Vec<String> {
        let mut moves = Vec::new();
        kamil_rules::movegen::legal_moves(&mut self.pos, &mut moves);
        moves.iter().map(|&m| self.move_text(m, text)).collect()
    }

    /// Plays the move `text` (kamil's, UCI's or USI's text, or SAN) and
    /// returns it in kamil's text.
    ///
    /// Errors: text that is no legal move, with the reason.
    pub fn push(&mut self, text: &str) -> Result<String, String> {
        let (m, _) = read_move(&mut self.pos, text, Accept::First(Notation::Kamil))
            .map_err(|e| e.to_string())?;
        let said = move_text(self.pos.variant(), m);
        self.pos.make(m);
        Ok(said)
    }

    /// The number of move paths `depth` plies deep (perft), as `kamil
    /// perft` counts them.
    pub fn perft(&mut self, depth: u32) -> u64 {
        kamil_rules::perft::perft(&mut self.pos, depth)
    }

    /// Takes back the last move; false when none was played.
    pub fn pop(&mut self) -> bool {
        if self.pos.depth() == 0 {
            return false;
        }
        self.pos.unmake();
        true
    }

    /// How the game has ended, as JSON `{result, winner, reason, text}`
    /// (`result` "1-0", "0-1" or "1/2-1/2"; `winner` 0, 1 or null), or
    /// `None` while it goes on.
    pub fn outcome(&mut self) -> Option<String> {
        self.pos.outcome().map(|o: Outcome| {
            json!({
                "result": o.score().to_string(),
                "winner": o.winner().map(|s| s.index()),
                "reason": o.reason().to_string(),
                "text": o.to_string(),
            })
            .to_string()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_courier_game_plays_takes_back_and_reads_every_notation() {
        let mut g = GameCore::new("courier", &[], None).unwrap();
        let start = g.fen();
        let moves = g.legal_moves(MoveText::Kamil);
        assert!(moves.contains(&"b2b3".to_string()), "{moves:?}");
        assert_eq!(g.push("b2b3").unwrap(), "b2b3");
        assert_eq!(g.turn(), 1);
        assert!(g.pop());
        assert_eq!(g.fen(), start);
        assert!(!g.pop());
        let e = g.push("b2b5").unwrap_err();
        assert!(e.contains("b2b5"), "{e}");
        assert!(g.outcome().is_none());
        // The rules library's perft, as `kamil perft courier 2`.
        assert_eq!(g.perft(2), 678);
    }

    #[test]
    fn shogi_games_speak_usi_and_take_another_programs_name() {
        let mut g = GameCore::new("chushogi", &[], None).unwrap();
        assert_eq!(g.position().variant().name, "chu-shogi");
        let usi_moves = g.legal_moves(MoveText::Usi);
        let ours = g.legal_moves(MoveText::Kamil);
        assert_eq!(usi_moves.len(), ours.len());
        assert_ne!(usi_moves, ours);
        // A USI move is read, and said back in kamil's text.
        let said = g.push(&usi_moves[0]).unwrap();
        assert_eq!(said, ours[0]);
        assert!(g.sfen().is_some());
        let e = GameCore::new("no-such-game", &[], None).err().unwrap();
        assert!(e.contains("no-such-game"), "{e}");
        assert!(MoveText::parse("san").is_err());
    }

    #[test]
    fn a_stalemate_is_an_outcome_in_json() {
        // rules/courier.md COU-12 b: Black, not in check, has no move and loses.
        let mut g = GameCore::new(
            "courier",
            &[],
            Some("11k/9K2/11W/12/12/p11/P11/12 b - - 0 1"),
        )
        .unwrap();
        assert!(g.legal_moves(MoveText::Kamil).is_empty());
        let o: Value = serde_json::from_str(&g.outcome().unwrap()).unwrap();
        assert_eq!(
            (o["result"].as_str(), o["winner"].as_u64()),
            (Some("1-0"), Some(0)),
            "{o}"
        );
    }

    #[test]
    fn variants_lists_every_built_in_game() {
        let list: Value = serde_json::from_str(&variants_json()).unwrap();
        assert_eq!(
            list.as_array().unwrap().len(),
            kamil_rules::variant::BUILTIN.len()
        );
        assert!(list[0]["options"].is_array());
    }
}
