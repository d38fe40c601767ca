//! `kamil bench` (being written).

use anyhow::{Result, bail};

/// Arguments of `kamil bench`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Not yet available.
pub fn run(_args: Args) -> Result<()> {
    bail!("`kamil bench` is not available yet")
}
