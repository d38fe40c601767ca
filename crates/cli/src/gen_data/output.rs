//! Where `kamil gen-data`'s self-play goes: text lines `FEN;RESULT;SCORE`
//! (a new file each run) or kamil's binary data file
//! ([`kamil_engine::data`]), which a run stopped part way resumes; and
//! which games a shard plays.

use super::self_play::{Played, Sink};
use anyhow::{Context, Result, bail};
use kamil_engine::data::{self, Game, Header, Record};
use kamil_rules::Variant;
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

/// Text lines `FEN;RESULT;SCORE`.
pub struct TextSink<W: Write> {
    /// Where the lines go.
    pub out: W,
}

impl<W: Write> Sink for TextSink<W> {
    fn game(&mut self, _index: u32, game: &Played) -> Result<()> {
        for k in &game.kept {
            writeln!(self.out, "{};{};{}", k.fen, game.result, k.score)?;
        }
        Ok(())
    }
}

/// Game chunks of the binary format, each written whole and flushed, so
/// that a stopped run loses at most the game being written.
pub struct BinarySink<W: Write> {
    /// Where the chunks go.
    pub out: W,
}

impl<W: Write> Sink for BinarySink<W> {
    fn game(&mut self, index: u32, game: &Played) -> Result<()> {
        let g = binary_game(index, game);
        self.out.write_all(&g.to_bytes()?)?;
        self.out.flush()?;
        Ok(())
    }
}

/// A played game as the binary format's [`Game`].
pub fn binary_game(index: u32, game: &Played) -> Game {
    Game {
        index,
        records: game
            .kept
            .iter()
            .map(|k| Record {
                fen: k.fen.clone(),
                score: k.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                result: game.result as f32,
                ply: k.ply.min(u32::from(u16::MAX)) as u16,
            })
            .collect(),
    }
}

/// Opens the binary file at `path` for the games `games` of a run made
/// with `settings`: a new file gets its header; a file that already holds
/// the first games of the range (a run stopped part way) is cut after its
/// last complete game. Returns the file, ready to append, and the games
/// still to play.
///
/// Errors: a file that cannot be read or written, one of another variant,
/// made with other settings, or holding other games than the range's first.
pub fn open_binary(
    v: &Variant,
    path: &Path,
    settings: &str,
    games: Range<u32>,
) -> Result<(std::fs::File, Range<u32>)> {
    let shown = path.display();
    let old = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("reading `{shown}`")),
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
    file.set_len(scan.complete as u64)?;
    file.seek(std::io::SeekFrom::End(0))?;
    let done = (scan.games.len() as u64).min(u64::from(games.end - games.start)) as u32;
    if done > 0 {
        eprintln!(
            "resuming `{shown}`: {done} games already there, from game {}",
            games.start + done
        );
    }
    Ok((file, games.start + done..games.end))
}

/// The games of shard `shard` (`I/N`, I from 1 to N) of a run of `games`
/// games: the I-th of N contiguous ranges as near equal as can be, so the
/// shards' files concatenated in order hold the run's games in order.
///
/// Errors: a shard that is not `I/N` with 1 ≤ I ≤ N.
pub fn shard_range(shard: Option<&str>, games: u32) -> Result<Range<u32>> {
    let Some(text) = shard else {
        return Ok(0..games);
    };
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    let Some((i, n)) = parsed.filter(|&(i, n)| i >= 1 && i <= n) else {
        bail!("--shard `{text}`: expected I/N with 1 <= I <= N, such as 2/8");
    };
    let at = |k: u64| (u64::from(games) * k / n) as u32;
    Ok(at(i - 1)..at(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games_into_contiguous_ranges() {
        assert_eq!(shard_range(None, 10).unwrap(), 0..10);
        let parts: Vec<Range<u32>> = (1..=3)
            .map(|i| shard_range(Some(&format!("{i}/3")), 10).unwrap())
            .collect();
        assert_eq!(parts, [0..3, 3..6, 6..10]);
        assert_eq!(shard_range(Some("1/1"), 5).unwrap(), 0..5);
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            let e = shard_range(Some(bad), 10).unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
    }
}
