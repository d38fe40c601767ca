//! `kamil data-text`: a binary data file ([`kamil_train::data`], `kamil
//! gen-data --format binary`) as the text lines of `gen-data --format
//! text`, `FEN;RESULT;SCORE`, so that scripts and people read the data
//! without a reader of their own. Each game starts with a `# game N` line
//! (its index in its run, `N plies` of the last record) and the file with
//! a `#` line naming the variant; `kamil train-net` and `gen-data --label`
//! skip `#` lines, so the text trains as the binary does. The file is
//! read a chunk at a time ([`data::Reader`]), never whole.

use crate::game_args::load_variant;
use anyhow::{Context, Result};
use kamil_train::{data, text};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `kamil data-text`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant or a variant TOML file (the data's: the file's
    /// header is checked against it).
    variant: String,
    /// A variant option, `KEY=VALUE`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// The binary data file (shards concatenated are one file).
    file: PathBuf,
    /// Where the lines go (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Prints the data file's records as text lines.
///
/// Errors: a variant that does not load, a data file that cannot be read
/// or is not the variant's (naming the file and the record), an output
/// that cannot be written.
pub fn run(args: Args) -> Result<()> {
    let variant = load_variant(&args.variant, &args.options)?;
    // Two readings, each a chunk at a time (the file is never held
    // whole): the first checks every chunk and counts for the first line,
    // the second writes.
    let named = |e| data::FileError::Data(args.file.clone(), e);
    let (mut games, mut positions) = (0, 0);
    for g in data::open_file(&variant, &args.file)? {
        let g = g.map_err(named)?;
        games += 1;
        positions += g.records.len();
    }
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("creating `{}`", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    text::write_games_head(&variant.name, games, positions, &mut out)?;
    for g in data::open_file(&variant, &args.file)? {
        text::write_game(&g.map_err(named)?, &mut out)?;
    }
    out.flush()?;
    Ok(())
}
