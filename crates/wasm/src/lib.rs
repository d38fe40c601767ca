//! kamil in WebAssembly: the rules and the engine for a web page or a Web
//! Worker, with no server (issue 79). `scripts/build-wasm` builds it and
//! writes the JavaScript glue (`wasm-bindgen --target web`) to
//! `web/wasm/pkg/`.
//!
//! From JavaScript: `variants()` (JSON), `new Game(variant, options,
//! position)` with `fen()`, `sfen()`, `turn()`, `legalMoves(text)`,
//! `push(move)`, `pop()`, `outcome()`; `new Engine(hashMb)` with
//! `search(game, depth, nodes, movetime, text)` (JSON), `setLevel(n)`,
//! `newGame()`. Errors are thrown as `Error`s with the rules library's
//! messages. The logic is in [`game`] and [`search`], plain Rust tested
//! natively; this file only binds it.

#![deny(missing_docs)]

pub mod game;
mod page;
pub mod protocol;
pub mod search;

use game::{GameCore, MoveText};
use search::SearchCore;
use wasm_bindgen::prelude::*;

/// The built-in games as JSON (see [`game::variants_json`]).
#[wasm_bindgen]
pub fn variants() -> String {
    game::variants_json()
}

/// `options` as JSON `{"KEY": "VALUE"}` (values may be strings, numbers or
/// booleans), as pairs; empty for an empty text.
fn options(json: &str) -> Result<Vec<(String, String)>, String> {
    if json.trim().is_empty() {
        return Ok(Vec::new());
    }
    let v: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("options: not JSON: {e}"))?;
    let map = v
        .as_object()
        .ok_or("options: a JSON object {\"KEY\": \"VALUE\"}")?;
    Ok(map
        .iter()
        .map(|(k, v)| {
            let value = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), value)
        })
        .collect())
}

fn error(message: String) -> JsError {
    JsError::new(&message)
}

/// A game: a variant, its options, the position and the moves played.
#[wasm_bindgen]
pub struct Game {
    core: GameCore,
}

#[wasm_bindgen]
impl Game {
    /// A game of `variant` (a built-in name, or another program's such as
    /// `chushogi`) with `options` (JSON object, or empty) from `position`
    /// (FEN or SFEN; empty or undefined for the start).
    #[wasm_bindgen(constructor)]
    pub fn new(
        variant: &str,
        options_json: &str,
        position: Option<String>,
    ) -> Result<Game, JsError> {
        let opts = options(options_json).map_err(error)?;
        let core = GameCore::new(variant, &opts, position.as_deref()).map_err(error)?;
        Ok(Game { core })
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        self.core.fen()
    }

    /// The SFEN of the position (shogi games), else undefined.
    pub fn sfen(&self) -> Option<String> {
        self.core.sfen()
    }

    /// The side to move: 0 the first player, 1 the second.
    pub fn turn(&self) -> u8 {
        self.core.turn()
    }

    /// The legal moves in `text` (`kamil`, `uci` or `usi`).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self, text: &str) -> Result<Vec<String>, JsError> {
        let text = MoveText::parse(text).map_err(error)?;
        Ok(self.core.legal_moves(text))
    }

    /// Plays `text` (kamil's, UCI's, USI's or SAN); returns it in kamil's
    /// text.
    pub fn push(&mut self, text: &str) -> Result<String, JsError> {
        self.core.push(text).map_err(error)
    }

    /// The number of move paths `depth` plies deep (perft).
    pub fn perft(&mut self, depth: u32) -> f64 {
        self.core.perft(depth) as f64
    }

    /// Takes the last move back; false when there is none.
    pub fn pop(&mut self) -> bool {
        self.core.pop()
    }

    /// How the game ended, as JSON `{result, winner, reason, text}`, or
    /// undefined while it goes on.
    pub fn outcome(&mut self) -> Option<String> {
        self.core.outcome()
    }
}

/// The engine: one search thread, its table kept between searches.
#[wasm_bindgen]
pub struct Engine {
    core: SearchCore,
}

#[wasm_bindgen]
impl Engine {
    /// An engine with a table of `hash_mb` MB.
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mb: usize) -> Result<Engine, JsError> {
        Ok(Engine {
            core: SearchCore::new(hash_mb).map_err(error)?,
        })
    }

    /// Searches `game` within the limits given (plies, nodes, ms); returns
    /// JSON `{best, ponder, score_cp, mate, depth, seldepth, nodes,
    /// time_ms, pv}`, moves in `text` (`kamil`, `uci` or `usi`).
    pub fn search(
        &mut self,
        game: &Game,
        depth: Option<u32>,
        nodes: Option<f64>,
        movetime: Option<f64>,
        text: &str,
    ) -> Result<String, JsError> {
        let text = MoveText::parse(text).map_err(error)?;
        let whole = |x: Option<f64>| x.map(|n| n.max(0.0) as u64);
        self.core
            .search(&game.core, depth, whole(nodes), whole(movetime), text)
            .map_err(error)
    }

    /// Plays at level `level` (0 to 20).
    #[wasm_bindgen(js_name = setLevel)]
    pub fn set_level(&mut self, level: u8) -> Result<(), JsError> {
        self.core.set_level(level).map_err(error)
    }

    /// The game's built-in network (`true`, the default) or the
    /// hand-written evaluation (`false`), as UCI's `Use NNUE`.
    #[wasm_bindgen(js_name = setUseNnue)]
    pub fn set_use_nnue(&mut self, on: bool) {
        self.core.set_use_nnue(on);
    }

    /// Forgets the last game.
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.core.new_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_from_json_of_any_value_kind() {
        assert_eq!(options("").unwrap(), vec![]);
        let o = options(r#"{"albers-castling": true, "castle-distance": 4, "x": "y"}"#).unwrap();
        assert_eq!(
            o,
            vec![
                ("albers-castling".to_string(), "true".to_string()),
                ("castle-distance".to_string(), "4".to_string()),
                ("x".to_string(), "y".to_string()),
            ]
        );
        assert!(options("[1]").is_err());
        assert!(options("{").unwrap_err().contains("not JSON"));
    }
}
