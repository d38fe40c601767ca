//! A move's board changes, as the rules report them (issue 44): for every
//! legal move of seeded random games in every built-in variant, the option
//! sets that change movement, and the rule books' positions,
//! - the change list [`Position::last_changes`] applied to a copy of the
//!   board before the move gives exactly the board after it (each change's
//!   `before` is what the copy holds there at that point);
//! - what [`Position::for_each_capture`] says the move will capture, asked
//!   before it is made, is what make captured, in the same order;
//! - unmake restores the board and the previous move's change list.
//!
//! The games must have met every move kind and every special effect listed
//! in [`REQUIRED`] (else the test fails: it would prove nothing of them),
//! and a change list with one entry dropped must fail the replay.

mod common;
use common::{Rng, legal, variant};

use kamil_rules::BoardChange;
use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, MoveKind, Piece, Position, Square, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Games per set-up and their longest length in plies.
const GAMES: usize = 3;
const PLIES: usize = 40;

/// Effects the games must have shown (see [`effects_of`]).
const REQUIRED: &[&str] = &[
    "normal",
    "castle",
    "en-passant",
    "opening",
    "checker",
    "swap",
    "relocate",
    "transfer",
    "citadel-swap",
    "checker series of two or more",
    "double capture",
    "igui",
    "promotion by choice",
    "forced promotion",
    "transformation",
    "ripening",
];

/// The board as a list of (square, piece), every square in order.
fn board(pos: &Position) -> Vec<(Square, Piece)> {
    let v = pos.variant();
    v.geometry.squares().map(|sq| (sq, pos.at(sq))).collect()
}

/// Applies `changes` to `before`; errors name the first write whose
/// `before` piece is not what the board holds, or a square off the board.
fn replay(
    before: &[(Square, Piece)],
    changes: &[BoardChange],
) -> Result<Vec<(Square, Piece)>, String> {
    let mut out = before.to_vec();
    for (i, c) in changes.iter().enumerate() {
        let Some(cell) = out.iter_mut().find(|(sq, _)| *sq == c.square) else {
            return Err(format!("change {i} writes {:?}, no square", c.square));
        };
        if cell.1 != c.before {
            return Err(format!(
                "change {i} on {:?} expects {:?}, the board holds {:?}",
                c.square, c.before, cell.1
            ));
        }
        cell.1 = c.after;
    }
    Ok(out)
}

/// Checks `changes` take `before` to `after`.
fn check_replay(
    before: &[(Square, Piece)],
    changes: &[BoardChange],
    after: &[(Square, Piece)],
) -> Result<(), String> {
    let got = replay(before, changes)?;
    match got.iter().zip(after).find(|(g, a)| g != a) {
        Some((g, a)) => Err(format!("replay gives {g:?}, the board has {a:?}")),
        None => Ok(()),
    }
}

/// What `m`, legal in `pos` among `moves`, shows of the effects in
/// [`REQUIRED`], given what make captured and how many writes it made.
fn effects_of(
    pos: &Position,
    m: Move,
    moves: &[Move],
    captured: usize,
    changes: &[BoardChange],
) -> Vec<&'static str> {
    let mut out = vec![m.kind.name()];
    if m.kind == MoveKind::Checker && captured >= 2 {
        out.push("checker series of two or more");
    }
    if m.via_capture && m.to != m.from && pos.at(m.to).is_piece() {
        out.push("double capture");
    }
    if m.via_capture && m.to == m.from {
        out.push("igui");
    }
    if m.promotion().is_some() && m.kind == MoveKind::Normal {
        let twin = moves
            .iter()
            .any(|o| o.from == m.from && o.to == m.to && o.via == m.via && o.promo == 0);
        out.push(if twin {
            "promotion by choice"
        } else {
            "forced promotion"
        });
    }
    let v = pos.variant();
    let touched = kamil_rules::touched_squares(v, m);
    // A piece changed into another on one square, by a write pair not of
    // the move's own squares (ripening) or of them (capture promotion).
    for w in changes.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.square == b.square
            && a.after.is_empty()
            && b.before.is_empty()
            && a.before.is_piece()
            && b.after.is_piece()
            && a.before != b.after
            && a.before.side() == b.after.side()
            && m.promotion().is_none()
        {
            out.push(if touched.contains(&a.square) {
                "transformation"
            } else {
                "ripening"
            });
        }
    }
    if m.promotion().is_none() && v.specials.upgrade_by(pos, m).is_some() {
        out.push("transformation");
    }
    out
}

/// Every check of the module comment for `m` in `pos`; records the effects
/// seen in `seen`.
fn check_move(
    pos: &mut Position,
    m: Move,
    moves: &[Move],
    seen: &mut BTreeSet<&'static str>,
) -> Result<(), String> {
    let before = board(pos);
    let previous = pos.last_changes().to_vec();
    let mut predicted = Vec::new();
    pos.for_each_capture(m, |sq, p| predicted.push((sq, p)));
    let probe = pos.clone();
    pos.make(m);
    let changes = pos.last_changes().to_vec();
    let made: Vec<(Square, Piece)> = pos.recent_move(0).map(|r| r.2.to_vec()).unwrap_or_default();
    check_replay(&before, &changes, &board(pos))?;
    if predicted != made {
        return Err(format!(
            "captures asked before {predicted:?}, made {made:?}"
        ));
    }
    seen.extend(effects_of(&probe, m, moves, made.len(), &changes));
    pos.unmake();
    if board(pos) != before {
        return Err("unmake did not restore the board".into());
    }
    if pos.last_changes() != previous.as_slice() {
        return Err("unmake did not restore the last move's changes".into());
    }
    Ok(())
}

/// Plays [`GAMES`] seeded games from `start`, checking every legal move at
/// every ply. Half the plies play a special move or a capture where there
/// is one, so the games reach the rules that make more than a step.
fn walk(start: &Position, seed: u64, seen: &mut BTreeSet<&'static str>) -> Result<(), String> {
    let v = start.variant().clone();
    let mut rng = Rng::new(seed);
    for game in 0..GAMES {
        let mut pos = start.clone();
        for ply in 0..PLIES {
            if pos.outcome().is_some() {
                break;
            }
            let moves = legal(&mut pos);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                check_move(&mut pos, m, &moves, seen).map_err(|e| {
                    format!(
                        "{} game {game} ply {ply}, `{}`, move {}: {e}",
                        v.name,
                        pos.fen(),
                        move_text(&v, m)
                    )
                })?;
            }
            let lively: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| m.kind != MoveKind::Normal || m.promo != 0 || pos.is_capture(m))
                .collect();
            let r = rng.next_u64();
            let m = if !lively.is_empty() && r & 1 == 0 {
                lively[(r >> 1) as usize % lively.len()]
            } else {
                moves[(r >> 1) as usize % moves.len()]
            };
            pos.make(m);
        }
    }
    Ok(())
}

/// Rule-book options as (key, value) pairs.
type Options = &'static [(&'static str, &'static str)];

/// The set-ups: every built-in variant's start, the option sets that change
/// movement most, and positions where the special rules act at once.
fn setups() -> Vec<Position> {
    let mut out: Vec<Position> = BUILTIN
        .iter()
        .map(|(name, _)| Position::start(variant(name, &[])))
        .collect();
    let options: &[(&str, Options)] = &[
        ("courier", &[("courier-opening", "explicit")]),
        (
            "courier-modern",
            &[("albers-castling", "true"), ("albers-queen", "true")],
        ),
        (
            "sho-shogi",
            &[("sho-capture-royalty", "true"), ("bare-king", "true")],
        ),
        ("sho-shogi", &[("royal-count", "before-move")]),
        (
            "chu-shogi",
            &[("royal-safety", "true"), ("chu-old-setup", "true")],
        ),
        (
            "dai-shogi",
            &[("royal-safety", "true"), ("dai-relief", "all-forward")],
        ),
        (
            "hiashatar",
            &[("hia-zone-affects", "all"), ("hia-capture", "diag1")],
        ),
        (
            "hiashatar",
            &[
                ("pawns", "winther"),
                ("array", "mirror"),
                ("hia-zone", "step-only"),
            ],
        ),
        (
            "alfonso-great-chess",
            &[("pawn-rank", "3"), ("castling", "two")],
        ),
        (
            "tamerlane",
            &[
                ("array", "feminine"),
                ("pop", "two-stage"),
                ("royals", "king-only"),
                ("swap", "mated-only"),
                ("citadel", "draw-unless-swap"),
                ("bareking", "shatranj"),
            ],
        ),
        (
            "frolov-10x10",
            &[
                ("fr.drop", "true"),
                ("fr.no-freeze", "true"),
                ("fr.bonus-compulsory", "true"),
            ],
        ),
    ];
    for (name, opts) in options {
        out.push(Position::start(variant(name, opts)));
    }
    const FENS: &[(&str, Options, &str)] = &[
        // Tamerlane: the pawn of pawns about to act, a King in check with
        // swap partners, a citadel within reach (make_unmake.rs' set).
        (
            "tamerlane",
            &[],
            "*11*/1r1g1k1t1n2*/*1PP1pk1G5*/*2T3pr4*/*4g6*/*11*/*1t4R2G1*/*3PK2pp4*/*2N2K4PY1/*11* w Kk 0 1",
        ),
        (
            "tamerlane",
            &[("pop", "two-stage")],
            "*PX3k6*/12*/*2n1r3t2*/*11*/*3N1w5*/*11*/*6R4*/*1H9*/*4K2G4/*8px2* w Kk 0 1",
        ),
        (
            "tamerlane",
            &[],
            "*11*/1K1PY8*/*11*/*11*/*11*/*11*/*11*/*5N5*/*9py2/*10k* w Kk 0 1",
        ),
        (
            "tamerlane",
            &[("citadel", "draw-unless-swap")],
            "*10k*/5PZ6*/*11*/*11*/*11*/*11*/*11*/*11*/*4K6A/*11* w Kk 0 1",
        ),
        (
            "tamerlane",
            &[("citadel", "draw-unless-swap")],
            "*1K9*/12*/*1H9*/*11*/*11*/*11*/*11*/*9h1*/*10k1/*11* w Kk 0 1",
        ),
        // Frolov's open position: special captures and upgrades at once.
        (
            "frolov-10x10",
            &[("fr.drop", "true")],
            "jcvewgdwevcj/*rnbmkqabnr*/*2s2p2p1*/*10*/*1p4s3*/*10*/*3P4S1*/*1S2P2S2*/*RNBAQKMBNR*/JCVEWDGWEVCJ w KQkq - - 0 1",
        ),
    ];
    for (name, opts, fen) in FENS {
        let v = variant(name, opts);
        out.push(Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{name} `{fen}`: {e}")));
    }
    out.extend(rulebook_positions());
    out
}

/// The rule-book cases' positions of the built-in variants (the book's
/// moves played where our rules take them), each once.
fn rulebook_positions() -> Vec<Position> {
    let mut out: Vec<Position> = Vec::new();
    let mut keys = BTreeSet::new();
    for c in &common::cases() {
        let name = c["variant"].as_str().expect("variant");
        let Some(fen) = c["fen"].as_str() else {
            continue;
        };
        if !BUILTIN.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let options = common::case_options(c);
        let Ok(v) = Variant::builtin(name, &options) else {
            continue;
        };
        let Ok(mut pos) = Position::from_fen(Arc::new(v), fen) else {
            continue;
        };
        for m in c["moves"].as_array().into_iter().flatten() {
            let Some(text) = m.as_str() else { break };
            let Ok(mv) = parse_move(&mut pos, text) else {
                break;
            };
            pos.make(mv);
        }
        if keys.insert((name.to_string(), format!("{options:?}"), pos.fen())) {
            out.push(pos);
        }
    }
    out
}

#[test]
fn change_lists_replay_every_move_and_captures_are_known_before_make() {
    let mut seen = BTreeSet::new();
    for (i, start) in setups().iter().enumerate() {
        if let Err(e) = walk(start, 0x5eed_0000 + i as u64, &mut seen) {
            panic!("{e}");
        }
    }
    let missing: Vec<&&str> = REQUIRED.iter().filter(|r| !seen.contains(*r)).collect();
    assert!(
        missing.is_empty(),
        "the games never showed {missing:?} (seen: {seen:?})"
    );
}

#[test]
fn a_change_list_with_one_entry_dropped_fails_the_replay() {
    // A Lion's double capture (e5xe6xf7) writes four times: the check above
    // must catch any one of them missing.
    let mut pos = common::position(
        "chu-shogi",
        &[],
        "12/11k/12/12/12/5g6/4p7/4N7/12/12/12/K11 b",
    );
    let moves = legal(&mut pos);
    let lion = moves
        .iter()
        .copied()
        .find(|m| m.via_capture && m.to != m.from && pos.at(m.to).is_piece())
        .expect("a double capture");
    let before = board(&pos);
    pos.make(lion);
    let changes = pos.last_changes().to_vec();
    let after = board(&pos);
    assert!(changes.len() >= 4, "{changes:?}");
    assert_eq!(check_replay(&before, &changes, &after), Ok(()));
    for i in 0..changes.len() {
        let mut dropped = changes.clone();
        dropped.remove(i);
        assert!(
            check_replay(&before, &dropped, &after).is_err(),
            "change {i} of {changes:?} dropped, yet the replay passed"
        );
    }
}
