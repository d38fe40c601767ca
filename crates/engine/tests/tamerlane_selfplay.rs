//! Tamerlane Chess in play: 200 seeded games from the start position, each
//! move chosen by a fast policy that mixes the engine (depth 1) with legal
//! random moves and a preference for the special moves (so that every rule
//! of rules/tamerlane.md section 5 comes up). Counts how often the special
//! rules occurred, asserts each occurred, and that every game ended with a
//! result the rules allow (section 7).

mod common;
use common::Lcg;

use kamil_engine::Limits;
use kamil_rules::movegen::legal_moves;
use kamil_rules::outcome::outcome;
use kamil_rules::{Move, MoveKind, Outcome, Position, Reason};

/// Games played.
const GAMES: u32 = 200;
/// A game still going after this many plies fails the test.
const MAX_PLIES: usize = 1500;

#[derive(Default, Debug)]
struct Counts {
    giraffe_moves: u32,
    citadel_entries: u32,
    king_citadel_draws: u32,
    relocations: u32,
    transfers: u32,
    prince_promotions: u32,
    adventitious_kings: u32,
    king_swaps: u32,
    results: Vec<(String, u32)>,
}

impl Counts {
    fn result(&mut self, text: String) {
        match self.results.iter_mut().find(|(t, _)| *t == text) {
            Some(e) => e.1 += 1,
            None => self.results.push((text, 1)),
        }
    }
}

/// Is `m` one of the moves the policy favours: a rule of section 5 at work?
fn special(pos: &Position, m: Move) -> bool {
    let v = pos.variant();
    m.kind != MoveKind::Normal
        || m.promotion().is_some()
        || v.specials
            .citadels
            .as_ref()
            .is_some_and(|c| c.is_citadel(m.to))
}

/// The King step that brings it nearest the opponent's citadel, if any.
fn king_march(pos: &Position, moves: &[Move]) -> Option<Move> {
    let v = pos.variant();
    let g = &v.geometry;
    let king = v.piece_by_key("king")?;
    let target = v
        .specials
        .citadels
        .as_ref()?
        .squares
        .iter()
        .find(|&&(_, owner)| owner != pos.side())?
        .0;
    let dist = |s| {
        let dx = (g.file(s) as i32 - g.file(target) as i32).abs();
        let dy = (g.rank(s) as i32 - g.rank(target) as i32).abs();
        dx.max(dy)
    };
    moves
        .iter()
        .filter(|m| m.kind == MoveKind::Normal && pos.at(m.from).kind() == king)
        .min_by_key(|m| dist(m.to))
        .copied()
}

/// Checks that `o` is a result the rules allow in `pos` (section 7).
fn check_result(pos: &mut Position, o: Outcome) {
    let v = pos.variant().clone();
    let s = pos.side();
    match o {
        Outcome::Draw {
            reason: Reason::Citadel,
        } => {
            let c = v.specials.citadels.as_ref().unwrap();
            let king = v.piece_by_key("king").unwrap();
            assert!(
                c.squares.iter().any(|&(sq, owner)| {
                    let p = pos.at(sq);
                    p.is_side(owner.flip()) && p.kind() == king
                }),
                "citadel draw without a King in the opponent's citadel: {}",
                pos.fen()
            );
        }
        Outcome::Draw {
            reason: Reason::Repetition | Reason::MoveRule,
        } => {}
        Outcome::Win {
            winner,
            reason: Reason::Checkmate | Reason::Stalemate,
        } => {
            assert_eq!(
                winner,
                s.flip(),
                "the side with no move loses: {}",
                pos.fen()
            );
            let mut moves = Vec::new();
            legal_moves(pos, &mut moves);
            assert!(moves.is_empty(), "{}", pos.fen());
        }
        Outcome::Win {
            winner,
            reason: Reason::RoyalsCaptured,
        } => {
            assert!(pos.royals(winner.flip()).is_empty(), "{}", pos.fen());
        }
        other => panic!("{other} is no Tamerlane result: {}", pos.fen()),
    }
}

#[test]
fn two_hundred_games_use_every_special_rule() {
    let v = common::variant("tamerlane");
    let giraffe = v.piece_by_key("giraffe").unwrap();
    let prince = v.piece_by_key("prince").unwrap();
    let ak = v.piece_by_key("adventitious-king").unwrap();
    let mut counts = Counts::default();
    let mut rng = Lcg(0x5EED_7A3E_0000_0001);
    let mut plies_total = 0;
    let mut moves = Vec::new();
    for game in 0..GAMES {
        let mut pos = Position::start(v.clone());
        let mut engine = common::rules_test_engine(1);
        let result = loop {
            if let Some(o) = outcome(&mut pos) {
                break o;
            }
            assert!(
                pos.depth() < MAX_PLIES,
                "game {game} still going after {MAX_PLIES} plies: {}",
                pos.fen()
            );
            moves.clear();
            legal_moves(&mut pos, &mut moves);
            let specials: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| special(&pos, m))
                .collect();
            let r = rng.percent();
            let m = if !specials.is_empty() && r < 60 {
                specials[rng.below(specials.len())]
            } else if r < 75 {
                let found = engine.search(&pos, &Limits::depth(1), &mut |_| {});
                found.best.expect("the game is not over")
            } else if r < 87
                && let Some(k) = king_march(&pos, &moves)
            {
                k
            } else {
                moves[rng.below(moves.len())]
            };
            assert!(moves.contains(&m), "the engine's move is legal");
            let p = pos.at(m.from);
            if m.kind == MoveKind::Normal && p.kind() == giraffe {
                counts.giraffe_moves += 1;
            }
            if v.specials.citadels.as_ref().unwrap().is_citadel(m.to) {
                counts.citadel_entries += 1;
            }
            match m.kind {
                MoveKind::Relocate => counts.relocations += 1,
                MoveKind::Transfer => counts.transfers += 1,
                MoveKind::Swap => counts.king_swaps += 1,
                _ => {}
            }
            if m.promotion() == Some(prince) {
                counts.prince_promotions += 1;
            }
            if m.promotion() == Some(ak) {
                counts.adventitious_kings += 1;
            }
            pos.make(m);
        };
        if matches!(
            result,
            Outcome::Draw {
                reason: Reason::Citadel
            }
        ) {
            counts.king_citadel_draws += 1;
        }
        plies_total += pos.depth();
        check_result(&mut pos, result);
        counts.result(format!("{} {}", result.score(), result.reason()));
    }
    counts.results.sort();
    println!("tamerlane self-play: {GAMES} games, {plies_total} plies");
    println!("{counts:#?}");
    assert!(counts.giraffe_moves > 0, "{counts:?}");
    assert!(counts.citadel_entries > 0, "{counts:?}");
    assert!(counts.king_citadel_draws > 0, "{counts:?}");
    assert!(counts.relocations > 0, "{counts:?}");
    assert!(counts.prince_promotions > 0, "{counts:?}");
    assert!(counts.king_swaps > 0, "{counts:?}");
    assert!(counts.transfers > 0, "{counts:?}");
    assert_eq!(
        counts.results.iter().map(|(_, n)| n).sum::<u32>(),
        GAMES,
        "every game has a result"
    );
}
