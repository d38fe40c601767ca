//! Loading what a session plays with: a variant (built-in name or file,
//! with options), the weights file beside a variant file, a network file,
//! a position's FEN or SFEN. Every front end (the protocols, the server,
//! the terminal commands, WebAssembly) loads through these, so one name
//! means one game everywhere.

use crate::input;
use anyhow::{Context, Result};
use kamil_engine::eval::weights::{Params, Weights};
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::nnue::Nnue;
use kamil_rules::excerpt;
use kamil_rules::{Position, Variant, sfen};
use std::path::Path;
use std::sync::Arc;

/// Loads a variant by built-in name or file path with `KEY=VALUE` options.
pub fn load_variant(name: &str, options: &[String]) -> Result<Arc<Variant>> {
    let opts: Vec<(String, String)> = options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
            None => (o.trim().to_string(), "true".to_string()),
        })
        .collect();
    let v = if is_path(name) {
        let text = input::read_file(Path::new(name), "variant file", input::MAX_FILE)?;
        Variant::from_toml(name, &text, &opts)
    } else {
        Variant::builtin(name, &opts)
    };
    // The loader names the variant and options as given: cut long ones.
    let echoed =
        std::iter::once(name).chain(opts.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]));
    let v = v.map_err(|e| anyhow::anyhow!(input::cut_echoes(&e.to_string(), echoed)))?;
    Ok(Arc::new(v))
}

/// Does `name` (as `load_variant` takes it) name a file rather than a
/// built-in variant?
pub fn is_path(name: &str) -> bool {
    name.ends_with(".toml") || name.contains('/') || name.contains('\\')
}

/// The path of the weights file beside a variant file: `path/foo.toml` ->
/// `path/foo.eval.toml`.
pub fn weights_path(variant_file: &str) -> std::path::PathBuf {
    let stem = variant_file.strip_suffix(".toml").unwrap_or(variant_file);
    std::path::PathBuf::from(format!("{stem}.eval.toml"))
}

/// The evaluation weights for a variant loaded by [`load_variant`] from
/// `name`: for a variant file `path/foo.toml`, `path/foo.eval.toml` if it
/// exists; `None` for a built-in variant (the engine has its weights) or a
/// file without one (the defaults).
///
/// Errors: the weights file cannot be read, is not a valid weights file,
/// or names a piece `variant` lacks (the message names the file).
pub fn load_weights(name: &str, variant: &Variant) -> Result<Option<Weights>> {
    if !is_path(name) {
        return Ok(None);
    }
    let path = weights_path(name);
    if !path.exists() {
        return Ok(None);
    }
    let text = input::read_file(&path, "weights file", input::MAX_FILE)?;
    let shown = path.display();
    let w = Weights::from_toml(&text).with_context(|| format!("weights file `{shown}`"))?;
    Params::resolve(variant, &w).with_context(|| format!("weights file `{shown}`"))?;
    Ok(Some(w))
}

/// What `--eval` names instead of a network file: the hand-written
/// evaluation (a file of that name is `./hand`).
pub const HAND: &str = "hand";

/// The network file `path` (`--eval FILE`) as the evaluation of
/// `variant`.
///
/// Errors: the file cannot be read, or is no network for `variant` (another
/// game's, damaged, truncated): the message names the file and what
/// differs.
pub fn load_network(variant: &Arc<Variant>, path: &Path) -> Result<EvalChoice> {
    Ok(EvalChoice::Net(Box::new(load_net(variant, path)?)))
}

/// The network file `path` (`--eval FILE`) of `variant`, as a network.
///
/// Errors: as [`load_network`].
pub fn load_net(variant: &Arc<Variant>, path: &Path) -> Result<Nnue> {
    Nnue::load(variant, path).context("--eval: the network file cannot be used")
}

/// Reads a position given as a FEN or, in the shogi games, an SFEN
/// ([`sfen::read_position`]).
///
/// Errors: the text does not read; the message says `bad FEN` or `bad SFEN`
/// and quotes it.
pub fn read_position(v: Arc<Variant>, text: &str) -> Result<Position> {
    let what = if sfen::looks_like_sfen(&v, text) {
        "SFEN"
    } else {
        "FEN"
    };
    sfen::read_position(v, text).with_context(|| format!("bad {what} `{}`", excerpt(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_file_takes_the_weights_file_beside_it() {
        let dir = std::env::temp_dir().join(format!("kamil-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mine.toml");
        std::fs::write(&file, include_str!("../../../variants/courier.toml")).unwrap();
        let name = file.to_str().unwrap();
        assert_eq!(weights_path(name), dir.join("mine.eval.toml"));
        let v = load_variant(name, &[]).unwrap();
        assert_eq!(load_weights(name, &v).unwrap(), None);
        std::fs::write(dir.join("mine.eval.toml"), "tempo = { mg = 30, eg = 30 }\n").unwrap();
        let w = load_weights(name, &v).unwrap().unwrap();
        assert_eq!(w.tempo.map(|p| p.mg), Some(30));
        std::fs::write(
            dir.join("mine.eval.toml"),
            "[piece_value]\nlion = { mg = 1, eg = 1 }\n",
        )
        .unwrap();
        let e = load_weights(name, &v).unwrap_err();
        assert!(format!("{e:#}").contains("piece_value.lion"), "{e:#}");
        assert_eq!(load_weights("courier", &v).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
