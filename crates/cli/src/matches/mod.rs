//! `kamil match` (being written).

use anyhow::{Result, bail};

/// Arguments of `kamil match`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Not yet available.
pub fn run(_args: Args) -> Result<()> {
    bail!("`kamil match` is not available yet")
}
