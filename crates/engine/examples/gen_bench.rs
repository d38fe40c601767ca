use kamil_engine::{Engine, EngineConfig, Limits};
use kamil_rules::{Position, Variant, movegen::legal_moves, outcome::outcome};
use std::sync::Arc;
fn main() {
    // Variants named on the command line, or the first four games.
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = ["courier", "courier-modern", "courier-albers", "sho-shogi"]
            .map(String::from)
            .to_vec();
    }
    for name in &names {
        let v = Arc::new(Variant::builtin(name, &[]).unwrap());
        let mut pos = Position::start(v.clone());
        println!("{name};{}", pos.fen());
        let mut e = Engine::new(EngineConfig::default());
        let mut seed = 12345u64;
        for ply in 0..80 {
            if outcome(&mut pos).is_some() {
                break;
            }
            let mv = if ply < 6 {
                let mut ms = Vec::new();
                legal_moves(&mut pos, &mut ms);
                ms.sort_by_key(|m| (m.from, m.to, m.promo, m.aux));
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ms[(seed >> 33) as usize % ms.len()]
            } else {
                let t = std::time::Instant::now();
                let r = e.search(&pos, &Limits::depth(5), &mut |_| {});
                eprintln!(
                    "{name} ply {ply} nodes {} ms {} score {:?}",
                    r.nodes,
                    t.elapsed().as_millis(),
                    r.score
                );
                r.best.unwrap()
            };
            pos.make(mv);
            if ply == 20 || ply == 45 || ply == 75 {
                let f = pos.fen();
                let p2 = Position::from_fen(v.clone(), &f).unwrap();
                println!("{name};{}", p2.fen());
            }
        }
    }
}
