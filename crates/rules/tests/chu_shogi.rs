//! Chu Shogi beyond the rule book's numbered cases (those are run from
//! `tests/data/cases.json` by `tests/rulebook.rs`): the Soaring Eagle's and
//! Horned Falcon's pass and igui (6.2), the promoted Kirin (3), and every
//! option of `variants/chu-shogi.toml` (sections 4, 5, 6.5, A1-A13).

mod common;
use common::moves_from;

use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::{is_pass, legal_pass, move_text, parse_move, parse_xboard_move};
use kamil_rules::outcome::outcome;
use kamil_rules::perft::perft;
use kamil_rules::{Outcome, Piece, Position, Reason, Side, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

fn variant(options: &[(&str, &str)]) -> Arc<Variant> {
    common::variant("chu-shogi", options)
}

fn position(options: &[(&str, &str)], fen: &str) -> Position {
    common::position("chu-shogi", options, fen)
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

// Lion trading (6.4, A3-A5): LT1, LT2 and LT3 with their options. The rule
// book's cases CHU-10 to CHU-14 run from `tests/data/cases.json`.

/// A FEN of the 12x12 board with Black's King on a1, White's on l11 and
/// the (token, square) pairs, `side` to move.
fn board(pieces: &[(&str, &str)], side: &str) -> String {
    let mut cells = vec![vec![String::new(); 12]; 12];
    for (token, sq) in [("K", "a1"), ("k", "l11")].iter().chain(pieces) {
        let file = (sq.as_bytes()[0] - b'a') as usize;
        let rank: usize = sq[1..].parse().expect("rank");
        cells[rank - 1][file] = token.to_string();
    }
    format!("{} {side}", common::board_fen(&cells))
}

/// Is `text` a legal move (parse_move and the move list agree)?
fn legal(pos: &mut Position, text: &str) -> bool {
    let parsed = parse_move(pos, text).is_ok();
    let mut out = Vec::new();
    legal_moves(pos, &mut out);
    let v = pos.variant().clone();
    let listed = out.iter().any(|m| move_text(&v, *m) == text);
    assert_eq!(
        parsed, listed,
        "{text}: parse_move and legal_moves disagree"
    );
    parsed
}

/// Plays `moves` (history), then asks whether `text` is legal.
fn legal_after(options: &[(&str, &str)], fen: &str, moves: &[&str], text: &str) -> bool {
    let mut pos = position(options, fen);
    common::play_all(&mut pos, moves);
    legal(&mut pos, text)
}

#[test]
fn lt1_adjacent_protected_lion_may_be_taken_also_by_a_promoted_kirin() {
    // White Lion on e6 protected by a Gold on e7.
    for lion in ["N", "+O"] {
        let fen = board(&[(lion, "e5"), ("n", "e6"), ("g", "e7")], "b");
        let mut pos = position(&[], &fen);
        assert!(legal(&mut pos, "e5e6"), "{lion}: step capture");
        assert!(legal(&mut pos, "e5e6e5"), "{lion}: igui");
        assert!(legal(&mut pos, "e5e6d6"), "{lion}: capture and go on");
    }
}

#[test]
fn lt2_promoted_kirin_is_a_lion_on_both_sides_of_the_rule() {
    // A promoted Kirin may not take a protected Lion two away, nor be taken so.
    let fen = board(&[("+O", "e5"), ("n", "e7"), ("g", "e8")], "b");
    assert!(!legal_after(&[], &fen, &[], "e5e7"));
    let fen = board(&[("N", "e5"), ("+o", "e7"), ("g", "e8")], "b");
    assert!(!legal_after(&[], &fen, &[], "e5e7"));
    // A non-Lion may take the protected Lion two away (the Kirin jump).
    let fen = board(&[("O", "e5"), ("n", "e7"), ("g", "e8")], "b");
    assert!(legal_after(&[], &fen, &[], "e5e7"));
}

#[test]
fn lt2_tokin_and_promoted_go_between_are_bridges() {
    for bridge in ["+p", "+i", "g"] {
        let fen = board(
            &[("N", "e5"), (bridge, "e6"), ("n", "e7"), ("s", "e8")],
            "b",
        );
        assert!(legal_after(&[], &fen, &[], "e5e6e7"), "{bridge}");
        assert!(!legal_after(&[], &fen, &[], "e5e7"), "{bridge}: jump");
    }
}

#[test]
fn lt2_go_between_bridge_still_protects_in_the_jcsa_reading() {
    // The White Go-Between on e6 is the only protector of e7.
    let fen = board(&[("N", "e5"), ("i", "e6"), ("n", "e7")], "b");
    assert!(!legal_after(&[], &fen, &[], "e5e6e7"), "jcsa");
    assert!(legal_after(
        &[("lion-protection", "recapture")],
        &fen,
        &[],
        "e5e6e7"
    ));
    // The jump leaves the Go-Between on the board: protected either way.
    assert!(!legal_after(&[], &fen, &[], "e5e7"));
    assert!(!legal_after(
        &[("lion-protection", "recapture")],
        &fen,
        &[],
        "e5e7"
    ));
}

#[test]
fn lt2_pawn_bridge_still_protects_in_the_jcsa_reading() {
    // Black's Lion above: the White Pawn on e8 attacks e7 (White moves down).
    let fen = board(&[("N", "e9"), ("p", "e8"), ("n", "e7")], "b");
    assert!(!legal_after(&[], &fen, &[], "e9e8e7"), "jcsa");
    assert!(legal_after(
        &[("lion-protection", "recapture")],
        &fen,
        &[],
        "e9e8e7"
    ));
    // A Pawn on d8 (not attacking e7) neither bridges nor protects.
    let fen = board(&[("N", "e9"), ("p", "d8"), ("n", "e7")], "b");
    assert!(legal_after(&[], &fen, &[], "e9d8e7"));
}

#[test]
fn lion_trading_seed_has_no_bridge_and_no_counterstrike() {
    // CHU-13's position: the Gold bridge does not lift the ban under `seed`.
    let fen = "12/11k/12/12/4s7/4n7/4g7/4N7/12/12/12/K11 b";
    assert!(legal_after(&[], fen, &[], "e5e6e7"));
    assert!(!legal_after(
        &[("lion-trading", "seed")],
        fen,
        &[],
        "e5e6e7"
    ));
    assert!(!legal_after(&[("lion-trading", "seed")], fen, &[], "e5e7"));
    // CHU-14's position: no counter-strike.
    let fen = "12/11k/12/4r2g4/7n4/12/4N7/3G8/12/2B9/12/K11 w";
    assert!(!legal_after(&[], fen, &["e9e6"], "c3h8"));
    assert!(legal_after(
        &[("lion-trading", "seed")],
        fen,
        &["e9e6"],
        "c3h8"
    ));
}

#[test]
fn lion_trading_off_lets_any_lion_take_any_lion() {
    let fen = "12/11k/12/12/4g7/4n7/12/4N7/12/12/12/K11 b";
    assert!(!legal_after(&[], fen, &[], "e5e7"));
    assert!(legal_after(&[("lion-trading", "off")], fen, &[], "e5e7"));
    let fen = "12/11k/12/4r2g4/7n4/12/4N7/3G8/12/2B9/12/K11 w";
    assert!(legal_after(
        &[("lion-trading", "off")],
        fen,
        &["e9e6"],
        "c3h8"
    ));
}

/// Black: K a1, G e3, B c3; White: K l11, Kirin e6, Lion h8, G h9 and a
/// Black Lion on e4. White to move takes it with the Kirin and promotes
/// (`e6e4+`): a non-Lion capture, then Black's Gold may retake on e4.
fn kirin_takes_lion() -> String {
    board(
        &[
            ("G", "e3"),
            ("B", "c3"),
            ("N", "e4"),
            ("o", "e6"),
            ("n", "h8"),
            ("g", "h9"),
        ],
        "w",
    )
}

#[test]
fn lt3_strict_exempts_the_square_of_the_own_lion() {
    let fen = kirin_takes_lion();
    assert!(legal_after(&[], &fen, &["e6e4+"], "e3e4"), "same square");
    assert!(!legal_after(&[], &fen, &["e6e4+"], "c3h8"), "elsewhere");
    // Without the promotion the Kirin is no Lion; retaking is no Lion capture.
    assert!(legal_after(&[], &fen, &["e6e4"], "e3e4"));
    // The state lasts one move: after two waiting moves c3h8 is legal.
    assert!(legal_after(&[], &fen, &["e6e4+", "a1b1", "l11k11"], "c3h8"));
}

#[test]
fn counterstrike_everywhere_bans_the_same_square_too() {
    let fen = kirin_takes_lion();
    let opts = [("counterstrike", "everywhere")];
    assert!(!legal_after(&opts, &fen, &["e6e4+"], "e3e4"));
    assert!(!legal_after(&opts, &fen, &["e6e4+"], "c3h8"));
}

#[test]
fn counterstrike_okazaki_bans_only_protected_lions() {
    // CHU-14: the Lion on h8 is protected by the Gold on h9.
    let fen = "12/11k/12/4r2g4/7n4/12/4N7/3G8/12/2B9/12/K11 w";
    let opts = [("counterstrike", "okazaki")];
    assert!(!legal_after(&opts, fen, &["e9e6"], "c3h8"));
    let bare = "12/11k/12/4r7/7n4/12/4N7/3G8/12/2B9/12/K11 w";
    assert!(legal_after(&opts, bare, &["e9e6"], "c3h8"));
    assert!(!legal_after(&[], bare, &["e9e6"], "c3h8"), "strict");
}

#[test]
fn counterstrike_final_square_only_allows_igui_on_a_lion() {
    // White's Rook takes the Black Lion on c9; Black's Horned Falcon on e5
    // faces the White Lion on e6.
    let fen = board(&[("+H", "e5"), ("N", "c9"), ("n", "e6"), ("r", "c11")], "w");
    let opts = [("counterstrike", "final-square-only")];
    assert!(
        !legal_after(&[], &fen, &["c11c9"], "e5e6e5"),
        "strict: igui"
    );
    assert!(!legal_after(&[], &fen, &["c11c9"], "e5e6"));
    assert!(legal_after(&opts, &fen, &["c11c9"], "e5e6e5"));
    assert!(!legal_after(&opts, &fen, &["c11c9"], "e5e6"));
}

#[test]
fn lion_by_lion_capture_sets_no_counterstrike() {
    // White's Lion takes Black's adjacent Lion: Black's Bishop may then take
    // the other White Lion.
    let fen = board(&[("B", "c3"), ("N", "e6"), ("n", "e7"), ("n", "h8")], "w");
    assert!(legal_after(&[], &fen, &["e7e6"], "c3h8"));
}

#[test]
fn counterstrike_state_is_part_of_the_hash_and_of_repetition() {
    let fen = "12/11k/12/4r2g4/7n4/12/4N7/3G8/12/2B9/12/K11 w";
    let mut pos = position(&[], fen);
    let mv = parse_move(&mut pos, "e9e6").unwrap();
    pos.make(mv);
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    let struck = pos.hash();
    // The same board and side set up directly: no counter-strike state.
    let same = position(&[], &pos.fen());
    assert_eq!(same.fen(), pos.fen());
    assert_ne!(same.hash(), struck, "the state changes the hash");
    // Shuffle the Kings back: the board repeats without the state.
    for m in ["a1b1", "l11k11", "b1a1", "k11l11"] {
        let mv = parse_move(&mut pos, m).unwrap();
        pos.make(mv);
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{m}");
    }
    assert_eq!(pos.fen(), same.fen());
    assert_eq!(pos.hash(), same.hash());
    let count = |p: &Position, h: u64| p.history().iter().filter(|&&x| x == h).count();
    assert_eq!(count(&pos, struck), 1, "the struck position occurred once");
    assert_eq!(count(&pos, pos.hash()), 1);
    // Unmake restores the state and its hash.
    for _ in 0..4 {
        pos.unmake();
    }
    assert_eq!(pos.hash(), struck);
    assert!(!legal(&mut pos, "c3h8"));
}

/// The outcome under `bare-king` of the position with `pieces` besides the
/// two Kings (Black a1, White l11), `side` to move.
fn bare_king_outcome(pieces: &[(&str, &str)], side: &str) -> Option<Outcome> {
    let mut pos = position(&[("bare-king", "true")], &board(pieces, side));
    outcome(&mut pos)
}

#[test]
fn bare_king_lone_royal_loses_against_a_counted_piece() {
    // 6.5: Black is reduced to its King; White has its King and a Gold.
    let black_lost = Some(Outcome::Win {
        winner: Side::Second,
        reason: Reason::BareKing,
    });
    assert_eq!(bare_king_outcome(&[("g", "f6")], "b"), black_lost);
    // Off by default: play goes on.
    let mut pos = position(&[], &board(&[("g", "f6")], "b"));
    assert_eq!(outcome(&mut pos), None);
    // A dead Pawn (Black's, on its last rank) does not save the lone King.
    assert_eq!(
        bare_king_outcome(&[("g", "f6"), ("P", "c12")], "b"),
        black_lost
    );
    // A live Pawn does.
    assert_eq!(bare_king_outcome(&[("g", "f6"), ("P", "c11")], "b"), None);
}

#[test]
fn bare_king_unpromoted_pawns_and_go_betweens_do_not_count() {
    // White has only Pawns and a Go-Between besides its King: no win.
    assert_eq!(bare_king_outcome(&[("p", "f6"), ("i", "h8")], "b"), None);
    // A tokin counts.
    assert_eq!(
        bare_king_outcome(&[("+p", "f6")], "b"),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::BareKing
        })
    );
}

#[test]
fn bare_king_lone_royal_that_can_take_the_last_piece_plays_on() {
    // Black to move, its King a1 beside White's only counted piece on b2.
    assert_eq!(bare_king_outcome(&[("g", "b2")], "b"), None);
    // Two counted pieces: taking one leaves the other, lost at once.
    assert_eq!(
        bare_king_outcome(&[("g", "b2"), ("s", "h8")], "b"),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::BareKing
        })
    );
    // White to move: the bared side is not to move, so it has lost.
    assert_eq!(
        bare_king_outcome(&[("g", "b2")], "w"),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::BareKing
        })
    );
}

#[test]
fn bare_king_two_bare_royals_draw_and_a_prince_is_not_bare() {
    assert_eq!(
        bare_king_outcome(&[], "b"),
        Some(Outcome::Draw {
            reason: Reason::BothBare
        })
    );
    // King and Crown Prince are two royals: not a lone royal.
    assert_eq!(bare_king_outcome(&[("+E", "c3"), ("g", "f6")], "b"), None);
}

#[test]
fn repetition_forbidden_bans_the_repeating_move_unless_in_check() {
    // 6.5, A13: the Kings shuffle; White's fourth move would recreate the
    // start position with Black to move.
    let fen = board(&[], "b");
    let shuffle = ["a1a2", "l11l10", "a2a1"];
    let forbidden = [("repetition", "forbidden")];
    assert!(!legal_after(&forbidden, &fen, &shuffle, "l10l11"));
    assert!(legal_after(&forbidden, &fen, &shuffle, "l10k11"));
    assert!(legal_after(&[], &fen, &shuffle, "l10l11"));
    // A Black Gold on k9 attacks l10: White, in check there, may repeat.
    let fen = board(&[("G", "k9")], "b");
    assert!(legal_after(&forbidden, &fen, &shuffle, "l10l11"));
}

/// XBoard's pass forms (HaChu's `@@@@`, and the square twice): the Falcon
/// on e5 passes, the Eagle on h5 passes; the igui of CHU-07 is no pass.
#[test]
fn xboard_null_move_and_square_twice_are_passes() {
    let fen = "12/11k/12/12/12/12/12/4+H2+D4/12/12/12/K11 b";
    let mut pos = position(&[], fen);
    let g = pos.variant().geometry.clone();
    let m = parse_xboard_move(&mut pos, "@@@@").unwrap();
    assert!(is_pass(&m) && m.to == m.from, "{m:?}");
    // XBoard counts ranks from 1 on a 12-rank board: e5 is e5.
    let e5 = parse_xboard_move(&mut pos, "e5e5").unwrap();
    assert_eq!(e5.from, g.parse_square("e5").unwrap());
    assert!(is_pass(&e5));
    let h5 = parse_xboard_move(&mut pos, "h5h5").unwrap();
    assert_eq!(h5.from, g.parse_square("h5").unwrap());
    // The King on a1 has no pass.
    assert!(parse_xboard_move(&mut pos, "a1a1").is_err());
    assert_eq!(
        legal_pass(&mut pos, Some(g.parse_square("e5").unwrap())),
        Some(e5)
    );
    // An igui captures: not a pass; with nothing able to pass, `@@@@` fails.
    let mut igui = position(&[], CHU_07);
    let m = parse_move(&mut igui, "e5e6e5").unwrap();
    assert!(m.via_capture && !is_pass(&m));
    let mut bare = position(&[], "12/11k/12/12/12/12/12/12/12/12/12/K11 b");
    assert!(parse_xboard_move(&mut bare, "@@@@").is_err());
}
