// Throwaway: full eval vs material eval, fixed nodes per move.
use kamil_engine::{Engine, EngineConfig, EvalMode, Limits};
use kamil_rules::{Outcome, Position, Side, Variant, movegen::legal_moves, outcome::outcome};
use std::sync::Arc;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = &args[1];
    let games: usize = args[2].parse().unwrap();
    let nodes: u64 = args[3].parse().unwrap();
    let v = Arc::new(Variant::builtin(name, &[]).unwrap());
    let mut score = 0.0;
    let mut seed = 99u64;
    for g in 0..games {
        let mut pos = Position::start(v.clone());
        for _ in 0..4 {
            let mut ms = Vec::new();
            legal_moves(&mut pos, &mut ms);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if g % 2 == 0 { /* same opening for pair */ }
            ms.sort_by_key(|m| (m.from, m.to, m.promo));
            pos.make(ms[((seed >> 33) as usize) % ms.len()]);
        }
        let full_side = if g % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut full = Engine::new(EngineConfig {
            hash_mb: 16,
            multipv: 1,
            eval: EvalMode::Full,
            threads: 1,
        });
        let mut mat = Engine::new(EngineConfig {
            hash_mb: 16,
            multipv: 1,
            eval: EvalMode::Material,
            threads: 1,
        });
        let mut plies = 0;
        let res = loop {
            if let Some(o) = outcome(&mut pos) {
                break Some(o);
            }
            if plies > 600 {
                break None;
            }
            let e = if pos.side() == full_side {
                &mut full
            } else {
                &mut mat
            };
            let r = e.search(&pos, &Limits::nodes(nodes), &mut |_| {});
            pos.make(r.best.unwrap());
            plies += 1;
        };
        let s = res.map_or(0.5, |o: Outcome| o.value(full_side));
        score += s;
        println!(
            "game {g} full as {:?}: {:?} plies {plies} -> {s} total {score}/{}",
            full_side,
            res,
            g + 1
        );
        if g % 2 == 1 {
            seed = seed.wrapping_add(7);
        }
    }
}
