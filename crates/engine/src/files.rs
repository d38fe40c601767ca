//! The one way kamil reads a file it is given (a network, a variant file,
//! training data, a PGN): regular files only, each kind up to a size
//! limit of its own. A FIFO, a device or a folder is refused by its kind
//! before it is opened (opening a FIFO waits for a writer, reading
//! `/dev/zero` never ends), and a file larger than its limit is refused
//! before it is read; the read itself stops one byte past the limit, so a
//! file that grows while it is read is still bounded. Every front end
//! (UCI, USI, XBoard, the command line, Python) reads through here.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest network file (`EvalFile`, `--eval`, `--init`, Python's
/// `eval_file`), bytes: 64 MB, forty times the largest built-in network
/// (Dai Shogi's, 1.6 MB), room for a wider hidden layer.
pub const MAX_NET: u64 = 64 << 20;

/// Largest text file given whole (a variant file, its weights, a rules
/// file, a game), bytes: 4 MB (the largest built-in variant file is under
/// 40 KB).
pub const MAX_TEXT: u64 = 4 << 20;

/// Largest training data file (`--data`, `data-text`, `--from-pgn`,
/// `--from-data`, a resumed `gen-data` output), bytes: 4 GB, about fifty
/// million positions.
pub const MAX_DATA: u64 = 4 << 30;

/// A file that cannot be read: which kind of file (`network file`), its
/// path and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be opened or read (the reason is the source).
    #[error("reading {what} `{}`", path.display())]
    Io {
        /// The kind of file.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not a regular file: a folder, a FIFO, a device or a socket.
    #[error("{what} `{}` is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The kind of file.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// What it is instead (`a FIFO`, `a folder`, ...).
        kind: &'static str,
    },
    /// Larger than the limit for its kind.
    #[error("{what} `{}` is larger than {} (the limit for a {what})", path.display(), size(*limit))]
    TooLarge {
        /// The kind of file.
        what: &'static str,
        /// The path as given.
        path: PathBuf,
        /// The limit, bytes.
        limit: u64,
    },
}

/// `n` bytes as the limits are written: `4 MB`, `64 KB`, `8 GB`.
pub fn size(n: u64) -> String {
    for (shift, unit) in [(30, "GB"), (20, "MB"), (10, "KB")] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// What a file that is not a regular one is, in words.
fn kind_of(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() { "a folder" } else { "not a file" }
}

/// Opens the regular file at `path`, `what` it is (`network file`), for
/// reading, at most `limit` bytes long. Returns the file and its length in
/// bytes. The kind and the size are checked from the metadata before the
/// file is opened (which neither blocks nor reads), then again on the
/// opened file. The caller reads at most `limit` bytes of it
/// ([`Read::take`]).
///
/// Errors: the file cannot be opened ([`FileError::Io`]), is not a
/// regular file ([`FileError::NotRegular`]) or is larger than `limit`
/// ([`FileError::TooLarge`]).
pub fn open(path: &Path, what: &'static str, limit: u64) -> Result<(File, u64), FileError> {
    let io = |source| FileError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let check = |m: std::fs::Metadata| {
        if !m.is_file() {
            return Err(FileError::NotRegular {
                what,
                path: path.to_path_buf(),
                kind: kind_of(m.file_type()),
            });
        }
        if m.len() > limit {
            return Err(FileError::TooLarge {
                what,
                path: path.to_path_buf(),
                limit,
            });
        }
        Ok(m.len())
    };
    check(std::fs::metadata(path).map_err(io)?)?;
    let file = File::open(path).map_err(io)?;
    let len = check(file.metadata().map_err(io)?)?;
    Ok((file, len))
}

/// The bytes of the regular file at `path`, `what` it is, at most `limit`
/// of them ([`open`], then a read bounded by `limit`).
///
/// Errors: as [`open`]; a file that grew past `limit` while it was read is
/// [`FileError::TooLarge`] too.
pub fn read(path: &Path, what: &'static str, limit: u64) -> Result<Vec<u8>, FileError> {
    let (file, len) = open(path, what, limit)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| FileError::Io {
            what,
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            what,
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kamil-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_regular_file_within_its_limit_reads_whole() {
        let p = temp("ten");
        std::fs::write(&p, b"0123456789").unwrap();
        assert_eq!(read(&p, "test file", 10).unwrap(), b"0123456789");
        let e = read(&p, "test file", 9).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { limit: 9, .. }), "{e}");
        assert!(e.to_string().contains("larger than 9 bytes"), "{e}");
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn folders_devices_and_missing_files_are_refused_by_name() {
        let e = read(&std::env::temp_dir(), "network file", MAX_NET).unwrap_err();
        assert!(
            e.to_string().ends_with("is a folder, not a regular file"),
            "{e}"
        );
        #[cfg(unix)]
        {
            let e = read(Path::new("/dev/zero"), "network file", MAX_NET).unwrap_err();
            assert_eq!(
                e.to_string(),
                "network file `/dev/zero` is a device, not a regular file"
            );
        }
        let e = read(Path::new("no-such-file.nnue"), "network file", MAX_NET).unwrap_err();
        assert_eq!(e.to_string(), "reading network file `no-such-file.nnue`");
        assert!(std::error::Error::source(&e).is_some());
    }

    /// A FIFO is refused before it is opened: opening it would wait for a
    /// writer for ever. The read runs on a thread so that a hang fails the
    /// test rather than hanging it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let p = temp("fifo.nnue");
        let _ = std::fs::remove_file(&p);
        let made = std::process::Command::new("mkfifo").arg(&p).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (tx, rx) = std::sync::mpsc::channel();
        let q = p.clone();
        std::thread::spawn(move || tx.send(read(&q, "network file", MAX_NET).map(|_| ())));
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        std::fs::remove_file(&p).unwrap();
        let e = got.expect("the read of a FIFO came back").unwrap_err();
        assert!(
            e.to_string().ends_with("is a FIFO, not a regular file"),
            "{e}"
        );
    }

    #[test]
    fn limits_are_written_in_their_units() {
        assert_eq!(size(MAX_TEXT), "4 MB");
        assert_eq!(size(MAX_NET), "64 MB");
        assert_eq!(size(MAX_DATA), "4 GB");
        assert_eq!(size(64 << 10), "64 KB");
        assert_eq!(size(1000), "1000 bytes");
    }

    #[test]
    fn the_net_limit_leaves_room_over_every_built_in_net() {
        for (name, bytes) in crate::builtin::BUILTIN_NETS {
            assert!(16 * bytes.len() as u64 <= MAX_NET, "{name}");
        }
    }
}
