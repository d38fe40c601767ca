//! Arguments shared by the commands that set up a position: variant (name or
//! file), options, FEN and moves played from it.

use crate::input;
use anyhow::{Context, Result, bail};
use kamil_rules::excerpt::excerpt;
use kamil_rules::{Position, Variant, notation};
use std::path::Path;
use std::sync::Arc;

/// Variant, options, FEN and moves, as several commands take them.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// A built-in variant (`kamil variants` lists them) or a path to a variant TOML file.
    pub variant: String,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, comma-separated (`e2e4,e7e5`).
    #[arg(long, value_delimiter = ',')]
    pub moves: Vec<String>,
    /// A variant option, `KEY=VALUE` (a bare `KEY` means `KEY=true`); repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// Loads a variant by built-in name or file path with `KEY=VALUE` options.
pub fn load_variant(name: &str, options: &[String]) -> Result<Arc<Variant>> {
    let opts: Vec<(String, String)> = options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (o.trim().to_string(), "true".to_string()),
        })
        .collect();
    let is_path = name.ends_with(".toml") || name.contains('/') || name.contains('\\');
    let v = if is_path {
        let text = input::read_file(Path::new(name), "variant file", input::MAX_FILE)?;
        Variant::from_toml(name, &text, &opts)
    } else {
        Variant::builtin(name, &opts)
    };
    // The loader names the variant and options as given: cut long ones.
    let echoed =
        std::iter::once(name).chain(opts.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]));
    let v = v.map_err(|e| anyhow::anyhow!(input::cut_echoes(&e.to_string(), echoed)))?;
    Ok(Arc::new(v))
}

impl GameArgs {
    /// The position reached: FEN (or start), then every move in order.
    pub fn position(&self) -> Result<Position> {
        let v = load_variant(&self.variant, &self.options)?;
        let mut pos = match &self.fen {
            Some(f) => {
                Position::from_fen(v, f).with_context(|| format!("bad FEN `{}`", excerpt(f)))?
            }
            None => Position::start(v),
        };
        for (i, m) in self.moves.iter().enumerate() {
            let m = m.trim();
            if m.is_empty() {
                bail!("move {} of --moves is empty", i + 1);
            }
            let mv = notation::parse_move(&mut pos, m)
                .with_context(|| format!("move {} of --moves", i + 1))?;
            pos.make(mv);
        }
        Ok(pos)
    }
}
