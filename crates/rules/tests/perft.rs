//! Perft against the reference figures of `tests/data/perft.txt`
//! (`variant | options | fen | depth | nodes`). Every line with at most
//! [`MAX_NODES`] nodes is run; deeper lines are left to the benchmark.
//! All mismatches are collected and reported together.

use kamil_rules::perft::perft;
use kamil_rules::{Position, Variant};
use std::collections::HashMap;
use std::sync::Arc;

/// Lines with more nodes than this are not run here.
const MAX_NODES: u64 = 3_000_000;

/// Variant name and option choices.
type VariantKey = (String, Vec<(String, String)>);

struct Line {
    number: usize,
    variant: String,
    options: Vec<(String, String)>,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn parse_line(number: usize, text: &str) -> Result<Line, String> {
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    let [variant, options, fen, depth, nodes] = fields[..] else {
        return Err(format!(
            "expected 5 fields separated by `|`, got {}",
            fields.len()
        ));
    };
    let options = if options == "-" {
        Vec::new()
    } else {
        options
            .split(',')
            .map(|kv| {
                kv.trim()
                    .split_once('=')
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| format!("option `{kv}` is not `key=value`"))
            })
            .collect::<Result<_, _>>()?
    };
    Ok(Line {
        number,
        variant: variant.to_string(),
        options,
        fen: fen.to_string(),
        depth: depth.parse().map_err(|e| format!("depth `{depth}`: {e}"))?,
        nodes: nodes.parse().map_err(|e| format!("nodes `{nodes}`: {e}"))?,
    })
}

#[test]
fn perft_reference_figures() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/perft.txt");
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        match parse_line(i + 1, raw) {
            Ok(l) => lines.push(l),
            Err(e) => failures.push(format!("perft.txt:{}: malformed line: {e}", i + 1)),
        }
    }
    assert!(!lines.is_empty(), "no perft lines in {path}");

    let mut variants: HashMap<VariantKey, Arc<Variant>> = HashMap::new();
    let mut ran: Vec<(String, usize)> = Vec::new();
    for l in lines.iter().filter(|l| l.nodes <= MAX_NODES) {
        let where_ = format!(
            "perft.txt:{}: {} [{}] `{}` depth {}",
            l.number,
            l.variant,
            l.options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(","),
            l.fen,
            l.depth
        );
        let key = (l.variant.clone(), l.options.clone());
        let v = match variants.get(&key) {
            Some(v) => v.clone(),
            None => match Variant::builtin(&l.variant, &l.options) {
                Ok(v) => {
                    let v = Arc::new(v);
                    variants.insert(key, v.clone());
                    v
                }
                Err(e) => {
                    failures.push(format!("{where_}: variant does not load: {e}"));
                    continue;
                }
            },
        };
        let mut pos = match Position::from_fen(v, &l.fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{where_}: FEN does not load: {e}"));
                continue;
            }
        };
        let fen_before = pos.fen();
        let got = perft(&mut pos, l.depth);
        if got != l.nodes {
            failures.push(format!("{where_}: expected {} nodes, got {got}", l.nodes));
        }
        if pos.fen() != fen_before || pos.depth() != 0 {
            failures.push(format!("{where_}: position not restored after perft"));
        }
        match ran.iter_mut().find(|(name, _)| *name == l.variant) {
            Some((_, n)) => *n += 1,
            None => ran.push((l.variant.clone(), 1)),
        }
    }
    for (name, n) in &ran {
        println!("perft: {name}: {n} lines run");
    }
    assert!(
        failures.is_empty(),
        "{} perft failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
