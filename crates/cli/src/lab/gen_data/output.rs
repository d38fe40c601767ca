//! Where `kamil gen-data`'s self-play goes: text lines `FEN;RESULT;SCORE`
//! (a new file each run) or kamil's binary data file
//! ([`kamil_train::data`]), which a run stopped part way resumes.

use anyhow::{Context, Result, bail};
use kamil_engine::files::{self, FileError};
use kamil_rules::Variant;
use kamil_train::data::{self, Header};
use std::io::{Seek, Write};
use std::ops::Range;
use std::path::Path;

/// The output's format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Lines `FEN;RESULT;SCORE`; the file is written anew.
    Text,
    /// kamil's binary data file; a run resumes after the file's last
    /// complete game.
    Binary,
    /// The binary data file with each game stored compactly (its start,
    /// moves and the kept positions' scores, a few bytes a position);
    /// read as the binary one is, and resumed the same way.
    Compact,
}

/// Opens the binary file at `path` for the games `games` of a run made
/// with `settings`: a new file gets its header; a file that already holds
/// the first games of the range (a run stopped part way) is cut after its
/// last complete game. Returns the file, ready to append, and the games
/// still to play.
///
/// The file is read a game at a time ([`data::Reader`]), never whole. A
/// game cut short at the end is dropped and said on standard error; a
/// damaged chunk (its checksum differs) is an error, never cut away.
///
/// Errors: a file that cannot be read or written, one of another variant,
/// made with other settings, damaged, holding other games than the
/// range's first, or more games than the range.
pub fn open_binary(
    v: &Variant,
    path: &Path,
    settings: &str,
    games: Range<u32>,
) -> Result<(std::fs::File, Range<u32>)> {
    let shown = path.display();
    // What the file holds, read a game at a time (never whole): its
    // header, each complete game's index and record count, where the
    // complete chunks end, and its length.
    let mut header = None;
    let mut held: Vec<(u32, usize)> = Vec::new();
    let (mut complete, mut length) = (0, 0);
    match files::open(path, "data file", files::MAX_DATA) {
        Ok((file, len)) => {
            let cannot = || {
                format!(
                    "`{shown}` is there but cannot be resumed (remove it or write to another file)"
                )
            };
            let mut r = data::Reader::new(v, std::io::Read::take(file, files::MAX_DATA))
                .tolerating_a_cut_end();
            for g in r.by_ref() {
                let g = g.with_context(cannot)?;
                held.push((g.index, g.records.len()));
            }
            header = r.header().cloned();
            complete = r.complete();
            length = usize::try_from(len).unwrap_or(usize::MAX);
        }
        Err(FileError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening `{shown}`"))?;
    let Some(header) = header else {
        file.set_len(0)?;
        file.write_all(&Header::new(v, settings).to_bytes())
            .with_context(|| format!("writing `{shown}`"))?;
        return Ok((file, games));
    };
    if header.settings != settings {
        bail!(
            "`{shown}` holds games made with other settings (`{}`, not `{settings}`): \
             remove it or write to another file",
            header.settings
        );
    }
    for (k, &(index, _)) in held.iter().enumerate() {
        if u64::from(index) != u64::from(games.start) + k as u64 {
            bail!(
                "`{shown}` holds game {} where this run's game {} would be: \
                 remove it or write to another file",
                index,
                u64::from(games.start) + k as u64
            );
        }
    }
    let wanted = u64::from(games.end - games.start);
    if held.len() as u64 > wanted {
        bail!(
            "`{shown}` already holds {} games, more than this run's {wanted}: \
             ask for at least {} games, remove it or write to another file",
            held.len(),
            held.len()
        );
    }
    if complete < length {
        eprintln!(
            "`{shown}`: the last {} bytes (from byte {}) are a game cut short when \
             the run that wrote it stopped: dropped, the game is played again",
            length - complete,
            complete
        );
    }
    file.set_len(complete as u64)?;
    file.seek(std::io::SeekFrom::End(0))?;
    let done = held.len() as u32;
    if done > 0 {
        let positions: usize = held.iter().map(|&(_, n)| n).sum();
        eprintln!(
            "resuming `{shown}`: {done} games ({positions} positions) already there, \
             from game {}",
            games.start + done
        );
    }
    Ok((file, games.start + done..games.end))
}
