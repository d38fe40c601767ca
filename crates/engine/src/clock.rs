//! The monotonic clock a search reads its time from: std's on every
//! target that has one; on WebAssembly (a browser, a Web Worker, Node) the
//! host's `performance.now()` through the `web-time` crate, since std's
//! `Instant::now` panics on `wasm32-unknown-unknown`.

#[cfg(not(target_family = "wasm"))]
pub use std::time::Instant;
#[cfg(target_family = "wasm")]
pub use web_time::Instant;
