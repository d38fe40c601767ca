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
//! | hand-written evaluation below, pieces on the board (version 2; 0 in version 1: never) | u16 |
//! | output buckets B, pieces per bucket (version 3; 1 and 1 before: one output) | u16, u16 |
//! | residual: the net corrects the hand-written evaluation (version 4; 0 before: a score of its own) | u8, 0 or 1 |
//! | payload length in bytes | u64 |
//! | checksum of the payload | u64: FNV-1a |
//! | payload | feature weights (inputs x H i16, input-major), feature biases (H i16), output weights (B x 2H i16, bucket-major), output biases (B i32) |
//!
//! A net is written in the oldest version that holds it: version 4 only
//! for a residual net, so a net of a score of its own is written as
//! before, byte for byte.
//!
//! Reading checks every field against the variant and the payload against
//! its length and checksum, so a net for another game or a damaged file is
//! an error that says what differs, never a wrong evaluation.

use super::features::{Features, Turn};
use super::network::{Buckets, MAX_BUCKETS, MAX_HIDDEN, Network};
use crate::fingerprint::{fnv1a, pieces_hash};
use kamil_rules::Variant;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"KAMILNET";
/// The newest format version, which this build writes for a residual
/// net (version 3 for the others); it reads this one and the older ones
/// (version 1 has no `hand_below` field, versions 1 and 2 no output
/// buckets, versions 1 to 3 no residual flag).
pub const VERSION: u32 = 4;
/// The oldest format version this build reads.
pub const OLDEST: u32 = 1;

/// What is wrong with a network file's bytes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    #[error("not a kamil network file (no KAMILNET header)")]
    Magic,
    /// A version this build cannot read.
    #[error("format version {0}, this build reads versions {OLDEST} to {VERSION}")]
    Version(u32),
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
    /// The payload's checksum differs (the file is damaged).
    #[error("checksum {found:016x}, the header says {expected:016x} (the file is damaged)")]
    Checksum {
        /// The header's.
        expected: u64,
        /// The payload's.
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
    let mut out = Vec::with_capacity(payload.len() + 64);
    out.extend_from_slice(MAGIC);
    let version: u32 = if net.residual { VERSION } else { 3 };
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
    if net.residual {
        out.push(1);
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
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
fn read_name(r: &mut Reader<'_>) -> Result<(String, u32), NetError> {
    if r.take(MAGIC.len(), "the header").ok() != Some(&MAGIC[..]) {
        return Err(NetError::Magic);
    }
    let version = u32::from_le_bytes(r.array("the version")?);
    if !(OLDEST..=VERSION).contains(&version) {
        return Err(NetError::Version(version));
    }
    let len = u16::from_le_bytes(r.array("the variant name")?) as usize;
    let name = String::from_utf8_lossy(r.take(len, "the variant name")?).into_owned();
    Ok((name, version))
}

/// Reads a network file's `bytes` for variant `v` (whose layout is
/// `features`).
///
/// Errors: see [`NetError`]: not a network file, another version, made for
/// another variant or layout, truncated, damaged or with trailing bytes.
pub fn read(v: &Variant, features: &Features, bytes: &[u8]) -> Result<Network, NetError> {
    let mut r = Reader { bytes, at: 0 };
    let (name, version) = read_name(&mut r)?;
    expect("variant", name.as_str(), v.name.as_str())?;
    let types = u16::from_le_bytes(r.array("the piece types")?);
    expect("piece types", usize::from(types), features.types())?;
    let [files] = r.array("the files")?;
    expect("files", files, v.geometry.files())?;
    let [ranks] = r.array("the ranks")?;
    expect("ranks", ranks, v.geometry.ranks())?;
    let [turn] = r.array("the turn")?;
    let Some(turn) = Turn::from_code(turn) else {
        return Err(NetError::Bad {
            field: "turn",
            value: turn.to_string(),
        });
    };
    expect(
        "turn",
        format!("{turn:?}"),
        format!("{:?}", features.turn()),
    )?;
    let pieces = u64::from_le_bytes(r.array("the pieces")?);
    expect(
        "pieces (hash of the keys)",
        format!("{pieces:016x}"),
        format!("{:016x}", pieces_hash(v)),
    )?;
    let hidden = u16::from_le_bytes(r.array("the hidden width")?) as usize;
    if hidden == 0 || hidden > MAX_HIDDEN {
        return Err(NetError::Bad {
            field: "hidden width",
            value: hidden.to_string(),
        });
    }
    let scale = i32::from_le_bytes(r.array("the scale")?);
    if !(1..=100_000).contains(&scale) {
        return Err(NetError::Bad {
            field: "scale",
            value: scale.to_string(),
        });
    }
    let hand_below = if version >= 2 {
        u16::from_le_bytes(r.array("the hand-written evaluation's threshold")?)
    } else {
        0
    };
    let buckets = if version >= 3 {
        let count = u16::from_le_bytes(r.array("the output buckets")?);
        let size = u16::from_le_bytes(r.array("the pieces per bucket")?);
        if !(1..=MAX_BUCKETS).contains(&count) {
            return Err(NetError::Bad {
                field: "output buckets",
                value: count.to_string(),
            });
        }
        if size == 0 {
            return Err(NetError::Bad {
                field: "pieces per bucket",
                value: "0".into(),
            });
        }
        Buckets::new(count, size)
    } else {
        Buckets::ONE
    };
    let residual = if version >= 4 {
        match r.array("the residual flag")? {
            [0] => false,
            [1] => true,
            [x] => {
                return Err(NetError::Bad {
                    field: "residual flag",
                    value: x.to_string(),
                });
            }
        }
    } else {
        false
    };
    let payload_len_field = u64::from_le_bytes(r.array("the payload length")?);
    let checksum = u64::from_le_bytes(r.array("the checksum")?);
    let inputs = features.inputs();
    let expected = payload_len(inputs, hidden, buckets);
    expect("payload length", payload_len_field, expected as u64)?;
    let payload = r.take(expected, "the weights")?;
    let found = fnv1a(payload);
    if found != checksum {
        return Err(NetError::Checksum {
            expected: checksum,
            found,
        });
    }
    if r.at != bytes.len() {
        return Err(NetError::Trailing(bytes.len() - r.at));
    }
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
    Ok(net)
}
