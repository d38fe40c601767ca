//! Search behaviour: mates and game-end rules scored as the rule books say,
//! limits and stopping honoured, results legal and deterministic.

mod common;
use common::{position, variant};

use kamil_engine::{Engine, EngineConfig, Limits, Score};
use kamil_rules::movegen::legal_moves;
use kamil_rules::notation::move_text;
use kamil_rules::{Position, Variant};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn best(pos: &Position, depth: u32) -> (String, Score) {
    let mut e = Engine::new(EngineConfig::default());
    let r = e.search(pos, &Limits::depth(depth), &mut |_| {});
    (move_text(pos.variant(), r.best.unwrap()), r.score)
}

#[test]
fn finds_mate_in_one_with_a_rook() {
    // Courier: the Rook mates on the back rank; the King on b6 guards a7, b7.
    let pos = position("courier", "k11/11p/1K10/12/12/12/12/7R4 w - - 0 1");
    assert_eq!(best(&pos, 4), ("h1h8".to_string(), Score::Mate(1)));
}

#[test]
fn stalemating_wins_in_courier() {
    // Courier 5.1: the stalemated player loses, so Kc7 is a win at once.
    let pos = position("courier", "k11/p11/P1K9/12/12/12/12/12 w - - 0 1");
    assert_eq!(best(&pos, 3), ("c6c7".to_string(), Score::Mate(1)));
}

#[test]
fn baring_the_king_wins_in_courier() {
    // Courier 5.1 (bare king): the Rook on l1 takes the checking Rook,
    // Black's last piece, leaving a bare King that cannot bare White back.
    let pos = position("courier", "k11/12/12/12/12/12/12/K5r4R w - - 0 1");
    let (mv, score) = best(&pos, 3);
    assert_eq!(mv, "l1g1");
    assert!(matches!(score, Score::Mate(n) if n > 0), "{score:?}");
}

#[test]
fn takes_a_hanging_rook() {
    // Courier: the Knight on d3 takes the undefended Rook, baring the King.
    let pos = position("courier", "k11/12/12/4r7/12/3N8/12/K11 w - - 0 1");
    assert_eq!(best(&pos, 4).0, "d3e5");
}

#[test]
fn a_one_ply_search_sees_a_quiet_mating_check_past_its_horizon() {
    // Courier: Nxe5 wins the Man but lets the Rook mate on a1, a quiet
    // check that quiescence tries at its first ply (Stockfish 11); without
    // it a one-ply search takes the Man.
    let pos = position("courier", "r6k4/6ppp3/12/4m7/12/3N8/10PP/11K w - - 0 1");
    let (mv, score) = best(&pos, 1);
    assert_ne!(mv, "d3e5");
    assert!(matches!(score, Score::Cp(_)), "{score:?}");
}

#[test]
fn best_moves_are_legal_and_searches_repeat_exactly() {
    for name in ["courier", "courier-modern", "courier-albers", "sho-shogi"] {
        let v = variant(name);
        let mut pos = Position::start(v);
        let mut nodes = Vec::new();
        for _ in 0..2 {
            let mut e = Engine::new(EngineConfig::default());
            let r = e.search(&pos, &Limits::depth(5), &mut |_| {});
            let mut legal = Vec::new();
            legal_moves(&mut pos, &mut legal);
            assert!(legal.contains(&r.best.unwrap()), "{name}");
            assert_eq!(r.depth, 5, "{name}");
            nodes.push(r.nodes);
        }
        assert_eq!(nodes[0], nodes[1], "{name}: node counts differ");
    }
}

#[test]
fn node_limit_is_honoured() {
    let v = variant("courier");
    let pos = Position::start(v);
    let mut e = Engine::new(EngineConfig::default());
    let r = e.search(&pos, &Limits::nodes(20_000), &mut |_| {});
    assert!(r.nodes <= 20_000, "{}", r.nodes);
    assert!(r.nodes > 1_000, "{}", r.nodes);
    assert!(r.best.is_some());
}

/// Issue 78: a node budget too small for one ply (`go nodes 0`, `go nodes
/// 1`) still completes the first iteration, so the move played is a
/// searched one (the first generated move was played before), and the
/// search stops right after it.
#[test]
fn a_tiny_node_budget_still_searches_one_ply() {
    for name in ["courier", "sho-shogi", "chu-shogi"] {
        let pos = Position::start(variant(name));
        let mut e = Engine::new(EngineConfig::default());
        let one = e.search(&pos, &Limits::depth(1), &mut |_| {});
        for n in [0, 1] {
            e.new_game();
            let mut depths = Vec::new();
            let r = e.search(&pos, &Limits::nodes(n), &mut |i| depths.push(i.depth));
            assert_eq!(depths, [1], "{name}, nodes {n}");
            assert_eq!(r.depth, 1, "{name}, nodes {n}");
            assert_eq!(r.best, one.best, "{name}, nodes {n}");
        }
    }
}

#[test]
fn another_thread_stops_an_unbounded_search() {
    let v = variant("sho-shogi");
    let pos = Position::start(v);
    let mut e = Engine::new(EngineConfig::default());
    let stop = e.stop_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let start = Instant::now();
    let r = e.search(&pos, &Limits::default(), &mut |_| {});
    t.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(r.best.is_some());
}

/// The poll (for a host with one thread) stops an unbounded search, on
/// this thread, as soon as it answers true; asked about every thousand
/// nodes.
#[test]
fn the_poll_stops_an_unbounded_search_on_its_own_thread() {
    use std::sync::atomic::AtomicU64;
    static ASKED: AtomicU64 = AtomicU64::new(0);
    fn poll() -> bool {
        ASKED.fetch_add(1, Ordering::SeqCst) >= 50
    }
    let pos = Position::start(variant("chu-shogi"));
    let mut e = Engine::new(EngineConfig::default());
    e.set_poll(Some(poll));
    let r = e.search(&pos, &Limits::default(), &mut |_| {});
    let asked = ASKED.load(Ordering::SeqCst);
    assert_eq!(asked, 51, "it stops at the first true");
    assert!(r.best.is_some());
    assert!(r.nodes <= 51 * 1024 + 1024, "{} nodes", r.nodes);
    // Without the poll the same engine searches on to its limits.
    e.set_poll(None);
    let r = e.search(&pos, &Limits::nodes(200_000), &mut |_| {});
    assert_eq!(ASKED.load(Ordering::SeqCst), 51);
    assert!(r.nodes >= 200_000, "{} nodes", r.nodes);
}

#[test]
fn movetime_is_kept() {
    let v = variant("courier");
    let pos = Position::start(v);
    let mut e = Engine::new(EngineConfig::default());
    let start = Instant::now();
    let r = e.search(&pos, &Limits::movetime(150), &mut |_| {});
    let ms = start.elapsed().as_millis();
    assert!(ms < 400, "{ms} ms");
    assert!(r.depth >= 2);
}

#[test]
fn no_move_when_the_game_is_over() {
    // White is mated (its Pawn blocked): no legal move, no best move.
    let pos = position("courier", "K6r4/12/1k10/12/12/11p/11P/12 w - - 0 1");
    let mut p = pos.clone();
    let mut moves = Vec::new();
    legal_moves(&mut p, &mut moves);
    let mut e = Engine::new(EngineConfig::default());
    let r = e.search(&pos, &Limits::depth(3), &mut |_| {});
    assert!(moves.is_empty());
    assert_eq!(r.best, None);
}

#[test]
fn info_reports_each_depth_with_a_pv() {
    let v = variant("courier");
    let pos = Position::start(v);
    let mut e = Engine::new(EngineConfig::default());
    let mut depths = Vec::new();
    e.search(&pos, &Limits::depth(4), &mut |i| {
        assert!(!i.pv.is_empty());
        depths.push(i.depth);
    });
    assert_eq!(depths, vec![1, 2, 3, 4]);
}

#[test]
fn perpetual_check_loses_in_sho_shogi() {
    // Sho Shogi 6.2: the Rook has checked from h9 and h8 in turn; checking
    // from h9 again repeats the position with every Black move a check,
    // which loses. The search must score that move as lost.
    let v = variant("sho-shogi");
    let mut pos = Position::from_fen(v, "k8/9/8p/9/9/9/9/4G4/4K2R1 b").unwrap();
    for m in ["h1h9", "a9a8", "h9h8", "a8a9"] {
        let mv = kamil_rules::notation::parse_move(&mut pos, m).unwrap();
        pos.make(mv);
    }
    let mut e = Engine::new(EngineConfig {
        multipv: 64,
        ..EngineConfig::default()
    });
    let mut lines = std::collections::HashMap::new();
    e.search(&pos, &Limits::depth(2), &mut |i| {
        if i.depth == 2 {
            lines.insert(move_text(pos.variant(), i.pv[0]), i.score);
        }
    });
    assert!(
        matches!(lines["h8h9"], Score::Mate(n) if n < 0),
        "{:?}",
        lines.get("h8h9")
    );
    // A Rook move that repeats nothing keeps Black's winning score.
    assert!(
        matches!(lines["h8h7"], Score::Cp(c) if c > 0),
        "{:?}",
        lines.get("h8h7")
    );
}

#[test]
fn search_keeps_to_the_chu_lion_trading_rules() {
    // Rule book CHU-14 after White's Rook took a Black Lion on e6 (6.4 LT3):
    // the Bishop may not take the Lion on h8, though it would gain most.
    let fen = "12/11k/12/4r2g4/7n4/12/4N7/3G8/12/2B9/12/K11 w";
    let chosen = |opts: &[(String, String)]| {
        let v = Arc::new(Variant::builtin("chu-shogi", opts).unwrap());
        let mut pos = Position::from_fen(v, fen).unwrap();
        let mv = kamil_rules::notation::parse_move(&mut pos, "e9e6").unwrap();
        pos.make(mv);
        let mut legal = Vec::new();
        legal_moves(&mut pos, &mut legal);
        let (text, _) = best(&pos, 3);
        let listed = legal.iter().any(|m| move_text(pos.variant(), *m) == text);
        assert!(listed, "{text} is not legal");
        text
    };
    assert_ne!(chosen(&[]), "c3h8");
    let off = [("lion-trading".to_string(), "off".to_string())];
    assert_eq!(chosen(&off), "c3h8", "without the rule the capture is best");
}
