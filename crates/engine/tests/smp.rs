//! Lazy SMP: searches with helper threads return legal moves and lines,
//! honour every limit and stop; one thread stays deterministic.

mod common;
use common::variant;

use kamil_engine::search::MAX_THREADS;
use kamil_engine::{Engine, EngineConfig, Info, Limits, SearchResult};
use kamil_rules::movegen::legal_moves;
use kamil_rules::{Move, Position};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn engine(threads: usize) -> Engine {
    let mut e = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    e.set_threads(threads);
    e
}

/// Panics unless every move of `pv` is legal in turn from `pos`.
fn assert_legal_line(pos: &Position, pv: &[Move], what: &str) {
    let mut p = pos.clone();
    for (i, &m) in pv.iter().enumerate() {
        let mut legal = Vec::new();
        legal_moves(&mut p, &mut legal);
        assert!(legal.contains(&m), "{what}: PV move {i} ({m:?}) is illegal");
        p.make(m);
    }
}

fn check(pos: &Position, r: &SearchResult, infos: &[Info], what: &str) {
    let mut legal = Vec::new();
    legal_moves(&mut pos.clone(), &mut legal);
    let best = r.best.unwrap_or_else(|| panic!("{what}: no move"));
    assert!(legal.contains(&best), "{what}: illegal best move");
    assert_eq!(
        r.pv.first(),
        Some(&best),
        "{what}: PV does not start with it"
    );
    assert_legal_line(pos, &r.pv, what);
    assert!(!infos.is_empty(), "{what}: no info");
    for i in infos {
        assert_legal_line(pos, &i.pv, what);
    }
    // Node counts reported grow, and the result counts at least as many.
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes), "{what}");
    assert!(r.nodes >= infos.last().map_or(0, |i| i.nodes), "{what}");
}

#[test]
fn two_threads_find_legal_moves_and_lines_under_every_limit() {
    for name in ["courier", "chu-shogi"] {
        let pos = Position::start(variant(name));
        for (label, limits) in [
            ("depth", Limits::depth(5)),
            ("nodes", Limits::nodes(30_000)),
            ("movetime", Limits::movetime(300)),
        ] {
            let what = format!("{name} {label}");
            let mut e = engine(2);
            let mut infos = Vec::new();
            let t = Instant::now();
            let r = e.search(&pos, &limits, &mut |i| infos.push(i.clone()));
            check(&pos, &r, &infos, &what);
            match label {
                "depth" => assert_eq!(r.depth, 5, "{what}"),
                // The main thread stops once all threads together reach the
                // budget: not long after it (helpers share every 1024 nodes).
                "nodes" => assert!(r.nodes < 30_000 + 20_000, "{what}: {}", r.nodes),
                _ => assert!(t.elapsed() < Duration::from_millis(2_000), "{what}"),
            }
            // The engine never sets the user's stop flag itself.
            assert!(!e.stop_handle().load(Ordering::SeqCst), "{what}");
        }
    }
}

/// A second search of the same engine (the helpers' tables kept) works too,
/// and a mid-game position with a PV of several moves is legal.
#[test]
fn searches_follow_one_another_with_threads() {
    let mut pos = Position::start(variant("courier"));
    let mut e = engine(2);
    for _ in 0..6 {
        let mut infos = Vec::new();
        let r = e.search(&pos, &Limits::depth(4), &mut |i| infos.push(i.clone()));
        check(&pos, &r, &infos, "game");
        pos.make(r.best.unwrap());
    }
}

#[test]
fn stop_ends_a_search_with_threads() {
    let pos = Position::start(variant("courier"));
    let mut e = engine(2);
    let stop = e.stop_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let t = Instant::now();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let r = e.search(&pos, &limits, &mut |i| infos.push(i.clone()));
    stopper.join().unwrap();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    check(&pos, &r, &infos, "stopped");
    // The front end clears the flag; the next search runs normally.
    e.stop_handle().store(false, Ordering::SeqCst);
    let r = e.search(&pos, &Limits::depth(3), &mut |_| {});
    assert_eq!(r.depth, 3);
}

#[test]
fn one_thread_is_deterministic() {
    let pos = Position::start(variant("courier"));
    let run = || {
        let mut e = engine(1);
        let r = e.search(&pos, &Limits::depth(6), &mut |_| {});
        (r.nodes, r.best, r.pv)
    };
    let a = run();
    assert_eq!(a, run());
    // Back to one thread after more: the same search again.
    let mut e = engine(2);
    e.set_threads(1);
    let r = e.search(&pos, &Limits::depth(6), &mut |_| {});
    assert_eq!((r.nodes, r.best, r.pv), a);
}

#[test]
fn threads_are_clamped() {
    let mut e = engine(1);
    e.set_threads(0);
    assert_eq!(e.config().threads, 1);
    e.set_threads(1_000);
    assert_eq!(e.config().threads, MAX_THREADS);
    let e = Engine::new(EngineConfig {
        threads: 0,
        ..EngineConfig::default()
    });
    assert_eq!(e.config().threads, 1);
}
