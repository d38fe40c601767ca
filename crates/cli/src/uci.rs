//! `kamil uci` (being written).

use anyhow::{Result, bail};

/// Arguments of `kamil uci`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Not yet available.
pub fn run(_args: Args) -> Result<()> {
    bail!("`kamil uci` is not available yet")
}
