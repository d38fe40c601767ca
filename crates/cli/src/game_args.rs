//! Arguments shared by the commands that set up a position: variant (name or
//! file), options, FEN and moves played from it. The loaders are the
//! session crate's ([`kamil_protocol::loading`]).

use anyhow::{Context, Result, bail};
use kamil_rules::Position;
use kamil_rules::move_reader::{Accept, Notation, read_move};

pub use kamil_protocol::loading::*;

/// Variant, options, FEN and moves, as several commands take them.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// A built-in variant (`kamil variants` lists them) or a path to a variant TOML file.
    pub variant: String,
    /// Start from this FEN instead of the variant's start position; in the
    /// shogi games also an SFEN (`... b - 1`).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, comma-separated (`e2e4,e7e5`); in the shogi
    /// games also USI (`7g7f,3c3d`).
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// A variant option, `KEY=VALUE` (a bare `KEY` means `KEY=true`); repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl GameArgs {
    /// The position reached: FEN or SFEN (or start), then every move in
    /// order, in any notation ([`read_move`], kamil's first).
    pub fn position(&self) -> Result<Position> {
        let v = load_variant(&self.variant, &self.options)?;
        let mut pos = match &self.fen {
            Some(f) => read_position(v, f)?,
            None => Position::start(v),
        };
        for (i, m) in self.moves.iter().enumerate() {
            let m = m.trim();
            if m.is_empty() {
                bail!("move {} of --moves is empty", i + 1);
            }
            let (mv, _) = read_move(&mut pos, m, Accept::First(Notation::Kamil))
                .with_context(|| format!("move {} of --moves", i + 1))?;
            pos.make(mv);
        }
        Ok(pos)
    }
}
