//! `kamil play` (being written).

use anyhow::{Result, bail};

/// Arguments of `kamil play`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Not yet available.
pub fn run(_args: Args) -> Result<()> {
    bail!("`kamil play` is not available yet")
}
