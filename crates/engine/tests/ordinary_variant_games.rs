//! The Ordinary Variant played out: 200 seeded games mixing random legal
//! moves (captures preferred, so that material comes off and the partial
//! wins of Dynamic Scoring arise) with the engine's moves at depth 1. Counts
//! show that multi-jump chains, compulsory Checker captures, Checker en
//! passant and partial-point endings occurred, and every game must end by a
//! result the rules allow (rules/ordinary-variant.md 5 and 7).

mod common;

use kamil_engine::{Engine, Limits};
use kamil_rules::movegen::legal_moves;
use kamil_rules::outcome::{claimable, outcome};
use kamil_rules::special::checker;
use kamil_rules::splitmix::SplitMix64;
use kamil_rules::{Move, MoveKind, Outcome, Points, Position, Reason, Scoring, Side};

/// A seeded generator, so the games are the same each run.
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.0.next_u64() % 100 < percent
    }
}

#[derive(Default, Debug)]
struct Counts {
    games: u32,
    plies: u64,
    multi_jumps: u32,
    compulsory: u32,
    checker_en_passant: u32,
    partial_points: u32,
    endings: Vec<(String, u32)>,
}

/// The points Dynamic Scoring's classic schedule gives (7.2), as
/// (credited player's, other's); a plain draw is 50-50.
fn allowed(o: &Outcome) -> bool {
    let Outcome::Points {
        points,
        scoring: Scoring::Shared,
        reason,
        by,
    } = *o
    else {
        return false;
    };
    let whole = |p: u32| p.is_multiple_of(2) && p / 2 <= 100;
    if !whole(points.first) || !whole(points.second) || points.first + points.second != 200 {
        return false;
    }
    let credited = |s: Side| (points.of(s) / 2, points.of(s.flip()) / 2);
    match (reason, by) {
        (Reason::Checkmate, Some(s)) => credited(s) == (100, 0),
        (Reason::Stalemate, Some(Side::First)) => credited(Side::First) == (60, 40),
        (Reason::Stalemate, Some(Side::Second)) => credited(Side::Second) == (61, 39),
        (Reason::BareKing, Some(Side::First)) => credited(Side::First) == (56, 44),
        (Reason::BareKing, Some(Side::Second)) => credited(Side::Second) == (59, 41),
        (Reason::PerpetualCheck, Some(Side::First)) => credited(Side::First) == (52, 48),
        (Reason::PerpetualCheck, Some(Side::Second)) => credited(Side::Second) == (57, 43),
        (Reason::Repetition | Reason::MoveRule | Reason::BothBare, None) => {
            points == Points::whole(50, 50)
        }
        _ => false,
    }
}

/// Does `m` (legal here) take the Pawn that just double-stepped by a
/// Checker's jump over the passed square (5.5)?
fn checker_en_passant(pos: &Position, m: &Move) -> bool {
    let (Some(ck), Some(ep)) = (pos.variant().specials.checker, pos.en_passant()) else {
        return false;
    };
    if m.kind != MoveKind::Checker {
        return false;
    }
    let mut over_passed = false;
    checker::for_each_leg(&ck, m, |jumped, _| over_passed |= jumped == ep.squares[0]);
    over_passed
}

fn play_game(seed: u64, engine: &mut Engine, c: &mut Counts) {
    let v = common::variant("ordinary-variant");
    let ck = v.specials.checker.unwrap();
    let mut pos = Position::start(v);
    let mut rng = Rng(SplitMix64::new(seed));
    engine.new_game();
    let mut legal = Vec::new();
    let mut safe = Vec::new();
    let end = loop {
        assert!(pos.depth() < 3000, "game {seed}: no end after 3000 plies");
        if let Some(o) = outcome(&mut pos) {
            break o;
        }
        if let Some(o) = claimable(&pos)
            && rng.chance(50)
        {
            break o;
        }
        legal.clear();
        legal_moves(&mut pos, &mut legal);
        safe.clear();
        checker::safe_moves(&ck, &mut pos, &mut safe);
        if safe.len() != legal.len() {
            c.compulsory += 1;
        }
        let m = if rng.chance(10) {
            let r = engine.search(&pos, &Limits::depth(1), &mut |_| {});
            r.best.expect("a legal move while the game goes on")
        } else {
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| checker::captures(&ck, &pos, m).0 != 0)
                .collect();
            if !captures.is_empty() && rng.chance(70) {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            }
        };
        assert!(
            legal.contains(&m),
            "game {seed}: the engine's move is legal"
        );
        if checker::leg_count(&m) >= 2 {
            c.multi_jumps += 1;
        }
        if checker_en_passant(&pos, &m) {
            c.checker_en_passant += 1;
        }
        pos.make(m);
    };
    assert!(allowed(&end), "game {seed}: {end} is not a result of 7.2");
    c.games += 1;
    c.plies += pos.depth() as u64;
    let p = end.points().expect("Dynamic Scoring gives points");
    if p != Points::whole(100, 0) && p != Points::whole(0, 100) && p != Points::whole(50, 50) {
        c.partial_points += 1;
    }
    let key = end.to_string();
    match c.endings.iter_mut().find(|(k, _)| *k == key) {
        Some(e) => e.1 += 1,
        None => c.endings.push((key, 1)),
    }
}

#[test]
fn two_hundred_games_end_by_the_rules() {
    let mut engine = common::rules_test_engine(1);
    let mut c = Counts::default();
    for seed in 0..200 {
        play_game(seed, &mut engine, &mut c);
    }
    c.endings.sort();
    println!(
        "{} games, {} plies: {} multi-jump chains, {} positions with a compulsory \
         capture, {} Checker en passant, {} partial-point endings",
        c.games, c.plies, c.multi_jumps, c.compulsory, c.checker_en_passant, c.partial_points
    );
    for (k, n) in &c.endings {
        println!("  {n:4} {k}");
    }
    assert_eq!(c.games, 200);
    assert!(c.multi_jumps > 0, "no multi-jump chain");
    assert!(c.compulsory > 0, "no compulsory capture");
    assert!(c.checker_en_passant > 0, "no Checker en passant");
    assert!(c.partial_points > 0, "no partial-point ending");
}
