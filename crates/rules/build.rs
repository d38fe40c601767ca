//! Writes the index of the built-in variants from the workspace's
//! `variants/` folder, so that adding a game is adding its files there (and
//! its name to `variants/order.txt`): for every name in `order.txt`, its
//! `NAME.toml`; and its rules text, `NAME.rules.md` or else that of the
//! variant it `extends`. The evaluation's files beside them
//! (`NAME.eval.toml`, `NAME.nnue`) are the engine's to embed (its own
//! build script).
//! Each table is a slice expression in `$OUT_DIR`, `include!`d where it
//! is documented (`src/variant/builtin.rs`, `src/rules_text.rs`).
//!
//! A `.toml` not in `order.txt`, a name there without its file, or a
//! rules text beside no variant file (a misspelt name) stops the build,
//! naming it.

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

/// The files of `variants/` this crate embeds, by kind: the stems of
/// `NAME.toml` and `NAME.rules.md` (weights files, `NAME.eval.toml`, are
/// told apart from variants and left to the engine).
#[derive(Default)]
struct Folder {
    variants: BTreeSet<String>,
    rules: BTreeSet<String>,
}

fn read_folder(dir: &Path) -> Result<Folder, String> {
    let mut f = Folder::default();
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read the folder: {e}"))?;
    for entry in entries {
        let name = entry
            .map_err(|e| e.to_string())?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".eval.toml") {
            continue;
        } else if let Some(stem) = name.strip_suffix(".rules.md") {
            f.rules.insert(stem.to_string());
        } else if let Some(stem) = name.strip_suffix(".toml") {
            f.variants.insert(stem.to_string());
        }
    }
    Ok(f)
}

/// The names of `order.txt`, one a line (`#` starts a comment).
fn read_order(dir: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(dir.join("order.txt"))
        .map_err(|e| format!("cannot read order.txt: {e}"))?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// The `extends = "BASE"` of a variant file (a top-level key, so before
/// the first table header), if any.
fn extends(text: &str) -> Option<String> {
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            return None;
        }
        if let Some((key, value)) = line.split_once('=')
            && key.trim() == "extends"
        {
            let value = value.split('#').next().unwrap_or("").trim();
            return Some(value.trim_matches('"').to_string());
        }
    }
    None
}

/// The rules text of `name`: its own, else its base's (by `extends`, as far
/// as the chain goes); `None` when none has one.
fn rules_of(dir: &Path, folder: &Folder, name: &str) -> Result<Option<String>, String> {
    let mut at = name.to_string();
    // The variant loader bounds `extends` chains too; this bound only ends a circle.
    for _ in 0..16 {
        if folder.rules.contains(&at) {
            return Ok(Some(format!("{at}.rules.md")));
        }
        let text = fs::read_to_string(dir.join(format!("{at}.toml")))
            .map_err(|e| format!("cannot read {at}.toml: {e}"))?;
        match extends(&text) {
            Some(base) => at = base,
            None => break,
        }
    }
    Ok(None)
}

/// `include_str!` of a file of the folder.
fn include(dir: &Path, file: &str) -> String {
    format!("include_str!({:?})", dir.join(file).to_string_lossy())
}

fn write_index(dir: &Path, out: &Path) -> Result<(), String> {
    let folder = read_folder(dir)?;
    let order = read_order(dir)?;
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    if listed.len() != order.len() {
        return Err("order.txt names a variant twice".into());
    }
    if let Some(n) = folder.variants.difference(&listed).next() {
        return Err(format!(
            "{n}.toml is not in order.txt: add its name where `kamil variants` should list it"
        ));
    }
    if let Some(n) = listed.difference(&folder.variants).next() {
        return Err(format!("order.txt names `{n}`, but there is no {n}.toml"));
    }
    if let Some(n) = folder.rules.difference(&folder.variants).next() {
        return Err(format!("{n}.rules.md is beside no variant file {n}.toml"));
    }
    let mut variants = String::new();
    let mut rules_files = String::new();
    let mut rules_of_variant = String::new();
    for name in &order {
        let file = format!("{name}.toml");
        variants.push_str(&format!("({name:?}, {}),\n", include(dir, &file)));
        if folder.rules.contains(name) {
            let file = format!("{name}.rules.md");
            rules_files.push_str(&format!("({file:?}, {}),\n", include(dir, &file)));
        }
        // A variant without a rules text is left out: `rules_text::builtin_file`
        // says so, and the rules crate's tests name it.
        if let Some(rules) = rules_of(dir, &folder, name)? {
            rules_of_variant.push_str(&format!("({name:?}, {rules:?}),\n"));
        }
    }
    for (file, rows) in [
        ("variants.rs", variants),
        ("rules_files.rs", rules_files),
        ("rules_of_variant.rs", rules_of_variant),
    ] {
        fs::write(out.join(file), format!("&[\n{rows}]\n"))
            .map_err(|e| format!("cannot write {file}: {e}"))?;
    }
    Ok(())
}
