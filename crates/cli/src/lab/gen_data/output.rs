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
}

/// Opens the binary file at `path` for the games `games` of a run made
/// with `settings`: a new file gets its header; a file that already holds
/// the first games of the range (a run stopped part way) is cut after its
/// last complete game. Returns the file, ready to append, and the games
/// still to play.
///
/// A game cut short at the end is dropped and said on standard error;
/// a damaged chunk (its checksum differs) is an error, never cut away.
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
    let old = match files::read(path, "data file", files::MAX_DATA) {
        Ok(bytes) => bytes,
        Err(FileError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Vec::new()
        }
        Err(e) => return Err(e.into()),
    };
    let scan = data::scan(v, &old).with_context(|| {
        format!("`{shown}` is there but cannot be resumed (remove it or write to another file)")
    })?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening `{shown}`"))?;
    let Some(scan) = scan else {
        file.set_len(0)?;
        file.write_all(&Header::new(v, settings).to_bytes())
            .with_context(|| format!("writing `{shown}`"))?;
        return Ok((file, games));
    };
    if scan.header.settings != settings {
        bail!(
            "`{shown}` holds games made with other settings (`{}`, not `{settings}`): \
             remove it or write to another file",
            scan.header.settings
        );
    }
    for (k, g) in scan.games.iter().enumerate() {
        if u64::from(g.index) != u64::from(games.start) + k as u64 {
            bail!(
                "`{shown}` holds game {} where this run's game {} would be: \
                 remove it or write to another file",
                g.index,
                u64::from(games.start) + k as u64
            );
        }
    }
    let wanted = u64::from(games.end - games.start);
    if scan.games.len() as u64 > wanted {
        bail!(
            "`{shown}` already holds {} games, more than this run's {wanted}: \
             ask for at least {} games, remove it or write to another file",
            scan.games.len(),
            scan.games.len()
        );
    }
    if scan.complete < old.len() {
        eprintln!(
            "`{shown}`: the last {} bytes (from byte {}) are a game cut short when \
             the run that wrote it stopped: dropped, the game is played again",
            old.len() - scan.complete,
            scan.complete
        );
    }
    file.set_len(scan.complete as u64)?;
    file.seek(std::io::SeekFrom::End(0))?;
    let done = scan.games.len() as u32;
    if done > 0 {
        let positions: usize = scan.games.iter().map(|g| g.records.len()).sum();
        eprintln!(
            "resuming `{shown}`: {done} games ({positions} positions) already there, \
             from game {}",
            games.start + done
        );
    }
    Ok((file, games.start + done..games.end))
}
