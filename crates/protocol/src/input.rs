//! What the command line reads from the user, each read bounded in size so
//! that no file or input (`/dev/zero`, a huge log given by mistake) makes
//! kamil read for ever or fill the memory: files are read whole up to a
//! limit, standard input a line at a time up to a limit.

use anyhow::{Context, Result, bail};
use kamil_engine::files;
use kamil_rules::excerpt;
use std::io::{BufRead, Read};
use std::path::Path;

/// Largest variant file, FEN or PGN file (the largest built-in variant
/// file is under 40 KB): [`files::MAX_TEXT`].
pub const MAX_FILE: u64 = files::MAX_TEXT;

/// Largest opening book (`kamil match --openings`): a FEN per line, so
/// about 100 bytes per opening.
pub const MAX_BOOK: u64 = 64 << 20;

/// Longest line of standard input (a move or a command is a few bytes).
pub const MAX_LINE: u64 = 64 << 10;

/// `n` bytes as the limits are written: `4 MB`, `64 KB`.
pub fn size(n: u64) -> String {
    files::size(n)
}

/// The text of the regular file at `path`, `what` it is (`variant file`,
/// `openings`), at most `limit` bytes ([`files::read`]).
///
/// Errors, naming the file: it cannot be read, it is not a regular file
/// (a FIFO, a device, a folder), it is larger than `limit` (found before
/// reading it), or it is not UTF-8 text. A leading byte-order mark is
/// dropped.
pub fn read_file(path: &Path, what: &'static str, limit: u64) -> Result<String> {
    let bytes = files::read(path, what, limit)?;
    String::from_utf8(bytes).map(without_bom).map_err(|e| {
        anyhow::anyhow!(
            "{what} `{}` is not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// All of standard input as text, `what` it is (`game`), at most `limit`
/// bytes.
///
/// Errors: standard input cannot be read, holds more than `limit` bytes,
/// or is not UTF-8 text.
pub fn read_stdin(what: &str, limit: u64) -> Result<String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading the {what} from standard input"))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "the {what} on standard input is larger than {} (the limit for a {what})",
            size(limit)
        );
    }
    String::from_utf8(bytes).map(without_bom).map_err(|e| {
        anyhow::anyhow!(
            "the {what} on standard input is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// `text` without a leading byte-order mark (Windows editors write one;
/// TOML, PGN and FEN readers would take it for text).
fn without_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// One line of `input` without its line ending (bytes that are not UTF-8
/// replaced), `None` at the end of input.
///
/// Errors: the input cannot be read, or a line is longer than
/// [`MAX_LINE`] (the rest is not read).
pub fn read_line(input: &mut dyn BufRead) -> Result<Option<String>> {
    let mut buf = Vec::new();
    let n = input
        .take(MAX_LINE + 1)
        .read_until(b'\n', &mut buf)
        .context("reading standard input")?;
    if n == 0 {
        return Ok(None);
    }
    if buf.len() as u64 > MAX_LINE {
        bail!(
            "standard input: a line longer than {} (the limit for a line)",
            size(MAX_LINE)
        );
    }
    Ok(Some(String::from_utf8_lossy(&buf).trim().to_string()))
}

/// One line of a conversation's input: a protocol on standard input
/// (`kamil uci`, `kamil xboard`) or an engine's output (`kamil match`).
#[derive(Debug, PartialEq, Eq)]
pub enum ProtocolLine {
    /// The line, trimmed (bytes that are not UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`]: read to its end without being kept,
    /// so the conversation can go on.
    TooLong,
}

/// One line of `input`, `None` at the end of input. Memory stays bounded
/// however long the line: an over-long one is skipped as
/// [`ProtocolLine::TooLong`].
///
/// Errors: the input cannot be read.
pub fn read_protocol_line(input: &mut dyn BufRead) -> std::io::Result<Option<ProtocolLine>> {
    let mut buf = Vec::new();
    let n = input.take(MAX_LINE + 1).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.len() as u64 <= MAX_LINE || buf.ends_with(b"\n") {
        let line = String::from_utf8_lossy(&buf).trim().to_string();
        return Ok(Some(ProtocolLine::Line(line)));
    }
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                break;
            }
            None => {
                let all = chunk.len();
                input.consume(all);
            }
        }
    }
    Ok(Some(ProtocolLine::TooLong))
}

/// `message` with each copy of the user's `texts` in it cut to its
/// [`excerpt`]: for messages of code that echoes what it was given whole
/// (variant loading names the variant and options as given).
pub fn cut_echoes<'a>(message: &str, texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = message.to_string();
    for t in texts {
        let short = excerpt(t);
        if short.len() < t.len() {
            out = out.replace(t, &short);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let long = vec![b'x'; MAX_LINE as usize + 10];
        let mut input: &[u8] = &long;
        let e = read_line(&mut input).unwrap_err().to_string();
        assert!(e.contains("64 KB"), "{e}");
        let mut input: &[u8] = b"e2e4\r\n\nquit";
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("e2e4"));
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some(""));
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("quit"));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn protocol_lines_skip_what_is_too_long() {
        use ProtocolLine::{Line, TooLong};
        let mut text = b"isready\n".to_vec();
        text.extend(vec![b'x'; 3 * MAX_LINE as usize]);
        text.extend(b"\ngo depth 1\n");
        text.extend(vec![b'y'; MAX_LINE as usize]);
        text.extend(b"\n");
        text.extend(vec![b'z'; MAX_LINE as usize + 1]);
        // A small buffer: the skip must cross many refills.
        let mut input = std::io::BufReader::with_capacity(100, &text[..]);
        let line = |s: &str| Some(Line(s.to_string()));
        assert_eq!(read_protocol_line(&mut input).unwrap(), line("isready"));
        assert_eq!(read_protocol_line(&mut input).unwrap(), Some(TooLong));
        assert_eq!(read_protocol_line(&mut input).unwrap(), line("go depth 1"));
        // Exactly the limit, then its newline: kept.
        let kept = read_protocol_line(&mut input).unwrap();
        assert!(matches!(kept, Some(Line(l)) if l.len() == MAX_LINE as usize));
        // Over the limit at the end of input, without a newline.
        assert_eq!(read_protocol_line(&mut input).unwrap(), Some(TooLong));
        assert_eq!(read_protocol_line(&mut input).unwrap(), None);
    }

    #[test]
    fn echoes_of_long_texts_are_cut() {
        let long = "q".repeat(500);
        let m = format!("{long}: no such variant; try `{long}` again, not `x`");
        let cut = cut_echoes(&m, [long.as_str(), "x"]);
        assert!(cut.len() < 250, "{cut}");
        assert!(cut.ends_with("(500 characters)` again, not `x`"), "{cut}");
    }

    #[test]
    fn sizes_are_written_as_the_limits_are() {
        assert_eq!(size(MAX_FILE), "4 MB");
        assert_eq!(size(MAX_LINE), "64 KB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
