//! Differential test of SFEN and USI move text against the shogi programs'
//! own (issue 48): shogiops (lishogi's rules library) for Chu Shogi,
//! Fairy-Stockfish (pyffish) for Sho Shogi's SFEN.
//!
//! Chu Shogi, on the games `scripts/gen-shogiops-data` records
//! (`tests/differential/shogiops_games.mjs`: shogiops' `makeSfen` of every
//! position, `makeUsi` of every legal move and of each move played), in
//! every position:
//! - our SFEN equals shogiops' (counter-strike square and move number
//!   included), and shogiops' SFEN reads back to the same position: same
//!   FEN, hash, SFEN and legal moves;
//! - the USI text of each of our legal moves is one of shogiops' texts,
//!   each of shogiops' texts reads to one of our legal moves, every one of
//!   ours is read from some text of theirs (shogiops lists a Lion's jump
//!   also through an empty square, and a pass once per empty neighbour;
//!   they read to our one move), and each of our moves reads back from its
//!   own text;
//! - the game is replayed by reading shogiops' USI text of the move played.
//!
//! Sho Shogi, on `scripts/gen-pyffish-data`'s games (pyffish
//! `get_fen(..., sfen=True)` of every position): our SFEN equals
//! Fairy-Stockfish's and reads back to the same position.
//!
//! Data location: env `KAMIL_SHOGIOPS_DATA` and `KAMIL_PYFFISH_DATA` (as
//! `shogiops_diff.rs` and `pyffish_diff.rs`). Without them, or with data
//! recorded before the generators wrote SFEN, a test says so and passes,
//! unless env `CI` is set: then it fails.

mod common;

use kamil_rules::sfen::from_sfen;
use kamil_rules::usi::{move_text, parse_move};
use kamil_rules::{Move, Position, Variant};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Differences printed in full; the rest are counted.
const PRINT_CAP: usize = 30;
/// Positions each comparison must reach, at least, once data is given.
const MIN_POSITIONS: usize = 1000;
/// Our options closest to lishogi's rules (as in `shogiops_diff.rs`).
const CHU_OPTIONS: [(&str, &str); 2] = [("chu-lance-relief", "true"), ("bare-king", "true")];

#[derive(Deserialize)]
struct ChuGame {
    game: usize,
    seed: u64,
    #[serde(default)]
    sfens: Vec<String>,
    #[serde(default)]
    usi: Vec<Vec<String>>,
    #[serde(default)]
    usi_moves: Vec<String>,
}

#[derive(Deserialize)]
struct ShoGame {
    variant: String,
    game: usize,
    seed: u64,
    options: BTreeMap<String, String>,
    moves: Vec<String>,
    #[serde(default)]
    sfens: Vec<String>,
}

/// The `*.jsonl` files of the folder env `var` names, or `None` (with a
/// note; a failure under `CI`) when it is not set.
fn data_files(var: &str, script: &str) -> Option<Vec<PathBuf>> {
    match std::env::var_os(var) {
        Some(dir) => Some(common::jsonl_files(Path::new(&dir), var)),
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but {var} is not: run {script}"
            );
            eprintln!("{var} is not set: no data, nothing compared (run {script})");
            None
        }
    }
}

/// Says that data files hold no SFEN (recorded before the generator wrote
/// it); fails under `CI`.
fn no_sfen_data(var: &str, script: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but the data in {var} has no SFEN: rerun {script}"
    );
    eprintln!("the data in {var} has no SFEN (older generator): rerun {script}");
}

/// Collects differences, printing the first [`PRINT_CAP`].
#[derive(Default)]
struct Diffs(Vec<String>);

impl Diffs {
    fn push(&mut self, d: String) {
        if self.0.len() < PRINT_CAP {
            eprintln!("{d}");
        }
        self.0.push(d);
    }
}

/// Counts of what was compared.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    positions: usize,
    strike_positions: usize,
    our_moves: usize,
    their_texts: usize,
    lion_double: usize,
    promotions: usize,
}

/// Compares one Chu position's SFEN with shogiops' and reads it back.
fn check_sfen(pos: &Position, theirs: &str, label: &str, diffs: &mut Diffs) {
    let ours = pos.sfen().expect("Chu Shogi has SFEN");
    if ours != theirs {
        diffs.push(format!("{label}: SFEN `{ours}`, shogiops `{theirs}`"));
    }
    match from_sfen(pos.variant().clone(), theirs) {
        Err(e) => diffs.push(format!(
            "{label}: shogiops' SFEN `{theirs}` does not read: {e}"
        )),
        Ok(mut back) => {
            let mut orig = pos.clone();
            let same = back.fen() == pos.fen()
                && back.hash() == pos.hash()
                && back.sfen().as_deref() == Some(theirs)
                && usi_set(&mut back) == usi_set(&mut orig);
            if !same {
                diffs.push(format!(
                    "{label}: `{theirs}` reads back as `{}` (hash {}, moves {})",
                    back.sfen().unwrap_or_default(),
                    back.hash() == pos.hash(),
                    usi_set(&mut back) == usi_set(&mut orig)
                ));
            }
        }
    }
}

/// The USI texts of the legal moves.
fn usi_set(pos: &mut Position) -> BTreeSet<String> {
    let v = pos.variant().clone();
    pos.legal_moves()
        .iter()
        .map(|m| move_text(&v, *m))
        .collect()
}

/// Compares one Chu position's USI move texts with shogiops'.
fn check_usi(
    pos: &mut Position,
    theirs: &[String],
    label: &str,
    st: &mut Stats,
    diffs: &mut Diffs,
) {
    let v = pos.variant().clone();
    let legal = pos.legal_moves();
    let theirs_set: BTreeSet<&str> = theirs.iter().map(String::as_str).collect();
    for &m in &legal {
        st.our_moves += 1;
        st.lion_double += usize::from(m.via.is_some());
        st.promotions += usize::from(m.promo != 0);
        let text = move_text(&v, m);
        if !theirs_set.contains(text.as_str()) {
            diffs.push(format!(
                "{label}: our `{text}` is not among shogiops' texts"
            ));
        }
        match parse_move(pos, &text) {
            Ok(back) if back == m => {}
            other => diffs.push(format!("{label}: `{text}` reads back as {other:?}")),
        }
    }
    let mut hit: BTreeSet<usize> = BTreeSet::new();
    for t in theirs {
        st.their_texts += 1;
        match parse_move(pos, t) {
            Ok(m) => match legal.iter().position(|&l| l == m) {
                Some(i) => {
                    hit.insert(i);
                }
                None => diffs.push(format!("{label}: `{t}` reads as a move not in our list")),
            },
            Err(e) => diffs.push(format!("{label}: shogiops' `{t}` does not read: {e}")),
        }
    }
    if hit.len() != legal.len() {
        let missed: Vec<String> = (0..legal.len())
            .filter(|i| !hit.contains(i))
            .map(|i| move_text(&v, legal[i]))
            .collect();
        diffs.push(format!("{label}: no shogiops text reads to our {missed:?}"));
    }
}

#[test]
fn chu_shogi_sfen_and_usi_agree_with_shogiops() {
    let script = "scripts/gen-shogiops-data";
    let Some(files) = data_files("KAMIL_SHOGIOPS_DATA", script) else {
        return;
    };
    let variant = common::variant("chu-shogi", &CHU_OPTIONS);
    let mut st = Stats::default();
    let mut diffs = Diffs::default();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("data file reads");
        for (n, line) in text.lines().enumerate() {
            let game: ChuGame = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), n + 1));
            if game.sfens.is_empty() {
                no_sfen_data("KAMIL_SHOGIOPS_DATA", script);
                return;
            }
            st.games += 1;
            let label = format!("{} game {} (seed {})", file.display(), game.game, game.seed);
            let mut pos = Position::start(variant.clone());
            for (ply, sfen) in game.sfens.iter().enumerate() {
                let at = format!("{label} ply {ply}");
                st.positions += 1;
                st.strike_positions += usize::from(pos.lion_strike().is_some());
                check_sfen(&pos, sfen, &at, &mut diffs);
                let (Some(theirs), Some(played)) = (game.usi.get(ply), game.usi_moves.get(ply))
                else {
                    break;
                };
                check_usi(&mut pos, theirs, &at, &mut st, &mut diffs);
                match parse_move(&mut pos, played) {
                    Ok(m) => pos.make(m),
                    Err(e) => {
                        diffs.push(format!("{at}: played `{played}` does not read: {e}; stop"));
                        break;
                    }
                }
            }
        }
    }
    eprintln!("shogiops SFEN/USI: {st:?}, {} differences", diffs.0.len());
    assert!(
        diffs.0.is_empty(),
        "{} differences (first above)",
        diffs.0.len()
    );
    assert!(
        st.positions >= MIN_POSITIONS,
        "only {} positions",
        st.positions
    );
    assert!(
        st.strike_positions > 0,
        "no position under the counter-strike rule"
    );
    assert!(st.lion_double > 0 && st.promotions > 0, "{st:?}");
}

#[test]
fn sho_shogi_sfen_agrees_with_fairy_stockfish() {
    let script = "scripts/gen-pyffish-data";
    let Some(files) = data_files("KAMIL_PYFFISH_DATA", script) else {
        return;
    };
    let mut variants: BTreeMap<String, Arc<Variant>> = BTreeMap::new();
    let (mut positions, mut games) = (0, 0);
    let mut diffs = Diffs::default();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("data file reads");
        for (n, line) in text.lines().enumerate() {
            let game: ShoGame = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), n + 1));
            if game.variant != "sho-shogi" {
                continue;
            }
            if game.sfens.is_empty() {
                no_sfen_data("KAMIL_PYFFISH_DATA", script);
                return;
            }
            games += 1;
            let key = format!("{:?}", game.options);
            let opts: Vec<(&str, &str)> = game
                .options
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let v = variants
                .entry(key)
                .or_insert_with(|| common::variant("sho-shogi", &opts))
                .clone();
            let label = format!("{} game {} (seed {})", file.display(), game.game, game.seed);
            let mut pos = Position::start(v.clone());
            for (ply, theirs) in game.sfens.iter().enumerate() {
                positions += 1;
                let at = format!("{label} ply {ply}");
                let ours = pos.sfen().expect("Sho Shogi has SFEN");
                if &ours != theirs {
                    diffs.push(format!("{at}: SFEN `{ours}`, Fairy-Stockfish `{theirs}`"));
                }
                match from_sfen(v.clone(), theirs) {
                    Ok(back) if back.fen() == pos.fen() && back.hash() == pos.hash() => {}
                    Ok(back) => diffs.push(format!("{at}: `{theirs}` reads as `{}`", back.fen())),
                    Err(e) => diffs.push(format!("{at}: `{theirs}` does not read: {e}")),
                }
                let Some(m) = game.moves.get(ply) else { break };
                let m: Move = kamil_rules::notation::parse_move(&mut pos, m)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                pos.make(m);
            }
        }
    }
    eprintln!(
        "pyffish SFEN: {games} games, {positions} positions, {} differences",
        diffs.0.len()
    );
    assert!(
        diffs.0.is_empty(),
        "{} differences (first above)",
        diffs.0.len()
    );
    assert!(
        games == 0 || positions >= MIN_POSITIONS,
        "only {positions} positions"
    );
}
