//! Frolov's 10x10 game played to the end by the engine against itself
//! (rules/frolov-10x10.md): 200 seeded games at shallow depth, each from a
//! few random opening plies. Every game must end by a result the rules
//! allow (checkmate, stalemate, the only-special win, or points after
//! repetition, the fifty-move rule or the game-length adjudication; never a
//! draw, never level points), and the special rules must have come up:
//! capture promotions (5.4), bonus upgrades (5.5), hostile generals (5.3)
//! and endings on points (7.1). The counts are printed.

mod common;
use common::Lcg;

use kamil_engine::Limits;
use kamil_rules::movegen::legal_moves;
use kamil_rules::outcome::{Reason, Scoring, draw_or_points, outcome};
use kamil_rules::{Move, MoveKind, Outcome, Piece, Position, Variant};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Games played.
const GAMES: u64 = 200;

/// Random plies before the engine takes over, so that games differ.
const OPENING_PLIES: usize = 6;

/// Plies after which a game is adjudicated (on points, 7.1).
const MAX_PLIES: usize = 300;

/// Tallies over all games.
#[derive(Default, Debug)]
struct Tally {
    plies: u64,
    capture_promotions: u64,
    upgrades: u64,
    hostile_generals: u64,
    endings: BTreeMap<String, u64>,
    points_endings: u64,
}

/// Counts what `m` does under the special rules, before it is made.
fn note_move(pos: &Position, m: Move, t: &mut Tally) {
    let v = pos.variant();
    let cp = v
        .specials
        .capture_promotion
        .as_ref()
        .expect("capture promotion");
    let hp = v
        .specials
        .hostile_promotion
        .as_ref()
        .expect("hostile promotion");
    let victim = match m.kind {
        MoveKind::EnPassant => pos.at(m.extra),
        _ if m.to != m.from => pos.at(m.to),
        _ => Piece::EMPTY,
    };
    if cp.is_special(victim) {
        if cp.is_ordinary(pos.at(m.from)) {
            t.capture_promotions += 1;
        } else if m.aux.is_some() {
            t.upgrades += 1;
        }
    }
    if m.promotion().is_some_and(|p| hp.is_hostile(p)) {
        t.hostile_generals += 1;
    }
}

/// The result of one game from seed `seed`, played by one engine for both
/// sides at `depth` plies.
fn play(v: &Arc<Variant>, seed: u64, depth: u32, t: &mut Tally) -> Outcome {
    let mut rng = Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x6B61_6D69_6C46_524F);
    let mut pos = Position::start(v.clone());
    let mut engine = common::rules_test_engine(4);
    loop {
        if let Some(o) = outcome(&mut pos) {
            return o;
        }
        if pos.depth() >= MAX_PLIES {
            return draw_or_points(&pos, Reason::MaxPlies);
        }
        let m = if pos.depth() < OPENING_PLIES {
            let mut moves = Vec::new();
            legal_moves(&mut pos, &mut moves);
            moves.sort_by_key(|m| (m.from, m.to, m.promo, m.aux));
            moves[rng.below(moves.len())]
        } else {
            // Promotions to the opponent's generals (5.3) are rare in engine
            // play: one that is legal is taken at even odds, so the rule
            // comes up.
            let hp = v
                .specials
                .hostile_promotion
                .as_ref()
                .expect("hostile promotion");
            let mut moves = Vec::new();
            legal_moves(&mut pos, &mut moves);
            moves.retain(|m| m.promotion().is_some_and(|p| hp.is_hostile(p)));
            moves.sort_by_key(|m| (m.from, m.to, m.promo, m.aux));
            if !moves.is_empty() && rng.below(2) == 0 {
                moves[rng.below(moves.len())]
            } else {
                let r = engine.search(&pos, &Limits::depth(depth), &mut |_| {});
                r.best.expect("a game that has not ended has a move")
            }
        };
        note_move(&pos, m, t);
        pos.make(m);
        t.plies += 1;
    }
}

/// Is `o` a result that Frolov's rules allow (7.1)?
fn allowed(o: &Outcome) -> bool {
    match o {
        Outcome::Win { reason, .. } => matches!(
            reason,
            Reason::Checkmate | Reason::Stalemate | Reason::OnlySpecial
        ),
        Outcome::Points {
            points,
            scoring,
            reason,
            by,
        } => {
            *scoring == Scoring::Decisive
                && by.is_none()
                && points.first != points.second
                && points.second % 2 == 1
                && matches!(
                    reason,
                    Reason::Repetition | Reason::MoveRule | Reason::MaxPlies
                )
        }
        Outcome::Draw { .. } => false,
    }
}

#[test]
fn frolov_self_play_reaches_every_special_rule() {
    let v = common::variant("frolov-10x10");
    let mut t = Tally::default();
    let mut bad = Vec::new();
    for seed in 0..GAMES {
        // Depth 2 in every fourth game, depth 1 in the others.
        let depth = if seed % 4 == 0 { 2 } else { 1 };
        let o = play(&v, seed, depth, &mut t);
        if !allowed(&o) {
            bad.push(format!("game {seed}: {o}"));
        }
        if o.points().is_some() {
            t.points_endings += 1;
        }
        *t.endings.entry(o.reason().to_string()).or_default() += 1;
    }
    println!("frolov self-play: {GAMES} games, {} plies", t.plies);
    println!(
        "capture promotions {}, bonus upgrades {}, hostile generals {}, endings on points {}",
        t.capture_promotions, t.upgrades, t.hostile_generals, t.points_endings
    );
    for (reason, n) in &t.endings {
        println!("ending {reason}: {n}");
    }
    assert!(
        bad.is_empty(),
        "results the rules do not allow:\n{}",
        bad.join("\n")
    );
    assert!(
        t.capture_promotions > 0,
        "no capture promotion in {GAMES} games"
    );
    assert!(t.upgrades > 0, "no bonus upgrade in {GAMES} games");
    assert!(
        t.hostile_generals > 0,
        "no promotion to a hostile general in {GAMES} games"
    );
    assert!(t.points_endings > 0, "no ending on points in {GAMES} games");
}
