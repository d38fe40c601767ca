//! Frolov's 10x10 game (rules/frolov-10x10.md). The rule book's numbered
//! cases run from `tests/data/cases.json` in `tests/rulebook.rs`; here are
//! the purpose-made tests of its `manual` cases (named after them), the
//! breakdown columns of the section 9 reference counts, make / unmake and
//! hash checks at every node of those trees, and every option of
//! `variants/frolov-10x10.toml`.

mod common;
use common::{at, legal, moves_from, piece, play, set, texts};

use kamil_rules::movegen::{in_check, legal_moves};
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::{Points, Scoring, ended_by_rule, outcome};
use kamil_rules::special::material_points::count;
use kamil_rules::{MoveKind, Outcome, Piece, Position, Reason, Side, Variant};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

fn variant(options: &[(&str, &str)]) -> Arc<Variant> {
    common::variant("frolov-10x10", options)
}

/// The cases of cases.json for this game.
fn cases() -> Vec<Value> {
    common::cases()
        .into_iter()
        .filter(|c| c["variant"] == "frolov-10x10")
        .collect()
}

/// The case `id` `part` and its position with the case's moves played.
fn case(id: &str, part: &str) -> (Value, Position) {
    let c = cases()
        .into_iter()
        .find(|c| c["id"] == id && c["part"] == part)
        .unwrap_or_else(|| panic!("case {id}{part} not in cases.json"));
    let opts = common::case_options(&c);
    let v = Arc::new(Variant::builtin("frolov-10x10", &opts).expect("variant loads"));
    let mut pos = match c["fen"].as_str() {
        Some(f) => Position::from_fen(v, f).unwrap_or_else(|e| panic!("{id}{part}: {e}")),
        None => Position::start(v),
    };
    for m in c["moves"].as_array().into_iter().flatten() {
        play(&mut pos, m.as_str().expect("a move text"));
    }
    (c, pos)
}

/// A position from (square, FEN token) pairs, side `w` or `b`, castling
/// field; the grid's holes are written `*`.
fn position(
    options: &[(&str, &str)],
    pieces: &[(&str, &str)],
    side: &str,
    castling: &str,
) -> Position {
    let v = variant(options);
    let g = &v.geometry;
    let cells: Vec<Vec<String>> = (0..10)
        .map(|r| {
            (0..12)
                .map(|f| {
                    let name = format!("{}{}", (b'a' + f) as char, r + 1);
                    if g.parse_square(&name).is_none() {
                        return "*".to_string();
                    }
                    match pieces.iter().find(|(s, _)| *s == name) {
                        Some((_, t)) => t.to_string(),
                        None => String::new(),
                    }
                })
                .collect()
        })
        .collect();
    let fen = format!("{} {side} {castling} - - 0 1", common::board_fen(&cells));
    Position::from_fen(v, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn win(winner: Side, reason: Reason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

// ---------------------------------------------------------------------------
// Manual cases of section 8.

#[test]
fn fr_09h_cannon_takes_queen_becomes_tank() {
    let (_, pos) = case("FR-09", "h");
    assert_eq!(at(&pos, "e9"), piece(&pos, "tank", Side::First));
    assert_eq!(at(&pos, "e2"), Piece::EMPTY);
    assert_eq!(pos.pieces(Side::Second).len(), 4, "the Queen is gone");
}

#[test]
fn fr_12w_en_passant_removes_the_berolina() {
    for capture in ["h5i4", "i5i4"] {
        let (_, mut pos) = case("FR-12", "w");
        pos.unmake();
        play(&mut pos, capture);
        assert_eq!(
            pos.last_move().unwrap().kind,
            MoveKind::EnPassant,
            "{capture}"
        );
        assert_eq!(at(&pos, "j5"), Piece::EMPTY, "{capture} removes j5");
        assert!(at(&pos, "i4").is_side(Side::Second), "{capture}");
        assert_eq!(pos.pieces(Side::First).len(), 1, "White has only the King");
    }
}

#[test]
fn fr_14o_castling_rook_squares() {
    for (king, rook_from, rook_to) in [
        ("g2i2", "k2", "h2"),
        ("g2j2", "k2", "i2"),
        ("g2e2", "b2", "f2"),
        ("g2d2", "b2", "e2"),
    ] {
        let (_, mut pos) = case("FR-14", "o");
        play(&mut pos, king);
        assert_eq!(pos.last_move().unwrap().kind, MoveKind::Castle, "{king}");
        let to = &king[2..];
        assert_eq!(at(&pos, to), piece(&pos, "king", Side::First), "{king}");
        assert_eq!(
            at(&pos, rook_to),
            piece(&pos, "rook", Side::First),
            "{king}"
        );
        assert_eq!(at(&pos, rook_from), Piece::EMPTY, "{king}");
        assert_eq!(at(&pos, "g2"), Piece::EMPTY, "{king}");
        assert_eq!(pos.castling() & 3, 0, "{king}: White's rights are spent");
        pos.unmake();
        assert_eq!(at(&pos, "g2"), piece(&pos, "king", Side::First));
        assert_eq!(at(&pos, rook_from), piece(&pos, "rook", Side::First));
    }
}

#[test]
fn fr_16b_rook_takes_queen_becomes_queen() {
    let (_, pos) = case("FR-16", "b");
    assert_eq!(at(&pos, "k9"), piece(&pos, "queen", Side::First));
}

#[test]
fn fr_16e_knight_takes_sergeant_becomes_wildebeest() {
    let (_, pos) = case("FR-16", "e");
    assert_eq!(at(&pos, "f6"), piece(&pos, "wildebeest", Side::First));
    assert_eq!(at(&pos, "e4"), Piece::EMPTY);
}

#[test]
fn fr_16f_camel_takes_gold_general_becomes_wildebeest() {
    let (_, pos) = case("FR-16", "f");
    assert_eq!(at(&pos, "b4"), piece(&pos, "wildebeest", Side::First));
    assert_eq!(at(&pos, "a1"), Piece::EMPTY);
}

#[test]
fn fr_16h_pawn_takes_queen_becomes_sergeant() {
    let (_, mut pos) = case("FR-16", "h");
    assert_eq!(at(&pos, "f5"), piece(&pos, "sergeant", Side::First));
    pos.unmake();
    assert_eq!(
        at(&pos, "e4"),
        piece(&pos, "pawn", Side::First),
        "unmake restores the Pawn"
    );
    assert_eq!(at(&pos, "f5"), piece(&pos, "queen", Side::Second));
}

#[test]
fn fr_18i_king_takes_queen_only_special_wins() {
    let (_, mut pos) = case("FR-18", "i");
    assert_eq!(at(&pos, "e3"), piece(&pos, "king", Side::First));
    let won = win(Side::First, Reason::OnlySpecial);
    assert_eq!(ended_by_rule(&pos), won);
    assert_eq!(outcome(&mut pos), won);
    assert!(legal(&mut pos).is_empty(), "no move after the end");
}

#[test]
fn fr_19b_stalemate_loses() {
    let (_, mut pos) = case("FR-19", "b");
    assert_eq!(pos.side(), Side::Second);
    assert!(!in_check(&pos, Side::Second));
    assert!(legal(&mut pos).is_empty());
    assert_eq!(outcome(&mut pos), win(Side::First, Reason::Stalemate));
}

/// FR-20(a): a threefold repetition is decided on points, 7 - 6.5.
#[test]
fn fr_20a_points_decide_repetition_and_move_rule() {
    let (c, _) = case("FR-20", "a");
    assert!(c["note"].as_str().unwrap().contains("7 vs 6.5"));
    let mut pos = position(
        &[],
        &[
            ("b1", "K"),
            ("c3", "R"),
            ("d4", "P"),
            ("k10", "k"),
            ("h5", "b"),
            ("g7", "p"),
        ],
        "w",
        "-",
    );
    let cycle = ["b1c1", "k10j10", "c1b1", "j10k10"];
    for round in 0..2 {
        for (i, m) in cycle.iter().enumerate() {
            assert_eq!(outcome(&mut pos), None, "round {round}, before {m}");
            play(&mut pos, m);
            let _ = i;
        }
    }
    let o = outcome(&mut pos).expect("third occurrence ends the game");
    assert_eq!(
        o,
        Outcome::Points {
            points: Points {
                first: 14,
                second: 13
            },
            scoring: Scoring::Decisive,
            reason: Reason::Repetition,
            by: None,
        }
    );
    assert_eq!(o.winner(), Some(Side::First));
    assert_eq!(o.to_string(), "1-0 points 7-6.5 (repetition)");
    // (b) W: K, N; B: k, c: 4 vs 4.5 by the fifty-move rule: Black wins.
    let b = position(
        &[],
        &[("b1", "K"), ("e4", "N"), ("k10", "k"), ("e7", "c")],
        "w",
        "-",
    );
    let fen = b.fen().replace(" 0 1", " 100 80");
    let mut b = Position::from_fen(variant(&[]), &fen).unwrap();
    let o = outcome(&mut b).expect("the move-count rule ends the game");
    assert_eq!(
        o.points(),
        Some(Points {
            first: 8,
            second: 9
        })
    );
    assert_eq!(
        (o.winner(), o.reason()),
        (Some(Side::Second), Reason::MoveRule)
    );
    assert_eq!(o.to_string(), "0-1 points 4-4.5 (move-count rule)");
    // 99 plies: not yet.
    let fen = fen.replace(" 100 80", " 99 80");
    let mut b = Position::from_fen(variant(&[]), &fen).unwrap();
    assert_eq!(outcome(&mut b), None);
}

/// FR-21: the start position's material, 121 - 121.5.
#[test]
fn fr_21an_start_material() {
    let (c, pos) = case("FR-21", "an");
    assert!(c["note"].as_str().unwrap().contains("121"));
    let mp = pos
        .variant()
        .specials
        .material_points
        .clone()
        .expect("points module");
    assert_eq!(
        count(&mp, &pos),
        Points {
            first: 242,
            second: 243
        }
    );
    assert_eq!(count(&mp, &pos).to_string(), "121-121.5");
}

// ---------------------------------------------------------------------------
// Section 5 beyond the numbered cases.

/// FR-18(a): the four versions of Kxe3 and their upgrades.
#[test]
fn king_capture_upgrade_choices() {
    let (_, mut pos) = case("FR-18", "a");
    let moves: BTreeSet<String> = texts(&mut pos)
        .into_iter()
        .filter(|t| t.starts_with("e2e3"))
        .collect();
    assert_eq!(moves, set(&["e2e3", "e2e3/b1", "e2e3/c1", "e2e3/d4"]));
    for (text, sq, key) in [
        ("e2e3/b1", "b1", "queen"),
        ("e2e3/c1", "c1", "wildebeest"),
        ("e2e3/d4", "d4", "sergeant"),
    ] {
        let fen = pos.fen();
        play(&mut pos, text);
        assert_eq!(at(&pos, sq), piece(&pos, key, Side::First), "{text}");
        assert_eq!(
            ended_by_rule(&pos),
            None,
            "{text}: White keeps ordinary pieces"
        );
        pos.unmake();
        assert_eq!(pos.fen(), fen, "{text} taken back");
    }
    // Another spelling of the same move.
    assert!(parse_move(&mut pos, "e2xe3/c1").is_ok());
    assert!(
        parse_move(&mut pos, "e2e3/h5").is_err(),
        "the Queen is not ordinary"
    );
}

/// 5.5: upgrading one's last ordinary piece does not win.
#[test]
fn upgrading_the_last_ordinary_piece_does_not_win() {
    let mut pos = position(
        &[],
        &[
            ("e2", "K"),
            ("b1", "R"),
            ("h5", "Q"),
            ("k10", "k"),
            ("e3", "q"),
        ],
        "w",
        "-",
    );
    assert_eq!(
        moves_from(&mut pos, "e2")
            .iter()
            .filter(|t| t.starts_with("e2e3"))
            .count(),
        2
    );
    play(&mut pos, "e2e3/b1");
    assert_eq!(ended_by_rule(&pos), None);
    pos.unmake();
    play(&mut pos, "e2e3");
    assert_eq!(ended_by_rule(&pos), None, "the Rook is still ordinary");
}

/// 5.5 with a special capturer: a Queen takes a Queen; a Sergeant that
/// takes a special piece on the last rank promotes and may upgrade.
#[test]
fn special_capturer_upgrades() {
    let mut pos = position(
        &[],
        &[
            ("b1", "K"),
            ("c1", "N"),
            ("e5", "Q"),
            ("e8", "q"),
            ("e9", "X"),
            ("f10", "u"),
            ("k10", "k"),
        ],
        "w",
        "-",
    );
    let q = moves_from(&mut pos, "e5");
    assert!(q.contains("e5e8") && q.contains("e5e8/c1"), "{q:?}");
    let x: BTreeSet<String> = moves_from(&mut pos, "e9")
        .into_iter()
        .filter(|t| t.starts_with("e9f10"))
        .collect();
    // Six promotions, each without and with the Knight's upgrade.
    assert_eq!(x.len(), 12, "{x:?}");
    assert!(x.contains("e9f10q/c1") && x.contains("e9f10z"));
    play(&mut pos, "e9f10o/c1");
    assert_eq!(at(&pos, "f10"), piece(&pos, "gorgon", Side::First));
    assert_eq!(at(&pos, "c1"), piece(&pos, "wildebeest", Side::First));
    pos.unmake();
    assert_eq!(at(&pos, "e9"), piece(&pos, "sergeant", Side::First));
    assert_eq!(at(&pos, "c1"), piece(&pos, "knight", Side::First));
}

/// 5.4: a capture of an ordinary piece changes nothing; en passant of a
/// Sergeant by a Pawn makes a Sergeant.
#[test]
fn capture_promotion_only_for_special_victims() {
    let mut pos = position(
        &[],
        &[("b1", "K"), ("e2", "R"), ("e7", "r"), ("k10", "k")],
        "w",
        "-",
    );
    play(&mut pos, "e2e7");
    assert_eq!(at(&pos, "e7"), piece(&pos, "rook", Side::First));
    let mut pos = position(
        &[],
        &[("b1", "K"), ("e6", "P"), ("f8", "x"), ("k10", "k")],
        "b",
        "-",
    );
    play(&mut pos, "f8f6");
    play(&mut pos, "e6f7");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::EnPassant);
    assert_eq!(at(&pos, "f7"), piece(&pos, "sergeant", Side::First));
    assert_eq!(
        at(&pos, "f6"),
        Piece::EMPTY,
        "the Sergeant taken en passant"
    );
}

/// 5.1: a Sergeant next to a Pawn's passed square may step there or take
/// the Pawn in passing: two legal moves on the same squares, written apart
/// (`ep` on the capture) and each read back as itself. Found in self-play,
/// where the match referee took `c5b4` as the capture and the engine meant
/// the step.
#[test]
fn sergeant_step_and_capture_in_passing_read_apart() {
    let mut pos = position(
        &[],
        &[("c1", "K"), ("b3", "P"), ("c5", "x"), ("c10", "k")],
        "w",
        "-",
    );
    play(&mut pos, "b3b5");
    let from_c5 = moves_from(&mut pos, "c5");
    assert!(
        from_c5.contains("c5b4") && from_c5.contains("c5b4ep"),
        "{from_c5:?}"
    );
    let all = legal(&mut pos);
    let v = pos.variant().clone();
    let listed: Vec<String> = all.iter().map(|m| move_text(&v, *m)).collect();
    let distinct: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(
        distinct.len(),
        listed.len(),
        "one text per move: {listed:?}"
    );
    for (text, kind, pawn_left) in [
        ("c5b4", MoveKind::Normal, true),
        ("c5b4ep", MoveKind::EnPassant, false),
        ("c5xb4 e.p.", MoveKind::EnPassant, false),
        ("C5-b4 (e.p.)", MoveKind::EnPassant, false),
    ] {
        let mut p = pos.clone();
        let m = parse_move(&mut p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.kind, kind, "{text}");
        p.make(m);
        assert_eq!(at(&p, "b5").is_piece(), pawn_left, "{text}");
        assert_eq!(at(&p, "b4"), piece(&p, "sergeant", Side::Second), "{text}");
    }
    // A Pawn cannot step diagonally: its capture in passing keeps the plain
    // text, and `ep` still reads.
    let mut pos = position(
        &[],
        &[("c1", "K"), ("b3", "P"), ("c5", "p"), ("c10", "k")],
        "w",
        "-",
    );
    play(&mut pos, "b3b5");
    assert!(moves_from(&mut pos, "c5").contains("c5b4"));
    assert_eq!(
        parse_move(&mut pos, "c5b4").unwrap().kind,
        MoveKind::EnPassant
    );
    assert_eq!(
        parse_move(&mut pos, "c5b4ep").unwrap().kind,
        MoveKind::EnPassant
    );
    assert!(
        parse_move(&mut pos, "c5c4ep").is_err(),
        "no capture in passing on c4"
    );
}

/// 5.3: a frozen hostile general attacks nothing, so the promotion next to
/// the promoting King is legal; with `fr.no-freeze` it is not.
#[test]
fn frozen_general_attacks_nothing() {
    let pieces = [("g10", "K"), ("f9", "P"), ("b1", "k")];
    let mut pos = position(&[], &pieces, "w", "-");
    assert!(texts(&mut pos).contains("f9f10y"));
    play(&mut pos, "f9f10y");
    assert_eq!(at(&pos, "f10"), piece(&pos, "gold-general", Side::Second));
    assert_eq!(
        pos.frozen(),
        pos.variant().geometry.parse_square("f10").unwrap()
    );
    assert!(pos.fen().contains(" f10 "), "{}", pos.fen());
    // Black moves (not the general); then it is a normal piece and gives check.
    assert!(!moves_from(&mut pos, "f10").iter().any(|_| true), "frozen");
    play(&mut pos, "b1b2");
    assert!(!pos.frozen().is_some());
    assert!(
        in_check(&pos, Side::First),
        "the Gold general f10 attacks g10"
    );
    let mut nf = position(&[("fr.no-freeze", "true")], &pieces, "w", "-");
    let t = texts(&mut nf);
    assert!(
        !t.contains("f9f10y"),
        "with fr.no-freeze the general would give check at once"
    );
    assert!(t.contains("f9f10r"), "{t:?}");
}

/// 5.1: a Berolina's double step sets an en-passant square that the FEN
/// writes and reads back (the victim stands diagonally beyond it).
#[test]
fn berolina_en_passant_in_fen() {
    let (_, mut pos) = case("FR-12", "l");
    let fen = pos.fen();
    assert!(fen.contains(" b - i4 - "), "{fen}");
    let mut back = Position::from_fen(pos.variant().clone(), &fen).unwrap();
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(texts(&mut back), texts(&mut pos));
}

/// A FEN's en-passant square names the piece that passed it: a Berolina
/// diagonally beyond it, even with another piece straight ahead.
#[test]
fn en_passant_fen_finds_the_berolina_not_the_piece_ahead() {
    let mut pos = position(
        &[],
        &[
            ("b1", "K"),
            ("d5", "B"),
            ("c3", "S"),
            ("c5", "p"),
            ("k10", "k"),
        ],
        "w",
        "-",
    );
    play(&mut pos, "c3e5");
    let fen = pos.fen();
    assert!(fen.contains(" b - d4 "), "{fen}");
    let mut back = Position::from_fen(pos.variant().clone(), &fen).unwrap();
    assert_eq!(texts(&mut back), texts(&mut pos));
    play(&mut back, "c5d4");
    assert_eq!(at(&back, "e5"), Piece::EMPTY, "the Berolina is taken");
    assert_eq!(at(&back, "d5"), piece(&back, "bishop", Side::First));
}

/// 5.7: castling rights end when the castling Rook is upgraded (5.5).
#[test]
fn upgraded_rook_loses_castling() {
    let mut pos = position(
        &[],
        &[
            ("g2", "K"),
            ("b2", "R"),
            ("k2", "R"),
            ("h5", "Q"),
            ("h6", "q"),
            ("f9", "k"),
        ],
        "w",
        "KQ",
    );
    play(&mut pos, "h5h6/k2");
    assert_eq!(at(&pos, "k2"), piece(&pos, "queen", Side::First));
    assert_eq!(pos.castling() & 3, 1, "only the b2 Rook's right is left");
    play(&mut pos, "f9f10");
    let castles: Vec<String> = moves_from(&mut pos, "g2")
        .into_iter()
        .filter(|t| t == "g2i2" || t == "g2j2")
        .collect();
    assert!(castles.is_empty(), "{castles:?}");
}

// ---------------------------------------------------------------------------
// Options (section 6).

#[test]
fn option_drop_places_the_general_anywhere() {
    let pieces = [("b1", "K"), ("f9", "P"), ("k8", "k")];
    let mut pos = position(&[("fr.drop", "true")], &pieces, "w", "-");
    let drops: Vec<String> = moves_from(&mut pos, "f9")
        .into_iter()
        .filter(|t| t.starts_with("f9f10y"))
        .collect();
    // On f10 itself, or on any of the other empty squares (101 of 104: the
    // Kings' squares are taken; f9 is empty after the move).
    assert_eq!(drops.len(), 1 + 101, "{}", drops.len());
    play(&mut pos, "f9f10y@e5");
    assert_eq!(at(&pos, "e5"), piece(&pos, "gold-general", Side::Second));
    assert_eq!(at(&pos, "f10"), Piece::EMPTY);
    assert_eq!(
        pos.frozen(),
        pos.variant().geometry.parse_square("e5").unwrap()
    );
    assert!(
        moves_from(&mut pos, "e5").is_empty(),
        "the dropped general is frozen"
    );
    pos.unmake();
    assert_eq!(at(&pos, "f9"), piece(&pos, "pawn", Side::First));
    assert_eq!(at(&pos, "e5"), Piece::EMPTY);
}

#[test]
fn option_bonus_compulsory() {
    let (_, base) = case("FR-18", "a");
    let fen = base.fen();
    let mut pos = Position::from_fen(variant(&[("fr.bonus-compulsory", "true")]), &fen).unwrap();
    let k: BTreeSet<String> = texts(&mut pos)
        .into_iter()
        .filter(|t| t.starts_with("e2e3"))
        .collect();
    assert_eq!(k, set(&["e2e3/b1", "e2e3/c1", "e2e3/d4"]));
}

#[test]
fn option_lastrank_first() {
    let (_, base) = case("FR-16", "i");
    let fen = base.fen();
    let mut pos = Position::from_fen(variant(&[("fr.lastrank-first", "true")]), &fen).unwrap();
    let t: BTreeSet<String> = texts(&mut pos)
        .into_iter()
        .filter(|t| t.starts_with("e9f10"))
        .collect();
    assert_eq!(
        t,
        set(&[
            "e9f10r", "e9f10n", "e9f10m", "e9f10g", "e9f10w", "e9f10c", "e9f10y"
        ])
    );
    play(&mut pos, "e9f10r");
    assert_eq!(
        at(&pos, "f10"),
        piece(&pos, "rook", Side::First),
        "no Sergeant first"
    );
}

#[test]
fn option_only_special_anytime() {
    // White: King and a Queen only. By default nothing happens until a
    // special capture; with the option White wins at once.
    let pieces = [("b1", "K"), ("h5", "Q"), ("k10", "k"), ("c8", "n")];
    let mut pos = position(&[], &pieces, "w", "-");
    assert_eq!(ended_by_rule(&pos), None);
    assert!(!legal(&mut pos).is_empty());
    let pos = position(&[("fr.only-special-anytime", "true")], &pieces, "w", "-");
    assert_eq!(ended_by_rule(&pos), win(Side::First, Reason::OnlySpecial));
}

#[test]
fn option_citadel_win() {
    let pieces = [("k9", "K"), ("b2", "k"), ("c3", "p")];
    let mut plain = position(&[], &pieces, "w", "-");
    play(&mut plain, "k9l10");
    assert_eq!(
        ended_by_rule(&plain),
        None,
        "citadels are ordinary squares by default"
    );
    let mut pos = position(&[("fr.citadel-win", "true")], &pieces, "w", "-");
    play(&mut pos, "k9l10");
    assert_eq!(ended_by_rule(&pos), win(Side::First, Reason::Citadel));
    pos.unmake();
    play(&mut pos, "k9k10");
    assert_eq!(ended_by_rule(&pos), None, "k10 is no citadel");
    // The own citadels do not count.
    let mut own = position(
        &[("fr.citadel-win", "true")],
        &[("b1", "K"), ("k9", "k")],
        "w",
        "-",
    );
    play(&mut own, "b1a1");
    assert_eq!(ended_by_rule(&own), None);
}

#[test]
fn option_liked_pieces() {
    let v = variant(&[("fr.liked", "true")]);
    let b = |k: &str| v.pieces[v.piece_by_key(k).unwrap() as usize].betza.clone();
    assert_eq!(
        (b("knight"), b("camel"), b("wildebeest")),
        ("NW".into(), "CF".into(), "NCK".into())
    );
    let mut pos = position(
        &[("fr.liked", "true")],
        &[("b1", "K"), ("e5", "N"), ("k10", "k")],
        "w",
        "-",
    );
    assert_eq!(moves_from(&mut pos, "e5").len(), 8 + 4);
}

#[test]
fn option_caliph() {
    let mut pos = position(
        &[("fr.caliph", "true")],
        &[("b1", "K"), ("e5", "A"), ("k10", "k")],
        "w",
        "-",
    );
    let t = moves_from(&mut pos, "e5");
    assert!(
        t.contains("e5f8") && !t.contains("e5f7"),
        "Bishop + Camel: {t:?}"
    );
    let mut z = position(
        &[("fr.caliph", "true")],
        &[("b1", "K"), ("e5", "Z"), ("k10", "k")],
        "w",
        "-",
    );
    assert!(
        moves_from(&mut z, "e5").contains("e5f8"),
        "the Amazon gains the Camel"
    );
}

#[test]
fn option_setup_literal() {
    let mut pos = Position::start(variant(&[("fr.setup-literal", "true")]));
    assert_eq!(at(&pos, "j1"), piece(&pos, "knight", Side::First));
    assert_eq!(at(&pos, "j10"), piece(&pos, "bow", Side::Second));
    assert!(pos.fen().contains("/JCVEWDGWENCJ w"), "{}", pos.fen());
    assert!(
        moves_from(&mut pos, "j1").is_empty(),
        "h2, i3, k3 are taken, l2 is no square"
    );
    let default = Position::start(variant(&[]));
    assert_eq!(at(&default, "j1"), piece(&default, "bow", Side::First));
}

#[test]
fn option_claims_turns_off_automatic_endings() {
    let v = variant(&[("fr.claims", "true")]);
    assert_eq!((v.rules.repetition, v.rules.move_rule), (0, 0));
    let d = variant(&[]);
    assert_eq!((d.rules.repetition, d.rules.move_rule), (3, 100));
}

#[test]
fn bad_frozen_field_is_an_error() {
    let v = variant(&[]);
    let e = Position::from_fen(
        v.clone(),
        "12/*10*/*10*/*8k1*/*10*/*10*/*8K1*/*10*/*10*/12 w - - e5 0 1",
    )
    .unwrap_err();
    assert!(e.to_string().contains("frozen"), "{e}");
    let e = Position::from_fen(
        v,
        "12/*10*/*10*/*8k1*/*10*/*10*/*8K1*/*10*/*10*/12 w - - a5 0 1",
    )
    .unwrap_err();
    assert!(e.to_string().contains("a5"), "{e}");
}

// ---------------------------------------------------------------------------
// Section 9: the reference counts' breakdown columns, and make / unmake and
// the incremental hash checked at every node of those trees.

/// Counts at the last ply of a perft tree (section 9's columns).
#[derive(Default, Debug, PartialEq, Eq)]
struct Breakdown {
    nodes: u64,
    captures: u64,
    special: u64,
    upgrades: u64,
    checks: u64,
}

/// Perft with the section 9 columns; at every node, make keeps the hash
/// equal to one from scratch and unmake restores FEN and hash.
fn perft_checked(pos: &mut Position, depth: u32, out: &mut Breakdown) {
    if ended_by_rule(pos).is_none() {
        let mut moves = Vec::new();
        legal_moves(pos, &mut moves);
        let v = pos.variant().clone();
        let cp = v
            .specials
            .capture_promotion
            .clone()
            .expect("Frolov has capture promotion");
        let (fen, hash) = (pos.fen(), pos.hash());
        for m in moves {
            let victim = if m.kind == MoveKind::EnPassant {
                pos.at(m.extra)
            } else if m.to != m.from {
                pos.at(m.to)
            } else {
                Piece::EMPTY
            };
            pos.make(m);
            assert_eq!(
                pos.hash(),
                pos.hash_from_scratch(),
                "{} from `{fen}`",
                move_text(&v, m)
            );
            if depth == 1 {
                out.nodes += 1;
                if victim.is_piece() {
                    out.captures += 1;
                    if cp.is_special(victim) {
                        out.special += 1;
                    }
                }
                if m.aux.is_some() {
                    out.upgrades += 1;
                }
                if in_check(pos, pos.side()) {
                    out.checks += 1;
                }
            } else {
                perft_checked(pos, depth - 1, out);
            }
            pos.unmake();
            assert_eq!(
                pos.hash(),
                hash,
                "unmake of {} from `{fen}`",
                move_text(&v, m)
            );
            assert_eq!(pos.fen(), fen, "unmake of {}", move_text(&v, m));
        }
    }
}

/// FR-REF: every reference count of section 9 up to depth 3 with its
/// breakdown, by a perft that checks make / unmake and the hash at every
/// node (depth 4, 2.3 million leaves, is run by `tests/perft.rs`).
#[test]
fn fr_ref_breakdown_and_consistency() {
    let mut ran = 0;
    for c in cases().into_iter().filter(|c| c["id"] == "FR-REF") {
        let depth = c["depth"].as_u64().unwrap() as u32;
        if depth > 3 {
            continue;
        }
        let mut pos = Position::from_fen(variant(&[]), c["fen"].as_str().unwrap()).unwrap();
        let mut got = Breakdown::default();
        perft_checked(&mut pos, depth, &mut got);
        let b = &c["breakdown"];
        let want = Breakdown {
            nodes: c["nodes"].as_u64().unwrap(),
            captures: b["captures"].as_u64().unwrap(),
            special: b["special"].as_u64().unwrap(),
            upgrades: b["upgrades"].as_u64().unwrap(),
            checks: b["checks"].as_u64().unwrap(),
        };
        assert_eq!(got, want, "{} depth {depth}", c["what"]);
        ran += 1;
    }
    assert_eq!(ran, 6, "three depths of each of the two positions");
}

/// A Berolina's double step read back from its FEN when another pawn stands
/// straight ahead of the en-passant square with its origin empty: the
/// victim is the Berolina that stepped (found by make_unmake's walk).
#[test]
fn en_passant_field_finds_the_berolina_that_stepped() {
    let mut pos = Position::start(variant(&[]));
    let line = "h3i4 c8e6 d3d5 i8i7 g3f4 h9k6 f2j6 a10b7 e2b5 d8c7 d1e2 c7d6 j6j4 \
                b7c4 d5e6 d9b7 c2d4 c10d9 i2f5 e10c10 h2h4 k6i4 f5h3 i4g3 b5c4 e8c6";
    for m in line.split_whitespace() {
        let mv = parse_move(&mut pos, m).unwrap_or_else(|e| panic!("{e}"));
        pos.make(mv);
    }
    let played = pos.en_passant().expect("e8c6 is a Berolina double step");
    let back = Position::from_fen(variant(&[]), &pos.fen()).unwrap();
    assert_eq!(back.en_passant(), Some(played), "{}", pos.fen());
    assert_eq!(back.hash(), pos.hash());
}
