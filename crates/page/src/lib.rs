//! The web page's back end without HTTP: what `kamil serve` answers, as
//! plain functions over games held in memory, so that the same code runs
//! behind the server's JSON API and in WebAssembly (issue 79).
//!
//! - [`game`]: one game (where it began, the moves since, a generation);
//! - [`json`]: the JSON the page reads (variants, games, moves);
//! - [`variants`]: compiled variants, shared, and the games' list;
//! - [`new_game`]: a new game's position (variant, options, FEN or SFEN,
//!   moves, PGN);
//! - [`play`]: moves, take-backs, PGN export;
//! - [`think`]: an engine request's limits, its progress and result;
//! - [`review`] and [`review_json`]: game review;
//! - [`rules`]: the rules panel (Markdown as HTML);
//! - [`local`]: all of it behind one call by method and path, as the
//!   server's API answers (for WebAssembly: the searches run elsewhere).
//!
//! Nothing here uses threads, sockets or a clock of its own; errors are
//! [`PageError`]s with the HTTP status the server answers.

#![deny(missing_docs)]

pub mod error;
pub mod game;
pub mod json;
pub mod local;

pub mod new_game;
pub mod play;
pub mod review;
pub mod review_json;
pub mod rules;
pub mod think;
pub mod variants;

pub use error::PageError;
pub use game::Game;
pub use variants::Variants;
