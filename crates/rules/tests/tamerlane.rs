//! Tamerlane Chess beyond the rule book's numbered cases (those are run from
//! `tests/data/cases.json` by `tests/rulebook.rs`): the attack tables and
//! the legality shortcut against brute force over seeded random games,
//! every option of `variants/tamerlane.toml` (rules/tamerlane.md 4, 5.2-5.6)
//! and the Greenwood presets (5.7).

mod common;
use common::{at, legal, moves_from, piece, play, square, texts, variant};

use kamil_rules::movegen::{fallback_moves, is_attacked, piece_moves, pseudo_moves};
use kamil_rules::outcome::{ended_by_rule, outcome};
use kamil_rules::perft::perft;
use kamil_rules::{Move, MoveKind, Outcome, Piece, Position, Reason, Side, Square};
use std::collections::BTreeSet;

fn position(options: &[(&str, &str)], fen: &str) -> Position {
    common::position("tamerlane", options, fen)
}

// ---------------------------------------------------------------------------
// Brute force: attacks and legality from the full generator alone.

/// Could a piece of `by` capture the (enemy, capturable) piece on `target`
/// with one of its generated moves?
fn brute_attacked(pos: &Position, target: Square, by: Side) -> bool {
    let v = pos.variant();
    let mut buf = Vec::new();
    for &s in pos.pieces(by) {
        buf.clear();
        piece_moves(pos, v, s, pos.at(s), &mut buf);
        if buf
            .iter()
            .any(|m| (m.to == target && m.to != m.from) || (m.via_capture && m.via == target))
        {
            return true;
        }
    }
    false
}

/// After a move: is the mover's only royal attacked (brute force)?
fn brute_exposed(pos: &Position) -> bool {
    let mover = pos.side().flip();
    let r = pos.royals(mover);
    r.len() == 1 && brute_attacked(pos, r[0], pos.side())
}

/// The capture squares of a pawn of `side` on `t` (main board only).
fn capture_squares(pos: &Position, t: Square, side: Side) -> Vec<Square> {
    let g = &pos.variant().geometry;
    let c = pos.variant().specials.citadels.as_ref().unwrap();
    let dy = if side == Side::First { 1 } else { -1 };
    [-1, 1]
        .iter()
        .filter_map(|dx| g.square(g.file(t) as i32 + dx, g.rank(t) as i32 + dy))
        .filter(|&s| !c.is_citadel(s))
        .collect()
}

/// 5.2 fork-or-trap, written out from the rule book, after the relocation.
fn brute_relocation_holds(pos: &mut Position) -> bool {
    let m = pos.last_move().unwrap();
    let side = pos.side().flip();
    let caps = capture_squares(pos, m.to, side);
    let enemy: Vec<Square> = caps
        .iter()
        .copied()
        .filter(|&c| pos.at(c).is_side(side.flip()))
        .collect();
    if enemy.len() == 2 {
        return true;
    }
    let v = pos.variant().clone();
    for e in enemy {
        let mut moves = Vec::new();
        piece_moves(pos, &v, e, pos.at(e), &mut moves);
        let mut escapes = false;
        for mv in moves {
            if caps.contains(&mv.to) {
                continue;
            }
            pos.make(mv);
            escapes |= !brute_exposed(pos);
            pos.unmake();
        }
        if !escapes {
            return true;
        }
    }
    false
}

/// The legal moves by brute force: every pseudo-legal move (the fallback
/// ones when none is legal) made, and judged with the full generator.
fn brute_legal(pos: &mut Position) -> BTreeSet<String> {
    let judge = |pos: &mut Position, list: Vec<Move>| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for m in list {
            pos.make(m);
            let ok = !brute_exposed(pos)
                && (m.kind != MoveKind::Relocate || brute_relocation_holds(pos));
            pos.unmake();
            if ok {
                out.insert(format!("{m:?}"));
            }
        }
        out
    };
    let mut pseudo = Vec::new();
    pseudo_moves(pos, &mut pseudo);
    let got = judge(pos, pseudo);
    if !got.is_empty() {
        return got;
    }
    let mut extra = Vec::new();
    fallback_moves(pos, &mut extra);
    judge(pos, extra)
}

/// Seeded random games from `fen`: at every position the attack test of
/// every occupied square and the legal move list agree with brute force.
fn agree_with_brute_force(options: &[(&str, &str)], fen: &str, games: u32, plies: u32) -> usize {
    let mut seed = 0x7A3E_21C5_0F00_0001u64;
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = position(options, fen);
        for _ in 0..plies {
            if ended_by_rule(&pos).is_some() {
                break;
            }
            for side in Side::BOTH {
                let squares: Vec<Square> = pos.pieces(side.flip()).to_vec();
                for s in squares {
                    let p = pos.at(s);
                    if pos.variant().pieces[p.kind() as usize].immune {
                        continue;
                    }
                    assert_eq!(
                        is_attacked(&pos, s, side),
                        brute_attacked(&pos, s, side),
                        "attack on {} by {side:?} in `{}`",
                        pos.variant().geometry.name(s),
                        pos.fen()
                    );
                }
            }
            let fast: BTreeSet<String> = legal(&mut pos).iter().map(|m| format!("{m:?}")).collect();
            assert_eq!(
                fast,
                brute_legal(&mut pos),
                "legal moves of `{}`",
                pos.fen()
            );
            checked += 1;
            let moves = legal(&mut pos);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.make(moves[(seed >> 33) as usize % moves.len()]);
        }
    }
    checked
}

const START: &str = "*e1c1d1d1c1e*/1rntgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/*11*/*PPPDPCPEPFPKPWPGPTPNPR*/*RNTGFKWGTNR1/*E1C1D1D1C1E* w Kk 0 1";

/// Giraffes, Pickets, a pawn of pawns about to park and a King in check
/// range: the special pieces meet early.
const CROWDED: &str =
    "*11*/1r1g1k1t1n2*/*1PP1pk1G5*/*2T3pr4*/*4g6*/*11*/*1t4R2G1*/*3PK2pp4*/*2N2K4PY1/*11* w Kk 0 1";

#[test]
fn attacks_and_legal_moves_agree_with_brute_force() {
    let mut n = agree_with_brute_force(&[], START, 12, 120);
    n += agree_with_brute_force(&[], CROWDED, 12, 80);
    n += agree_with_brute_force(&[("royals", "king-only")], CROWDED, 6, 80);
    n += agree_with_brute_force(&[("pop", "two-stage")], CROWDED, 6, 80);
    assert!(n > 1_500, "{n} positions checked");
}

// ---------------------------------------------------------------------------
// Board, pieces, FEN.

#[test]
fn board_has_112_squares_and_two_citadels() {
    let v = variant("tamerlane", &[]);
    let g = &v.geometry;
    assert_eq!(g.squares().count(), 112);
    let c = v.specials.citadels.as_ref().unwrap();
    let l2 = g.parse_square("l2").unwrap();
    let z9 = g.parse_square("z9").unwrap();
    assert_eq!(c.owner(l2), Some(Side::First));
    assert_eq!(c.owner(z9), Some(Side::Second));
    assert!(g.parse_square("l3").is_none() && g.parse_square("z10").is_none());
}

#[test]
fn fen_tokens_are_read_longest_first() {
    // `PPPD`: a pawn of pawns, then a pawn of war engines.
    let pos = position(&[], START);
    assert_eq!(at(&pos, "a3"), piece(&pos, "pawn-of-pawns", Side::First));
    assert_eq!(
        at(&pos, "b3"),
        piece(&pos, "pawn-of-war-engines", Side::First)
    );
    assert_eq!(at(&pos, "k8"), piece(&pos, "pawn-of-pawns", Side::Second));
    assert_eq!(pos.fen(), START);
    for bad in [
        "*e1c1d1d1c1e*/1rntgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/*11*/*PPPDPCPEPFPKPWPGPTPNPR*/*RNTGFKWGTNR1/E1C1D1D1C1E* w Kk 0 1",
        "*e1c1d1d1c1e*/1rntgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/*11*/*PPPDPCPEPFPKPWPGPTPNPRPR*/*RNTGFKWGTNR1/*E1C1D1D1C1E* w Kk 0 1",
        "*e1c1d1d1c1e*/1rntgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/*11*/*PPPDPCPEPFPKPWPGPTPNP*/*RNTGFKWGTNR1/*E1C1D1D1C1E* w Kk 0 1",
        "*e1c1d1d1c1e*/1rntgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/*11*/*PPPDPCPEPFPKPWPGPTPNPR*/*RNTGFKWGTNR1/*E1C1D1D1C1E* w Kx 0 1",
    ] {
        assert!(
            Position::from_fen(variant("tamerlane", &[]), bad).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn swap_rights_are_in_fen_and_hash() {
    let a = position(&[], START);
    let b = position(&[], &START.replace(" Kk ", " k "));
    let c = position(&[], &START.replace(" Kk ", " - "));
    assert_ne!(a.hash(), b.hash());
    assert_ne!(b.hash(), c.hash());
    assert_eq!(b.swap_rights(), 2);
    assert!(c.fen().contains(" w - 0 1"), "{}", c.fen());
}

#[test]
fn picket_blocked_at_distance_one() {
    // A friendly piece next to the Picket closes that diagonal entirely.
    let mut pos = position(
        &[],
        "*10k*/12*/*11*/*11*/*3N7*/*4T6*/*11*/*11*/*12/*K10* w Kk 0 1",
    );
    let dests = moves_from(&mut pos, "e5");
    assert!(
        !dests.iter().any(|m| m.ends_with("c7") || m.ends_with("b8")),
        "{dests:?}"
    );
    assert!(
        dests.contains("e5g7") && dests.contains("e5c3"),
        "{dests:?}"
    );
}

#[test]
fn picket_pins_and_giraffe_pins_are_seen() {
    // White King e1; a White Knight on e4 shields it from a Black Giraffe on
    // d8 (diagonal step to e7, then down e6, e5, e4... to e1): the Knight is
    // pinned. A White Rook on c3 shields it from the Picket on a5 (b4, c3,
    // d2, e1): pinned too.
    let mut pos = position(
        &[],
        "*10k*/12*/*3g7*/*11*/*11*/*t10*/*4N6*/*2R8*/*12/*4K6* w Kk 0 1",
    );
    let t = texts(&mut pos);
    assert!(
        !t.iter().any(|m| m.starts_with("e4")),
        "Knight pinned: {t:?}"
    );
    assert!(!t.iter().any(|m| m.starts_with("c3")), "Rook pinned: {t:?}");
    assert!(t.iter().any(|m| m.starts_with("e1")), "{t:?}");
    // Without the Picket the Rook is free.
    let mut free = position(
        &[],
        "*10k*/12*/*3g7*/*11*/*11*/*11*/*4N6*/*2R8*/*12/*4K6* w Kk 0 1",
    );
    assert!(texts(&mut free).contains("c3c9"));
}

// ---------------------------------------------------------------------------
// Pawn of pawns (5.2).

/// TAM-16 with a White Knight on the fork square e5.
const FORK_OWN: &str = "*PX9k*/12*/*11*/*11*/*3n1r5*/*4N6*/*11*/*11*/*12/*K10* w Kk 0 1";

#[test]
fn relocation_may_remove_a_friendly_piece_by_default() {
    let mut pos = position(&[], FORK_OWN);
    assert_eq!(
        moves_from(&mut pos, "a10"),
        BTreeSet::from(["a10e5".to_string()])
    );
    play(&mut pos, "a10e5");
    assert_eq!(
        at(&pos, "e5"),
        piece(&pos, "pawn-of-pawns-relocated", Side::First)
    );
    assert_eq!(pos.pieces(Side::First).len(), 2, "the Knight is gone");
    pos.unmake();
    assert_eq!(at(&pos, "e5"), piece(&pos, "knight", Side::First));
    assert_eq!(pos.fen(), FORK_OWN);
}

#[test]
fn two_stage_relocation_needs_an_empty_or_enemy_square() {
    let mut pos = position(&[("pop", "two-stage")], FORK_OWN);
    assert!(moves_from(&mut pos, "a10").is_empty());
    // An enemy piece on the fork square is captured.
    let fen = "*PX9k*/12*/*11*/*11*/*3n1r5*/*4w6*/*11*/*11*/*12/*K10* w Kk 0 1";
    for opts in [&[][..], &[("pop", "two-stage")][..]] {
        let mut pos = position(opts, fen);
        assert_eq!(
            moves_from(&mut pos, "a10"),
            BTreeSet::from(["a10e5".to_string()])
        );
    }
}

#[test]
fn relocation_never_onto_royals_parked_pawns_or_edge_ranks() {
    // Black King g6 and Knight e6 would be forked from f5, but f5 holds the
    // Black Prince; the pawn cannot land on it.
    let mut pos = position(
        &[],
        "*PX9k*/12*/*11*/*11*/*4n1h4*/*5h5*/*11*/*11*/*12/*K10* w Kk 0 1",
    );
    assert!(!moves_from(&mut pos, "a10").contains("a10f5"));
}

#[test]
fn relocation_must_leave_the_mover_safe() {
    // TAM-16 with a Black Rook on a9 checking the White King on a1: the
    // fork on e5 does not answer the check, so it is no legal move.
    let fen = "*PX9k*/1r10*/*11*/*11*/*3n1r5*/*11*/*11*/*11*/*12/*K10* w Kk 0 1";
    let mut pos = position(&[], fen);
    assert_eq!(
        texts(&mut pos),
        BTreeSet::from(["a1b1", "a1b2"].map(String::from))
    );
}

#[test]
fn waiting_pawn_transfers_when_the_square_frees() {
    let fen = "*10k*/3PY8*/*11*/*11*/*11*/*11*/*11*/*5N5*/*12/*K10* w Kk 0 1";
    let mut pos = position(&[], fen);
    play(&mut pos, "c9c10");
    let waiting = piece(&pos, "pawn-of-pawns-waiting", Side::First);
    assert_eq!(at(&pos, "c10"), waiting);
    assert!(pos.fen().contains("PV"));
    play(&mut pos, "k10k9");
    // f3 still taken: no transfer yet.
    assert!(!texts(&mut pos).contains("c10f3"));
    play(&mut pos, "f3e5");
    play(&mut pos, "k9k10");
    let before = pos.fen();
    play(&mut pos, "c10f3");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Transfer);
    assert_eq!(
        at(&pos, "f3"),
        piece(&pos, "pawn-of-pawns-transferred", Side::First)
    );
    assert_eq!(at(&pos, "c10"), Piece::EMPTY);
    assert_eq!(pos.halfmove(), 0, "a transfer resets the move count");
    pos.unmake();
    assert_eq!(pos.fen(), before);
}

#[test]
fn second_arrival_by_capture_transfers() {
    let fen = "*1n8k*/3PY8*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*K10* w Kk 0 1";
    let mut pos = position(&[], fen);
    play(&mut pos, "c9b10");
    assert_eq!(
        at(&pos, "b10"),
        Piece::EMPTY,
        "the Knight is taken, the square left"
    );
    assert_eq!(
        at(&pos, "f3"),
        piece(&pos, "pawn-of-pawns-transferred", Side::First)
    );
    pos.unmake();
    assert_eq!(pos.fen(), fen);
}

#[test]
fn black_pawn_of_pawns_transfers_to_f8() {
    let fen = "*10k*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*2py9/*K10* b Kk 0 1";
    let mut pos = position(&[], fen);
    play(&mut pos, "c2c1");
    assert_eq!(
        at(&pos, "f8"),
        piece(&pos, "pawn-of-pawns-transferred", Side::Second)
    );
}

#[test]
fn two_stage_second_arrival_makes_adventitious_king() {
    let fen = "*10k*/3PY8*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*K10* w Kk 0 1";
    let mut pos = position(&[("pop", "two-stage")], fen);
    play(&mut pos, "c9c10");
    assert_eq!(
        at(&pos, "c10"),
        piece(&pos, "adventitious-king", Side::First)
    );
    assert_eq!(pos.royals(Side::First).len(), 2);
}

#[test]
fn feminine_array_transfers_to_f2() {
    let v = variant("tamerlane", &[("array", "feminine")]);
    let mut start = Position::start(v.clone());
    assert_eq!(
        at(&start, "f2"),
        piece(&start, "pawn-of-kings", Side::First)
    );
    assert_eq!(
        at(&start, "f9"),
        piece(&start, "pawn-of-kings", Side::Second)
    );
    assert_eq!(perft(&mut start, 2), perft(&mut start, 1).pow(2));
    let fen = "*10k*/3PY8*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*K10* w Kk 0 1";
    let mut pos = Position::from_fen(v, fen).unwrap();
    play(&mut pos, "c9c10");
    assert_eq!(
        at(&pos, "f2"),
        piece(&pos, "pawn-of-pawns-transferred", Side::First)
    );
}

// ---------------------------------------------------------------------------
// Royals (5.3) and the King swap (5.4).

/// TAM-8 with the Prince: White K a1 (attacked), H k5, pawn of rooks c3.
const TAM_8: &str = "*10k*/12*/*r10*/*11*/*11*/*10H*/*11*/*2PR8*/*12/*K10* w Kk 0 1";

#[test]
fn king_only_royals_restore_check_rules() {
    let mut pos = position(&[("royals", "king-only")], TAM_8);
    assert_eq!(pos.royals(Side::First).len(), 1);
    let t = texts(&mut pos);
    // K b1, K b2 and the two swaps; K a2 stays attacked; the Prince's steps
    // do not answer the check.
    assert_eq!(
        t,
        BTreeSet::from(["a1b1", "a1b2", "a1c3", "a1k5"].map(String::from)),
        "{t:?}"
    );
}

#[test]
fn several_royals_may_be_captured_one_by_one() {
    // White has King and Prince; Black's Rook takes the King: the Prince
    // is White's royal now, under check rules.
    let mut pos = position(
        &[],
        "*10k*/12*/*11*/*11*/*11*/*10H*/*11*/*11*/*12/*K9r* b k 0 1",
    );
    play(&mut pos, "k1a1");
    assert_eq!(pos.royals(Side::First).len(), 1);
    assert_eq!(outcome(&mut pos), None, "the game goes on");
    play(&mut pos, "k5k6");
    play(&mut pos, "a1a6");
    // Check from the Rook on the sixth rank: the Prince must answer it.
    assert_eq!(
        texts(&mut pos),
        BTreeSet::from(["k6j5", "k6j7", "k6k5", "k6k7"].map(String::from))
    );
}

/// Stalemate with a swap partner: White K a1, pawn of rooks a2 (blocked by
/// a Black Elephant on a3); Black Rook b4 guards b1 and b2.
const STALEMATE_SWAP: &str = "*10k*/12*/*11*/*11*/*11*/*11*/*1r9*/*e10*/*PR11/*K10* w Kk 0 1";

#[test]
fn swap_saves_a_stalemated_king_by_default() {
    let mut pos = position(&[], STALEMATE_SWAP);
    let t = texts(&mut pos);
    assert_eq!(t, BTreeSet::from(["a1a2".to_string()]));
    assert_eq!(outcome(&mut pos), None);
    play(&mut pos, "a1a2");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::Swap);
    assert_eq!(at(&pos, "a2"), piece(&pos, "king", Side::First));
    assert_eq!(at(&pos, "a1"), piece(&pos, "pawn-of-rooks", Side::First));
    assert_eq!(pos.swap_rights(), 2, "White's right is spent");
    assert!(pos.fen().contains(" b k "), "{}", pos.fen());
}

#[test]
fn swap_check_only_leaves_the_stalemate() {
    let mut pos = position(&[("swap", "check-only")], STALEMATE_SWAP);
    assert!(texts(&mut pos).is_empty());
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::Second,
            reason: Reason::Stalemate
        })
    );
    // In check it still has them: TAM-9.
    let mut pos = position(
        &[("swap", "check-only")],
        "*10k*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*DE10/*K9r* w Kk 0 1",
    );
    assert_eq!(texts(&mut pos).len(), 2);
}

#[test]
fn swap_mated_only_waits_for_no_other_move() {
    // TAM-8 without the Prince: K b1 and K b2 exist, so no swap.
    let fen = "*10k*/12*/*r10*/*11*/*11*/*11*/*11*/*2PR8*/*12/*K10* w Kk 0 1";
    let mut pos = position(&[("swap", "mated-only")], fen);
    assert_eq!(
        texts(&mut pos),
        BTreeSet::from(["a1b1", "a1b2"].map(String::from))
    );
    let mut pos = position(&[("swap", "mated-only")], STALEMATE_SWAP);
    assert_eq!(texts(&mut pos), BTreeSet::from(["a1a2".to_string()]));
    // Mated: TAM-9's two swaps.
    let mut pos = position(
        &[("swap", "mated-only")],
        "*10k*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*DE10/*K9r* w Kk 0 1",
    );
    assert_eq!(texts(&mut pos).len(), 2);
}

/// Two White Kings: the one on j9 is checked by the Rook on k9, the one on
/// f2 is not.
const TWO_KINGS: &str = "*11*/6k3Kr*/*11*/*11*/*11*/*11*/*11*/*11*/*5K6/*10E* w Kk 0 1";

#[test]
fn with_two_kings_the_swaps_depend_on_the_board_alone() {
    let mut pos = position(&[], TWO_KINGS);
    let first = texts(&mut pos);
    // The checked King may swap (with the other King or the Elephant).
    for m in ["j9f2", "j9k1"] {
        assert!(first.contains(m), "{m} in {first:?}");
    }
    // Making and unmaking every move reorders the piece lists; the legal
    // moves must not change with them.
    for m in legal(&mut pos) {
        pos.make(m);
        pos.unmake();
        assert_eq!(texts(&mut pos), first, "after making and unmaking {m:?}");
    }
    assert_eq!(texts(&mut pos.clone()), first);
}

#[test]
fn swap_never_puts_a_pawn_on_its_last_rank_nor_moves_a_parked_pawn() {
    // White King on k10 in check from the Rook on k1; partners: a pawn of
    // rooks on e6 (would land on k10, its last rank: no), a parked pawn of
    // pawns on c10 (no), a Knight on h6 (yes).
    let fen = "*2PX7K*/12*/*11*/*11*/*4PR2N3*/*11*/*11*/*11*/*12/*k9r* w Kk 0 1";
    let mut pos = position(&[], fen);
    let swaps: Vec<String> = legal(&mut pos)
        .iter()
        .filter(|m| m.kind == MoveKind::Swap)
        .map(|m| kamil_rules::notation::move_text(pos.variant(), *m))
        .collect();
    assert_eq!(swaps, ["k10h6"]);
}

// ---------------------------------------------------------------------------
// Citadels (5.5).

#[test]
fn adventitious_king_in_its_citadel_is_immune() {
    // White AK on l2 (its own citadel), the only White royal; a Black Rook
    // on k2 cannot take it and does not check it.
    let fen = "*10k*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*10rA/*11* b - 0 1";
    let mut pos = position(&[], fen);
    let t = moves_from(&mut pos, "k2");
    assert!(!t.contains("k2l2"), "{t:?}");
    assert!(!is_attacked(&pos, square(&pos, "l2"), Side::Second));
    // White to move: k1 and k3 are attacked by the Rook; taking it is fine.
    pos = position(&[], &fen.replace(" b ", " w "));
    assert_eq!(
        moves_from(&mut pos, "l2"),
        BTreeSet::from(["l2k2".to_string()])
    );
}

#[test]
fn citadel_draw_unless_swap_lets_the_game_go_on() {
    let fen = "*K10*/12*/*11*/*11*/*11*/*4H6*/*11*/*11*/*12/*10k* w Kk 0 1";
    let mut pos = position(&[], fen);
    assert_eq!(moves_from(&mut pos, "a10").len(), 4, "plain entry only");
    let mut pos = position(&[("citadel", "draw-unless-swap")], fen);
    let t = moves_from(&mut pos, "a10");
    assert!(t.contains("a10z9") && t.contains("a10z9e5"), "{t:?}");
    play(&mut pos, "a10z9e5");
    assert_eq!(pos.last_move().unwrap().kind, MoveKind::CitadelSwap);
    assert_eq!(at(&pos, "z9"), piece(&pos, "prince", Side::First));
    assert_eq!(at(&pos, "e5"), piece(&pos, "king", Side::First));
    assert_eq!(outcome(&mut pos), None, "the game goes on");
    pos.unmake();
    assert_eq!(pos.fen(), fen);
    play(&mut pos, "a10z9");
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Draw {
            reason: Reason::Citadel
        })
    );
}

// ---------------------------------------------------------------------------
// Bare king (5.6).

#[test]
fn bare_king_shatranj_option() {
    let fen = "*10k*/12*/*11*/*11*/*R10*/*11*/*11*/*11*/*5K6/*11* b Kk 0 1";
    let mut pos = position(&[], fen);
    assert_eq!(outcome(&mut pos), None, "no bare-king rule by default");
    let mut pos = position(&[("bareking", "shatranj")], fen);
    assert_eq!(outcome(&mut pos), None, "Black may still take the Rook");
    let two = "*10k*/12*/*11*/*11*/*R10*/*N10*/*11*/*11*/*5K6/*11* b Kk 0 1";
    let mut pos = position(&[("bareking", "shatranj")], two);
    assert_eq!(
        outcome(&mut pos),
        Some(Outcome::Win {
            winner: Side::First,
            reason: Reason::BareKing
        })
    );
}

// ---------------------------------------------------------------------------
// Greenwood's variants (5.7).

fn greenwood(n: u32) -> Position {
    Position::start(variant(&format!("tamerlane-greenwood-{n}"), &[]))
}

#[test]
fn greenwood_presets_load_with_their_arrays() {
    for n in 1..=5 {
        let mut pos = greenwood(n);
        let g = &pos.variant().geometry;
        assert_eq!(g.squares().count(), 122, "12x10 plus two citadels");
        assert_eq!(at(&pos, "g2"), piece(&pos, "king", Side::First));
        assert_eq!(at(&pos, "f9"), piece(&pos, "king", Side::Second));
        let extra = if n <= 2 { "guard" } else { "queen" };
        assert_eq!(at(&pos, "f2"), piece(&pos, extra, Side::First));
        let c = pos.variant().specials.citadels.clone().unwrap();
        assert!(c.is_citadel(square(&pos, "m2")) && c.is_citadel(square(&pos, "z9")));
        let n1 = perft(&mut pos, 1);
        assert_eq!(perft(&mut pos, 2), n1 * n1, "greenwood-{n}: no contact yet");
    }
}

#[test]
fn greenwood_pieces_move_as_section_5_7_says() {
    let fen = |p: &str| format!("*10k1*/13*/*12*/*12*/*12*/*4{p}7*/*12*/*12*/*13/*K11* w Kk 0 1");
    let dests = |n: u32, p: &str| {
        let v = variant(&format!("tamerlane-greenwood-{n}"), &[]);
        let mut pos = Position::from_fen(v, &fen(p)).unwrap();
        moves_from(&mut pos, "e5")
            .into_iter()
            .map(|m| m[2..].to_string())
            .collect::<BTreeSet<String>>()
    };
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    // Variant 1: the Guard steps as a King; the pieces are Tamerlane's.
    assert_eq!(dests(1, "U").len(), 8);
    assert_eq!(dests(1, "E"), set(&["c3", "c7", "g3", "g7"]));
    // Variant 2: Elephant FA, War Engine WD, Picket a Bishop, General FbW.
    assert_eq!(dests(2, "E").len(), 8);
    assert_eq!(dests(2, "D").len(), 8);
    assert!(dests(2, "T").contains("d6") && dests(2, "T").len() == 16);
    assert_eq!(dests(2, "F"), set(&["d4", "d6", "f4", "f6", "e4"]));
    // Giraffe: minimum run 3 (variant 1), 2 (variant 2), 1 (variant 4).
    assert!(!dests(1, "G").contains("f8") && dests(1, "G").contains("f9"));
    assert!(dests(2, "G").contains("f8") && !dests(2, "G").contains("f7"));
    assert!(dests(4, "G").contains("f7") && !dests(4, "G").contains("f6"));
    // Variant 5 adds the reverse bent move (orthogonal slide, then one
    // diagonal step onward): with f6 blocked, f7 is still reached by e6-f7.
    let blocked = |n: u32| {
        let v = variant(&format!("tamerlane-greenwood-{n}"), &[]);
        let f = "*10k1*/13*/*12*/*12*/*5N6*/*4G7*/*12*/*12*/*13/*K11* w Kk 0 1";
        let mut pos = Position::from_fen(v, f).unwrap();
        moves_from(&mut pos, "e5")
    };
    assert!(!blocked(4).contains("e5f7"));
    assert!(blocked(5).contains("e5f7"));
    // Variants 3-5: a Queen.
    assert!(dests(3, "Q").len() > 30);
}

#[test]
fn greenwood_engine_horizontal_option() {
    let fen = "*10k1*/13*/*12*/*12*/*12*/*4D7*/*12*/*12*/*13/*K11* w Kk 0 1";
    let v = variant(
        "tamerlane-greenwood-2",
        &[("greenwood-engine", "horizontal")],
    );
    let mut pos = Position::from_fen(v, fen).unwrap();
    let d: BTreeSet<String> = moves_from(&mut pos, "e5");
    assert_eq!(
        d,
        BTreeSet::from(["e5c5", "e5d5", "e5f5", "e5g5"].map(String::from))
    );
}

#[test]
fn greenwood_transfer_square_is_the_pawn_of_kings_start() {
    let v = variant("tamerlane-greenwood-1", &[]);
    let t = v.specials.pawn_of_pawns.unwrap().transfer;
    assert_eq!(v.geometry.name(t[0]).to_string(), "g3");
    assert_eq!(v.geometry.name(t[1]).to_string(), "f8");
}
