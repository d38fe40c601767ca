//! `noisy_moves` gives exactly the captures and promotions of `pseudo_moves`
//! (Checker series that capture included), in every built-in game, over
//! seeded random games.

use kamil_rules::movegen::{legal_moves, noisy_moves, pseudo_moves};
use kamil_rules::special::checker;
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, MoveKind, Position, Variant};
use std::sync::Arc;

fn key(m: &Move) -> (u16, u16, u16, u8, bool, u16) {
    (m.from.0, m.to.0, m.via.0, m.promo, m.via_capture, m.extra.0)
}

#[test]
fn noisy_moves_are_the_captures_and_promotions() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut compared = 0;
    for (name, _) in BUILTIN {
        let v = Arc::new(Variant::builtin(name, &[]).unwrap());
        for _ in 0..25 {
            let mut pos = Position::start(v.clone());
            for _ in 0..120 {
                let mut all = Vec::new();
                pseudo_moves(&pos, &mut all);
                let enemy = pos.side().flip();
                let mut want: Vec<_> = all
                    .iter()
                    .filter(|m| {
                        m.kind != MoveKind::Castle
                            && m.kind != MoveKind::Opening
                            && (m.promo != 0
                                || m.via_capture
                                || m.kind == MoveKind::EnPassant
                                || (m.kind == MoveKind::Checker
                                    && v.specials
                                        .checker
                                        .is_some_and(|ck| checker::captures(&ck, &pos, m).0 != 0))
                                || (m.to != m.from && pos.at(m.to).is_side(enemy)))
                    })
                    .map(key)
                    .collect();
                let mut got = Vec::new();
                noisy_moves(&pos, &mut got);
                let mut got: Vec<_> = got.iter().map(key).collect();
                want.sort();
                got.sort();
                assert_eq!(got, want, "{name}: {}", pos.fen());
                compared += 1;
                let mut legal = Vec::new();
                legal_moves(&mut pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make(legal[(seed >> 33) as usize % legal.len()]);
            }
        }
    }
    assert!(compared > 5_000, "{compared}");
}
