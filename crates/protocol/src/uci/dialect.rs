//! The two dialects of one session: UCI and USI, and what each writes
//! its own way (the handshake's words, options' names, move text, the
//! first game, `bestmove` without a move).

use super::usi;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, Position, Variant};

/// The protocol a session speaks: UCI, or USI (the shogi programs'
/// sibling of UCI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Chess Interface: `uci`, `position fen`, moves in
    /// kamil's notation, `wtime` for the first player, mates in moves.
    Uci,
    /// The Universal Shogi Interface: `usi`, `position sfen`, moves in USI
    /// text, `btime` for the first player (Black, Sente), `byoyomi`, mates
    /// in plies (see `usi.rs`).
    Usi,
}

impl Dialect {
    /// The handshake command (`uci`, `usi`); the answer is it with `ok`,
    /// a new game it with `newgame`.
    pub fn word(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
        }
    }

    /// The name of the option that chooses the game.
    pub fn variant_option(self) -> &'static str {
        match self {
            Dialect::Uci => "UCI_Variant",
            Dialect::Usi => "USI_Variant",
        }
    }

    /// The name of the hash-size option (MB).
    pub fn hash_option(self) -> &'static str {
        match self {
            Dialect::Uci => "Hash",
            Dialect::Usi => "USI_Hash",
        }
    }

    /// The game a session starts with.
    pub fn default_variant(self) -> &'static str {
        match self {
            Dialect::Uci => BUILTIN[0].0,
            Dialect::Usi => usi::DEFAULT_VARIANT,
        }
    }

    /// The text of move `m` of `v`: kamil's notation or USI's.
    pub fn move_text(self, v: &Variant, m: Move) -> String {
        match self {
            Dialect::Uci => kamil_rules::notation::move_text(v, m),
            Dialect::Usi => kamil_rules::usi::move_text(v, m),
        }
    }

    /// Reads a move of `pos` in the dialect's notation ([`read_move`]:
    /// USI also takes kamil's, and both USI text in the shogi games).
    ///
    /// Errors: what is wrong with the text as the dialect's, in words,
    /// without the text (which the `position` report names).
    pub fn parse_move(self, pos: &mut Position, text: &str) -> Result<Move, String> {
        let first = match self {
            Dialect::Uci => Notation::Kamil,
            Dialect::Usi => Notation::Usi,
        };
        read_move(pos, text, Accept::Only(first))
            .map(|(m, _)| m)
            .map_err(|e| e.what())
    }

    /// What `bestmove` says when there is no move to play in `pos` (the
    /// game is over): UCI's `(none)`; in USI, the protocol's two words for
    /// a game that ends without a move, `win` (the engine declares a win)
    /// when the side to move has won (the other royal is gone, it leads
    /// on points) and `resign` when it has lost. USI has no word for a
    /// draw: a drawn position is `resign` too, so that the GUI ends the
    /// game rather than wait for a move.
    pub fn no_move(self, pos: &mut Position) -> &'static str {
        match self {
            Dialect::Uci => "(none)",
            Dialect::Usi => match pos.outcome().and_then(|o| o.winner()) {
                Some(w) if w == pos.side() => "win",
                _ => "resign",
            },
        }
    }
}
