//! `checks::CheckSquares` against the move made: which quiet moves give
//! check, told from the board before the move.

mod common;
use common::{Rng, at, position, square, variant};

use kamil_rules::movegen::{is_attacked, legal_moves, pseudo_moves, pseudo_plain};
use kamil_rules::notation::move_text;
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Check, CheckSquares};
use kamil_rules::{Move, Position};

/// Every quiet move the test reads, in positions of seeded random games of
/// `name`: its answer against the move made and the royal's attack test.
/// The candidate moves ([`CheckSquares::candidates`]) must hold every
/// check. Returns how many moves were compared, how many of them checked
/// and how many moves the candidates left out.
fn compare(name: &str, games: u64) -> (u64, u64, u64) {
    let v = variant(name, &[]);
    let (mut compared, mut checks, mut skipped) = (0, 0, 0);
    for game in 0..games {
        let mut pos = Position::start(v.clone());
        let mut rng = Rng::new(game + 1);
        for _ in 0..120 {
            let them = pos.side().flip();
            if let [royal] = pos.royals(them)[..]
                && let Some(cs) = CheckSquares::new(&pos, royal)
            {
                let mut moves = Vec::new();
                pseudo_moves(&pos, &mut moves);
                // Both lists before any make: a take-back may reorder the
                // piece list.
                let mut candidates = Vec::new();
                cs.candidates(&pos, &mut candidates);
                let mut plain = Vec::new();
                pseudo_plain(&pos, &mut plain);
                for m in moves {
                    let Some(said) = cs.gives_check(&pos, m) else {
                        continue;
                    };
                    pos.make(m);
                    let is = is_attacked(&pos, royal, them.flip());
                    pos.unmake();
                    assert_eq!(said, is, "{name}: {} in {}", move_text(&v, m), pos.fen());
                    // The pieces left out of the candidates give no check.
                    assert!(
                        !is || candidates.contains(&m),
                        "{name}: {} not a candidate in {}",
                        move_text(&v, m),
                        pos.fen()
                    );
                    compared += 1;
                    checks += u64::from(is);
                }
                // The candidates are pseudo_plain's moves, in its order.
                let mut rest = plain.iter();
                assert!(
                    candidates.iter().all(|c| rest.any(|m| m == c)),
                    "{name}: candidates out of order in {}: {:?} against {:?}",
                    pos.fen(),
                    candidates
                        .iter()
                        .map(|&m| move_text(&v, m))
                        .collect::<Vec<_>>(),
                    plain.iter().map(|&m| move_text(&v, m)).collect::<Vec<_>>()
                );
                skipped += (plain.len() - candidates.len()) as u64;
            }
            let mut legal = Vec::new();
            legal_moves(&mut pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            pos.make(legal[rng.below(legal.len())]);
        }
    }
    (compared, checks, skipped)
}

#[test]
fn quick_checks_agree_with_making_the_move_in_every_game_they_serve() {
    let mut served = Vec::new();
    for (name, _) in BUILTIN {
        let (compared, checks, skipped) = compare(name, 6);
        if compared > 0 {
            assert!(checks > 0, "{name}: no check among {compared} moves");
            served.push(name.to_string());
        }
        if *name == "courier" {
            // Its short leapers far from the royal are left out.
            assert!(skipped > 0, "courier: the candidates left nothing out");
        }
    }
    // Courier, where quiescence's quiet checks were measured, must stay
    // served.
    assert!(served.iter().any(|s| s == "courier"), "served: {served:?}");
}

/// The move from `from` to `to` (square names) in `pos`.
fn mv(pos: &Position, from: &str, to: &str) -> Move {
    Move::new(square(pos, from), square(pos, to))
}

#[test]
fn a_discovered_check_and_a_blocked_line_in_courier() {
    // White Rook a1 behind its Knight on a3; the black King on a8.
    let pos = position("courier", &[], "k11/12/12/12/12/N11/12/R10K w - - 0 1");
    let cs = CheckSquares::new(&pos, square(&pos, "a8")).unwrap();
    // The Knight leaves the file: discovered check. The Rook along the
    // first rank: the Knight still blocks. The King's step: no check.
    for (from, to, checks) in [("a3", "b5", true), ("a1", "b1", false), ("l1", "l2", false)] {
        let got = cs.gives_check(&pos, mv(&pos, from, to));
        assert_eq!(got, Some(checks), "{from}{to}");
    }
    // How each checks: the Knight's move to b6 attacks a8 itself and
    // unmasks the Rook (double check, told as discovered); to b5 only
    // unmasks it.
    for (from, to, kind) in [
        ("a3", "b5", Check::Discovered),
        ("a3", "b6", Check::Discovered),
        ("a1", "b1", Check::None),
    ] {
        let got = cs.check_kind(&pos, mv(&pos, from, to));
        assert_eq!(got, Some(kind), "{from}{to}");
    }
}

#[test]
fn a_direct_check_is_told_from_a_discovered_one() {
    // White Knight on d5 and Rook on h1, a black Pawn on c7; the black
    // King on a8, nothing between it and h8.
    let pos = position("courier", &[], "k11/2p9/12/3N8/12/12/12/7R3K w - - 0 1");
    let cs = CheckSquares::new(&pos, square(&pos, "a8")).unwrap();
    // The Knight to b6 attacks a8 (no line runs through d5 to a8); the
    // Rook to h8 attacks along the eighth rank; a capture is not read.
    for (from, to, kind) in [
        ("d5", "b6", Some(Check::Direct)),
        ("h1", "h8", Some(Check::Direct)),
        ("d5", "c7", None),
    ] {
        let got = cs.check_kind(&pos, mv(&pos, from, to));
        assert_eq!(got, kind, "{from}{to}");
    }
}

#[test]
fn the_attack_tables_by_offset_in_courier() {
    // White Knight on b1, Rook on a1; read White's attack tables.
    let pos = position("courier", &[], "k11/12/12/12/12/12/12/RN9K w - - 0 1");
    let v = pos.variant();
    let t = &v.attacks[pos.side().index()];
    let off = |df: i32, dr: i32| i32::from(v.geometry.offset(df, dr));
    let knight = 1u128 << at(&pos, "b1").kind();
    let rook = 1u128 << at(&pos, "a1").kind();
    // A Knight's leap away: the Knight's type, no line.
    assert_ne!(t.from_offset(off(1, 2)).leaps & knight, 0);
    assert_eq!(t.from_offset(off(1, 2)).rides, 0);
    // Three files along the rank: a line a Rook rides, no leap.
    let rank = t.from_offset(off(3, 0));
    assert_eq!(rank.leaps, 0);
    let lines: Vec<_> = (0..t.rides.len())
        .filter(|i| rank.rides & (1 << i) != 0)
        .collect();
    assert_eq!(lines.len(), 1, "one line along the rank: {lines:?}");
    assert!(
        t.rides[lines[0]]
            .1
            .iter()
            .any(|&(types, ..)| types & rook != 0)
    );
    // No offset, and one beyond the mailbox: nothing.
    assert_eq!(t.from_offset(0), Default::default());
    let beyond = v.geometry.cells() as i32;
    assert_eq!(t.from_offset(beyond), Default::default());
    assert_eq!(t.from_offset(-beyond), Default::default());
    // The Knight moves and attacks within two cells; the Rook rides.
    let reach = |p: &str| t.check_reach[usize::from(at(&pos, p).kind())];
    assert_eq!(reach("b1"), 4);
    assert_eq!(reach("a1"), u8::MAX);
}
