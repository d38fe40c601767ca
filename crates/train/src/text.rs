//! The text data format, one position a line: `FEN`, `FEN;RESULT` or
//! `FEN;RESULT;SCORE`. RESULT is what the game was worth to the first
//! player, 0 to 1 (`1` won, `0.5` drawn, `0` lost, or the share of the
//! points); SCORE is a search's score of the position in centipawns from
//! the side to move's view. Empty lines and lines starting with `#` are
//! comments. `kamil gen-data --format text` writes it, `kamil data-text`
//! turns the binary format ([`crate::data`]) into it; `kamil tune`,
//! `kamil train-net` and `gen-data --label` read a file a line at a time
//! through [`TextReader`] ([`open_file`]), never whole; [`records`] reads
//! a text in memory. Both read each line with the same code.

use crate::data::Game;
use kamil_engine::files;
use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

/// Longest line of a text data file, bytes (a FEN and two numbers are a
/// few hundred): 64 KB.
pub const MAX_LINE: usize = 64 << 10;

/// One position of a text data file.
#[derive(Clone, Debug, PartialEq)]
pub struct TextRecord {
    /// The line, from 1.
    pub line: usize,
    /// The position's FEN, trimmed (not yet read: a FEN needs its
    /// variant).
    pub fen: String,
    /// The game's result for the first player, 0 to 1, if the line has
    /// one.
    pub result: Option<f64>,
    /// The search's score, centipawns, side to move's view, if the line
    /// has one (finite).
    pub score: Option<f64>,
}

impl TextRecord {
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
    /// A line longer than its reader's limit (the rest is not read).
    #[error("line {line}: longer than {} (the limit for a line)", files::size(*limit as u64))]
    TooLong {
        /// The line.
        line: usize,
        /// The limit, bytes.
        limit: usize,
    },
    /// A line that is not UTF-8 text.
    #[error("line {line}: not UTF-8 text")]
    NotUtf8 {
        /// The line.
        line: usize,
    },
}

/// What ends the reading of a text source: a line that does not read
/// ([`TextError`]), or the source that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A line that does not read.
    #[error(transparent)]
    Line(#[from] TextError),
    /// The source fails while its line is read.
    #[error("line {line}: cannot be read")]
    Io {
        /// The line being read.
        line: usize,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// The records of `text`, in order, comments skipped; each one read or
/// the error of its line. A leading byte-order mark is dropped.
pub fn records(text: &str) -> impl Iterator<Item = Result<TextRecord, TextError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| parse_line(i + 1, line))
}

/// Every record of `text`, or the first line that does not read.
///
/// Errors: a line that does not read ([`TextError`]).
pub fn read(text: &str) -> Result<Vec<TextRecord>, TextError> {
    records(text).collect()
}

/// The lines of a source, read one at a time: each at most a limit of
/// bytes (a longer one is an error, not read further), UTF-8 checked, its
/// line ending and, on the first line, a byte-order mark dropped. Memory
/// holds one line, never the source. Items are `(line, text)`, the line
/// from 1; an error ends the reading.
pub struct Lines<R> {
    src: R,
    limit: usize,
    line: usize,
    bytes: u64,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `src`, each at most `limit` bytes without its `\n`.
    pub fn new(src: R, limit: usize) -> Lines<R> {
        Lines {
            src,
            limit,
            line: 0,
            bytes: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    /// Bytes read from the source so far (for a progress bar).
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    fn fail(&mut self, e: impl Into<ReadError>) -> Option<Result<(usize, String), ReadError>> {
        self.done = true;
        Some(Err(e.into()))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<(usize, String), ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let line = self.line + 1;
        self.buf.clear();
        // One byte over the limit tells a line at the limit (then its
        // `\n`) from a longer one, without reading the longer one whole.
        let bound = self.limit as u64 + 1;
        let n = match (&mut self.src).take(bound).read_until(b'\n', &mut self.buf) {
            Ok(n) => n,
            Err(source) => return self.fail(ReadError::Io { line, source }),
        };
        if n == 0 {
            self.done = true;
            return None;
        }
        self.line = line;
        self.bytes += n as u64;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > self.limit {
            let limit = self.limit;
            return self.fail(TextError::TooLong { line, limit });
        }
        let Ok(text) = std::str::from_utf8(&self.buf) else {
            return self.fail(TextError::NotUtf8 { line });
        };
        let text = match line {
            1 => text.strip_prefix('\u{feff}').unwrap_or(text),
            _ => text,
        };
        Some(Ok((line, text.to_string())))
    }
}

/// A text data file read from a source a line at a time ([`Lines`], at
/// most [`MAX_LINE`] bytes a line), never held whole; items are the
/// records, comments skipped, as [`records`] reads them. A line that does
/// not read is its error, and reading goes on; a line too long, not UTF-8
/// or not read from the source ends the reading.
pub struct TextReader<R> {
    lines: Lines<R>,
}

impl<R: BufRead> TextReader<R> {
    /// The records of `src`.
    pub fn new(src: R) -> TextReader<R> {
        TextReader {
            lines: Lines::new(src, MAX_LINE),
        }
    }

    /// Bytes read from the source so far (for a progress bar).
    pub fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }
}

impl<R: BufRead> Iterator for TextReader<R> {
    type Item = Result<TextRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (n, text) = match self.lines.next()? {
                Ok(l) => l,
                Err(e) => return Some(Err(e)),
            };
            if let Some(r) = parse_line(n, &text) {
                return Some(r.map_err(ReadError::from));
            }
        }
    }
}

/// The text data file at `path` as a [`TextReader`], and its size in
/// bytes: a regular file of at most [`files::MAX_DATA`] bytes
/// ([`files::open`]), read a line at a time.
///
/// Errors: the file cannot be opened, is not a regular file or is too
/// large (naming it); a line that does not read is the reader's item.
pub fn open_file(path: &Path) -> Result<(TextReader<impl BufRead>, u64), files::FileError> {
    let (file, len) = files::open(path, "data file", files::MAX_DATA)?;
    let src = BufReader::new(file.take(files::MAX_DATA));
    Ok((TextReader::new(src), len))
}

/// The record of line number `line`, whose text is `text`; `None` for a
/// comment or an empty line. The one reading of a line, for [`records`]
/// and [`TextReader`].
fn parse_line(line: usize, text: &str) -> Option<Result<TextRecord, TextError>> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    Some(record(line, text))
}

fn record(line: usize, text: &str) -> Result<TextRecord, TextError> {
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
        fen: fen.to_string(),
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
            (r[0].line, r[0].fen.as_str(), r[0].result, r[0].score),
            (3, "A b - 0 1", Some(1.0), Some(-35.0))
        );
        assert_eq!(
            (r[1].line, r[1].fen.as_str(), r[1].result, r[1].score),
            (4, "B w", Some(0.5), None)
        );
        assert_eq!((r[2].fen.as_str(), r[2].result), ("C w", None));
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
            (r[0].fen.as_str(), r[0].result, r[0].score),
            ("F w", Some(0.5), Some(-12.0))
        );
        assert_eq!(
            (r[1].fen.as_str(), r[1].result, r[1].score),
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

    /// A source that gives at most 1, 2, ... `max` bytes a read, in turn:
    /// lines, UTF-8 characters and line endings fall across reads.
    struct Trickle<'a> {
        bytes: &'a [u8],
        max: usize,
        next: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.next = self.next % self.max + 1;
            let n = self.next.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// What a reader gives, its errors as [`TextError`]s (an I/O error
    /// fails the test).
    fn streamed(src: impl BufRead) -> Vec<Result<TextRecord, TextError>> {
        TextReader::new(src)
            .map(|r| {
                r.map_err(|e| match e {
                    ReadError::Line(e) => e,
                    ReadError::Io { .. } => panic!("{e}"),
                })
            })
            .collect()
    }

    #[test]
    fn a_source_read_a_few_bytes_at_a_time_gives_what_the_whole_text_gives() {
        let text = "\u{feff}A b - 0 1;1;-35\r\n# é comment ü\n\n  \t\nB w ; 0.5 \n\
                    xyz;2\nC w\r\na;1;2;3\n#\nD w;0;nan\nE b;0.25;12.5";
        let want: Vec<_> = records(text).collect();
        assert_eq!(want.len(), 7);
        assert_eq!(want[0].as_ref().unwrap().fen, "A b - 0 1");
        assert_eq!(
            want[2],
            Err(TextError::Result {
                line: 6,
                text: "2".into()
            })
        );
        for max in (1..=17).chain([4096]) {
            let src = Trickle {
                bytes: text.as_bytes(),
                max,
                next: 0,
            };
            // A small buffer, so that a line needs many refills.
            let got = streamed(BufReader::with_capacity(8, src));
            assert_eq!(got, want, "{max} bytes a read");
        }
        // And the whole-text reader stops at the first bad line.
        assert_eq!(
            read(text).unwrap_err(),
            TextError::Result {
                line: 6,
                text: "2".into()
            }
        );
    }

    #[test]
    fn a_line_over_the_limit_is_an_error_naming_it_and_is_not_read() {
        // A gigabyte with no line end after a good line.
        let src = b"a;1\n".chain(std::io::repeat(b'x').take(1 << 30));
        let mut r = TextReader::new(BufReader::new(src));
        assert_eq!(r.next().unwrap().unwrap().fen, "a");
        let e = r.next().unwrap().unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::Line(TextError::TooLong {
                    line: 2,
                    limit: MAX_LINE
                })
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "line 2: longer than 64 KB (the limit for a line)"
        );
        assert!(r.next().is_none());
        // It read no more than the limit, and a BufReader's buffer, past
        // the good line.
        assert!(
            r.bytes_read() <= 4 + MAX_LINE as u64 + 1,
            "{}",
            r.bytes_read()
        );
        // A line at the limit reads.
        let mut at = vec![b'y'; MAX_LINE];
        at.extend(b"\nz;0");
        let got = streamed(&at[..]);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].as_ref().unwrap().fen.len(), MAX_LINE);
        assert_eq!(got[1].as_ref().unwrap().fen, "z");
    }

    #[test]
    fn bytes_that_are_not_utf8_and_a_failing_source_name_their_line() {
        let got = streamed(&b"a;1\n# ok\nb\xff;1\nc;1\n"[..]);
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], Err(TextError::NotUtf8 { line: 3 }));
        assert_eq!(
            got[1].as_ref().unwrap_err().to_string(),
            "line 3: not UTF-8 text"
        );
        // A BOM is dropped on the first line only.
        let got = streamed(&b"\xef\xbb\xbfa;1\n\xef\xbb\xbfb;1\n"[..]);
        assert_eq!(got[0].as_ref().unwrap().fen, "a");
        assert_eq!(got[1].as_ref().unwrap().fen, "\u{feff}b");

        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let mut r = TextReader::new(BufReader::new(b"a;1\n".chain(Failing)));
        assert!(r.next().unwrap().is_ok());
        let e = r.next().unwrap().unwrap_err();
        assert!(matches!(e, ReadError::Io { line: 2, .. }), "{e}");
        assert!(r.next().is_none());
    }
}
