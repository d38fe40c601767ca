//! Savard's Ordinary Variant (rules/ordinary-variant.md): the rule book's
//! manual cases (Dynamic Scoring, OV-22 and OV-23), the reference counts of
//! section 9 with their breakdown columns and make / unmake and hash checked
//! at every node, and the Checker's move text. The other cases of section 8
//! run from `tests/data/cases.json` in `rulebook.rs`.

mod common;

use common::{moves_from, variant};
use kamil_rules::movegen::{in_check, legal_moves};
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::{claimable, ended_by_rule, outcome};
use kamil_rules::special::checker;
use kamil_rules::{Move, MoveKind, Outcome, Points, Position, Reason, Scoring, Side};
use serde_json::Value;

fn position(fen: &str, options: &[(&str, &str)]) -> Position {
    common::position("ordinary-variant", options, fen)
}

fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        assert!(
            outcome(pos).is_none(),
            "the game ended before {text}: {:?}",
            outcome(pos)
        );
        common::play(pos, text);
    }
}

fn shared(first: u32, second: u32, reason: Reason, by: Side) -> Option<Outcome> {
    Some(Outcome::Points {
        points: Points::whole(first, second),
        scoring: Scoring::Shared,
        reason,
        by: Some(by),
    })
}

/// OV-22: Black, to move, has no legal move and is not in check: White
/// stalemated Black, 60-40 under `ds-classic` and `ds-simple`.
#[test]
fn ov_22b_stalemate_scores_60_40() {
    let fen = "k11/12/1Q10/12/12/12/12/12/12/4K7 b - - 0 1";
    for opts in [&[][..], &[("ds-simple", "true")][..]] {
        let mut pos = position(fen, opts);
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        assert!(moves.is_empty());
        assert!(!in_check(&pos, Side::Second));
        let o = outcome(&mut pos);
        assert_eq!(
            o,
            shared(60, 40, Reason::Stalemate, Side::First),
            "{opts:?}"
        );
        assert_eq!(o.unwrap().score(), "1-0");
    }
    // The mirror image: Black stalemates White, 39-61 in the classic schedule.
    let mut pos = position("4k7/12/12/12/12/12/12/1q10/12/K11 w - - 0 1", &[]);
    assert_eq!(
        outcome(&mut pos),
        shared(39, 61, Reason::Stalemate, Side::Second)
    );
}

/// OV-23 (a) and (b): a position occurs the third time and every move of
/// one player since its first occurrence gave check.
#[test]
fn ov_23a_perpetual_check_scores() {
    // (a) Black checks with the Rook on every move: 43-57, ds-simple 49-51.
    let black_checks = "11k/12/r11/12/12/12/12/12/12/K11 w - - 0 1";
    let cycle = "a1b1 a8b8 b1a1 b8a8 a1b1 a8b8 b1a1";
    for (opts, want) in [
        (&[][..], (43, 57)),
        (&[("ds-simple", "true")][..], (49, 51)),
        (&[("ds-tiebreaker", "true")][..], (45, 55)),
    ] {
        let mut pos = position(black_checks, opts);
        play(&mut pos, cycle);
        assert_eq!(outcome(&mut pos), None, "second occurrence only");
        play(&mut pos, "b8a8");
        assert_eq!(
            outcome(&mut pos),
            shared(want.0, want.1, Reason::PerpetualCheck, Side::Second),
            "{opts:?}"
        );
    }
    // (b) White checks: 52-48, ds-simple 50-50 (credited, but even).
    let white_checks = "k11/12/12/12/12/12/12/R11/12/11K b - - 0 1";
    let cycle = "a10b10 a3b3 b10a10 b3a3 a10b10 a3b3 b10a10 b3a3";
    for (opts, want) in [
        (&[][..], (52, 48)),
        (&[("ds-simple", "true")][..], (50, 50)),
    ] {
        let mut pos = position(white_checks, opts);
        play(&mut pos, cycle);
        let o = outcome(&mut pos);
        assert_eq!(
            o,
            shared(want.0, want.1, Reason::PerpetualCheck, Side::First),
            "{opts:?}"
        );
        assert_eq!(o.unwrap().credited(), Some(Side::First));
    }
    // A repetition without perpetual check is a plain draw, 50-50.
    let mut pos = position("11k/12/12/12/n10N/12/12/12/12/K11 w - - 0 1", &[]);
    play(&mut pos, "a1b1 l10k10 b1a1 k10l10 a1b1 l10k10 b1a1");
    assert_eq!(outcome(&mut pos), None);
    play(&mut pos, "k10l10");
    let o = outcome(&mut pos).unwrap();
    assert_eq!(
        (o.points(), o.reason()),
        (Some(Points::whole(50, 50)), Reason::Repetition)
    );
    // ds-perpetual-n: four checks in a row are perpetual check.
    let mut pos = position(black_checks, &[("ds-perpetual-n", "4")]);
    play(&mut pos, "a1b1 a8b8 b1a1 b8a8 a1b1 a8b8");
    assert_eq!(outcome(&mut pos), None, "three checks so far");
    play(&mut pos, "b1a1 b8a8");
    assert_eq!(
        outcome(&mut pos),
        shared(43, 57, Reason::PerpetualCheck, Side::Second)
    );
}

/// OV-23 (c): White to move claims the bare-King result, 56-44 (ds-simple
/// 52-48); not automatic unless `ds-bare-auto`; no such result in Tiebreaker.
#[test]
fn ov_23c_bare_king_claim_scores() {
    let fen = "12/12/7k4/12/12/R11/12/12/12/4K7 w - - 0 1";
    let mut pos = position(fen, &[]);
    assert_eq!(outcome(&mut pos), None, "claimed, not automatic (A16)");
    assert_eq!(
        claimable(&pos),
        shared(56, 44, Reason::BareKing, Side::First)
    );
    let pos = position(fen, &[("ds-simple", "true")]);
    assert_eq!(
        claimable(&pos),
        shared(52, 48, Reason::BareKing, Side::First)
    );
    let pos = position(fen, &[("ds-tiebreaker", "true")]);
    assert_eq!(claimable(&pos), None);
    let pos = position(fen, &[("ds-bare-auto", "true")]);
    assert_eq!(
        ended_by_rule(&pos),
        shared(56, 44, Reason::BareKing, Side::First)
    );
    // Black to move cannot claim: it is Black's King that is bare.
    let pos = position("12/12/7k4/12/12/R11/12/12/12/4K7 b - - 0 1", &[]);
    assert_eq!(claimable(&pos), None);
    // Both Kings bare: a draw at once.
    let pos = position("12/12/7k4/12/12/12/12/12/12/4K7 w - - 0 1", &[]);
    let o = ended_by_rule(&pos).expect("both bare ends the game");
    assert_eq!(
        (o.points(), o.reason()),
        (Some(Points::whole(50, 50)), Reason::BothBare)
    );
}

/// Checkmate is 100-0 in points.
#[test]
fn checkmate_scores_100_0() {
    // Black King a10 mated by the Queen b9 guarded by the King c8.
    let mut pos = position("k11/1Q10/2K9/12/12/12/12/12/12/12 b - - 0 1", &[]);
    assert_eq!(
        outcome(&mut pos),
        shared(100, 0, Reason::Checkmate, Side::First)
    );
}

/// The leaf count below `pos` with the rule book's breakdown columns for the
/// last ply (captures, jumps, multi, checks), checking at every node that
/// make / unmake restores the position and that the incremental hash equals
/// the hash from scratch.
struct Count {
    nodes: u64,
    captures: u64,
    jumps: u64,
    multi: u64,
    checks: u64,
}

fn walk(pos: &mut Position, depth: u32, c: &mut Count) {
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash at {}", pos.fen());
    if ended_by_rule(pos).is_some() {
        return;
    }
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    let fen = pos.fen();
    let hash = pos.hash();
    let ck = pos.variant().specials.checker.expect("the Checker module");
    for m in moves {
        let before = pos.non_royal_count(Side::First) + pos.non_royal_count(Side::Second);
        let jump = m.kind == MoveKind::Checker;
        let taken = checker::captures(&ck, pos, &m).0.count_ones() as u64;
        pos.make(m);
        if depth == 1 {
            let after = pos.non_royal_count(Side::First) + pos.non_royal_count(Side::Second);
            assert_eq!((before - after) as u64, taken, "captures of {m:?}");
            c.nodes += 1;
            c.captures += u64::from(taken > 0);
            c.jumps += u64::from(jump);
            c.multi += u64::from(taken >= 2);
            c.checks += u64::from(in_check(pos, pos.side()));
            assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash after {m:?}");
        } else {
            walk(pos, depth - 1, c);
        }
        pos.unmake();
        assert_eq!(pos.hash(), hash, "hash restored after {m:?}");
        assert_eq!(pos.fen(), fen, "position restored after {m:?}");
    }
}

/// Section 9: every reference count of cases.json (`OV-REF`) up to depth 3,
/// with its breakdown, make / unmake and the hash checked at every node.
/// (Start position depth 4, 3,225,582, is in tests/data/perft.txt. The
/// book's first edition counted Checker steps that leave the King attacked:
/// see checker_steps_may_not_leave_the_king_attacked.)
#[test]
fn reference_counts_with_breakdown_and_consistency() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cases.json");
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut run = 0;
    for c in all.as_array().unwrap() {
        if c["id"] != "OV-REF" || c["depth"].as_u64().unwrap() > 3 {
            continue;
        }
        let depth = c["depth"].as_u64().unwrap() as u32;
        let mut pos = position(c["fen"].as_str().unwrap(), &[]);
        let mut n = Count {
            nodes: 0,
            captures: 0,
            jumps: 0,
            multi: 0,
            checks: 0,
        };
        walk(&mut pos, depth, &mut n);
        let what = format!("{} depth {depth}", c["what"]);
        println!(
            "{what}: {} nodes, captures {} jumps {} multi {} checks {}",
            n.nodes, n.captures, n.jumps, n.multi, n.checks
        );
        let expected = c["nodes"].as_u64().unwrap();
        assert_eq!(n.nodes, expected, "{what}: perft");
        let b = &c["breakdown"];
        let got = [
            ("captures", n.captures),
            ("jumps", n.jumps),
            ("multi", n.multi),
            ("checks", n.checks),
        ];
        for (k, v) in got {
            assert_eq!(v, b[k].as_u64().unwrap(), "{what}: {k}");
        }
        println!("{what}: {} nodes, breakdown {got:?}", n.nodes);
        run += 1;
    }
    assert_eq!(run, 6, "six OV-REF counts up to depth 3");
}

/// Chains are written with every landing square and read in that form, the
/// comma form, and through any other path with the same captures.
#[test]
fn chain_move_text() {
    // OV-04: c3 takes d4, then f6.
    let mut pos = position("11k/12/12/12/5p6/12/3p8/2C9/12/K11 w - - 0 1", &[]);
    let m = parse_move(&mut pos, "c3e5g7").unwrap();
    assert_eq!(move_text(pos.variant(), m), "c3e5g7");
    assert_eq!(parse_move(&mut pos, "c3e5,e5g7").unwrap(), m);
    assert_eq!(parse_move(&mut pos, "C3-e5-g7").unwrap(), m);
    assert!(parse_move(&mut pos, "c3g7").is_err(), "not a path of jumps");
    assert_eq!(checker::leg_count(&m), 2);
    // The move stays small and Copy (14 bytes with Frolov's `aux` square).
    assert!(std::mem::size_of::<Move>() <= 14);
    // Two paths to the same move: c1 over the Knights b2 and b4, or over d2
    // and d4, both reach c5 taking nothing. One move, written through the
    // smaller landing square (a3 before e3, 5.1); both spellings read.
    let mut pos = position("11k/12/12/12/12/12/1N1N8/12/1N1N8/2C8K w - - 0 1", &[]);
    let texts: Vec<String> = moves_from(&mut pos, "c1").into_iter().collect();
    assert_eq!(
        texts,
        ["c1a3", "c1a3c5", "c1b1", "c1c2", "c1d1", "c1e3"],
        "Checker c1"
    );
    let m = parse_move(&mut pos, "c1e3c5").unwrap();
    assert_eq!(move_text(pos.variant(), m), "c1a3c5");
}

/// OV-15 by history (parts l-v): the rule book plays e9-e7 to make the en
/// passant square, but there the Pawn e9 must take the Checker d8 (5.4 step
/// 2), so e9-e7 is illegal. As the case means it: the double step made
/// anyway, then every check of the case.
#[test]
fn ov_15_by_history_with_the_double_step_forced() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cases.json");
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut run = 0;
    for c in all.as_array().unwrap() {
        if c["id"] != "OV-15" || c.get("moves").is_none() {
            continue;
        }
        let mut pos = position(c["fen"].as_str().unwrap(), &[]);
        assert!(
            parse_move(&mut pos, "e9e7").is_err(),
            "e9e7 is illegal here"
        );
        assert!(
            parse_move(&mut pos, "e9d8").is_ok(),
            "the Pawn must take d8"
        );
        let g = pos.variant().geometry.clone();
        pos.make(Move::new(
            g.parse_square("e9").unwrap(),
            g.parse_square("e7").unwrap(),
        ));
        assert!(pos.en_passant().is_some(), "e8 is the en passant square");
        let from = c["square"].as_str().map(|s| g.parse_square(s).unwrap());
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        let texts: Vec<String> = moves
            .iter()
            .filter(|m| from.is_none_or(|f| m.from == f))
            .map(|m| move_text(pos.variant(), *m))
            .collect();
        match c["kind"].as_str().unwrap() {
            "moves_count" => assert_eq!(texts.len() as u64, c["count"].as_u64().unwrap()),
            "dests" => {
                let mut got: Vec<String> = moves
                    .iter()
                    .filter(|m| from.is_none_or(|f| m.from == f))
                    .map(|m| g.name(m.to).to_string())
                    .collect();
                got.sort();
                let want: Vec<String> = c["dests"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(got, want);
            }
            "move_legal" => {
                let text = c["move"].as_str().unwrap();
                assert_eq!(
                    parse_move(&mut pos, text).is_ok(),
                    c["legal"].as_bool().unwrap(),
                    "{} {text}",
                    c["part"]
                );
            }
            other => panic!("kind {other}"),
        }
        run += 1;
    }
    assert_eq!(run, 11, "OV-15 parts l-v");
}

/// The rule book's alternatives (section 6) change what they say.
#[test]
fn options_change_the_rules_they_name() {
    let count = |fen: &str, opts: &[(&str, &str)]| {
        let mut pos = position(fen, opts);
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        moves.len()
    };
    // OV-20: King 3, c2 2, d9 promotes to 7 pieces (A3), 4, or 8.
    let ov20 = "11k/3P8/12/12/12/12/12/12/2P9/K11 w - - 0 1";
    assert_eq!(count(ov20, &[]), 12);
    assert_eq!(count(ov20, &[("ov.promo-fide", "true")]), 9);
    assert_eq!(count(ov20, &[("ov.promo-checker", "true")]), 13);
    // OV-10: after the friendly jump c3-e5 the jump over f6 is forced (A7).
    let ov10 = "11k/12/12/12/5c6/12/3N8/2C9/12/K11 w - - 0 1";
    assert_eq!(count(ov10, &[]), 19);
    assert_eq!(count(ov10, &[("ov.force-after-capture-only", "true")]), 20);
    // OV-07: no friendly jump after a capture (A8).
    let ov07 = "11k/12/12/12/5N6/12/3p8/2C9/12/K11 w - - 0 1";
    let mut pos = position(ov07, &[("ov.jumps-any-order", "true")]);
    assert!(parse_move(&mut pos, "c3e5g7").is_ok());
    let mut pos = position(ov07, &[]);
    assert!(parse_move(&mut pos, "c3e5g7").is_err());
    // OV-18 (a): only a direct jump attacks under A12, and here all do.
    let ov18 = "11k/12/12/12/12/12/12/4c7/12/4K7 w - - 0 1";
    assert_eq!(count(ov18, &[("ov.check-single-jump", "true")]), 2);
    // OV-13: the chain f5 x e4 -> d3 x d2 stops attacking d2 under A12.
    let ov13 = "4r6k/12/12/12/12/5c6/4P7/12/12/4K6N w - - 0 1";
    let mut pos = position(ov13, &[("ov.check-single-jump", "true")]);
    assert!(parse_move(&mut pos, "e1d2").is_ok());
    let mut pos = position(ov13, &[]);
    assert!(parse_move(&mut pos, "e1d2").is_err());
    // A1: the rotated array puts Black's King on e10 and castles from there.
    let v = variant("ordinary-variant", &[("ov.setup-rotated", "true")]);
    let start = Position::start(v);
    assert!(start.fen().starts_with("rnbtklmqtbnr/"), "{}", start.fen());
    // Every other alternative loads and keeps the move tree sound.
    let contact = "rnbtqmlktbnr/pp1pp1pp1pp1/2p2p2p2p/1c2c2c2c1/12/12/1C2C2C2C1/2P2P2P2P/PP1PP1PP1PP1/RNBTQMLKTBNR w KQkq - 0 1";
    for opt in [
        "ov.duty-first-capture",
        "ov.force-geometric",
        "ov.revisit-allowed",
        "ov.remove-at-end",
        "ov.ep-any-step",
    ] {
        let mut pos = position(contact, &[(opt, "true")]);
        let mut n = Count {
            nodes: 0,
            captures: 0,
            jumps: 0,
            multi: 0,
            checks: 0,
        };
        walk(&mut pos, 2, &mut n);
        assert!(n.nodes > 4000, "{opt}: {} nodes", n.nodes);
    }
}

/// A9 `ov.revisit-allowed` on a board of Checkers behind their own
/// pieces: friendly jumps back and forth make up to 8^9 paths a Checker,
/// and a perft of 2 took 25 s (found by the `fen` fuzz target). Paths
/// that meet one state are now walked once. The count, 2,402, is the one
/// the walk over every path gave before.
#[test]
fn revisits_allowed_do_not_multiply_the_paths() {
    let fen = "r1btqmlktb1r/pppppppppppp/1cn1c2c1nc1/12/12/12/12/1CN1C2C1NC1/PPPPPPPPPPPP/R1BTQMLKTB1R w KQkq - 4 3";
    let mut pos = position(fen, &[("ov.revisit-allowed", "true")]);
    assert_eq!(kamil_rules::perft::perft(&mut pos, 2), 2_402);
    // The Checker on b3 may jump its Knight on c3 to d3 and back to b3,
    // but a series that took nothing may not end on its start (A9).
    let mut moves = Vec::new();
    legal_moves(&mut pos, &mut moves);
    assert!(
        moves.iter().all(|m| m.from != m.to),
        "a series that takes nothing ends away from its start (A9)"
    );
}

/// A Checker's step (5.1) is a move of `PL` like any other, so it is in `L`
/// only if it leaves the mover's King unattacked (5.3; 5.7: no moving into
/// check). Section 9's independent implementation skips this test for
/// Checker steps (not for jump series): letting them through reproduces its
/// figures exactly, start position perft(4) 3,226,346 (kamil 3,225,582) and
/// Checker contact position perft(3) 336,297 with every breakdown column
/// (kamil 336,249). Each position below is in those trees and holds such
/// steps; the Leo attacks by hopping one screen (section 3).
#[test]
fn checker_steps_may_not_leave_the_king_attacked() {
    let start = "rnbtqmlktbnr/pppppppppppp/1c2c2c2c1/12/12/12/12/1C2C2C2C1/PPPPPPPPPPPP/RNBTQMLKTBNR w KQkq - 0 1";
    let contact = "rnbtqmlktbnr/pp1pp1pp1pp1/2p2p2p2p/1c2c2c2c1/12/12/1C2C2C2C1/2P2P2P2P/PP1PP1PP1PP1/RNBTQMLKTBNR w KQkq - 0 1";
    let all = |pos: &mut Position| -> Vec<String> {
        let mut moves = Vec::new();
        legal_moves(pos, &mut moves);
        let mut t: Vec<String> = moves.iter().map(|m| move_text(pos.variant(), *m)).collect();
        t.sort();
        t
    };
    let set = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();

    // In check from the Queen b4 (diagonal b4-h10): only the steps onto the
    // diagonal parry it; the book's first edition also counted the 17 other
    // Checker steps.
    let mut pos = position(start, &[]);
    play(&mut pos, "d2d3 g9g7 e1b4");
    assert!(in_check(&pos, Side::Second));
    assert_eq!(
        all(&mut pos),
        set(&["e8e7", "e8f8", "f10g9", "f9f8", "g10g9", "h8g9"])
    );

    // In check from the Leo g2 hopping its screen h2: no Checker step parries
    // it (the book's first edition counted all 28).
    let mut pos = position(contact, &[]);
    play(&mut pos, "h1i2 g10g2");
    assert!(in_check(&pos, Side::First));
    assert_eq!(
        all(&mut pos),
        set(&["f1g2", "h2h3", "i1g2", "i2h1", "i2h3", "i2j3"])
    );

    // The Checker e4 and the Pawn g2 stand between the Leo c6 and the King
    // h1: a step off that diagonal leaves g2 the Leo's only screen.
    let mut pos = position(contact, &[]);
    play(&mut pos, "f3f4 g10c6");
    assert!(!in_check(&pos, Side::First));
    let e4: Vec<String> = moves_from(&mut pos, "e4").into_iter().collect();
    assert_eq!(e4, set(&["e4d5", "e4f3"]));

    // Nothing stands between the Leo a3 and the King h10: a step onto that
    // diagonal makes the Checker the Leo's screen (e8e7, e8f8, h8g9).
    let mut pos = position(start, &[]);
    play(&mut pos, "g1g9 a9a7 g9a3");
    assert!(!in_check(&pos, Side::Second));
    let e8: Vec<String> = moves_from(&mut pos, "e8").into_iter().collect();
    assert_eq!(e8, set(&["e8d7", "e8d8", "e8f7"]));
    let h8: Vec<String> = moves_from(&mut pos, "h8").into_iter().collect();
    assert_eq!(h8, set(&["h8g7", "h8g8", "h8h7", "h8i7", "h8i8"]));
}
