//! Dai Shogi beyond the rule book's numbered cases (those are run from
//! `tests/data/cases.json` by `tests/rulebook.rs`): the multi-character
//! tokens of section 9, the start position of section 4, promotion details
//! of section 5, and every option of `variants/dai-shogi.toml`.

mod common;
use common::{moves_from, set};

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::outcome;
use kamil_rules::{Outcome, Piece, Position, Reason, Side, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

fn variant(options: &[(&str, &str)]) -> Arc<Variant> {
    common::variant("dai-shogi", options)
}

/// A position from (square, token) pairs; Black K a1 and White K o15 are
/// added unless a piece stands there.
fn position(options: &[(&str, &str)], pieces: &[(&str, &str)], side: &str) -> Position {
    let mut grid = vec![vec![String::new(); 15]; 15];
    let mut put = |sq: &str, tok: &str| {
        let f = (sq.as_bytes()[0] - b'a') as usize;
        let r: usize = sq[1..].parse().unwrap();
        grid[r - 1][f] = tok.to_string();
    };
    put("a1", "K");
    put("o15", "k");
    for (sq, tok) in pieces {
        put(sq, tok);
    }
    let fen = format!("{} {side}", common::board_fen(&grid));
    common::position("dai-shogi", options, &fen)
}

/// Section 9's start position.
const START: &str = "lnuicsgkgsciunl/a1c'1f1tet1f1c'1a/1x'1a'1wxl!ow1a'1x'1/rf'mvbhdqdhbvmf'r/ppppppppppppppp/4p'5p'4/15/15/15/4P'5P'4/PPPPPPPPPPPPPPP/RF'MVBHDQDHBVMF'R/1X'1A'1WOL!XW1A'1X'1/A1C'1F1TET1F1C'1A/LNUICSGKGSCIUNL b";

#[test]
fn start_position_is_section_9s_and_round_trips() {
    let v = variant(&[]);
    let pos = Position::start(v.clone());
    assert_eq!(pos.fen(), START);
    assert_eq!(Position::from_fen(v.clone(), START).unwrap().fen(), START);
    // Section 4: 65 pieces a side.
    assert_eq!(pos.pieces(Side::First).len(), 65);
    assert_eq!(pos.pieces(Side::Second).len(), 65);
    // Kirin and Phoenix are the one asymmetry: Black Kr g3, Ph i3; White
    // Ph g13, Kr i13. Lions on h3 and h13, Go-Betweens on e6, k6, e10, k10.
    let sq = |n: &str| v.geometry.parse_square(n).unwrap();
    let p = |key: &str, side| Piece::new(v.piece_by_key(key).unwrap(), side);
    for (name, key, side) in [
        ("g3", "kirin", Side::First),
        ("i3", "phoenix", Side::First),
        ("h3", "lion", Side::First),
        ("g13", "phoenix", Side::Second),
        ("i13", "kirin", Side::Second),
        ("h13", "lion", Side::Second),
        ("e6", "go-between", Side::First),
        ("k6", "go-between", Side::First),
        ("e10", "go-between", Side::Second),
        ("k10", "go-between", Side::Second),
        ("h12", "free-king", Side::Second),
        ("h14", "drunk-elephant", Side::Second),
    ] {
        assert_eq!(pos.at(sq(name)), p(key, side), "{name}");
    }
}

#[test]
fn tokens_of_section_9() {
    let v = variant(&[]);
    for (key, token, id) in [
        ("lion", "L!", "Ln"),
        ("go-between", "P'", "GB"),
        ("cat-sword", "C'", "CS"),
        ("angry-boar", "A'", "AB"),
        ("violent-ox", "X'", "VO"),
        ("flying-dragon", "F'", "FD"),
        ("stone", "U", "St"),
        ("knight", "N", "N"),
        ("evil-wolf", "W", "EW"),
        ("kirin", "O", "Kr"),
        ("phoenix", "X", "Ph"),
        ("lance", "L", "L"),
        ("crown-prince", "+E", "+DE"),
        ("promoted-go-between", "+P'", "+GB"),
        ("promoted-cat-sword", "+C'", "+CS"),
        ("promoted-kirin", "+O", "+Kr"),
        ("horned-falcon", "+H", "+DH"),
        ("soaring-eagle", "+D", "+DK"),
        ("tokin", "+P", "+P"),
        ("promoted-stone", "+U", "+St"),
    ] {
        let t = v.piece_by_key(key).unwrap_or_else(|| panic!("{key}")) as usize;
        assert_eq!(v.pieces[t].token, token, "{key}");
        assert_eq!(v.pieces[t].id, id, "{key}");
    }
    // Every token of both colours reads back as written, next to its
    // prefixes (`L` beside `L!`, `P` beside `P'`, `+P` beside `+P'`).
    let all = "l!lp'p+p'+pc'c+c'+cx'x+x'+x1/f'f+f'+fa'a+a'+a7/15/15/15/15/15/15/15/15/15/15/15/\
               F'F+F'+FA'A+A'+A7/L!LP'P+P'+PC'C+C'+CX'X+X'+X1 w";
    let pos = Position::from_fen(v.clone(), all).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.fen(), all);
    let l = pos.at(v.geometry.parse_square("a1").unwrap());
    assert_eq!(l, Piece::new(v.piece_by_key("lion").unwrap(), Side::First));
    let l = pos.at(v.geometry.parse_square("b15").unwrap());
    assert_eq!(
        l,
        Piece::new(v.piece_by_key("lance").unwrap(), Side::Second)
    );
    // A lone apostrophe or `!` is no piece.
    assert!(
        Position::from_fen(
            v.clone(),
            "14k/15/15/15/15/15/15/15/15/15/15/15/15/15/K!13 b"
        )
        .is_err()
    );
    assert!(Position::from_fen(v, "14k/15/15/15/15/15/15/15/15/15/15/15/15/15/K'13 b").is_err());
}

#[test]
fn start_position_perft_matches_section_4() {
    let mut pos = Position::start(variant(&[]));
    assert_eq!(kamil_rules::perft::perft(&mut pos, 1), 71);
    // The Go-Betweens step forward, the Lions only jump.
    let moves = moves_from(&mut pos, "e6");
    assert_eq!(moves, set(&["e6e7"]));
    let moves = moves_from(&mut pos, "h3");
    assert_eq!(moves, set(&["h3f2", "h3j2"]));
}

#[test]
fn lance_entering_the_zone_may_promote_on_each_square() {
    // Section 5: entering the zone; e15 is the Lance's dead square, where it
    // may still stay unpromoted (promotion is never compulsory).
    let mut pos = position(&[], &[("e10", "L")], "b");
    let moves = moves_from(&mut pos, "e10");
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert!(moves.contains("e10e15") && moves.contains("e10e15+"));
}

#[test]
fn capture_from_inside_the_zone_promotes() {
    // S e12 takes on e13: a capture that starts in the zone; the move to the
    // empty d13 does not promote.
    let mut pos = position(&[], &[("e12", "S"), ("e13", "p")], "b");
    let moves = moves_from(&mut pos, "e12");
    assert!(moves.contains("e12e13+"), "{moves:?}");
    assert!(moves.contains("e12d13") && !moves.contains("e12d13+"));
    // A White Gold does the same towards rank 1: zone ranks 1-5.
    let mut pos = position(&[], &[("e6", "g"), ("e5", "P")], "w");
    let moves = moves_from(&mut pos, "e6");
    assert!(
        moves.contains("e6e5+") && moves.contains("e6d5+"),
        "{moves:?}"
    );
    assert!(!moves.contains("e6d6+"));
}

#[test]
fn dai_relief() {
    // A Pawn, Lance, Knight, Iron and Stone General already in the zone,
    // each one move from becoming immobile.
    let pieces = [
        ("b14", "P"),
        ("d14", "L"),
        ("f13", "N"),
        ("h14", "I"),
        ("j14", "U"),
    ];
    let promoting = |opts: &[(&str, &str)]| -> BTreeSet<String> {
        let mut pos = position(opts, &pieces, "b");
        let mut out = Vec::new();
        legal_moves(&mut pos, &mut out);
        let v = pos.variant().clone();
        out.iter()
            .map(|m| move_text(&v, *m))
            .filter(|t| t.ends_with('+'))
            .collect()
    };
    // Default: the Pawn only (A6).
    assert_eq!(promoting(&[]), set(&["b14b15+"]));
    assert_eq!(promoting(&[("dai-relief", "pawn")]), set(&["b14b15+"]));
    assert!(promoting(&[("dai-relief", "none")]).is_empty());
    assert_eq!(
        promoting(&[("dai-relief", "all-forward")]),
        set(&[
            "b14b15+", "d14d15+", "f13e15+", "f13g15+", "h14g15+", "h14h15+", "h14i15+", "j14i15+",
            "j14k15+",
        ])
    );
    // The relief is for non-capturing moves only; a capture from inside the
    // zone promotes anyway (5.2).
    let mut pos = position(
        &[("dai-relief", "none")],
        &[("b14", "P"), ("b15", "n")],
        "b",
    );
    assert_eq!(moves_from(&mut pos, "b14"), set(&["b14b15", "b14b15+"]));
}

#[test]
fn forced_last_rank_promotion() {
    let opts = [("forced-last-rank-promotion", "true")];
    // A Lance sliding in: e15 only promoted, e11-e14 either way.
    let mut pos = position(&opts, &[("e10", "L")], "b");
    let moves = moves_from(&mut pos, "e10");
    assert_eq!(moves.len(), 9, "{moves:?}");
    assert!(!moves.contains("e10e15") && moves.contains("e10e15+"));
    // A Knight jumping into the zone from rank 10 lands on rank 12: not dead.
    let mut pos = position(&opts, &[("e10", "N")], "b");
    assert_eq!(moves_from(&mut pos, "e10").len(), 4);
    // From rank 12 without capture it may not promote at all (5), forced
    // or not: it simply becomes a dead piece.
    let mut pos = position(&opts, &[("e12", "N")], "b");
    assert_eq!(moves_from(&mut pos, "e12"), set(&["e12d14", "e12f14"]));
    // The Pawn's relief move becomes compulsory.
    let mut pos = position(&opts, &[("b14", "P")], "b");
    assert_eq!(moves_from(&mut pos, "b14"), set(&["b14b15+"]));
}

#[test]
fn eagle_pass() {
    let mut pos = position(&[], &[("e5", "+D")], "b");
    let moves = moves_from(&mut pos, "e5");
    assert!(
        moves.contains("e5d6e5") || moves.contains("e5f6e5"),
        "{moves:?}"
    );
    let mut pos = position(&[], &[("e5", "+H")], "b");
    assert!(moves_from(&mut pos, "e5").contains("e5e6e5"));
    let opts = [("eagle-pass", "false")];
    let mut pos = position(&opts, &[("e5", "+D")], "b");
    let moves = moves_from(&mut pos, "e5");
    assert!(!moves.iter().any(|m| m.ends_with("e5") && m.len() > 4));
    // The igui stays.
    let mut pos = position(&opts, &[("e5", "+H"), ("e6", "p")], "b");
    assert!(moves_from(&mut pos, "e5").contains("e5e6e5"));
}

#[test]
fn stalemate_loses_or_draws() {
    // DAI-15: Black's King boxed in by its own Pawns.
    let fen = "KP13/PP13/15/15/15/15/15/15/15/15/15/15/15/15/14k b";
    let mut pos = Position::from_fen(variant(&[]), fen).unwrap();
    let mut moves = Vec::new();
    legal_moves(&mut pos, &mut moves);
    assert!(moves.is_empty(), "Black has no move");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Stalemate
        })
    );
    let mut pos = Position::from_fen(variant(&[("stalemate", "draw")]), fen).unwrap();
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn royal_safety() {
    // DAI-13: by default the King may step next to the Gold; with royal
    // safety only d1 and f1 remain.
    let mut pos = Position::from_fen(
        variant(&[("royal-safety", "true")]),
        "14k/15/15/15/15/15/15/15/15/15/15/15/4g10/15/4K10 b",
    )
    .unwrap();
    assert_eq!(moves_from(&mut pos, "e1"), set(&["e1d1", "e1f1"]));
}

#[test]
fn max_plies_draws() {
    let v = variant(&[("max-plies", "2")]);
    assert_eq!(variant(&[]).rules.max_plies, 0, "no limit by default");
    let mut pos = Position::start(v);
    for m in ["a5a6", "a11a10"] {
        assert_eq!(outcome(&mut pos), None, "before {m}");
        let mv = parse_move(&mut pos, m).unwrap();
        pos.make(mv);
    }
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::MaxPlies
        })
    );
}

#[test]
fn bare_king_option_as_in_chu() {
    // 6.4, A11: Black's lone King against White's King and Gold loses with
    // `bare-king`; without it play goes on; Pawns alone do not count.
    let rows = |mid: &str| {
        let mut r = vec!["14k".to_string()];
        r.extend(std::iter::repeat_n("15".to_string(), 6));
        r.push(mid.to_string());
        r.extend(std::iter::repeat_n("15".to_string(), 6));
        r.push("K14".to_string());
        format!("{} b", r.join("/"))
    };
    let on = variant(&[("bare-king", "true")]);
    let mut pos = Position::from_fen(on.clone(), &rows("7g7")).expect("FEN");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::BareKing
        })
    );
    let mut pos = Position::from_fen(on, &rows("7p7")).expect("FEN");
    assert_eq!(outcome(&mut pos), None);
    let mut pos = Position::from_fen(variant(&[]), &rows("7g7")).expect("FEN");
    assert_eq!(outcome(&mut pos), None);
}

#[test]
fn lion_trading_options() {
    // DAI-06: a protected distant Lion. Dai's default takes it; Chu's rules
    // (`chu`) and the seed's (`seed`) forbid it. DAI-07 (Pawn bridge): Chu's
    // bridge exception does not count an unpromoted Pawn.
    let dai_06 = [("e5", "L!"), ("e7", "l!"), ("e8", "g")];
    let dai_07 = [("e5", "L!"), ("e6", "p"), ("e7", "l!"), ("e8", "s")];
    for (mode, legal) in [("none", true), ("chu", false), ("seed", false)] {
        let opts = [("lion-trading", mode)];
        let mut pos = position(&opts, &dai_06, "b");
        assert_eq!(parse_move(&mut pos, "e5e7").is_ok(), legal, "{mode}");
        let mut pos = position(&opts, &dai_07, "b");
        assert_eq!(parse_move(&mut pos, "e5e7").is_ok(), legal, "{mode}");
        assert_eq!(parse_move(&mut pos, "e5e6e7").is_ok(), legal, "{mode}");
    }
    // An adjacent protected Lion may always be taken (Chu LT1).
    let mut pos = position(
        &[("lion-trading", "chu")],
        &[("e5", "L!"), ("e6", "l!"), ("e7", "g")],
        "b",
    );
    assert!(parse_move(&mut pos, "e5e6").is_ok());
}

#[test]
fn repetition_forbidden_as_in_chu() {
    // 6.4, A8: White's King may not return to o15 and recreate the start
    // of this shuffle with Black to move; fourfold (the default) allows it.
    let fen = format!("14k/{}/K14 b", vec!["15"; 13].join("/"));
    let legal_last = |options: &[(&str, &str)]| {
        let mut pos = Position::from_fen(variant(options), &fen).expect("FEN");
        for m in ["a1a2", "o15o14", "a2a1"] {
            let mv = parse_move(&mut pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos.make(mv);
        }
        let mut moves = Vec::new();
        legal_moves(&mut pos, &mut moves);
        let v = pos.variant().clone();
        moves.iter().any(|m| move_text(&v, *m) == "o14o15")
    };
    assert!(!legal_last(&[("repetition", "forbidden")]));
    assert!(legal_last(&[]));
}
