//! Writes the index of the evaluation files the engine embeds from the
//! workspace's `variants/` folder: every `NAME.eval.toml` (the hand-written
//! evaluation's weights) and every `NAME.nnue` (a network). Each table is
//! a slice expression in `$OUT_DIR`, `include!`d by `src/builtin.rs`.
//!
//! A weights file or network beside no variant file `NAME.toml` (a
//! misspelt name) stops the build, naming it. The variants themselves are
//! the rules crate's (its own build script).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../../variants");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    let dir = dir.canonicalize().unwrap_or(dir);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    if let Err(e) = write_index(&dir, &out) {
        panic!("variants/: {e}");
    }
}

/// The stems of the folder's `NAME.toml` (variants), `NAME.eval.toml`
/// (weights) and `NAME.nnue` (networks).
fn read_folder(dir: &Path) -> Result<[BTreeSet<String>; 3], String> {
    let [mut variants, mut weights, mut nets] = [(); 3].map(|()| BTreeSet::new());
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read the folder: {e}"))?;
    for entry in entries {
        let name = entry
            .map_err(|e| e.to_string())?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some(stem) = name.strip_suffix(".eval.toml") {
            weights.insert(stem.to_string());
        } else if let Some(stem) = name.strip_suffix(".nnue") {
            nets.insert(stem.to_string());
        } else if let Some(stem) = name.strip_suffix(".toml") {
            variants.insert(stem.to_string());
        }
    }
    Ok([variants, weights, nets])
}

fn write_index(dir: &Path, out: &Path) -> Result<(), String> {
    let [variants, weights, nets] = read_folder(dir)?;
    for (kind, stems) in [("eval.toml", &weights), ("nnue", &nets)] {
        if let Some(n) = stems.difference(&variants).next() {
            return Err(format!("{n}.{kind} is beside no variant file {n}.toml"));
        }
    }
    let path = |file: String| format!("{:?}", dir.join(file).to_string_lossy());
    let weights: String = weights
        .iter()
        .map(|n| {
            format!(
                "({n:?}, include_str!({})),\n",
                path(format!("{n}.eval.toml"))
            )
        })
        .collect();
    let nets: String = nets
        .iter()
        .map(|n| {
            format!(
                "({n:?}, include_bytes!({}).as_slice()),\n",
                path(format!("{n}.nnue"))
            )
        })
        .collect();
    for (file, rows) in [("weights.rs", weights), ("nets.rs", nets)] {
        fs::write(out.join(file), format!("&[\n{rows}]\n"))
            .map_err(|e| format!("cannot write {file}: {e}"))?;
    }
    Ok(())
}
