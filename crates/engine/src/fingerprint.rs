//! The fingerprints kamil's own files carry (the network file,
//! [`crate::nnue::file`], and the training data file, `kamil_train::data`): a
//! checksum of bytes and a hash of a variant's piece keys, so a file made
//! for another game or damaged is refused rather than misread.

use kamil_rules::Variant;

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of `v`'s piece keys, in order, each ended by a 0 byte.
pub fn pieces_hash(v: &Variant) -> u64 {
    let mut bytes = Vec::new();
    for p in &v.pieces {
        bytes.extend_from_slice(p.key.as_bytes());
        bytes.push(0);
    }
    fnv1a(&bytes)
}
