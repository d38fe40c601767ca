//! The positions games start from: the variant's start, a file of FENs, or
//! positions reached by random legal moves from a seed.

use crate::input;
use anyhow::{Context, Result, bail};
use kamil_rules::excerpt;
use kamil_rules::notation::move_text;
use kamil_rules::outcome::outcome;
use kamil_rules::splitmix::SplitMix64;
use kamil_rules::{Position, Variant};
use std::path::Path;
use std::sync::Arc;

/// A position games start from, and how it is reached from the variant's
/// start when that is known.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The start of the games, read back from its FEN (a clean history).
    pub start: Position,
    /// Our move texts from the variant's start to `start` (empty for the
    /// start itself); `None` for a position from a file. Engines with
    /// `setup=startpos` get these moves instead of the FEN.
    pub line: Option<Vec<String>>,
}

impl Opening {
    /// The variant's own start position.
    pub fn variant_start(variant: &Arc<Variant>) -> Opening {
        Opening {
            start: Position::start(variant.clone()),
            line: Some(Vec::new()),
        }
    }
}

/// Reads one FEN per line; blank lines and lines starting with `#` are skipped.
///
/// Errors: an unreadable file or one larger than [`input::MAX_BOOK`], a FEN the variant cannot read (with its line),
/// a position whose game is already over, or no FEN at all.
pub fn from_file(v: &Arc<Variant>, path: &Path) -> Result<Vec<Opening>> {
    let text = input::read_file(path, "opening book", input::MAX_BOOK)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fen = line.trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        let mut pos = Position::from_fen(v.clone(), fen)
            .with_context(|| format!("{}:{}: bad FEN `{}`", path.display(), i + 1, excerpt(fen)))?;
        if let Some(o) = outcome(&mut pos) {
            bail!(
                "{}:{}: the game is already over in `{}` ({o})",
                path.display(),
                i + 1,
                excerpt(fen)
            );
        }
        out.push(Opening {
            start: pos,
            line: None,
        });
    }
    if out.is_empty() {
        bail!("openings `{}`: no FEN in the file", path.display());
    }
    Ok(out)
}

/// `count` openings, each reached from `start` by `plies` random legal
/// moves in which the game did not end (kept as the opening's line), read
/// back from their FEN so each game starts with a clean history. Positions
/// repeat only if the variant leaves no other choice.
///
/// Errors: no line of `plies` moves without the game ending was found.
pub fn random(start: &Position, count: usize, plies: u32, seed: u64) -> Result<Vec<Opening>> {
    let mut rng = SplitMix64::new(seed);
    let mut out: Vec<Opening> = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        if tries > 100 * count + 1000 {
            bail!("no line of {plies} random moves keeps the game going from the start position");
        }
        let mut pos = start.clone();
        let mut line = Vec::new();
        let mut alive = true;
        for _ in 0..plies {
            moves.clear();
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                alive = false;
                break;
            }
            let m = moves[rng.below(moves.len())];
            line.push(move_text(pos.variant(), m));
            pos.make(m);
            if outcome(&mut pos).is_some() {
                alive = false;
                break;
            }
        }
        if !alive {
            continue;
        }
        let fresh = Position::from_fen(pos.variant().clone(), &pos.fen())
            .context("reading back a generated opening")?;
        // Avoid duplicates while there is room to.
        if out.iter().any(|o| o.start.hash() == fresh.hash()) && tries < 20 * count + 100 {
            continue;
        }
        out.push(Opening {
            start: fresh,
            line: Some(line),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(name: &str) -> Arc<Variant> {
        Arc::new(Variant::builtin(name, &[]).unwrap())
    }

    #[test]
    fn random_openings_are_reproducible_and_distinct() {
        let start = Position::start(variant("courier"));
        let a = random(&start, 6, 4, 7).unwrap();
        let b = random(&start, 6, 4, 7).unwrap();
        let c = random(&start, 6, 4, 8).unwrap();
        let fens = |v: &[Opening]| v.iter().map(|o| o.start.fen()).collect::<Vec<_>>();
        assert_eq!(fens(&a), fens(&b));
        assert_ne!(fens(&a), fens(&c));
        let mut uniq = fens(&a);
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), 6);
        for o in &a {
            assert_eq!(o.start.depth(), 0);
            assert_ne!(o.start.fen(), start.fen());
            // The line leads from the start to the opening.
            let line = o.line.as_ref().unwrap();
            assert_eq!(line.len(), 4);
            let mut p = start.clone();
            for m in line {
                let mv = kamil_rules::notation::parse_move(&mut p, m).unwrap();
                p.make(mv);
            }
            assert_eq!(p.fen(), o.start.fen());
        }
    }

    #[test]
    fn a_file_of_fens() {
        let v = variant("courier");
        let dir = std::env::temp_dir().join(format!("kamil-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("o.fen");
        let start = Position::start(v.clone()).fen();
        std::fs::write(&f, format!("# comment\n\n{start}\n")).unwrap();
        assert_eq!(from_file(&v, &f).unwrap().len(), 1);
        std::fs::write(&f, "# comment\nnot a fen\n").unwrap();
        let e = format!("{:#}", from_file(&v, &f).unwrap_err());
        assert!(e.contains("o.fen:2"), "{e}");
        std::fs::write(&f, "# nothing\n").unwrap();
        assert!(from_file(&v, &f).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
