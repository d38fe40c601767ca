//! kamil's network file (`variants/NAME.nnue`), little-endian throughout:
//!
//! | field | type |
//! |---|---|
//! | magic | 8 bytes `KAMILNET` |
//! | version | u32, [`VERSION`] |
//! | variant name | u16 length, then UTF-8 |
//! | piece types, files, ranks | u16, u8, u8 |
//! | turn of the second player's view | u8 ([`Turn::code`]) |
//! | pieces | u64: FNV-1a of the piece keys, in order, each ended by 0 |
//! | hidden width H | u16 |
//! | scale (centipawns per unit of output) | i32 |
//! | hand-written evaluation below, pieces on the board (0: never) | u16 |
//! | output buckets B, pieces per bucket | u16, u16 |
//! | residual: the net corrects the hand-written evaluation | u8, 0 or 1 |
//! | king buckets K (version 6 only), then K > 1: each compact square's bucket | u8, then files x ranks u8 ([`super::features::KingMap`]) |
//! | payload length in bytes | u64 |
//! | payload | feature weights (inputs x H i16, input-major), feature biases (H i16), output weights (B x 2H i16, bucket-major), output biases (B i32) |
//! | checksum | u64: FNV-1a of every byte after the magic and before the checksum, header and payload |
//!
//! Version 5 moved the checksum to the end, over the header too: in
//! versions 1 to 4 it covered the payload alone, so a flipped bit of the
//! scale, the threshold or the buckets read as another net (one bit of
//! Courier's scale made 25 into 1049). Those versions are refused by name
//! ([`NetError::Old`]); the built-in nets were written again in version
//! 5, their weights unchanged.
//!
//! Version 6 (issue 77) adds the king buckets; a net without them is
//! written in version 5, byte for byte as before, and both are read.
//!
//! Reading checks the length and the checksum first, then every field
//! against the variant, so a net for another game or a damaged file is
//! an error that says what differs, never a wrong evaluation.

use super::features::{Features, KingMap, Turn};
use super::network::{Buckets, MAX_BUCKETS, MAX_HIDDEN, Network};
use crate::fingerprint::{fnv1a, pieces_hash};
use kamil_rules::Variant;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"KAMILNET";
/// The newest format version this build reads and writes (a net without
/// king buckets is written in version 5, which it reads too).
pub const VERSION: u32 = 6;
/// The version of a net without king buckets.
const PLAIN: u32 = 5;
/// The last version whose checksum left the header out (refused:
/// [`NetError::Old`]).
pub const LAST_UNCHECKED: u32 = 4;

/// What is wrong with a network file's bytes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    #[error("not a kamil network file (no KAMILNET header)")]
    Magic,
    /// A version this build cannot read.
    #[error("format version {0}, this build reads versions {PLAIN} and {VERSION}")]
    Version(u32),
    /// A version before the checksum covered the header (1 to
    /// [`LAST_UNCHECKED`]): a damaged header would not be seen.
    #[error(
        "format version {0}, whose checksum leaves the header out; this build reads version {VERSION} (train the net again, or ask for it in version {VERSION})"
    )]
    Old(u32),
    /// The bytes end before `what`.
    #[error("the file ends inside {what} (truncated)")]
    Truncated {
        /// The field being read.
        what: &'static str,
    },
    /// A header field that does not fit the variant.
    #[error("made for {field} {net}, the variant has {variant}")]
    Mismatch {
        /// The field (`variant`, `piece types`, `files`, ...).
        field: &'static str,
        /// The file's value.
        net: String,
        /// The variant's value.
        variant: String,
    },
    /// A header field out of its range.
    #[error("bad {field}: {value}")]
    Bad {
        /// The field.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// The checksum differs (the file is damaged).
    #[error("checksum {found:016x}, the file says {expected:016x} (the file is damaged)")]
    Checksum {
        /// The file's.
        expected: u64,
        /// The bytes'.
        found: u64,
    },
    /// Made for a variant that is not built in (so the file alone does
    /// not say which game to load it for).
    #[error("made for variant {0}, which is not a built-in game")]
    NotBuiltIn(String),
    /// Bytes after the payload.
    #[error("{0} bytes after the payload")]
    Trailing(usize),
}

/// The file's bytes for `net`, a network of `v` with `features`.
pub fn write(v: &Variant, features: &Features, net: &Network) -> Vec<u8> {
    let mut payload = Vec::with_capacity(payload_len(net.inputs, net.hidden, net.buckets));
    for w in net
        .ft_weights
        .iter()
        .chain(&net.ft_bias)
        .chain(&net.out_weights)
    {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.out_bias {
        payload.extend_from_slice(&b.to_le_bytes());
    }
    let mut out = Vec::with_capacity(payload.len() + 72);
    out.extend_from_slice(MAGIC);
    let version = if features.kings().is_some() {
        VERSION
    } else {
        PLAIN
    };
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(v.name.len() as u16).to_le_bytes());
    out.extend_from_slice(v.name.as_bytes());
    out.extend_from_slice(&(features.types() as u16).to_le_bytes());
    out.push(v.geometry.files());
    out.push(v.geometry.ranks());
    out.push(features.turn().code());
    out.extend_from_slice(&pieces_hash(v).to_le_bytes());
    out.extend_from_slice(&(net.hidden as u16).to_le_bytes());
    out.extend_from_slice(&net.scale.to_le_bytes());
    out.extend_from_slice(&net.hand_below.to_le_bytes());
    out.extend_from_slice(&(net.buckets.count() as u16).to_le_bytes());
    out.extend_from_slice(&net.buckets.size().to_le_bytes());
    out.push(u8::from(net.residual));
    if let Some(k) = features.kings() {
        out.push(k.count() as u8);
        out.extend_from_slice(k.buckets());
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    let sum = fnv1a(&out[MAGIC.len()..]);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The payload's bytes of a network of these shapes.
fn payload_len(inputs: usize, hidden: usize, buckets: Buckets) -> usize {
    2 * (inputs * hidden + hidden + buckets.count() * 2 * hidden) + 4 * buckets.count()
}

/// A cursor over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], NetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(NetError::Truncated { what });
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], NetError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }
}

/// Checks that the file's `field` equals the variant's.
fn expect<T: PartialEq + std::fmt::Display>(
    field: &'static str,
    net: T,
    variant: T,
) -> Result<(), NetError> {
    if net == variant {
        Ok(())
    } else {
        Err(NetError::Mismatch {
            field,
            net: net.to_string(),
            variant: variant.to_string(),
        })
    }
}

/// The name of the variant a network file's `bytes` are for (as its
/// header says; the rest is checked by [`read`]).
///
/// Errors: not a network file, another version, or truncated.
pub fn variant_name(bytes: &[u8]) -> Result<String, NetError> {
    read_name(&mut Reader { bytes, at: 0 }).map(|(name, _)| name)
}

/// The magic, the version and the variant's name: returns the name and
/// the version.
///
/// Errors: not a network file, a version other than [`VERSION`] (an old
/// one named as [`NetError::Old`]), or truncated.
fn read_name(r: &mut Reader<'_>) -> Result<(String, u32), NetError> {
    if r.take(MAGIC.len(), "the header").ok() != Some(&MAGIC[..]) {
        return Err(NetError::Magic);
    }
    let version = u32::from_le_bytes(r.array("the version")?);
    if (1..=LAST_UNCHECKED).contains(&version) {
        return Err(NetError::Old(version));
    }
    if version != VERSION && version != PLAIN {
        return Err(NetError::Version(version));
    }
    let len = u16::from_le_bytes(r.array("the variant name")?) as usize;
    let name = String::from_utf8_lossy(r.take(len, "the variant name")?).into_owned();
    Ok((name, version))
}

/// The header's fields as stored, before they are checked.
struct Header {
    name: String,
    types: u16,
    files: u8,
    ranks: u8,
    turn: u8,
    pieces: u64,
    hidden: usize,
    scale: i32,
    hand_below: u16,
    buckets: (u16, u16),
    residual: u8,
    /// King buckets and their map (version 6).
    kings: Option<(u8, Vec<u8>)>,
    payload_len: u64,
}

/// Reads the header's fields (after the magic and the version, read by
/// [`read_name`]) without checking them.
fn read_header(r: &mut Reader<'_>, name: String, version: u32) -> Result<Header, NetError> {
    let mut h = Header {
        name,
        types: u16::from_le_bytes(r.array("the piece types")?),
        files: u8::from_le_bytes(r.array("the files")?),
        ranks: u8::from_le_bytes(r.array("the ranks")?),
        turn: u8::from_le_bytes(r.array("the turn")?),
        pieces: u64::from_le_bytes(r.array("the pieces")?),
        hidden: u16::from_le_bytes(r.array("the hidden width")?) as usize,
        scale: i32::from_le_bytes(r.array("the scale")?),
        hand_below: u16::from_le_bytes(r.array("the hand-written evaluation's threshold")?),
        buckets: (
            u16::from_le_bytes(r.array("the output buckets")?),
            u16::from_le_bytes(r.array("the pieces per bucket")?),
        ),
        residual: u8::from_le_bytes(r.array("the residual flag")?),
        kings: None,
        payload_len: 0,
    };
    if version >= 6 {
        let [count] = r.array("the king buckets")?;
        let squares = usize::from(h.files) * usize::from(h.ranks);
        let map = if count > 1 {
            r.take(squares, "the king map")?.to_vec()
        } else {
            Vec::new()
        };
        h.kings = Some((count, map));
    }
    h.payload_len = u64::from_le_bytes(r.array("the payload length")?);
    Ok(h)
}

/// Checks that `bytes` end with the checksum of every byte after the
/// magic, right after a payload of `payload_len` bytes starting at `at`.
/// Returns the payload.
///
/// Errors: the file ends before the payload and the checksum, has bytes
/// after them, or the checksum differs.
fn checked_payload(bytes: &[u8], at: usize, payload_len: u64) -> Result<&[u8], NetError> {
    let end = usize::try_from(payload_len)
        .ok()
        .and_then(|n| at.checked_add(n));
    let Some(end) = end.filter(|&e| e <= bytes.len()) else {
        return Err(NetError::Truncated {
            what: "the weights",
        });
    };
    let Some(sum) = bytes.get(end..end + 8) else {
        return Err(NetError::Truncated {
            what: "the checksum",
        });
    };
    if bytes.len() > end + 8 {
        return Err(NetError::Trailing(bytes.len() - end - 8));
    }
    let expected = u64::from_le_bytes(sum.try_into().unwrap_or_default());
    let found = fnv1a(&bytes[MAGIC.len()..end]);
    if found != expected {
        return Err(NetError::Checksum { expected, found });
    }
    Ok(&bytes[at..end])
}

/// Reads a network file's `bytes` for variant `v` (whose layout is
/// `features`, without king buckets): the length and the checksum first,
/// then each field. Returns the network and its layout (with the file's
/// king buckets, if any).
///
/// Errors: see [`NetError`]: not a network file, another version, made for
/// another variant or layout, truncated, damaged or with trailing bytes.
pub fn read(
    v: &Variant,
    features: &Features,
    bytes: &[u8],
) -> Result<(Network, Features), NetError> {
    let mut r = Reader { bytes, at: 0 };
    let (name, version) = read_name(&mut r)?;
    let h = read_header(&mut r, name, version)?;
    let payload = checked_payload(bytes, r.at, h.payload_len)?;
    expect("variant", h.name.as_str(), v.name.as_str())?;
    expect("piece types", usize::from(h.types), features.types())?;
    expect("files", h.files, v.geometry.files())?;
    expect("ranks", h.ranks, v.geometry.ranks())?;
    let bad = |field, value: &dyn std::fmt::Display| NetError::Bad {
        field,
        value: value.to_string(),
    };
    let Some(turn) = Turn::from_code(h.turn) else {
        return Err(bad("turn", &h.turn));
    };
    expect(
        "turn",
        format!("{turn:?}"),
        format!("{:?}", features.turn()),
    )?;
    expect(
        "pieces (hash of the keys)",
        format!("{:016x}", h.pieces),
        format!("{:016x}", pieces_hash(v)),
    )?;
    if h.hidden == 0 || h.hidden > MAX_HIDDEN {
        return Err(bad("hidden width", &h.hidden));
    }
    if !(1..=100_000).contains(&h.scale) {
        return Err(bad("scale", &h.scale));
    }
    let (count, size) = h.buckets;
    if !(1..=MAX_BUCKETS).contains(&count) {
        return Err(bad("output buckets", &count));
    }
    if size == 0 {
        return Err(bad("pieces per bucket", &size));
    }
    let buckets = Buckets::new(count, size);
    let residual = match h.residual {
        0 => false,
        1 => true,
        x => return Err(bad("residual flag", &x)),
    };
    let features = match &h.kings {
        Some((count, map)) if *count > 1 => {
            let files = usize::from(v.geometry.files());
            KingMap::new(*count, map.clone(), files)
                .and_then(|k| features.clone().with_kings(k))
                .map_err(|e| bad("king buckets", &e))?
        }
        Some((0, _)) => return Err(bad("king buckets", &0)),
        _ => features.clone(),
    };
    let inputs = features.inputs();
    let expected = payload_len(inputs, h.hidden, buckets);
    expect("payload length", h.payload_len, expected as u64)?;
    let (hidden, scale, hand_below) = (h.hidden, h.scale, h.hand_below);
    let mut words = payload
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut net = Network::zeroed(inputs, hidden, buckets);
    net.scale = scale;
    net.hand_below = hand_below;
    net.residual = residual;
    for w in net
        .ft_weights
        .iter_mut()
        .chain(net.ft_bias.iter_mut())
        .chain(net.out_weights.iter_mut())
    {
        *w = words.next().unwrap_or(0);
    }
    let tail = &payload[expected - 4 * buckets.count()..];
    for (b, c) in net.out_bias.iter_mut().zip(tail.chunks_exact(4)) {
        *b = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    Ok((net, features))
}
