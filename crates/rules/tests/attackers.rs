//! `attackers` against the move generator in Chu and Dai Shogi, whose
//! Lions, Falcons and Eagles have captures the attack tables leave out
//! (asked of the full generator only within their reach): on every square
//! of random games, the attackers found are exactly the pieces with a
//! generated move that captures there. Their Lion moves reach two squares
//! (rules/chu-shogi.md, the Lion), which is the reach the tables record.

use kamil_rules::attackers;
use kamil_rules::movegen::{legal_moves, piece_moves};
use kamil_rules::{Position, Side, Square, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The pieces of `by` with a generated move that captures on `target`.
fn by_generator(pos: &Position, target: Square, by: Side) -> BTreeSet<u16> {
    let v = pos.variant();
    let mut out = BTreeSet::new();
    let mut buf = Vec::new();
    for &sq in pos.pieces(by) {
        if sq == pos.frozen() {
            continue;
        }
        buf.clear();
        piece_moves(pos, v, sq, pos.at(sq), &mut buf);
        if buf.iter().any(|m| {
            (m.to == target && m.to != m.from && pos.at(target).is_piece())
                || (m.via_capture && m.via == target)
        }) {
            out.insert(sq.0);
        }
    }
    out
}

fn check_variant(name: &str, games: u64, plies: u32) {
    let v = Arc::new(Variant::builtin(name, &[]).unwrap());
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::start(v.clone());
        for _ in 0..plies {
            for &target in pos
                .pieces(Side::First)
                .iter()
                .chain(pos.pieces(Side::Second))
            {
                let by = pos.at(target).side().flip();
                let mut found = Vec::new();
                attackers(&pos, target, by, &[], &mut found);
                let found: BTreeSet<u16> = found.iter().map(|s| s.0).collect();
                assert_eq!(
                    found,
                    by_generator(&pos, target, by),
                    "{name} {} target {}",
                    pos.fen(),
                    v.geometry.name(target)
                );
                checked += 1;
            }
            moves.clear();
            legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make(moves[(seed % moves.len() as u64) as usize]);
        }
    }
    assert!(checked > 1000, "{name}: only {checked} squares checked");
}

/// The pieces the tables leave to the full generator, by name, with the
/// reach recorded for them.
fn complex_reaches(name: &str) -> Vec<(String, u8)> {
    let v = Variant::builtin(name, &[]).unwrap();
    let t = &v.attacks[Side::First.index()];
    v.pieces
        .iter()
        .enumerate()
        .filter(|&(i, _)| t.complex & (1u128 << i) != 0)
        .map(|(i, p)| (p.name.clone(), t.full_reach[i]))
        .collect()
}

#[test]
fn lion_moves_are_asked_within_two_squares() {
    for name in ["chu-shogi", "dai-shogi"] {
        let r = complex_reaches(name);
        let names: Vec<&str> = r.iter().map(|(n, _)| n.as_str()).collect();
        for piece in ["Lion", "Horned Falcon", "Soaring Eagle"] {
            assert!(names.contains(&piece), "{name}: {r:?}");
        }
        assert!(r.iter().all(|&(_, reach)| reach == 2), "{name}: {r:?}");
    }
}

#[test]
fn chu_shogi_attackers_are_the_generated_captures() {
    check_variant("chu-shogi", 6, 120);
}

#[test]
fn dai_shogi_attackers_are_the_generated_captures() {
    check_variant("dai-shogi", 3, 120);
}
