//! The rule books' test cases (`tests/data/cases.json`, schema in
//! `tests/data/CASES.md`) for the variants built so far: `courier`,
//! `courier-modern`, `sho-shogi`, `chu-shogi`, `dai-shogi`, `hiashatar`,
//! `alfonso-great-chess`, `ordinary-variant`, `tamerlane` and `frolov-10x10`.
//! Cases of other variants are skipped.
//!
//! `dests`, `moves_count`, `move_legal` and `perft` cases are checked from the
//! data by [`rulebook_cases`], which collects every failure and reports them
//! together. `manual` cases have purpose-made tests below, one per case; the
//! data-driven test fails if a manual case has no such test. Cases that need
//! a rule not built yet are listed in [`PENDING`] with the reason; they are
//! skipped and counted, and [`pending_cases_still_fail`] fails as soon as one
//! of them passes, so that the list is kept up to date. Cases whose position
//! contradicts the rule book's own rules are listed in [`CONTRADICTED`] and
//! checked, as the rule book meant them, by a named test of the game's file.

mod common;
use common::{at, legal, piece, play};

use kamil_rules::movegen::in_check;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::{ended_by_rule, outcome};
use kamil_rules::perft::perft;
use kamil_rules::{Move, MoveKind, Outcome, Piece, Position, Reason, Side, Square, Variant};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The variants implemented so far; cases of any other variant are skipped.
const BUILT: [&str; 10] = [
    "courier",
    "courier-modern",
    "sho-shogi",
    "chu-shogi",
    "dai-shogi",
    "hiashatar",
    "alfonso-great-chess",
    "ordinary-variant",
    "tamerlane",
    "frolov-10x10",
];

/// Cases of the built variants that need a rule not built yet:
/// (id, part, reason). Skipped by [`rulebook_cases`]; each must still fail
/// ([`pending_cases_still_fail`]).
const PENDING: &[(&str, &str, &str)] = &[];

/// OV-15's second form reaches its position by playing e9-e7 from a
/// position where that move is illegal: the Pawn e9 can take the Checker d8
/// legally, so 5.4 step 2 obliges Black to take it
/// (rules/ordinary-variant.md; parts a-k, from the FEN with the en passant
/// square, pass as written).
const OV_15: &str = "the history move e9-e7 is illegal under 5.4 step 2 \
     (the Pawn e9 must take the Checker d8)";
const OV_15_TEST: &str = "ordinary_variant.rs: ov_15_by_history_with_the_double_step_forced";

/// Cases whose position, as written, contradicts the rule book's own rules
/// (a game-end rule has ended it, or its history move is illegal), so they
/// cannot be checked as written: (id, part, the test
/// in the game's file that checks what the case means, the reason).
/// [`rulebook_cases`] checks that each still fails as written.
const CONTRADICTED: &[(&str, &str, &str, &str)] = &[
    ("OV-15", "l", OV_15_TEST, OV_15),
    ("OV-15", "m", OV_15_TEST, OV_15),
    ("OV-15", "n", OV_15_TEST, OV_15),
    ("OV-15", "o", OV_15_TEST, OV_15),
    ("OV-15", "p", OV_15_TEST, OV_15),
    ("OV-15", "q", OV_15_TEST, OV_15),
    ("OV-15", "r", OV_15_TEST, OV_15),
    ("OV-15", "s", OV_15_TEST, OV_15),
    ("OV-15", "t", OV_15_TEST, OV_15),
    ("OV-15", "u", OV_15_TEST, OV_15),
    ("OV-15", "v", OV_15_TEST, OV_15),
    (
        "HIA-2",
        "a",
        "hiashatar.rs: hia_2a_bodyguard_gives_no_check",
        "White has a lone King: robado (rules/hiashatar.md section 7) has drawn the game",
    ),
    (
        "HIA-5",
        "b",
        "hiashatar.rs: hia_5b_without_the_bodyguard_the_rook_checks",
        "White has a lone King: robado (rules/hiashatar.md section 7) has drawn the game",
    ),
    (
        "HIA-7",
        "a",
        "hiashatar.rs: hia_7a_own_bodyguard_does_not_restrict",
        "Black has a lone King: robado (rules/hiashatar.md section 7) has drawn the game",
    ),
    (
        "HIA-7",
        "b",
        "hiashatar.rs: hia_7b_all_bodyguards_restrict",
        "Black has a lone King: robado (rules/hiashatar.md section 7) has drawn the game",
    ),
];

/// Perft cases with more nodes than this are left to `tests/perft.rs` and the
/// benchmark.
const MAX_PERFT_NODES: u64 = 2_000_000;

/// Manual cases of the built variants and the test that checks each.
const MANUAL: &[(&str, &str, &str)] = &[
    ("COU-11", "a", "cou_11a_bare_king_white_wins"),
    ("COU-11", "c", "cou_11c_both_kings_bare_draw"),
    ("COU-12", "b", "cou_12b_stalemate_loses"),
    ("COU-14", "b", "cou_14b_en_passant_removes_pawn"),
    ("COU-15", "b", "cou_15b_albers_castling_king_side"),
    ("COU-15", "c", "cou_15c_albers_castling_queen_side"),
    ("SHO-14", "b", "sho_14b_checkmate_white_wins"),
    ("SHO-15", "b", "sho_15b_stalemate_black_loses"),
    ("SHO-16", "b", "sho_16b_fourfold_repetition_draw"),
    ("CHU-20", "b", "chu_20b_double_capture_takes_both_royals"),
    ("CHU-20", "d", "chu_20d_crown_prince_left_game_goes_on"),
    ("DAI-14", "b", "dai_14b_crown_prince_left_game_goes_on"),
    ("DAI-14", "d", "dai_14d_last_royal_taken_white_wins"),
    ("DAI-15", "b", "dai_15b_stalemate_black_loses"),
    ("HIA-12", "b", "hia_12b_bare_king_draws_at_once"),
    ("ALF-5", "b", "alf_5b_castling_king_side_rook_on_h1"),
    ("ALF-5", "c", "alf_5c_castling_queen_side_rook_on_d1"),
    ("ALF-8", "c", "alf_8c_en_passant_removes_pawn"),
    // In tests/ordinary_variant.rs:
    ("OV-22", "b", "ov_22b_stalemate_scores_60_40"),
    ("OV-23", "a", "ov_23a_perpetual_check_scores"),
    ("OV-23", "b", "ov_23c_bare_king_claim_scores"),
    ("TAM-7", "b", "tam_7b_pawn_of_giraffes_becomes_giraffe"),
    ("TAM-9", "e", "tam_9e_swap_spent_checkmate_black_wins"),
    ("TAM-10", "b", "tam_10b_stalemate_black_wins"),
    ("TAM-11", "e", "tam_11e_citadel_entry_draws"),
    ("TAM-16", "b", "tam_16b_relocated_pawn_is_py"),
    ("TAM-18", "b", "tam_18b_second_arrival_transfers_to_f3"),
    ("TAM-18", "d", "tam_18d_occupied_f3_pawn_waits_immune"),
    ("TAM-19", "b", "tam_19b_third_arrival_adventitious_king"),
    // Frolov's manual cases are tested in tests/frolov_10x10.rs.
    (
        "FR-09",
        "h",
        "frolov_10x10::fr_09h_cannon_takes_queen_becomes_tank",
    ),
    (
        "FR-12",
        "w",
        "frolov_10x10::fr_12w_en_passant_removes_the_berolina",
    ),
    ("FR-14", "o", "frolov_10x10::fr_14o_castling_rook_squares"),
    (
        "FR-16",
        "b",
        "frolov_10x10::fr_16b_rook_takes_queen_becomes_queen",
    ),
    (
        "FR-16",
        "e",
        "frolov_10x10::fr_16e_knight_takes_sergeant_becomes_wildebeest",
    ),
    (
        "FR-16",
        "f",
        "frolov_10x10::fr_16f_camel_takes_gold_general_becomes_wildebeest",
    ),
    (
        "FR-16",
        "h",
        "frolov_10x10::fr_16h_pawn_takes_queen_becomes_sergeant",
    ),
    (
        "FR-18",
        "i",
        "frolov_10x10::fr_18i_king_takes_queen_only_special_wins",
    ),
    ("FR-19", "b", "frolov_10x10::fr_19b_stalemate_loses"),
    (
        "FR-20",
        "a",
        "frolov_10x10::fr_20a_points_decide_repetition_and_move_rule",
    ),
    ("FR-21", "an", "frolov_10x10::fr_21an_start_material"),
];

fn str_field<'a>(c: &'a Value, key: &str) -> Option<&'a str> {
    c.get(key).and_then(Value::as_str)
}

/// The case's position with its `moves` played. Errors name what failed.
fn position(c: &Value) -> Result<Position, String> {
    let name = str_field(c, "variant").ok_or("no variant")?;
    let opts = common::case_options(c);
    let v = Variant::builtin(name, &opts).map_err(|e| format!("variant does not load: {e}"))?;
    let v = Arc::new(v);
    let mut pos = match str_field(c, "fen") {
        Some(fen) => {
            Position::from_fen(v, fen).map_err(|e| format!("FEN `{fen}` does not load: {e}"))?
        }
        None => Position::start(v),
    };
    if let Some(moves) = c.get("moves").and_then(Value::as_array) {
        for m in moves {
            let text = m.as_str().ok_or("a move is not a string")?;
            let mv = parse_move(&mut pos, text)
                .map_err(|e| format!("history move `{text}` rejected: {e}"))?;
            pos.make(mv);
        }
    }
    Ok(pos)
}

fn square(pos: &Position, name: &str) -> Result<Square, String> {
    pos.variant()
        .geometry
        .parse_square(name)
        .ok_or_else(|| format!("`{name}` is not a square of this board"))
}

fn sq_name(pos: &Position, sq: Square) -> String {
    pos.variant().geometry.name(sq).to_string()
}

/// CASES.md: lower case, without `-`, `=` and an `x` between two squares.
fn normalize(text: &str) -> String {
    let t: Vec<char> = text
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c != '-' && c != '=')
        .collect();
    let mut out = String::new();
    for (i, &c) in t.iter().enumerate() {
        let between = i > 0
            && t[i - 1].is_ascii_digit()
            && t.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        if c == 'x' && between {
            continue;
        }
        out.push(c);
    }
    out
}

fn set_text(s: &BTreeSet<String>) -> String {
    format!("{{{}}}", s.iter().cloned().collect::<Vec<_>>().join(", "))
}

/// Checks one case; `Err` describes the failure.
fn check(c: &Value) -> Result<(), String> {
    let kind = str_field(c, "kind").ok_or("no kind")?;
    let mut pos = position(c)?;
    let v = pos.variant().clone();
    match kind {
        "dests" => {
            let from = square(&pos, str_field(c, "square").ok_or("no square")?)?;
            let expected: BTreeSet<String> = c["dests"]
                .as_array()
                .ok_or("no dests")?
                .iter()
                .map(|d| d.as_str().unwrap_or("?").to_string())
                .collect();
            let got: BTreeSet<String> = legal(&mut pos)
                .iter()
                .filter(|m| m.from == from)
                .map(|m| sq_name(&pos, m.to))
                .collect();
            if got != expected {
                return Err(format!(
                    "destinations from {}: expected {}, got {}",
                    sq_name(&pos, from),
                    set_text(&expected),
                    set_text(&got)
                ));
            }
        }
        "moves_count" => {
            let expected = c["count"].as_u64().ok_or("no count")?;
            let from = str_field(c, "square")
                .map(|s| square(&pos, s))
                .transpose()?;
            let to = str_field(c, "to").map(|s| square(&pos, s)).transpose()?;
            let moves: Vec<Move> = legal(&mut pos)
                .into_iter()
                .filter(|m| from.is_none_or(|f| m.from == f) && to.is_none_or(|t| m.to == t))
                .collect();
            if moves.len() as u64 != expected {
                let texts: Vec<String> = moves.iter().map(|m| move_text(&v, *m)).collect();
                return Err(format!(
                    "move count{}{}: expected {expected}, got {} ({})",
                    from.map(|f| format!(" from {}", sq_name(&pos, f)))
                        .unwrap_or_default(),
                    to.map(|t| format!(" to {}", sq_name(&pos, t)))
                        .unwrap_or_default(),
                    moves.len(),
                    texts.join(" ")
                ));
            }
        }
        "move_legal" => {
            let expected = c["legal"].as_bool().ok_or("no legal")?;
            let mut spellings = vec![str_field(c, "move").ok_or("no move")?.to_string()];
            if let Some(alts) = c.get("any_of").and_then(Value::as_array) {
                spellings.extend(alts.iter().filter_map(|a| a.as_str().map(String::from)));
            }
            let listed: BTreeSet<String> =
                legal(&mut pos).iter().map(|m| move_text(&v, *m)).collect();
            let mut parsed = Vec::new();
            let mut in_list = false;
            for s in &spellings {
                if let Ok(m) = parse_move(&mut pos, s) {
                    parsed.push(format!("{s} -> {}", move_text(&v, m)));
                }
                in_list |= listed.contains(&normalize(s));
            }
            let got = !parsed.is_empty();
            if got != expected {
                return Err(format!(
                    "move {}: expected {}, got {} (parse_move: {}; legal moves: {})",
                    spellings.join(" / "),
                    if expected { "legal" } else { "illegal" },
                    if got { "legal" } else { "illegal" },
                    if parsed.is_empty() {
                        "rejected".to_string()
                    } else {
                        parsed.join(", ")
                    },
                    listed.iter().cloned().collect::<Vec<_>>().join(" ")
                ));
            }
            if in_list != got {
                return Err(format!(
                    "move {}: parse_move says {}, but the legal move list {} it ({})",
                    spellings.join(" / "),
                    if got { "legal" } else { "illegal" },
                    if in_list {
                        "contains"
                    } else {
                        "does not contain"
                    },
                    listed.iter().cloned().collect::<Vec<_>>().join(" ")
                ));
            }
        }
        "perft" => {
            let depth = c["depth"].as_u64().ok_or("no depth")? as u32;
            let expected = c["nodes"].as_u64().ok_or("no nodes")?;
            let got = perft(&mut pos, depth);
            if got != expected {
                return Err(format!("perft({depth}): expected {expected}, got {got}"));
            }
        }
        "manual" => unreachable!("manual cases are not run here"),
        other => return Err(format!("unknown kind `{other}`")),
    }
    Ok(())
}

#[test]
fn rulebook_cases() {
    let all = common::cases();
    let mut failures = Vec::new();
    // Per variant: (run, passed).
    let mut counts: Vec<(&str, usize, usize)> = BUILT.iter().map(|&n| (n, 0, 0)).collect();
    let mut skipped_perft = 0;
    let mut manual_seen = 0;
    let mut contradicted = 0;
    // Pending cases skipped: (reason, count).
    let mut pending: Vec<(&str, usize)> = Vec::new();
    for c in &all {
        let Some(variant) = str_field(c, "variant") else {
            failures.push(format!("case without variant: {c}"));
            continue;
        };
        if !BUILT.contains(&variant) {
            continue;
        }
        let id = str_field(c, "id").unwrap_or("?");
        let part = str_field(c, "part").unwrap_or("?");
        let kind = str_field(c, "kind").unwrap_or("?");
        if let Some(&(_, _, test, reason)) = CONTRADICTED
            .iter()
            .find(|&&(i, p, _, _)| i == id && p == part)
        {
            contradicted += 1;
            if check(c).is_ok() {
                failures.push(format!(
                    "{id}{part} ({variant}) passes as written: take it out of CONTRADICTED \
                     ({reason}; {test})"
                ));
            }
            let (file, name) = test.split_once(": ").expect("`file: test`");
            let src = match file {
                "hiashatar.rs" => include_str!("hiashatar.rs"),
                "ordinary_variant.rs" => include_str!("ordinary_variant.rs"),
                other => panic!("CONTRADICTED names an unknown file `{other}`"),
            };
            if !src.contains(&format!("fn {name}()")) {
                failures.push(format!("{id}{part}: no test `{name}` in {file}"));
            }
            continue;
        }
        if let Some(&(_, _, reason)) = PENDING.iter().find(|&&(i, p, _)| i == id && p == part) {
            match pending.iter_mut().find(|(r, _)| *r == reason) {
                Some(e) => e.1 += 1,
                None => pending.push((reason, 1)),
            }
            continue;
        }
        if kind == "manual" {
            manual_seen += 1;
            if !MANUAL.iter().any(|&(i, p, _)| i == id && p == part) {
                failures.push(format!(
                    "{id}{part} ({variant}): manual case without a purpose-made test: {}",
                    str_field(c, "note").unwrap_or("")
                ));
            }
            continue;
        }
        if kind == "perft" && c["nodes"].as_u64().unwrap_or(0) > MAX_PERFT_NODES {
            skipped_perft += 1;
            continue;
        }
        let entry = counts
            .iter_mut()
            .find(|(n, _, _)| *n == variant)
            .expect("a built variant");
        entry.1 += 1;
        match check(c) {
            Ok(()) => entry.2 += 1,
            Err(e) => {
                let what = str_field(c, "what")
                    .map(|w| format!(" [{w}]"))
                    .unwrap_or_default();
                failures.push(format!("{id}{part} ({variant}, {kind}){what}: {e}"));
            }
        }
    }
    for (name, run, passed) in &counts {
        println!("rule book cases: {name}: {run} run, {passed} passed");
    }
    println!(
        "rule book cases: {manual_seen} manual cases checked by their own tests; \
         {skipped_perft} perft cases above {MAX_PERFT_NODES} nodes left to tests/perft.rs"
    );
    for (reason, n) in &pending {
        println!("rule book cases: {n} pending: {reason}");
    }
    println!("rule book cases: {contradicted} contradicted as written, checked by their own tests");
    assert_eq!(
        contradicted,
        CONTRADICTED.len(),
        "every CONTRADICTED entry must name a case of cases.json"
    );
    assert_eq!(
        pending.iter().map(|(_, n)| n).sum::<usize>(),
        PENDING.len(),
        "every PENDING entry must name a case of cases.json"
    );
    for (name, run, _) in &counts {
        assert!(*run > 0, "no case of {name} ran: is cases.json complete?");
    }
    assert!(
        failures.is_empty(),
        "{} rule book case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        manual_seen,
        MANUAL.len(),
        "the manual cases of cases.json and the MANUAL table differ"
    );
}

/// Every pending case still fails: when a rule is built, its cases leave
/// [`PENDING`] and are checked like the others.
#[test]
fn pending_cases_still_fail() {
    let all = common::cases();
    let mut passing = Vec::new();
    for &(id, part, reason) in PENDING {
        let c = all
            .iter()
            .find(|c| str_field(c, "id") == Some(id) && str_field(c, "part") == Some(part))
            .unwrap_or_else(|| panic!("pending case {id}{part} not in cases.json"));
        assert_ne!(
            str_field(c, "kind"),
            Some("manual"),
            "{id}{part}: a pending manual case needs its own check"
        );
        if check(c).is_ok() {
            passing.push(format!("{id}{part} ({reason})"));
        }
    }
    assert!(
        passing.is_empty(),
        "pending case(s) now pass; take them out of PENDING:\n{}",
        passing.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Manual cases.

/// The manual case `id` `part` from cases.json, with its position (history
/// played).
fn manual(id: &str, part: &str) -> (Value, Position) {
    let c = common::cases()
        .into_iter()
        .find(|c| str_field(c, "id") == Some(id) && str_field(c, "part") == Some(part))
        .unwrap_or_else(|| panic!("case {id}{part} not in cases.json"));
    assert_eq!(str_field(&c, "kind"), Some("manual"), "{id}{part}");
    let pos = position(&c).unwrap_or_else(|e| panic!("{id}{part}: {e}"));
    (c, pos)
}

#[test]
fn cou_11a_bare_king_white_wins() {
    let (_, mut pos) = manual("COU-11", "a");
    assert_eq!(pos.side(), Side::Second);
    assert_eq!(pos.non_royal_count(Side::Second), 0, "Black is bare");
    // The bared side gets its one reply: the game has not ended yet.
    assert_eq!(outcome(&mut pos), None, "Black must get a reply");
    let replies = legal(&mut pos);
    assert!(!replies.is_empty(), "Black has a legal reply");
    for m in replies {
        let text = move_text(pos.variant(), m);
        pos.make(m);
        assert_eq!(
            outcome(&mut pos),
            Some(Outcome::Win {
                winner: Side::First,
                reason: Reason::BareKing
            }),
            "after Black's {text}"
        );
        pos.unmake();
    }
}

#[test]
fn cou_11c_both_kings_bare_draw() {
    let (_, mut pos) = manual("COU-11", "c");
    assert_eq!(pos.depth(), 1, "l8k7 was played");
    assert_eq!(at(&pos, "k7"), piece(&pos, "king", Side::Second));
    assert_eq!(pos.non_royal_count(Side::First), 0);
    assert_eq!(pos.non_royal_count(Side::Second), 0);
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::BothBare
        })
    );
}

#[test]
fn cou_12b_stalemate_loses() {
    let (_, mut pos) = manual("COU-12", "b");
    assert_eq!(pos.side(), Side::Second);
    assert!(legal(&mut pos).is_empty(), "Black has no legal move");
    assert!(!in_check(&pos, Side::Second), "Black is not in check");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::First,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn cou_14b_en_passant_removes_pawn() {
    let (_, pos) = manual("COU-14", "b");
    assert_eq!(pos.depth(), 2, "d7d5 and e5d6 were played");
    let last = pos.last_move().unwrap();
    assert_eq!(
        last.kind,
        MoveKind::EnPassant,
        "e5d6 is an en-passant capture"
    );
    assert_eq!(at(&pos, "d6"), piece(&pos, "pawn", Side::First));
    assert_eq!(at(&pos, "d5"), Piece::EMPTY, "the d5 pawn is removed");
    assert_eq!(at(&pos, "e5"), Piece::EMPTY);
    assert_eq!(at(&pos, "d7"), Piece::EMPTY);
    assert_eq!(pos.pieces(Side::Second).len(), 1, "Black has only the King");
}

#[test]
fn cou_15b_albers_castling_king_side() {
    let (_, pos) = manual("COU-15", "b");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Castle);
    assert_eq!(at(&pos, "j1"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "i1"), piece(&pos, "rook", Side::First));
    assert_eq!(at(&pos, "l1"), Piece::EMPTY);
    assert_eq!(at(&pos, "g1"), Piece::EMPTY);
    assert_eq!(at(&pos, "a1"), piece(&pos, "rook", Side::First));
}

#[test]
fn cou_15c_albers_castling_queen_side() {
    let (_, pos) = manual("COU-15", "c");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Castle);
    assert_eq!(at(&pos, "d1"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "e1"), piece(&pos, "rook", Side::First));
    assert_eq!(at(&pos, "a1"), Piece::EMPTY);
    assert_eq!(at(&pos, "g1"), Piece::EMPTY);
    assert_eq!(at(&pos, "l1"), piece(&pos, "rook", Side::First));
}

#[test]
fn sho_14b_checkmate_white_wins() {
    let (_, mut pos) = manual("SHO-14", "b");
    // Rule-book convention: `b` is Black, the first player.
    assert_eq!(pos.side(), Side::First);
    assert!(in_check(&pos, Side::First), "Black is in check");
    assert!(legal(&mut pos).is_empty(), "Black has no legal move");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn sho_15b_stalemate_black_loses() {
    let (_, mut pos) = manual("SHO-15", "b");
    assert_eq!(pos.side(), Side::First);
    assert!(!in_check(&pos, Side::First), "Black is not in check");
    assert!(legal(&mut pos).is_empty(), "Black has no legal move");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn sho_16b_fourfold_repetition_draw() {
    let (c, mut pos) = manual("SHO-16", "b");
    let moves: Vec<String> = c["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves.len(), 12);
    assert_eq!(pos.depth(), 12);
    assert_eq!(pos.side(), Side::First, "Black to move again");
    assert_eq!(
        pos.history().first(),
        pos.history().last(),
        "start position again"
    );
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    // Not earlier: the third occurrence (after 8 plies) and every other
    // position on the way do not end the game.
    for n in 0..12 {
        pos.unmake();
        assert_eq!(outcome(&mut pos), None, "after {} plies", 11 - n);
    }
    for m in &moves {
        play(&mut pos, m);
    }
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn chu_20b_double_capture_takes_both_royals() {
    let (_, mut pos) = manual("CHU-20", "b");
    assert_eq!(pos.depth(), 1, "e5e6e7 was played");
    assert_eq!(at(&pos, "e7"), piece(&pos, "lion", Side::First));
    assert_eq!(at(&pos, "e6"), Piece::EMPTY, "the King on e6 is captured");
    assert_eq!(at(&pos, "e5"), Piece::EMPTY);
    assert!(pos.royals(Side::Second).is_empty(), "White has no royal");
    let won = Some(Outcome::Win {
        winner: Side::First,
        reason: Reason::RoyalsCaptured,
    });
    assert_eq!(ended_by_rule(&pos), won);
    assert_eq!(outcome(&mut pos), won);
    assert!(legal(&mut pos).is_empty(), "no move after the end");
}

#[test]
fn chu_20d_crown_prince_left_game_goes_on() {
    let (_, mut pos) = manual("CHU-20", "d");
    assert_eq!(pos.depth(), 1, "e5e6 was played");
    assert_eq!(at(&pos, "e6"), piece(&pos, "lion", Side::First));
    assert_eq!(at(&pos, "e7"), piece(&pos, "crown-prince", Side::Second));
    let squares: Vec<String> = pos
        .royals(Side::Second)
        .iter()
        .map(|&s| sq_name(&pos, s))
        .collect();
    assert_eq!(squares, ["e7"], "the Crown Prince is White's royal now");
    assert_eq!(ended_by_rule(&pos), None);
    assert_eq!(outcome(&mut pos), None, "the game goes on");
    let replies: Vec<String> = legal(&mut pos)
        .iter()
        .map(|m| move_text(pos.variant(), *m))
        .collect();
    assert!(
        replies.contains(&"e7e6".to_string()),
        "the Crown Prince may take the Lion: {replies:?}"
    );
}

#[test]
fn dai_14b_crown_prince_left_game_goes_on() {
    let (_, mut pos) = manual("DAI-14", "b");
    assert_eq!(pos.depth(), 1, "a9a1 was played");
    assert_eq!(at(&pos, "a1"), piece(&pos, "rook", Side::Second));
    let squares: Vec<String> = pos
        .royals(Side::First)
        .iter()
        .map(|&s| sq_name(&pos, s))
        .collect();
    assert_eq!(squares, ["c1"], "the Crown Prince is Black's royal now");
    assert_eq!(ended_by_rule(&pos), None);
    assert_eq!(outcome(&mut pos), None, "the game goes on");
    let replies: Vec<String> = legal(&mut pos)
        .iter()
        .map(|m| move_text(pos.variant(), *m))
        .collect();
    assert!(
        replies.contains(&"c1b1".to_string()),
        "the Crown Prince moves like a King: {replies:?}"
    );
}

#[test]
fn dai_14d_last_royal_taken_white_wins() {
    let (_, mut pos) = manual("DAI-14", "d");
    assert_eq!(pos.depth(), 1, "a9a1 was played");
    assert_eq!(at(&pos, "a1"), piece(&pos, "rook", Side::Second));
    assert!(pos.royals(Side::First).is_empty(), "Black has no royal");
    let won = Some(Outcome::Win {
        winner: Side::Second,
        reason: Reason::RoyalsCaptured,
    });
    assert_eq!(ended_by_rule(&pos), won);
    assert_eq!(outcome(&mut pos), won);
    assert!(legal(&mut pos).is_empty(), "no move after the end");
}

#[test]
fn dai_15b_stalemate_black_loses() {
    let (_, mut pos) = manual("DAI-15", "b");
    assert_eq!(pos.side(), Side::First);
    assert!(legal(&mut pos).is_empty(), "Black has no legal move");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn hia_12b_bare_king_draws_at_once() {
    let (_, mut pos) = manual("HIA-12", "b");
    assert_eq!(pos.depth(), 1, "j4j9 was played");
    assert_eq!(at(&pos, "j9"), piece(&pos, "queen", Side::First));
    assert_eq!(
        pos.non_royal_count(Side::Second),
        0,
        "Black has a lone King"
    );
    assert_eq!(pos.non_royal_count(Side::First), 1, "White keeps its Queen");
    let drawn = Some(Outcome::Draw {
        reason: Reason::BareKing,
    });
    assert_eq!(ended_by_rule(&pos), drawn, "robado: drawn at once");
    assert_eq!(outcome(&mut pos), drawn);
    assert!(legal(&mut pos).is_empty(), "no move after the end");
    // Before the capture the game was going on.
    pos.unmake();
    assert_eq!(outcome(&mut pos), None);
}

#[test]
fn alf_5b_castling_king_side_rook_on_h1() {
    let (_, pos) = manual("ALF-5", "b");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Castle);
    assert_eq!(at(&pos, "i1"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "h1"), piece(&pos, "rook", Side::First));
    assert_eq!(at(&pos, "l1"), Piece::EMPTY, "l1 empty");
    assert_eq!(at(&pos, "f1"), Piece::EMPTY);
    assert_eq!(at(&pos, "a1"), piece(&pos, "rook", Side::First));
    assert_eq!(pos.castling() & 0b11, 0, "White's rights are gone");
}

#[test]
fn alf_5c_castling_queen_side_rook_on_d1() {
    let (_, pos) = manual("ALF-5", "c");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Castle);
    assert_eq!(at(&pos, "c1"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "d1"), piece(&pos, "rook", Side::First));
    assert_eq!(at(&pos, "a1"), Piece::EMPTY, "a1 empty");
    assert_eq!(at(&pos, "f1"), Piece::EMPTY);
    assert_eq!(at(&pos, "l1"), piece(&pos, "rook", Side::First));
    assert_eq!(pos.castling() & 0b11, 0, "White's rights are gone");
}

#[test]
fn alf_8c_en_passant_removes_pawn() {
    let (_, pos) = manual("ALF-8", "c");
    assert_eq!(pos.depth(), 1, "e9f10 was played");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::EnPassant);
    assert_eq!(at(&pos, "f10"), piece(&pos, "pawn", Side::First));
    assert_eq!(at(&pos, "f9"), Piece::EMPTY, "the f9 pawn is removed");
    assert_eq!(at(&pos, "e9"), Piece::EMPTY);
    assert_eq!(pos.pieces(Side::Second).len(), 1, "Black has only the King");
}

#[test]
fn tam_7b_pawn_of_giraffes_becomes_giraffe() {
    let (_, pos) = manual("TAM-7", "b");
    assert_eq!(pos.depth(), 1, "c9d10 was played");
    assert_eq!(at(&pos, "d10"), piece(&pos, "giraffe", Side::First));
    assert_eq!(at(&pos, "c9"), Piece::EMPTY);
    assert_eq!(
        pos.pieces(Side::Second).len(),
        1,
        "the Rook on d10 is taken"
    );
}

#[test]
fn tam_9e_swap_spent_checkmate_black_wins() {
    let (_, mut pos) = manual("TAM-9", "e");
    assert_eq!(pos.swap_rights() & 1, 0, "White's swap right is spent");
    assert!(in_check(&pos, Side::First), "White is in check");
    assert!(legal(&mut pos).is_empty(), "White has no legal move");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn tam_10b_stalemate_black_wins() {
    let (_, mut pos) = manual("TAM-10", "b");
    assert_eq!(pos.side(), Side::First);
    assert!(!in_check(&pos, Side::First), "the King is not attacked");
    assert!(
        legal(&mut pos).is_empty(),
        "White has no legal move, swaps included"
    );
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn tam_11e_citadel_entry_draws() {
    let (c, mut pos) = manual("TAM-11", "e");
    let drawn = Some(Outcome::Draw {
        reason: Reason::Citadel,
    });
    assert_eq!(outcome(&mut pos), None, "the game is on before the entry");
    play(&mut pos, "a10z9");
    assert_eq!(at(&pos, "z9"), piece(&pos, "king", Side::First));
    assert_eq!(ended_by_rule(&pos), drawn);
    assert_eq!(outcome(&mut pos), drawn);
    assert!(legal(&mut pos).is_empty(), "no move after the end");
    // Black to move in the same position: K k1-l2 draws as well.
    let fen = str_field(&c, "fen").unwrap().replace(" w ", " b ");
    let mut pos = Position::from_fen(pos.variant().clone(), &fen).unwrap();
    assert_eq!(outcome(&mut pos), None);
    play(&mut pos, "k1l2");
    assert_eq!(at(&pos, "l2"), piece(&pos, "king", Side::Second));
    assert_eq!(outcome(&mut pos), drawn);
}

#[test]
fn tam_16b_relocated_pawn_is_py() {
    let (_, pos) = manual("TAM-16", "b");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Relocate);
    assert_eq!(
        at(&pos, "e5"),
        piece(&pos, "pawn-of-pawns-relocated", Side::First)
    );
    assert_eq!(at(&pos, "a10"), Piece::EMPTY);
    assert_eq!(at(&pos, "d6"), piece(&pos, "knight", Side::Second));
    assert_eq!(at(&pos, "f6"), piece(&pos, "rook", Side::Second));
    assert!(pos.fen().contains("PY"), "{}", pos.fen());
}

#[test]
fn tam_18b_second_arrival_transfers_to_f3() {
    let (_, pos) = manual("TAM-18", "b");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Transfer);
    assert_eq!(
        at(&pos, "f3"),
        piece(&pos, "pawn-of-pawns-transferred", Side::First)
    );
    assert_eq!(at(&pos, "c10"), Piece::EMPTY);
    assert_eq!(at(&pos, "c9"), Piece::EMPTY);
}

#[test]
fn tam_18d_occupied_f3_pawn_waits_immune() {
    let (_, pos) = manual("TAM-18", "d");
    let waiting = piece(&pos, "pawn-of-pawns-waiting", Side::First);
    assert_eq!(at(&pos, "c10"), waiting);
    assert_eq!(at(&pos, "f3"), piece(&pos, "knight", Side::First));
    assert!(pos.variant().pieces[waiting.kind() as usize].immune);
    // Immune: a Black Rook on the c file cannot take it.
    let fen = "*2PV7k*/12*/*11*/*11*/*11*/*2r8*/*11*/*5N5*/*12/*K10* b - 0 1";
    let mut rook = Position::from_fen(pos.variant().clone(), fen).unwrap();
    let dests: BTreeSet<String> = legal(&mut rook)
        .iter()
        .filter(|m| sq_name(&rook, m.from) == "c5")
        .map(|m| sq_name(&rook, m.to))
        .collect();
    assert!(dests.contains("c9") && !dests.contains("c10"), "{dests:?}");
}

#[test]
fn tam_19b_third_arrival_adventitious_king() {
    let (_, pos) = manual("TAM-19", "b");
    assert_eq!(
        at(&pos, "d10"),
        piece(&pos, "adventitious-king", Side::First)
    );
    assert_eq!(pos.royals(Side::First).len(), 2, "White has two royals");
}
