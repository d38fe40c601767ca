//! The text data format, one position a line: `FEN`, `FEN;RESULT` or
//! `FEN;RESULT;SCORE`. RESULT is what the game was worth to the first
//! player, 0 to 1 (`1` won, `0.5` drawn, `0` lost, or the share of the
//! points); SCORE is a search's score of the position in centipawns from
//! the side to move's view. Empty lines and lines starting with `#` are
//! comments. `kamil gen-data --format text` writes it, `kamil data-text`
//! turns the binary format ([`crate::data`]) into it; `kamil tune`,
//! `kamil train-net` and `gen-data --label` read it through [`records`],
//! the one reader.

use crate::data::Game;
use std::fmt::Display;
use std::io::Write;

/// One position of a text data file.
#[derive(Clone, Debug, PartialEq)]
pub struct TextRecord<'a> {
    /// The line, from 1.
    pub line: usize,
    /// The position's FEN, trimmed (not yet read: a FEN needs its
    /// variant).
    pub fen: &'a str,
    /// The game's result for the first player, 0 to 1, if the line has
    /// one.
    pub result: Option<f64>,
    /// The search's score, centipawns, side to move's view, if the line
    /// has one (finite).
    pub score: Option<f64>,
}

impl TextRecord<'_> {
    /// The result, which a trainer needs.
    ///
    /// Errors: the line has none ([`TextError::NoResult`]).
    pub fn needs_result(&self) -> Result<f64, TextError> {
        self.result.ok_or(TextError::NoResult { line: self.line })
    }
}

/// A line of a text data file that does not read, by its line (from 1).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TextError {
    /// More than three `;`-separated fields.
    #[error("line {line}: expected `FEN`, `FEN;RESULT` or `FEN;RESULT;SCORE`")]
    Fields {
        /// The line.
        line: usize,
    },
    /// The result is not a number from 0 to 1.
    #[error("line {line}: result `{text}` is not from 0 to 1")]
    Result {
        /// The line.
        line: usize,
        /// The field as written.
        text: String,
    },
    /// The score is not a finite number.
    #[error("line {line}: score `{text}` is not a number of centipawns")]
    Score {
        /// The line.
        line: usize,
        /// The field as written.
        text: String,
    },
    /// A line without the result its reader needs.
    #[error("line {line}: no `;RESULT`")]
    NoResult {
        /// The line.
        line: usize,
    },
}

/// The records of `text`, in order, comments skipped; each one read or
/// the error of its line.
pub fn records(text: &str) -> impl Iterator<Item = Result<TextRecord<'_>, TextError>> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        Some(record(i + 1, line))
    })
}

/// Every record of `text`, or the first line that does not read.
///
/// Errors: a line that does not read ([`TextError`]).
pub fn read(text: &str) -> Result<Vec<TextRecord<'_>>, TextError> {
    records(text).collect()
}

fn record(line: usize, text: &str) -> Result<TextRecord<'_>, TextError> {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    let (fen, result, score) = match fields[..] {
        [fen] => (fen, None, None),
        [fen, r] => (fen, Some(r), None),
        [fen, r, s] => (fen, Some(r), Some(s)),
        _ => return Err(TextError::Fields { line }),
    };
    let result = match result {
        Some(r) => Some(
            r.parse()
                .ok()
                .filter(|x: &f64| (0.0..=1.0).contains(x))
                .ok_or_else(|| TextError::Result {
                    line,
                    text: r.to_string(),
                })?,
        ),
        None => None,
    };
    let score = match score {
        Some(s) => Some(
            s.parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| TextError::Score {
                    line,
                    text: s.to_string(),
                })?,
        ),
        None => None,
    };
    Ok(TextRecord {
        line,
        fen,
        result,
        score,
    })
}

/// Writes one line, `FEN;RESULT` or `FEN;RESULT;SCORE`.
///
/// Errors: `out` cannot be written.
pub fn write_line<W: Write + ?Sized>(
    out: &mut W,
    fen: &str,
    result: impl Display,
    score: Option<i32>,
) -> std::io::Result<()> {
    match score {
        Some(s) => writeln!(out, "{fen};{result};{s}"),
        None => writeln!(out, "{fen};{result}"),
    }
}

/// Writes the binary format's `games` of variant `name` as text: a `#`
/// line naming the variant and counting the games and positions, then per
/// game a `# game N (P plies)` line (its index in its run, the last
/// record's ply) and its records as `FEN;RESULT;SCORE`. The readers skip
/// `#` lines, so the text trains as the binary does.
///
/// Errors: `out` cannot be written.
pub fn write_games<W: Write + ?Sized>(
    name: &str,
    games: &[Game],
    out: &mut W,
) -> std::io::Result<()> {
    let positions: usize = games.iter().map(|g| g.records.len()).sum();
    write_games_head(name, games.len(), positions, out)?;
    for g in games {
        write_game(g, out)?;
    }
    Ok(())
}

/// The first line of [`write_games`]: the variant `name`, `games` games
/// and `positions` positions.
///
/// Errors: `out` cannot be written.
pub fn write_games_head<W: Write + ?Sized>(
    name: &str,
    games: usize,
    positions: usize,
    out: &mut W,
) -> std::io::Result<()> {
    writeln!(
        out,
        "# {name}: {games} games, {positions} positions; FEN;RESULT;SCORE"
    )
}

/// One game of [`write_games`]: its `# game N (P plies)` line and records.
///
/// Errors: `out` cannot be written.
pub fn write_game<W: Write + ?Sized>(g: &Game, out: &mut W) -> std::io::Result<()> {
    let plies = g.records.last().map_or(0, |r| r.ply);
    writeln!(out, "# game {} ({plies} plies)", g.index)?;
    for r in &g.records {
        write_line(out, &r.fen, r.result, Some(i32::from(r.score)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Record;

    #[test]
    fn every_form_of_line_reads_and_comments_are_skipped() {
        let text = "# c\n\nA b - 0 1;1;-35\n  B w ; 0.5 \nC w\n";
        let r = read(text).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(
            (r[0].line, r[0].fen, r[0].result, r[0].score),
            (3, "A b - 0 1", Some(1.0), Some(-35.0))
        );
        assert_eq!(
            (r[1].line, r[1].fen, r[1].result, r[1].score),
            (4, "B w", Some(0.5), None)
        );
        assert_eq!((r[2].fen, r[2].result), ("C w", None));
        assert_eq!(r[2].needs_result(), Err(TextError::NoResult { line: 5 }));
    }

    #[test]
    fn a_bad_line_is_an_error_naming_it() {
        let e = read("# c\nabc;1\nxyz;2\n").unwrap_err();
        assert_eq!(
            e,
            TextError::Result {
                line: 3,
                text: "2".into()
            }
        );
        assert!(e.to_string().contains("line 3"), "{e}");
        assert!(matches!(
            read("a;1;x").unwrap_err(),
            TextError::Score { line: 1, .. }
        ));
        assert!(matches!(
            read("a;1;nan").unwrap_err(),
            TextError::Score { .. }
        ));
        assert_eq!(read("a;1;2;3").unwrap_err(), TextError::Fields { line: 1 });
    }

    #[test]
    fn written_lines_read_back() {
        let mut out = Vec::new();
        write_line(&mut out, "F w", 0.5, Some(-12)).unwrap();
        write_line(&mut out, "G b", 1, None).unwrap();
        let text = String::from_utf8(out).unwrap();
        let r = read(&text).unwrap();
        assert_eq!(
            (r[0].fen, r[0].result, r[0].score),
            ("F w", Some(0.5), Some(-12.0))
        );
        assert_eq!(
            (r[1].fen, r[1].result, r[1].score),
            ("G b", Some(1.0), None)
        );
    }

    #[test]
    fn binary_records_become_text_lines() {
        let fen = "F w".to_string();
        let rec = |score, result, ply| Record {
            fen: fen.clone(),
            score,
            result,
            ply,
        };
        let games = vec![
            Game {
                index: 7,
                records: vec![rec(-35, 0.5, 8), rec(4000, 1.0, 9)],
            },
            Game {
                index: 8,
                records: vec![],
            },
        ];
        let mut out = Vec::new();
        write_games("courier", &games, &mut out).unwrap();
        let want = "# courier: 2 games, 2 positions; FEN;RESULT;SCORE\n\
             # game 7 (9 plies)\nF w;0.5;-35\nF w;1;4000\n# game 8 (0 plies)\n";
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}
