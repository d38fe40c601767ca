//! kamil's training data file (`kamil gen-data --format binary`), read by
//! `kamil train-net`. Little-endian throughout; a file is a sequence of
//! chunks, each a header or a game:
//!
//! | chunk | fields |
//! |---|---|
//! | header | 8 bytes `KAMILDAT`; version u32 ([`VERSION`]); variant name (u16 length, UTF-8); piece types u16, files u8, ranks u8; pieces u64 (FNV-1a of the piece keys, each ended by 0); options in force (u16 length, UTF-8 `KEY=VALUE` joined by `;`); settings (u16 length, UTF-8: how the games were made); checksum u64 (FNV-1a of the header's bytes before it, from the magic) |
//! | game | byte `G`; game index u32 (of its run, from 0); records u32; then the records; checksum u64 (FNV-1a of the chunk's bytes before it, from the `G`) |
//! | record | FEN (u16 length, UTF-8: the position, side to move, hands and all the variant's FEN carries); score i16 (the search's, centipawns, side to move's view, mates at ±4000); result f32 (what the game was worth to the first player, 0 to 1); ply u16 (plies from the start position) |
//! | compact game | byte `C`: a game as its start and moves, a few bytes a position (version 3; `compact.rs`) |
//!
//! A file starts with a header; a header may come again before any game,
//! so shards (each a file with its own header) merge by concatenation
//! (`cat a.bin b.bin > all.bin`). Every header is checked against the
//! variant read for, so data of another variant, another board or other
//! pieces is an error naming the field and both values. A game is written
//! whole, so a run that was stopped leaves at most a partial last game:
//! [`scan`] finds where the complete games end, to resume after them.
//!
//! Each chunk ends with its checksum (since version 2), so a damaged chunk is
//! an error naming the game and the byte where its chunk starts, never
//! data read as other data; version 1 files, without checksums, are
//! refused by name.
//!
//! The position is the FEN's text: robust across every game (shogi hands,
//! Tamerlane's citadels, counters); a record costs the FEN's length plus
//! 10 bytes, from about 54 bytes a position in Sho Shogi to 107 in Chu
//! Shogi and Tamerlane (self-play at 5,000 nodes a move).

mod compact;

pub use compact::{COMPACT_TAG, MoveGame, Ply, canonical};

use kamil_engine::files;
use kamil_engine::fingerprint::{fnv1a, pieces_hash};
use kamil_rules::Variant;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The header's first bytes.
pub const MAGIC: &[u8; 8] = b"KAMILDAT";
/// The format version this build writes; it reads version 2 too (the
/// same without compact chunks).
pub const VERSION: u32 = 3;
/// The first byte of a game chunk.
pub const GAME_TAG: u8 = b'G';

/// The header of a data file: what the positions are of, and how they
/// were made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant's name.
    pub variant: String,
    /// Number of piece types.
    pub types: u16,
    /// Board files.
    pub files: u8,
    /// Board ranks.
    pub ranks: u8,
    /// FNV-1a of the piece keys, in order, each ended by 0.
    pub pieces: u64,
    /// The variant's options in force, `KEY=VALUE` joined by `;`.
    pub options: String,
    /// How the games were made (free text, for provenance and resuming).
    pub settings: String,
}

impl Header {
    /// The header for data of variant `v` made with `settings`.
    pub fn new(v: &Variant, settings: &str) -> Header {
        Header {
            variant: v.name.clone(),
            types: v.pieces.len() as u16,
            files: v.geometry.files(),
            ranks: v.geometry.ranks(),
            pieces: pieces_hash(v),
            options: options_text(v),
            settings: settings.to_string(),
        }
    }

    /// The header's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.settings.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        put_text(&mut out, &self.variant);
        out.extend_from_slice(&self.types.to_le_bytes());
        out.push(self.files);
        out.push(self.ranks);
        out.extend_from_slice(&self.pieces.to_le_bytes());
        put_text(&mut out, &self.options);
        put_text(&mut out, &self.settings);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Checks that this header's data are of `v` (name, board, pieces,
    /// options). Errors: [`DataError::Mismatch`] naming the field.
    fn check(&self, v: &Variant) -> Result<(), DataError> {
        let want = Header::new(v, "");
        let fields = [
            ("variant", self.variant.clone(), want.variant),
            (
                "piece types",
                self.types.to_string(),
                want.types.to_string(),
            ),
            ("files", self.files.to_string(), want.files.to_string()),
            ("ranks", self.ranks.to_string(), want.ranks.to_string()),
            (
                "pieces (hash of the keys)",
                format!("{:016x}", self.pieces),
                format!("{:016x}", want.pieces),
            ),
            ("options", self.options.clone(), want.options),
        ];
        for (field, file, variant) in fields {
            if file != variant {
                return Err(DataError::Mismatch {
                    field,
                    file,
                    variant,
                });
            }
        }
        Ok(())
    }
}

/// One position of a game, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The position, in the variant's FEN.
    pub fen: String,
    /// The search's score, centipawns, side to move's view.
    pub score: i16,
    /// What the game was worth to the first player, 0 to 1.
    pub result: f32,
    /// Plies played from the start position.
    pub ply: u16,
}

/// A game's kept positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The game's index in its run (from 0).
    pub index: u32,
    /// Its kept positions, in the order played.
    pub records: Vec<Record>,
}

impl Game {
    /// The game chunk's bytes. Errors: a FEN over 65535 bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, DataError> {
        let mut out = Vec::with_capacity(9 + self.records.len() * 100);
        out.push(GAME_TAG);
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&(self.records.len() as u32).to_le_bytes());
        for r in &self.records {
            if r.fen.len() > usize::from(u16::MAX) {
                return Err(DataError::TooLong(r.fen.len()));
            }
            put_text(&mut out, &r.fen);
            out.extend_from_slice(&r.score.to_le_bytes());
            out.extend_from_slice(&r.result.to_le_bytes());
            out.extend_from_slice(&r.ply.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }
}

/// What is wrong with a data file's bytes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DataError {
    /// The bytes do not start with a header.
    #[error("not a kamil data file (no KAMILDAT header)")]
    Magic,
    /// A version this build cannot read (version 1 had no checksums).
    #[error(
        "format version {0}, this build reads versions 2 and {VERSION} (version 1 had no checksums: make the data again)"
    )]
    Version(u32),
    /// A chunk whose checksum differs from its bytes'.
    #[error(
        "{chunk} at byte {offset} is damaged (checksum {found:016x}, the file says {expected:016x})"
    )]
    Damaged {
        /// `the header`, or `game N` (its index as stored).
        chunk: String,
        /// The byte offset in the file where the chunk starts.
        offset: usize,
        /// The file's checksum.
        expected: u64,
        /// The bytes'.
        found: u64,
    },
    /// A header field that does not fit the variant.
    #[error("made for {field} `{file}`, the variant has `{variant}`")]
    Mismatch {
        /// The field (`variant`, `files`, `options`, ...).
        field: &'static str,
        /// The file's value.
        file: String,
        /// The variant's value.
        variant: String,
    },
    /// The source could not be read at byte `offset`.
    #[error("reading at byte {offset}: {message}")]
    Read {
        /// Bytes read before the failure.
        offset: usize,
        /// The operating system's message.
        message: String,
    },
    /// A chunk or record that does not read.
    #[error("record {record} (game {game}, byte {offset}): {what}")]
    Record {
        /// The record's number in the file, from 1 (the one after the last
        /// read for a header or game chunk).
        record: u64,
        /// The game's index, as stored (or the last game's).
        game: u32,
        /// The byte offset in the file where the chunk or record starts.
        offset: usize,
        /// What is wrong.
        what: String,
    },
    /// A FEN too long for its u16 length.
    #[error("a FEN of {0} bytes (at most 65535)")]
    TooLong(usize),
    /// A game to write compactly that does not replay (its start FEN does
    /// not read, or a move is not legal where it is played).
    #[error("game {game}: {what}")]
    Unplayable {
        /// The game's index.
        game: u32,
        /// What does not replay.
        what: String,
    },
}

/// A data file that cannot be read: the path and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be read: missing, not a regular file, larger than
    /// [`files::MAX_DATA`] (the error names the file).
    #[error(transparent)]
    Io(#[from] files::FileError),
    /// Its bytes do not read (the source says why).
    #[error("data file `{}`", .0.display())]
    Data(PathBuf, #[source] DataError),
}

/// Do `bytes` start like a binary data file (rather than text lines)?
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a whole data file's `bytes` for variant `v`: every game of
/// every concatenated part, in order.
///
/// Errors: see [`DataError`]: no header, another version or variant, a
/// chunk or record that does not read or is cut short (naming the record).
pub fn read(v: &Variant, bytes: &[u8]) -> Result<Vec<Game>, DataError> {
    let s = parse(v, bytes, false)?;
    Ok(s.games)
}

/// Reads the data file at `path` for variant `v` ([`read`]), chunk by
/// chunk ([`Reader`]): the file is never held whole.
///
/// Errors: [`FileError`], naming the file.
pub fn read_file(v: &Variant, path: &Path) -> Result<Vec<Game>, FileError> {
    open_file(v, path)?
        .collect::<Result<Vec<Game>, DataError>>()
        .map_err(|e| FileError::Data(path.to_path_buf(), e))
}

/// The data file at `path` for variant `v` as a [`Reader`] of its games:
/// a regular file of at most [`files::MAX_DATA`] bytes, read a chunk at a
/// time.
///
/// Errors: the file cannot be opened, is not a regular file or is too
/// large ([`FileError::Io`]); a game that does not read is the reader's
/// item.
pub fn open_file<'v>(v: &'v Variant, path: &Path) -> Result<Reader<'v, impl Read>, FileError> {
    let (file, _) = files::open(path, "data file", files::MAX_DATA)?;
    Ok(Reader::new(v, file.take(files::MAX_DATA)))
}

/// What [`scan`] found in a file that may end inside a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Scan {
    /// The first header.
    pub header: Header,
    /// The complete games, in order.
    pub games: Vec<Game>,
    /// Bytes up to the end of the last complete chunk: what to keep.
    pub complete: usize,
}

/// Reads `bytes` for variant `v` like [`read`], but a last chunk cut
/// short (a run that was stopped while writing) ends the scan instead of
/// being an error. `None` when `bytes` are too short to hold a header.
///
/// Errors: as [`read`], except a cut-short last chunk.
pub fn scan(v: &Variant, bytes: &[u8]) -> Result<Option<Scan>, DataError> {
    if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
        return Ok(None);
    }
    match parse(v, bytes, true) {
        Ok(s) if s.header.is_none() => Ok(None),
        Ok(s) => Ok(Some(Scan {
            header: s.header.expect("checked"),
            games: s.games,
            complete: s.complete,
        })),
        Err(e) => Err(e),
    }
}

/// The result of [`parse`].
struct Parsed {
    header: Option<Header>,
    games: Vec<Game>,
    complete: usize,
}

/// Reads the chunks of `bytes`; with `tolerant`, a chunk cut short at the
/// end stops the reading where the complete chunks end.
fn parse(v: &Variant, bytes: &[u8], tolerant: bool) -> Result<Parsed, DataError> {
    let mut r = Reader::new(v, bytes);
    r.tolerant = tolerant;
    let mut games = Vec::new();
    while let Some(g) = r.next_game()? {
        games.push(g);
    }
    Ok(Parsed {
        complete: r.complete(),
        header: r.header,
        games,
    })
}

/// Bytes a [`Reader`] asks its source for at first; it asks for twice as
/// many each time a chunk needs more.
const READ_SIZE: usize = 64 << 10;

/// A data file read from `src` a chunk at a time: memory holds the chunk
/// being read (one game) and what one read brought, never the whole file.
/// Each header is checked against the variant as it comes; the items are
/// the games, in order. An error ends the reading.
pub struct Reader<'v, R> {
    v: &'v Variant,
    src: R,
    /// Bytes read and not yet consumed from `pos` on.
    buf: Vec<u8>,
    pos: usize,
    /// The file offset of `buf[pos]`.
    base: usize,
    eof: bool,
    want: usize,
    header: Option<Header>,
    at: Where,
    /// A chunk cut short at the end ends the reading without an error.
    tolerant: bool,
    done: bool,
    /// The variant shared, for replaying compact chunks (made at the
    /// first one).
    shared: Option<Arc<Variant>>,
}

impl<'v, R: Read> Reader<'v, R> {
    /// A reader of `src`'s chunks for variant `v`.
    pub fn new(v: &'v Variant, src: R) -> Reader<'v, R> {
        Reader {
            v,
            src,
            buf: Vec::new(),
            pos: 0,
            base: 0,
            eof: false,
            want: READ_SIZE,
            header: None,
            at: Where {
                record: 0,
                game: 0,
                offset: 0,
            },
            tolerant: false,
            done: false,
            shared: None,
        }
    }

    /// The reader that resuming wants: a last chunk cut short (a run
    /// stopped while writing it) ends the reading instead of being an
    /// error, and [`Reader::complete`] says where the complete chunks end.
    pub fn tolerating_a_cut_end(mut self) -> Reader<'v, R> {
        self.tolerant = true;
        self
    }

    /// The first header read, once one is.
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// Bytes of the complete chunks read so far.
    pub fn complete(&self) -> usize {
        self.base
    }

    /// Reads more of the source (what is consumed is dropped first);
    /// false at its end.
    fn fill(&mut self) -> Result<bool, DataError> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        // Up to `want` bytes, in reads of at most READ_SIZE: the buffer
        // grows with what the source has, never with what a damaged
        // length asks for.
        let old = self.buf.len();
        let mut piece = [0u8; READ_SIZE];
        while self.buf.len() - old < self.want {
            let room = (self.want - (self.buf.len() - old)).min(READ_SIZE);
            match self.src.read(&mut piece[..room]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => self.buf.extend_from_slice(&piece[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(DataError::Read {
                        offset: self.base + (self.buf.len() - self.pos),
                        message: e.to_string(),
                    });
                }
            }
        }
        Ok(self.buf.len() > old)
    }

    /// The next game, `None` after the last.
    ///
    /// Errors: see [`DataError`], as [`read`] gives them.
    pub fn next_game(&mut self) -> Result<Option<Game>, DataError> {
        loop {
            if self.pos == self.buf.len() {
                if self.eof || !self.fill()? {
                    return Ok(None);
                }
                continue;
            }
            let bytes = &self.buf[self.pos..];
            let start = self.base;
            let tag = bytes[0];
            let game_chunk = (tag == GAME_TAG || tag == COMPACT_TAG) && self.header.is_some();
            let saved = self.at;
            self.at.offset = 0;
            let mut r = Cursor { bytes, at: 0 };
            let chunk = if !game_chunk {
                read_header(&mut r).map(Chunk::Header)
            } else if tag == COMPACT_TAG {
                let v = self.shared.get_or_insert_with(|| Arc::new(self.v.clone()));
                compact::read(&mut r, &mut self.at, v).map(Chunk::Game)
            } else {
                read_game(&mut r, &mut self.at).map(Chunk::Game)
            };
            let used = r.at;
            let err = |what: String, at: &Where| DataError::Record {
                record: at.record,
                game: at.game,
                offset: start + at.offset,
                what,
            };
            match chunk {
                Ok(Chunk::Header(h)) => {
                    h.check(self.v)?;
                    self.header.get_or_insert(h);
                }
                Ok(Chunk::Game(g)) => {
                    self.consume(used);
                    return Ok(Some(g));
                }
                Err(Bad::Cut(_)) if !self.eof => {
                    // The chunk goes on past what was read: read on, more
                    // at a time, and read the chunk again.
                    self.at = saved;
                    self.want = self.want.saturating_mul(2);
                    self.fill()?;
                    continue;
                }
                Err(Bad::Cut(_)) if self.tolerant => return Ok(None),
                Err(Bad::Cut(what)) => {
                    return Err(err(format!("the file ends inside {what}"), &self.at));
                }
                Err(Bad::Header(DataError::Magic)) if start > 0 => {
                    let what = format!("byte {start} starts neither a header nor a game");
                    let at = Where {
                        offset: 0,
                        ..self.at
                    };
                    return Err(err(what, &at));
                }
                Err(Bad::Header(e)) => return Err(e),
                Err(Bad::Field(what)) => return Err(err(what, &self.at)),
                Err(Bad::Sum { expected, found }) => {
                    let chunk = if game_chunk {
                        format!("game {}", self.at.game)
                    } else {
                        "the header".to_string()
                    };
                    return Err(DataError::Damaged {
                        chunk,
                        offset: start,
                        expected,
                        found,
                    });
                }
            }
            self.consume(used);
        }
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
        self.base += n;
        self.want = READ_SIZE;
    }
}

impl<R: Read> Iterator for Reader<'_, R> {
    type Item = Result<Game, DataError>;

    fn next(&mut self) -> Option<Result<Game, DataError>> {
        if self.done {
            return None;
        }
        let item = self.next_game().transpose();
        self.done = !matches!(item, Some(Ok(_)));
        item
    }
}

/// Where a reading is: the record's number (from 1), its game's index,
/// the byte offset of the record (or chunk) being read.
#[derive(Clone, Copy)]
struct Where {
    record: u64,
    game: u32,
    offset: usize,
}

enum Chunk {
    Header(Header),
    Game(Game),
}

/// Why a chunk did not read.
enum Bad {
    /// The bytes end inside the field named.
    Cut(&'static str),
    /// A header that is not one, or of another version.
    Header(DataError),
    /// A field out of range.
    Field(String),
    /// The chunk's checksum differs from its bytes'.
    Sum {
        /// The file's.
        expected: u64,
        /// The bytes'.
        found: u64,
    },
}

fn read_header(r: &mut Cursor) -> Result<Header, Bad> {
    let start = r.at;
    let magic = r.take(MAGIC.len(), "the header");
    match magic {
        Ok(m) if m == &MAGIC[..] => {}
        Err(_) if MAGIC.starts_with(&r.bytes[r.at..]) => return Err(Bad::Cut("the header")),
        _ => return Err(Bad::Header(DataError::Magic)),
    }
    let version = u32::from_le_bytes(r.array("the version")?);
    if version != VERSION && version != 2 {
        return Err(Bad::Header(DataError::Version(version)));
    }
    let variant = r.text("the variant name")?;
    let types = u16::from_le_bytes(r.array("the piece types")?);
    let [files] = r.array("the files")?;
    let [ranks] = r.array("the ranks")?;
    let pieces = u64::from_le_bytes(r.array("the pieces")?);
    let options = r.text("the options")?;
    let settings = r.text("the settings")?;
    r.checksum(start)?;
    Ok(Header {
        variant,
        types,
        files,
        ranks,
        pieces,
        options,
        settings,
    })
}

/// Reads a game chunk, keeping `at` on the record being read.
fn read_game(r: &mut Cursor, at: &mut Where) -> Result<Game, Bad> {
    let start = r.at;
    r.at += 1;
    let index = u32::from_le_bytes(r.array("a game's index")?);
    at.game = index;
    let n = u32::from_le_bytes(r.array("a game's record count")?);
    let mut records = Vec::with_capacity((n as usize).min(4096));
    for _ in 0..n {
        at.record += 1;
        at.offset = r.at;
        let fen = r.text("a record's FEN")?;
        if fen.is_empty() {
            return Err(Bad::Field("an empty FEN".into()));
        }
        let score = i16::from_le_bytes(r.array("a record's score")?);
        let result = f32::from_le_bytes(r.array("a record's result")?);
        if !(0.0..=1.0).contains(&result) {
            return Err(Bad::Field(format!("result {result} is not from 0 to 1")));
        }
        let ply = u16::from_le_bytes(r.array("a record's ply")?);
        records.push(Record {
            fen,
            score,
            result,
            ply,
        });
    }
    r.checksum(start)?;
    Ok(Game { index, records })
}

/// A cursor over a file's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], Bad> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(Bad::Cut(what));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], Bad> {
        let s = self.take(N, what)?;
        Ok(s.try_into().expect("took N bytes"))
    }

    /// The chunk's checksum (u64), checked against its bytes from `start`.
    fn checksum(&mut self, start: usize) -> Result<(), Bad> {
        let found = fnv1a(&self.bytes[start..self.at]);
        let expected = u64::from_le_bytes(self.array("the chunk's checksum")?);
        if found == expected {
            Ok(())
        } else {
            Err(Bad::Sum { expected, found })
        }
    }

    /// A u16 length, then that many bytes of UTF-8.
    fn text(&mut self, what: &'static str) -> Result<String, Bad> {
        let n = u16::from_le_bytes(self.array(what)?) as usize;
        let bytes = self.take(n, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| Bad::Field(format!("{what} is not UTF-8")))
    }
}

fn put_text(out: &mut Vec<u8>, s: &str) {
    let n = s.len().min(usize::from(u16::MAX));
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&s.as_bytes()[..n]);
}

/// The options in force, `KEY=VALUE` joined by `;`.
fn options_text(v: &Variant) -> String {
    let parts: Vec<String> = v.chosen.iter().map(|(k, x)| format!("{k}={x}")).collect();
    parts.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_rules::Position;
    use std::sync::Arc;

    fn variant(name: &str) -> Arc<Variant> {
        Arc::new(Variant::builtin(name, &[]).unwrap())
    }

    fn game(v: &Arc<Variant>, index: u32, n: usize) -> Game {
        let fen = Position::start(v.clone()).fen();
        Game {
            index,
            records: (0..n)
                .map(|k| Record {
                    fen: fen.clone(),
                    score: k as i16 * 7 - 20,
                    result: 0.5,
                    ply: k as u16 + 8,
                })
                .collect(),
        }
    }

    fn file(v: &Arc<Variant>, games: &[Game]) -> Vec<u8> {
        let mut out = Header::new(v, "test").to_bytes();
        for g in games {
            out.extend(g.to_bytes().unwrap());
        }
        out
    }

    /// A version 2 file (no compact chunks) still reads; version 1 is
    /// refused by name.
    #[test]
    fn version_2_files_still_read() {
        let v = variant("courier");
        let games = [game(&v, 0, 2)];
        let mut bytes = file(&v, &games);
        let h = Header::new(&v, "test").to_bytes().len();
        for (version, reads) in [(2u32, true), (1, false)] {
            bytes[8..12].copy_from_slice(&version.to_le_bytes());
            let sum = fnv1a(&bytes[..h - 8]);
            bytes[h - 8..h].copy_from_slice(&sum.to_le_bytes());
            match read(&v, &bytes) {
                Ok(g) => assert!(reads && g == games),
                Err(e) => assert!(!reads && e == DataError::Version(1), "{e}"),
            }
        }
    }

    #[test]
    fn games_read_back_and_concatenated_files_read_as_one() {
        for name in ["courier", "sho-shogi", "tamerlane"] {
            let v = variant(name);
            let a = [game(&v, 0, 3), game(&v, 1, 0), game(&v, 2, 2)];
            let b = [game(&v, 3, 4)];
            let bytes = file(&v, &a);
            assert!(is_binary(&bytes));
            assert_eq!(read(&v, &bytes).unwrap(), a);
            let mut both = bytes.clone();
            both.extend(file(&v, &b));
            let all: Vec<Game> = a.iter().chain(&b).cloned().collect();
            assert_eq!(read(&v, &both).unwrap(), all);
            // An empty file and a header alone hold no games.
            assert_eq!(read(&v, &file(&v, &[])).unwrap(), []);
            assert_eq!(read(&v, &[]).unwrap(), []);
        }
    }

    #[test]
    fn another_variant_or_damage_is_an_error_naming_what_differs() {
        let (c, s) = (variant("courier"), variant("sho-shogi"));
        let bytes = file(&c, &[game(&c, 0, 2)]);
        let e = read(&s, &bytes).unwrap_err();
        assert!(e.to_string().contains("courier"), "{e}");
        assert!(matches!(
            e,
            DataError::Mismatch {
                field: "variant",
                ..
            }
        ));
        // A cut-short file names the record; scan stops before it.
        let cut = &bytes[..bytes.len() - 3];
        let e = read(&c, cut).unwrap_err();
        assert!(e.to_string().contains("record 2 (game 0"), "{e}");
        let scanned = scan(&c, cut).unwrap().unwrap();
        assert!(scanned.games.is_empty());
        assert_eq!(scanned.complete, Header::new(&c, "test").to_bytes().len());
        // A result out of range names its record (the second).
        let mut bad = bytes.clone();
        let n = bad.len();
        bad[n - 14..n - 10].copy_from_slice(&2.0f32.to_le_bytes());
        let e = read(&c, &bad).unwrap_err();
        assert!(e.to_string().contains("record 2 (game 0, byte"), "{e}");
        assert!(e.to_string().contains("result 2 is not"), "{e}");
        assert!(scan(&c, &bad).is_err());
        // Text is not a data file; another version is named.
        assert_eq!(read(&c, b"abc;1\n"), Err(DataError::Magic));
        let mut v1 = bytes.clone();
        v1[8] = 1;
        assert_eq!(read(&c, &v1), Err(DataError::Version(1)));
        assert!(
            DataError::Version(1).to_string().contains("no checksums"),
            "{}",
            DataError::Version(1)
        );
        // A stray byte between games.
        let mut stray = bytes.clone();
        stray.push(b'x');
        assert!(read(&c, &stray).is_err());
    }

    /// Issue 78: a damaged byte anywhere in a file is an error (6 of 38
    /// damaged files trained without one before the checksums); a damaged
    /// game names its index and the byte where its chunk starts, and
    /// resuming ([`scan`]) refuses it rather than cut it away.
    #[test]
    fn every_damaged_byte_is_an_error_naming_the_chunk() {
        let v = variant("courier");
        let games = [game(&v, 0, 2), game(&v, 1, 3), game(&v, 2, 1)];
        let bytes = file(&v, &games);
        for at in 0..bytes.len() {
            for bit in [0x01u8, 0x10, 0x80] {
                let mut b = bytes.clone();
                b[at] ^= bit;
                assert!(read(&v, &b).is_err(), "byte {at}, bit {bit:#x} read");
            }
        }
        let header = Header::new(&v, "test").to_bytes().len();
        let second = header + games[0].to_bytes().unwrap().len();
        // A score of the second game's first record: still a number.
        let mut b = bytes.clone();
        let score = second + 9 + 2 + games[1].records[0].fen.len();
        b[score] ^= 0x01;
        let e = read(&v, &b).unwrap_err();
        assert!(
            matches!(&e, DataError::Damaged { chunk, offset, .. } if chunk == "game 1" && *offset == second),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with(&format!("game 1 at byte {second} is damaged")),
            "{e}"
        );
        assert!(scan(&v, &b).is_err(), "resuming refuses a damaged game");
        // The header's settings.
        let mut b = bytes.clone();
        b[header - 9] ^= 0x01;
        let e = read(&v, &b).unwrap_err();
        assert!(
            e.to_string().starts_with("the header at byte 0 is damaged"),
            "{e}"
        );
    }

    /// A source that gives at most `step` bytes a read: the reader must
    /// stitch chunks across reads.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Issue 78: the reader streams. Read a few bytes at a time, a file of
    /// two concatenated shards gives the games the whole-file reading
    /// gives; a damaged file gives the same error, naming the same game
    /// and byte; a file cut inside a game is an error, or, tolerated, ends
    /// where the complete games end.
    #[test]
    fn the_streaming_reader_reads_as_the_whole_file_does() {
        let v = variant("courier");
        let games = [game(&v, 0, 2), game(&v, 1, 3), game(&v, 2, 1)];
        let mut bytes = file(&v, &games[..2]);
        bytes.extend(file(&v, &games[2..]));
        let whole = read(&v, &bytes).unwrap();
        assert_eq!(whole.len(), 3);
        for step in [1, 2, 3, 7, 64, 1 << 20] {
            let streamed: Vec<Game> = Reader::new(
                &v,
                Trickle {
                    bytes: &bytes,
                    step,
                },
            )
            .collect::<Result<_, _>>()
            .unwrap();
            assert_eq!(streamed, whole, "{step} bytes a read");
        }
        for at in [0, 9, 40, bytes.len() / 2, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            let want = read(&v, &b).unwrap_err().to_string();
            for step in [1, 5, 4096] {
                let got = Reader::new(&v, Trickle { bytes: &b, step })
                    .collect::<Result<Vec<Game>, _>>()
                    .unwrap_err()
                    .to_string();
                assert_eq!(got, want, "byte {at}, {step} bytes a read");
            }
        }
        let cut = &bytes[..bytes.len() - 3];
        let mut r = Reader::new(
            &v,
            Trickle {
                bytes: cut,
                step: 3,
            },
        );
        let e = r
            .by_ref()
            .find_map(Result::err)
            .expect("a cut game is an error");
        assert!(e.to_string().contains("the file ends inside"), "{e}");
        let mut r = Reader::new(
            &v,
            Trickle {
                bytes: cut,
                step: 3,
            },
        );
        r.tolerant = true;
        assert_eq!(r.by_ref().count(), 2);
        // Up to the second shard's header, which is complete.
        assert_eq!(
            r.complete(),
            bytes.len() - games[2].to_bytes().unwrap().len()
        );
    }
}
