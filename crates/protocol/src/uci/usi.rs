//! `kamil usi`: the Universal Shogi Interface, as shogi GUIs and servers
//! speak it, for Sho, Chu and Dai Shogi. The session is UCI's (`session.rs`)
//! in the USI dialect (`dialect.rs`); this file holds what only USI has:
//!
//! - `usi` / `usiok`, `usinewgame`, `gameover win|lose|draw` (ends any
//!   search without a `bestmove`), the options `USI_Variant`, `USI_Hash`
//!   and `USI_Ponder` (`UCI_Variant` and `Hash` are taken too);
//! - `position sfen <SFEN> [moves ...]` and `position startpos [moves
//!   ...]`, moves in USI text (`7g7f`, a Lion's `8c7b6a`, `2b3c+`); in
//!   place of an SFEN kamil's FEN is read too, which is how another game
//!   (`USI_Variant courier`) is set up;
//! - `go` with `btime`/`binc` for Black (Sente), the first player, and
//!   `wtime`/`winc` for White; `byoyomi` (`go.rs`);
//! - `score mate N` in plies, and without a move (the game is over)
//!   `bestmove win` when the side to move has won, `bestmove resign`
//!   when it has lost or the game is drawn (`dialect.rs`); `go mate` (a tsume search) answers `checkmate
//!   notimplemented`.

use crate::out::{Out, send};
use kamil_rules::sfen::{self, PositionTextError};
use kamil_rules::{Position, Variant};
use std::sync::Arc;

/// The game a USI session starts with: Chu Shogi, the game lishogi's
/// players asked an engine for and that only kamil plays well (issue 48);
/// a GUI that never sets `USI_Variant` gets a shogi game, not Courier
/// Chess. Sho and Dai Shogi are `USI_Variant` `shoshogi` and `daishogi`.
pub const DEFAULT_VARIANT: &str = "chu-shogi";

/// Reads the position of `position sfen TEXT`: an SFEN, or kamil's FEN.
///
/// Errors: what is wrong, naming the notation (`SFEN board: ...`,
/// `bad FEN: ...`).
pub(super) fn read_position(variant: Arc<Variant>, text: &str) -> Result<Position, String> {
    sfen::read_position(variant, text).map_err(|e| match e {
        PositionTextError::Sfen(e) => e.to_string(),
        PositionTextError::Fen(e) => format!("bad FEN: {e}"),
    })
}

/// `go mate ...`, a tsume (mate) search, is not offered: said, and
/// answered as USI asks of an engine without one.
pub(super) fn refuse_mate_search(out: &Out) {
    send(
        out,
        "info string go mate: kamil has no tsume (mate) search; use go depth or go byoyomi",
    );
    send(out, "checkmate notimplemented");
}
