//! `kamil data-text`: a binary data file ([`kamil_engine::data`], `kamil
//! gen-data --format binary`) as the text lines of `gen-data --format
//! text`, `FEN;RESULT;SCORE`, so that scripts and people read the data
//! without a reader of their own. Each game starts with a `# game N` line
//! (its index in its run, `N plies` of the last record) and the file with
//! a `#` line naming the variant; `kamil train-net` and `gen-data --label`
//! skip `#` lines, so the text trains as the binary does.

use crate::game_args::load_variant;
use anyhow::{Context, Result};
use kamil_engine::data;
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
    let games = data::read_file(&variant, &args.file)?;
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("creating `{}`", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    write_text(&variant.name, &games, &mut out)?;
    out.flush()?;
    Ok(())
}

/// Writes `games` of variant `name` as text lines to `out`.
fn write_text(name: &str, games: &[data::Game], out: &mut dyn Write) -> std::io::Result<()> {
    let positions: usize = games.iter().map(|g| g.records.len()).sum();
    writeln!(
        out,
        "# {name}: {} games, {positions} positions; FEN;RESULT;SCORE",
        games.len()
    )?;
    for g in games {
        let plies = g.records.last().map_or(0, |r| r.ply);
        writeln!(out, "# game {} ({plies} plies)", g.index)?;
        for r in &g.records {
            writeln!(out, "{};{};{}", r.fen, r.result, r.score)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_become_gen_datas_text_lines() {
        let v = load_variant("courier", &[]).unwrap();
        let fen = kamil_rules::Position::start(v.clone()).fen();
        let games = vec![
            data::Game {
                index: 7,
                records: vec![
                    data::Record {
                        fen: fen.clone(),
                        score: -35,
                        result: 0.5,
                        ply: 8,
                    },
                    data::Record {
                        fen: fen.clone(),
                        score: 4000,
                        result: 1.0,
                        ply: 9,
                    },
                ],
            },
            data::Game {
                index: 8,
                records: vec![],
            },
        ];
        let mut out = Vec::new();
        write_text("courier", &games, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let want = format!(
            "# courier: 2 games, 2 positions; FEN;RESULT;SCORE\n\
             # game 7 (9 plies)\n{fen};0.5;-35\n{fen};1;4000\n# game 8 (0 plies)\n"
        );
        assert_eq!(text, want);
    }
}
