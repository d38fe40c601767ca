//! SFEN and USI move text read back what they write, in the three shogi
//! games (issue 48), and no text makes them panic.
//!
//! - Seeded random games of Sho, Chu and Dai Shogi (captures preferred
//!   half the time, so Lion trades and the counter-strike state occur):
//!   in every position `from_sfen(to_sfen(p))` is `p` (FEN, hash, SFEN,
//!   side, move number, legal moves), and every legal move reads back from
//!   its USI text, also through `parse_any`.
//! - Random text, plain and built from SFEN's and USI's alphabet, given to
//!   the SFEN reader, `read_position`, the USI move reader and `parse_any`:
//!   an error or a position, never a panic.

mod common;

use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::sfen::{from_sfen, read_position};
use kamil_rules::usi::{self, move_text, parse_move};

/// A move text read as a front end speaking kamil's notation reads it.
fn parse_any(pos: &mut Position, text: &str) -> Option<kamil_rules::Move> {
    read_move(pos, text, Accept::First(Notation::Kamil))
        .ok()
        .map(|(m, _)| m)
}
use kamil_rules::{Position, Variant};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

const GAMES: [&str; 3] = ["sho-shogi", "chu-shogi", "dai-shogi"];

fn variants() -> &'static [Arc<Variant>; 3] {
    static V: OnceLock<[Arc<Variant>; 3]> = OnceLock::new();
    V.get_or_init(|| GAMES.map(|g| common::variant(g, &[])))
}

/// Checks SFEN and USI round trips in `pos`.
fn check(pos: &mut Position) -> Result<(), TestCaseError> {
    let v = pos.variant().clone();
    let sfen = pos.sfen().expect("a shogi game has SFEN");
    let mut back =
        from_sfen(v.clone(), &sfen).map_err(|e| TestCaseError::fail(format!("{sfen}: {e}")))?;
    prop_assert_eq!(back.fen(), pos.fen(), "{}", sfen);
    prop_assert_eq!(back.hash(), pos.hash(), "{}", sfen);
    prop_assert_eq!(back.sfen(), Some(sfen.clone()));
    prop_assert_eq!(back.ply_number(), pos.ply_number());
    prop_assert_eq!(back.lion_strike(), pos.lion_strike());
    let legal = pos.legal_moves();
    // The same moves; the order follows the piece lists, which moves shuffle.
    let texts =
        |l: &[kamil_rules::Move]| l.iter().map(|&m| move_text(&v, m)).collect::<BTreeSet<_>>();
    prop_assert!(
        texts(&back.legal_moves()) == texts(&legal),
        "moves differ in {}",
        sfen
    );
    let read = read_position(v.clone(), &sfen).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(read.hash(), pos.hash());
    for m in legal {
        let text = move_text(&v, m);
        prop_assert_eq!(parse_move(pos, &text).ok(), Some(m), "{} in {}", text, sfen);
        prop_assert_eq!(parse_any(pos, &text), Some(m), "{} in {}", text, sfen);
    }
    Ok(())
}

/// Plays a random game of up to `plies` from the start, checking every
/// position; `choices` picks the moves.
fn random_game(v: &Arc<Variant>, plies: usize, choices: &[u32]) -> Result<(), TestCaseError> {
    let mut pos = Position::start(v.clone());
    for &c in choices.iter().take(plies) {
        check(&mut pos)?;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Ok(());
        }
        let caps: Vec<_> = legal
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        let pool = if c % 2 == 0 && !caps.is_empty() {
            &caps
        } else {
            &legal
        };
        pos.make(pool[(c / 2) as usize % pool.len()]);
    }
    check(&mut pos)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn sho_shogi_round_trips(choices in prop::collection::vec(any::<u32>(), 60)) {
        random_game(&variants()[0], 60, &choices)?;
    }

    #[test]
    fn chu_shogi_round_trips(choices in prop::collection::vec(any::<u32>(), 60)) {
        random_game(&variants()[1], 60, &choices)?;
    }

    #[test]
    fn dai_shogi_round_trips(choices in prop::collection::vec(any::<u32>(), 40)) {
        random_game(&variants()[2], 40, &choices)?;
    }
}

/// Text made of SFEN's and USI's characters (and a few others).
fn shogi_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "l",
            "n",
            "s",
            "g",
            "k",
            "e",
            "+",
            "P",
            "L!",
            "C'",
            "1",
            "2",
            "12",
            "9",
            "0",
            "/",
            " ",
            "b",
            "w",
            "-",
            "*",
            "a",
            "7g",
            "12l",
            "15o",
            "_",
            "x",
            "\u{feff}",
            "é",
            "99999999999",
        ]),
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn no_text_makes_the_readers_panic(
        text in prop_oneof![any::<String>(), shogi_text()],
        game in 0usize..3,
    ) {
        let v = &variants()[game];
        let _ = from_sfen(v.clone(), &text);
        let _ = read_position(v.clone(), &text);
        let mut pos = Position::start(v.clone());
        let _ = parse_move(&mut pos, &text);
        let _ = parse_any(&mut pos, &text);
        let _ = usi::parse_square(&v.geometry, &text);
        // A position that reads writes an SFEN that reads back the same.
        if let Ok(p) = from_sfen(v.clone(), &text) {
            let s = p.sfen().expect("shogi");
            prop_assert_eq!(from_sfen(v.clone(), &s).map(|q| q.hash()), Ok(p.hash()));
        }
    }
}

#[test]
fn an_sfen_lion_capture_sets_the_counter_strike_rule() {
    // The SFEN says a White non-Lion just took Black's Lion on 7h (the
    // White Kirin there promoted to a Lion as it took). Black may then
    // take no Lion with a non-Lion (the Gold on 6g may not take the Lion
    // on 6f) except on 7h (the Gold on 7i takes there): rules/chu-shogi.md
    // 6.4 LT3, lishogi's reading.
    let v = common::variant("chu-shogi", &[]);
    let board = "6k5/12/12/12/12/6n5/6G5/5+o6/5G6/12/12/6K5";
    let free = from_sfen(v.clone(), &format!("{board} b - 11")).unwrap();
    let bound = from_sfen(v.clone(), &format!("{board} b 7h 11")).unwrap();
    assert_ne!(free.hash(), bound.hash());
    assert_eq!(bound.sfen().unwrap(), format!("{board} b 7h 11"));
    assert_eq!(free.sfen().unwrap(), format!("{board} b - 11"));
    let legal = |p: &Position, text: &str| parse_move(&mut p.clone(), text).is_ok();
    assert!(legal(&free, "6g6f") && legal(&free, "7i7h"));
    assert!(
        !legal(&bound, "6g6f"),
        "counter-strike: no Lion taken elsewhere"
    );
    assert!(
        legal(&bound, "7i7h"),
        "the Lion on the square of the capture may be taken"
    );
}
