//! The Checker's attack test (rules/ordinary-variant.md 5.2) against its
//! definition: a square is attacked by the Checkers of `by` exactly when
//! one of the series the move generator lists for `by` (rules 1, 2 and 4)
//! takes the piece there. The attack test walks only the squares its
//! over-estimate keeps, so this checks that the over-estimate never drops
//! a series: on crowded random boards (where series multiply) and in
//! random games, under the default rules and the alternatives that change
//! which series exist (A8-A11).

mod common;

use common::Rng;
use kamil_rules::movegen::legal_moves;
use kamil_rules::special::checker;
use kamil_rules::{Position, Side, Square, Variant};
use std::sync::Arc;

/// Does a series of the side to move take on `target` (the generator's
/// answer)?
fn series_take(pos: &Position, target: Square) -> bool {
    let ck = pos.variant().specials.checker.expect("the Checker module");
    let checker = kamil_rules::Piece::new(ck.kind, pos.side());
    let mut moves = Vec::new();
    for &sq in pos.pieces(pos.side()) {
        if pos.at(sq) == checker {
            checker::series(&ck, pos, sq, &mut moves);
        }
    }
    moves.iter().any(|m| {
        checker::captures(&ck, pos, m).0 & (1u128 << pos.variant().geometry.compact(target)) != 0
    })
}

/// Checks every square holding a piece of the side not to move: the attack
/// test agrees with the series. Returns how many squares were attacked.
fn agree(pos: &Position, what: &str) -> usize {
    let ck = pos.variant().specials.checker.expect("the Checker module");
    let by = pos.side();
    let mut attacked = 0;
    for &target in pos.pieces(by.flip()) {
        let expected = series_take(pos, target);
        assert_eq!(
            checker::attacks(&ck, pos, target, by),
            expected,
            "{what}: {} target {}",
            pos.fen(),
            pos.variant().geometry.name(target)
        );
        attacked += usize::from(expected);
    }
    attacked
}

/// A board of 12 files and 10 ranks, about `fill` in 100 squares taken,
/// Checkers the likeliest piece; each King placed first. Pawns stay off
/// the first and last ranks.
fn crowded_fen(rng: &mut Rng, fill: usize, to_move: Side) -> String {
    let mut cells = vec![vec![String::new(); 12]; 10];
    for king in ["K", "k"] {
        loop {
            let (r, f) = (rng.below(10), rng.below(12));
            if cells[r][f].is_empty() {
                cells[r][f] = king.to_string();
                break;
            }
        }
    }
    const KINDS: &[u8] = b"ccccpnbtqmlr";
    for (r, row) in cells.iter_mut().enumerate() {
        for cell in row.iter_mut().filter(|c| c.is_empty()) {
            if rng.below(100) >= fill {
                continue;
            }
            let mut kind = KINDS[rng.below(KINDS.len())] as char;
            if kind == 'p' && (r == 0 || r == 9) {
                kind = 'c';
            }
            if rng.below(2) == 0 {
                kind = kind.to_ascii_uppercase();
            }
            *cell = kind.to_string();
        }
    }
    let side = if to_move == Side::First { 'w' } else { 'b' };
    format!("{} {side} - - 0 1", common::board_fen(&cells))
}

fn check(options: &[(&str, &str)]) {
    let v: Arc<Variant> = common::variant("ordinary-variant", options);
    let what = format!("{options:?}");
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let (mut boards, mut attacked) = (0, 0);
    for i in 0..300 {
        let to_move = if i % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let fen = crowded_fen(&mut rng, 35 + i % 40, to_move);
        let Ok(pos) = Position::from_fen(v.clone(), &fen) else {
            continue;
        };
        boards += 1;
        attacked += agree(&pos, &what);
    }
    assert!(boards >= 250, "{what}: only {boards} boards loaded");
    assert!(attacked > 100, "{what}: only {attacked} squares attacked");
    // Random games: double steps give en passant chances.
    let mut moves = Vec::new();
    let mut plies = 0;
    for _ in 0..6 {
        let mut pos = Position::start(v.clone());
        for _ in 0..120 {
            agree(&pos, &what);
            plies += 1;
            moves.clear();
            legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    assert!(plies > 300, "{what}: {plies} plies");
}

#[test]
fn attacks_agree_with_the_series_under_the_default_rules() {
    check(&[]);
}

#[test]
fn attacks_agree_with_the_series_under_the_alternatives() {
    for option in [
        "ov.jumps-any-order",
        "ov.revisit-allowed",
        "ov.remove-at-end",
        "ov.ep-any-step",
    ] {
        check(&[(option, "true")]);
    }
}
