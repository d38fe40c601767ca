//! Changing a game: a move (at the latest ply or an earlier one, dropping
//! the later ones), taking moves back; and the game as PGN.

use crate::error::PageError;
use crate::game::Game;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::pgn::{self, GameRecord};
use serde::Deserialize;
use serde_json::{Value, json};

/// `POST /api/games/{id}/moves` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move, in any spelling `kamil moves` accepts.
    #[serde(rename = "move")]
    pub text: String,
    /// Play it after this many plies, dropping the later ones (default:
    /// after all of them).
    #[serde(default)]
    pub ply: Option<usize>,
}

/// `POST /api/games/{id}/undo` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    /// Plies to take back (default 1).
    #[serde(default)]
    pub plies: Option<usize>,
}

/// Checks that `ply` (default: the latest) is one of the game's.
///
/// Errors: 400 past the last ply.
pub fn check_ply(game: &Game, ply: Option<usize>) -> Result<usize, PageError> {
    let plies = game.pos.depth();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(PageError::bad(format!(
            "ply {ply}: the game has {plies} plies"
        )));
    }
    Ok(ply)
}

/// Plays `req` in `game` (which the caller marks changed). The caller
/// refuses it while a search runs.
///
/// Errors: 400 for a bad ply or move; 409 when the game is over there.
pub fn play(game: &mut Game, req: &PlayMove) -> Result<(), PageError> {
    let ply = check_ply(game, req.ply)?;
    let mut pos = game.position_at(ply);
    if let Some(o) = pos.outcome() {
        return Err(PageError::conflict(format!("the game is over ({o})")));
    }
    let (m, _) = read_move(&mut pos, &req.text, Accept::First(Notation::Kamil))
        .map_err(|e| PageError::bad(e.to_string()))?;
    pos.make(m);
    game.pos = pos;
    Ok(())
}

/// Takes back `req`'s plies (default 1) in `game` (which the caller marks
/// changed).
///
/// Errors: 400 for none or more than the game has.
pub fn undo(game: &mut Game, req: &Undo) -> Result<(), PageError> {
    let n = req.plies.unwrap_or(1);
    if n == 0 || n > game.pos.depth() {
        return Err(PageError::bad(format!(
            "cannot take back {n} plies: the game has {}",
            game.pos.depth()
        )));
    }
    for _ in 0..n {
        game.pos.unmake();
    }
    Ok(())
}

/// `GET /api/games/{id}/pgn`: `{"pgn": text}`, its `Event` tag `event`.
pub fn pgn_json(game: &Game, event: &str) -> Value {
    let mut pos = game.pos.clone();
    let ended = pos.outcome();
    let moves = game.moves();
    let reason = ended.map(|o| o.reason().to_string());
    let tags = vec![
        ("Event".to_string(), event.to_string()),
        ("Site".to_string(), "kamil".to_string()),
    ];
    let text = pgn::write(&GameRecord {
        start: &game.start,
        moves: &moves,
        tags: &tags,
        result: ended.map(|o| o.score()).unwrap_or("*"),
        termination: reason.as_deref(),
    });
    json!({ "pgn": text })
}
