//! Chu Shogi beyond the rule book's numbered cases (those are run from
//! `tests/data/cases.json` by `tests/rulebook.rs`): the Soaring Eagle's and
//! Horned Falcon's pass and igui (6.2), the promoted Kirin (3), and every
//! option of `variants/chu-shogi.toml` (sections 4, 5, 6.5, A1-A13).

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::outcome;
use kamil_rules::perft::perft;
use kamil_rules::{Outcome, Piece, Position, Reason, Side, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

fn variant(options: &[(&str, &str)]) -> Arc<Variant> {
    let opts: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Arc::new(Variant::builtin("chu-shogi", &opts).unwrap_or_else(|e| panic!("{options:?}: {e}")))
}

fn position(options: &[(&str, &str)], fen: &str) -> Position {
    Position::from_fen(variant(options), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves from `square`, as texts.
fn moves_from(pos: &mut Position, square: &str) -> BTreeSet<String> {
    let mut out = Vec::new();
    legal_moves(pos, &mut out);
    let v = pos.variant().clone();
    out.iter()
        .map(|m| move_text(&v, *m))
        .filter(|t| {
            t.starts_with(square) && !t[square.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// Moves of a piece that end where they began (passes and igui).
fn returning(moves: &BTreeSet<String>, square: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|t| t.len() > square.len() && t.ends_with(square))
        .cloned()
        .collect()
}

/// A Soaring Eagle alone on e5 (Black K a1, White K l11).
const EAGLE_ALONE: &str = "12/11k/12/12/12/12/12/4+D7/12/12/12/K11 b";
/// A Horned Falcon alone on e5.
const FALCON_ALONE: &str = "12/11k/12/12/12/12/12/4+H7/12/12/12/K11 b";
/// Rule book CHU-07: the Horned Falcon with an enemy Pawn on e6.
const CHU_07: &str = "12/11k/12/12/12/6g5/4p7/1p2+H7/12/2P1P7/12/K11 b";

#[test]
fn soaring_eagle_passes_once_with_both_diagonals_empty() {
    let mut pos = position(&[], EAGLE_ALONE);
    let moves = moves_from(&mut pos, "e5");
    // Rook slides 7 + 4 + 4 + 7, back diagonals 3 + 4, forward steps d6 f6,
    // jumps c7 g7, and one pass.
    assert_eq!(moves.len(), 34, "{moves:?}");
    assert_eq!(returning(&moves, "e5").len(), 1, "one pass: {moves:?}");
    // Both spellings of the pass name the same move.
    let a = parse_move(&mut pos, "e5d6e5").unwrap();
    let b = parse_move(&mut pos, "e5f6e5").unwrap();
    assert_eq!(a.to, a.from);
    assert_eq!((a.from, a.to, a.via_capture), (b.from, b.to, b.via_capture));
    // No bending: the eagle cannot go on from d6 to c7's neighbours.
    assert!(parse_move(&mut pos, "e5d6d7").is_err());
}

#[test]
fn horned_falcon_passes_forward_only() {
    let mut pos = position(&[], FALCON_ALONE);
    let moves = moves_from(&mut pos, "e5");
    // Bishop slides 7 + 4 + 3 + 4, sideways 4 + 7, back 4, forward e6 e7, pass.
    assert_eq!(moves.len(), 36, "{moves:?}");
    assert_eq!(returning(&moves, "e5"), ["e5e6e5"]);
    assert!(!moves.contains("e5e8"), "no slide beyond two squares");
}

#[test]
fn eagle_pass_false_removes_the_pass_but_not_igui() {
    let opts = [("eagle-pass", "false")];
    let mut pos = position(&opts, EAGLE_ALONE);
    let moves = moves_from(&mut pos, "e5");
    assert_eq!(moves.len(), 33, "{moves:?}");
    assert!(returning(&moves, "e5").is_empty(), "{moves:?}");
    let mut pos = position(&opts, FALCON_ALONE);
    assert!(returning(&moves_from(&mut pos, "e5"), "e5").is_empty());
    // CHU-07 has no pass (e6 is occupied): the same 26 moves, igui included.
    let mut pos = position(&opts, CHU_07);
    let moves = moves_from(&mut pos, "e5");
    assert_eq!(moves.len(), 26, "{moves:?}");
    assert!(moves.contains("e5e6e5"));
    assert!(moves.contains("e5e6e7"));
}

#[test]
fn promoted_kirin_moves_as_a_lion() {
    // Rule book CHU-02 with a promoted Kirin in place of the Lion.
    let mut pos = position(&[], "12/11k/12/12/12/12/12/4+O7/12/12/12/K11 b");
    let moves = moves_from(&mut pos, "e5");
    assert_eq!(moves.len(), 25, "{moves:?}");
    assert_eq!(returning(&moves, "e5").len(), 1, "one pass");
    // A Kirin that jumps into the zone may promote; it is then a `+O`.
    let mut pos = position(&[], "12/11k/12/12/4O7/12/12/12/12/12/12/K11 b");
    let m = parse_move(&mut pos, "e8e10+").unwrap();
    pos.make(m);
    let v = pos.variant().clone();
    let kirin = v.piece_by_key("promoted-kirin").unwrap();
    let e10 = v.geometry.parse_square("e10").unwrap();
    assert_eq!(pos.at(e10), Piece::new(kirin, Side::First));
    assert_eq!(v.pieces[kirin as usize].token, "+O");
    assert_eq!(v.pieces[kirin as usize].id, "+Kr");
    assert!(pos.fen().starts_with("12/11k/4+O7/"), "{}", pos.fen());
}

#[test]
fn promoted_forms_are_written_plus_and_the_base_letter() {
    let v = variant(&[]);
    for (key, token, id) in [
        ("crown-prince", "+E", "+DE"),
        ("horned-falcon", "+H", "+DH"),
        ("soaring-eagle", "+D", "+DK"),
        ("tokin", "+P", "+P"),
        ("promoted-go-between", "+I", "+GB"),
        ("whale", "+A", "+RC"),
    ] {
        let t = v.piece_by_key(key).unwrap() as usize;
        assert_eq!(v.pieces[t].token, token, "{key}");
        assert_eq!(v.pieces[t].id, id, "{key}");
        assert!(v.pieces[t].promoted.is_none(), "{key} promotes no further");
    }
}

#[test]
fn chu_old_setup_swaps_whites_lion_and_free_king() {
    let v = variant(&[("chu-old-setup", "true")]);
    let mut pos = Position::start(v.clone());
    let f10 = v.geometry.parse_square("f10").unwrap();
    let g10 = v.geometry.parse_square("g10").unwrap();
    let lion = v.piece_by_key("lion").unwrap();
    let free_king = v.piece_by_key("free-king").unwrap();
    assert_eq!(pos.at(f10), Piece::new(lion, Side::Second));
    assert_eq!(pos.at(g10), Piece::new(free_king, Side::Second));
    // No interaction in two plies: the counts of section 4 still hold.
    assert_eq!(perft(&mut pos, 2), 1296);
    let modern = Position::start(variant(&[]));
    assert_ne!(pos.fen(), modern.fen());
}

#[test]
fn royal_safety_forbids_moving_into_attack() {
    // Rule book CHU-19: by default all 5 King moves are legal.
    let fen = "12/11k/12/12/12/12/12/12/12/4g7/12/4K7 b";
    let mut pos = position(&[("royal-safety", "true")], fen);
    let moves = moves_from(&mut pos, "e1");
    assert_eq!(
        moves,
        BTreeSet::from(["e1d1".to_string(), "e1f1".to_string()])
    );
}

#[test]
fn royal_safety_checkmate() {
    // Black King a1, attacked by a White Gold on b2 that a Dragon King on b3
    // protects: with royal safety every King move is illegal: checkmate.
    let fen = "12/11k/12/12/12/12/12/12/12/1d10/1g10/K11 b";
    let mut pos = position(&[("royal-safety", "true")], fen);
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Checkmate
        })
    );
    // Without the rule the King simply takes the Gold.
    let mut pos = position(&[], fen);
    assert!(moves_from(&mut pos, "a1").contains("a1b2"));
}

#[test]
fn stalemate_loses_or_draws() {
    // White to move: King l1 walled in by its own Pawns k1 (dead on its
    // last rank), k2 and l2 (each blocked by a White piece).
    let fen = "K11/12/12/12/12/12/12/12/12/12/10pp/10pk w";
    let mut pos = position(&[], fen);
    let mut moves = Vec::new();
    legal_moves(&mut pos, &mut moves);
    assert!(moves.is_empty(), "White has no move");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::First,
            reason: Reason::Stalemate
        })
    );
    let mut pos = position(&[("stalemate", "draw")], fen);
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn promote_anywhere_in_zone() {
    // Rule book CHU-16: 6 moves by default; with the modern rule every move
    // from inside the zone may promote.
    let fen = "12/11k/3p8/4S7/12/12/12/12/12/12/12/K11 b";
    let mut pos = position(&[], fen);
    assert_eq!(moves_from(&mut pos, "e9").len(), 6);
    let mut pos = position(&[("promote-anywhere-in-zone", "true")], fen);
    let moves = moves_from(&mut pos, "e9");
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert!(moves.contains("e9d8+") && moves.contains("e9e10+"));
}

#[test]
fn chu_lance_relief() {
    // A Lance already in the zone reaches the last rank without capturing.
    let fen = "12/11k/4L7/12/12/12/12/12/12/12/12/K11 b";
    let mut pos = position(&[], fen);
    let default = moves_from(&mut pos, "e10");
    assert_eq!(
        default,
        BTreeSet::from(["e10e11".to_string(), "e10e12".to_string()])
    );
    let mut pos = position(&[("chu-lance-relief", "true")], fen);
    let relieved = moves_from(&mut pos, "e10");
    assert_eq!(relieved.len(), 3, "{relieved:?}");
    assert!(relieved.contains("e10e12+"));
}

#[test]
fn forced_last_rank_promotion() {
    // Rule book CHU-17: P g11 may go to g12 with or without promotion.
    let fen = "12/6P4k/4P7/12/12/12/12/12/12/12/12/K11 b";
    let mut pos = position(&[], fen);
    assert_eq!(moves_from(&mut pos, "g11").len(), 2);
    let mut pos = position(&[("forced-last-rank-promotion", "true")], fen);
    assert_eq!(
        moves_from(&mut pos, "g11"),
        BTreeSet::from(["g11g12+".to_string()])
    );
    // A Pawn entering the zone is not forced.
    let mut pos = position(
        &[("forced-last-rank-promotion", "true")],
        "12/11k/12/12/4P7/12/12/12/12/12/12/K11 b",
    );
    assert_eq!(moves_from(&mut pos, "e8").len(), 2);
}

#[test]
fn max_plies_draws() {
    let v = variant(&[("max-plies", "4")]);
    assert_eq!(v.rules.max_plies, 4);
    assert_eq!(variant(&[]).rules.max_plies, 0, "no limit by default");
    let mut pos = Position::start(v);
    for m in ["a4a5", "a9a8", "b4b5", "b9b8"] {
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
    assert!(Variant::builtin("chu-shogi", &[("max-plies".into(), "x".into())]).is_err());
}

#[test]
fn perpetual_check_loses_on_the_fourth_occurrence() {
    // White's King shuttles l11-l12; Black's Rook follows it on a11-a12,
    // attacking it after every Black move. The start position comes back
    // for the fourth time after three cycles: Black, the checker, loses.
    let fen = "12/R10k/12/12/12/12/12/12/12/12/12/K11 w";
    let mut pos = position(&[], fen);
    let cycle = ["l11l12", "a11a12", "l12l11", "a12a11"];
    let mut played = 0;
    let mut result = None;
    'outer: for _ in 0..3 {
        for m in cycle {
            let mv = parse_move(&mut pos, m).unwrap_or_else(|e| panic!("{e}"));
            pos.make(mv);
            played += 1;
            if let Some(o) = outcome(&mut pos) {
                result = Some(o);
                break 'outer;
            }
        }
    }
    assert_eq!(played, 12, "the fourth occurrence after three cycles");
    assert_eq!(
        result,
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::PerpetualCheck
        })
    );
}
