//! The targets of the files kamil reads as bytes (issue 78): a network
//! file and a training data file.

use kamil_engine::nnue::{Nnue, file};
use kamil_rules::Variant;
use kamil_train::data;
use std::sync::{Arc, OnceLock};

/// Bytes of a network file used: Courier's built-in net (221 KB) fits.
pub const MAX_NET_FILE: usize = 256 << 10;

/// Bytes of a data file used: a few self-play games fit.
pub const MAX_DATA_FILE: usize = 16 << 10;

/// Courier, loaded once.
fn courier() -> &'static Arc<Variant> {
    static V: OnceLock<Arc<Variant>> = OnceLock::new();
    V.get_or_init(|| Arc::new(Variant::builtin("courier", &[]).expect("courier loads")))
}

/// A network file's bytes, read for Courier: no panic, and a net that
/// reads is written back byte for byte (so every byte read is checked:
/// header and weights under the checksum, nothing after it).
pub fn net_file(data: &[u8]) {
    let data = &data[..data.len().min(MAX_NET_FILE)];
    let _ = file::variant_name(data);
    if let Ok(n) = Nnue::from_bytes(courier(), data) {
        assert_eq!(n.to_bytes(), data, "a net read back differs");
    }
}

/// A data file's bytes, read for Courier: no panic; a file that reads
/// scans to the same games, complete to its end, and a file that does not
/// read either scans to an error or stops at a last game cut short.
pub fn data_file(data: &[u8]) {
    let data = &data[..data.len().min(MAX_DATA_FILE)];
    let v = courier();
    match data::read(v, data) {
        Ok(games) => {
            if let Ok(Some(s)) = data::scan(v, data) {
                assert_eq!(s.games, games, "scan and read differ");
                assert_eq!(s.complete, data.len(), "scan stopped early");
            }
        }
        Err(_) => {
            if let Ok(Some(s)) = data::scan(v, data) {
                assert!(s.complete < data.len(), "scan read all of a bad file");
            }
        }
    }
}
