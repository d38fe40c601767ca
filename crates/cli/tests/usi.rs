//! `kamil usi` driven as a shogi GUI drives an engine: the handshake,
//! positions as SFEN and USI moves, searches and their reports, errors
//! said as `info string` lines, and a whole scripted game of a GUI's kind
//! (issue 48's "real USI client check"). Every move kamil answers is
//! checked by the rules library on the test's own position.

mod common;
use common::{Session, variant};

use kamil_rules::Position;
use kamil_rules::usi::{move_text, parse_move};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

/// Sends `commands`, then `isready`: the lines answered before `readyok`,
/// but the `UCI_Elo` option line a change of game may send again (issue
/// 80; [`answered`] keeps it).
fn said(e: &mut Session, commands: &[&str]) -> Vec<String> {
    let mut l = answered(e, commands);
    l.retain(|x| !x.starts_with("option name UCI_Elo "));
    l
}

/// Sends `commands`, then `isready`: every line answered before `readyok`.
fn answered(e: &mut Session, commands: &[&str]) -> Vec<String> {
    for c in commands {
        e.send(c);
    }
    e.send("isready");
    let mut l = e.until("readyok", WAIT);
    l.pop();
    l
}

/// The move of a `bestmove` line, checked legal in `pos`, written as USI
/// writes it, and made there.
fn play_best(pos: &mut Position, lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    let best = last.split_whitespace().nth(1).expect("bestmove's move");
    let m = parse_move(pos, best).unwrap_or_else(|e| panic!("{last}: {e}"));
    assert_eq!(move_text(pos.variant(), m), best);
    pos.make(m);
    best.to_string()
}

/// The word after `key` in the last `info depth` line of `lines`.
fn last_info_word(lines: &[String], key: &str) -> String {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let w: Vec<&str> = info.split_whitespace().collect();
    let at = w.iter().position(|x| *x == key).expect(key);
    w[at + 1..].join(" ")
}

/// `usi` lists the options and ends with `usiok`; the game is chosen from
/// kamil's names and the shogi tools' (`shoshogi`, `chushogi`,
/// `daishogi`), Chu Shogi by default. A bare `kamil`, and `kamil uci`,
/// switch to USI when the first line is `usi`.
#[test]
fn handshake_lists_the_shogi_games_and_the_options() {
    for args in [&["usi"][..], &[][..], &["uci"][..]] {
        let mut e = Session::start(args);
        e.send("usi");
        let lines = e.until("usiok", Duration::from_secs(10));
        assert!(
            lines[0].starts_with("id name kamil "),
            "{args:?}: {lines:?}"
        );
        assert!(lines[1].starts_with("id author "), "{lines:?}");
        let combo = lines
            .iter()
            .find(|l| l.starts_with("option name USI_Variant type combo default chu-shogi "))
            .unwrap_or_else(|| panic!("{args:?}: {lines:?}"));
        for name in [
            "sho-shogi",
            "chu-shogi",
            "dai-shogi",
            "shoshogi",
            "chushogi",
            "daishogi",
        ] {
            assert!(combo.contains(&format!(" var {name}")), "{combo}");
        }
        for opt in [
            "USI_Hash type spin",
            "USI_Ponder type check",
            "Threads type spin",
            "MultiPV type spin",
            "Skill Level type spin",
            "EvalFile type string",
        ] {
            let want = format!("option name {opt}");
            assert!(
                lines.iter().any(|l| l.starts_with(&want)),
                "{want}: {lines:?}"
            );
        }
        assert!(said(&mut e, &["usinewgame"]).is_empty());
        e.send("quit");
        assert!(e.child.wait().unwrap().success());
    }
}

/// `position sfen ... moves ...` and `position startpos moves ...` set the
/// same position as the rules library makes; `sfen` (a debugging command)
/// writes it back. kamil's FEN is read in place of an SFEN too.
#[test]
fn positions_from_sfen_and_startpos_with_usi_moves() {
    let mut e = Session::start(&["usi"]);
    let chu = variant("chu-shogi", &[]);
    let mut pos = Position::start(chu.clone());
    let start_sfen = pos.sfen().unwrap();
    let moves = ["7i7h", "6d6e", "3i3h", "7d7e"];
    for m in moves {
        let mv = parse_move(&mut pos, m).unwrap();
        pos.make(mv);
    }
    let want = format!("info string sfen {}", pos.sfen().unwrap());
    let startpos = format!("position startpos moves {}", moves.join(" "));
    assert_eq!(said(&mut e, &[&startpos, "sfen"]), [want.as_str()]);
    let from_sfen = format!("position sfen {start_sfen} moves {}", moves.join(" "));
    assert_eq!(
        said(&mut e, &["position startpos", &from_sfen, "sfen"]),
        [want.as_str()]
    );
    // A FEN has no move number: move 1.
    let from_fen = format!("position sfen {}", pos.fen());
    let got = said(&mut e, &["position startpos", &from_fen, "sfen"]);
    let renumbered = format!("{} 1", want.rsplit_once(' ').unwrap().0);
    assert_eq!(got, [renumbered]);
    // Sho Shogi by Fairy-Stockfish's name: its start and USI moves.
    let mut sho = Position::start(variant("sho-shogi", &[("royal-count", "before-move")]));
    for m in ["7g7f", "3c3d"] {
        let mv = parse_move(&mut sho, m).unwrap();
        sho.make(mv);
    }
    let got = said(
        &mut e,
        &[
            "setoption name USI_Variant value shoshogi",
            "position startpos moves 7g7f 3c3d",
            "sfen",
        ],
    );
    assert_eq!(got, [format!("info string sfen {}", sho.sfen().unwrap())]);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// Every protocol error is one `info string` naming what was wrong, and
/// the engine goes on: a bad SFEN, an illegal move (which, and where the
/// position was left), an unknown option, a bad `go`, an unknown command.
#[test]
fn errors_are_said_and_the_engine_goes_on() {
    let mut e = Session::start(&["usi"]);
    let cases = [
        ("position sfen 9/9/9 b - 1", "SFEN board"),
        (
            "position sfen lnsgkgsnl/9/9/9/9/9/9/9/4K4 x - 1",
            "SFEN side to move",
        ),
        (
            "position sfenx",
            "position needs `startpos` or `sfen <SFEN>`",
        ),
        (
            "position startpos moves 1a1b",
            "(the piece on 1a is not the side to move's)",
        ),
        (
            "position startpos moves zz",
            "move 1 `zz` is not legal here (not a USI move",
        ),
        (
            "position startpos moves 7i7h 7i7h",
            "move 2 `7i7h` is not legal here (no piece on 7i); position left after move 1 `7i7h`",
        ),
        (
            "position startpos moves 7i7h P*5e",
            "move 2 `P*5e` is not legal here (a drop",
        ),
        (
            "setoption name Frobnicate value 3",
            "unknown option `Frobnicate`",
        ),
        (
            "setoption name USI_Hash value lots",
            "USI_Hash must be 1 to",
        ),
        (
            "setoption name USI_Variant value no-such-game",
            "variant not changed",
        ),
        (
            "go byoyomi soon",
            "go: `byoyomi` needs a number, not `soon`",
        ),
        ("go sideways", "go: unknown word `sideways`"),
        ("frobnicate", "unknown command `frobnicate`"),
    ];
    for (bad, what) in cases {
        let l = said(&mut e, &[bad]);
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
        assert!(
            l[0].starts_with("info string ") && l[0].contains(what),
            "{bad}: {l:?}"
        );
    }
    // `go mate` (a tsume search) is declined as USI asks.
    let l = said(&mut e, &["go mate 1000"]);
    assert!(l.iter().any(|x| x == "checkmate notimplemented"), "{l:?}");
    // The refused moves left the position after 7i7h: the engine plays on.
    let mut pos = Position::start(variant("chu-shogi", &[]));
    let m = parse_move(&mut pos, "7i7h").unwrap();
    pos.make(m);
    e.send("go depth 1");
    let l = e.until("bestmove", WAIT);
    play_best(&mut pos, &l);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// `go depth` and `go nodes` search with USI reports: every `pv` is legal
/// USI text from the root, the deepest line reaches the depth, and the
/// `bestmove` (and its `ponder`) is legal.
#[test]
fn go_depth_and_nodes_report_usi_lines() {
    let mut e = Session::start(&["usi"]);
    let v = variant("chu-shogi", &[]);
    for go in ["go depth 3", "go nodes 3000"] {
        e.send("position startpos moves 7i7h");
        e.send(go);
        let l = e.until("bestmove", WAIT);
        let mut root = Position::start(v.clone());
        let m = parse_move(&mut root, "7i7h").unwrap();
        root.make(m);
        for info in l.iter().filter(|x| x.contains(" pv ")) {
            let mut p = root.clone();
            for m in info.split(" pv ").nth(1).unwrap().split(' ') {
                let mv = parse_move(&mut p, m).unwrap_or_else(|err| panic!("{info}: {err}"));
                p.make(mv);
            }
        }
        if go == "go depth 3" {
            assert!(l.iter().any(|x| x.starts_with("info depth 3 ")), "{l:?}");
        }
        let words: Vec<&str> = l.last().unwrap().split_whitespace().collect();
        let mut p = root.clone();
        let best = parse_move(&mut p, words[1]).unwrap();
        p.make(best);
        if let ["bestmove", _, "ponder", reply] = words[..] {
            parse_move(&mut p, reply).unwrap_or_else(|err| panic!("{words:?}: {err}"));
        }
    }
    e.send("quit");
}

/// `stop` ends `go infinite` with a legal move; `go ponder` thinks until
/// `ponderhit` (then moves on its clock) or `stop`; `gameover` ends a
/// search without a `bestmove`.
#[test]
fn stop_ponderhit_and_gameover_end_searches() {
    let mut e = Session::start(&["usi"]);
    e.send("setoption name USI_Variant value shoshogi");
    let start = || Position::start(variant("sho-shogi", &[("royal-count", "before-move")]));
    for (go, then) in [
        ("go infinite", "stop"),
        ("go ponder btime 0 wtime 0 byoyomi 300", "ponderhit"),
        ("go ponder btime 1000 wtime 1000 byoyomi 100", "stop"),
    ] {
        e.send("position startpos");
        e.send(go);
        std::thread::sleep(Duration::from_millis(300));
        // Still thinking: no bestmove before `readyok`.
        let l = said(&mut e, &[]);
        assert!(!l.iter().any(|x| x.starts_with("bestmove")), "{go}: {l:?}");
        e.send(then);
        let l = e.until("bestmove", Duration::from_secs(10));
        play_best(&mut start(), &l);
    }
    e.send("position startpos");
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    std::thread::sleep(Duration::from_millis(200));
    let l = said(&mut e, &["gameover draw"]);
    assert!(!l.iter().any(|x| x.starts_with("bestmove")), "{l:?}");
    let l = said(&mut e, &["usinewgame", "position startpos"]);
    assert!(l.is_empty(), "{l:?}");
    e.send("go depth 1");
    let l = e.until("bestmove", WAIT);
    play_best(&mut start(), &l);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// USI counts a mate in plies (UCI in moves): mating in one is `mate 1`,
/// being mated after any of one's moves `mate -2` (UCI `mate -1`). A side
/// with no legal move (mated) answers `bestmove resign`.
#[test]
fn mate_scores_count_plies_and_a_mated_side_resigns() {
    let mut e = Session::start(&["usi"]);
    e.send("setoption name USI_Variant value sho-shogi");
    // White's King on 5a, Black's Rooks on 9b and 1c: 1c1a mates.
    let board = "4k4/R8/8R/9/9/9/9/9/4K4";
    for (side, want) in [("b", "mate 1"), ("w", "mate -2")] {
        e.send(&format!("position sfen {board} {side} - 1"));
        e.send("go depth 4");
        let l = e.until("bestmove", WAIT);
        let score = last_info_word(&l, "score");
        assert!(score.starts_with(&format!("{want} ")), "{side}: {l:?}");
    }
    e.send("position sfen 4k3R/R8/9/9/9/9/9/9/4K4 w - 1");
    e.send("go depth 3");
    let l = e.until("bestmove", WAIT);
    assert_eq!(l.last().unwrap(), "bestmove resign");
    e.send("quit");
}

/// Issue 78: a position the side to move has already won (the other
/// royal is gone) answers USI's `bestmove win`, not `resign`; the side
/// that has lost resigns. UCI answers `bestmove (none)` for both.
#[test]
fn a_won_position_answers_win_and_a_lost_one_resigns() {
    for (proto, won, lost) in [
        ("usi", "bestmove win", "bestmove resign"),
        ("uci", "bestmove (none)", "bestmove (none)"),
    ] {
        let mut e = Session::start(&[proto]);
        e.send("setoption name UCI_Variant value sho-shogi");
        for (side, want) in [("b", won), ("w", lost)] {
            let sfen = format!("9/9/9/9/9/9/9/9/4K4 {side} - 1");
            let pos = if proto == "usi" {
                format!("position sfen {sfen}")
            } else {
                let v = variant("sho-shogi", &[]);
                let p = kamil_rules::sfen::from_sfen(v, &sfen).expect("the SFEN reads");
                format!("position fen {}", p.fen())
            };
            e.send(&pos);
            e.send(if proto == "usi" {
                "go byoyomi 100"
            } else {
                "go movetime 100"
            });
            let l = e.until("bestmove", WAIT);
            assert_eq!(l.last().unwrap(), want, "{proto} {side}: {l:?}");
        }
        e.send("quit");
    }
}

/// Issue 78: `go nodes 0` and `go nodes 1` search one ply (an `info
/// depth 1` line before the `bestmove`) rather than answer the first move
/// generated without a search.
#[test]
fn a_tiny_node_budget_still_searches_one_ply() {
    let mut e = Session::start(&["usi"]);
    e.send("setoption name USI_Variant value sho-shogi");
    for go in ["go nodes 0", "go nodes 1"] {
        e.send("position startpos");
        e.send(go);
        let l = e.until("bestmove", WAIT);
        assert!(
            l.iter().any(|x| x.starts_with("info depth 1 ")),
            "{go}: {l:?}"
        );
        play_best(
            &mut Position::start(variant("sho-shogi", &[("royal-count", "before-move")])),
            &l,
        );
    }
    e.send("quit");
}

/// Plays `plies` plies of `game` (kamil's name, with `options`) chosen in
/// USI as `usi_name`, a GUI's way: the handshake, then for each move the
/// whole game as `position startpos moves ...` and `go btime 0 wtime 0
/// byoyomi 200`; each `bestmove` must be legal and come well within the
/// byoyomi (a generous bound: a slow machine may be busy), then
/// `gameover draw` and `quit`.
fn gui_game(usi_name: &str, game: &str, options: &[(&str, &str)], plies: usize) {
    let mut e = Session::start(&["usi"]);
    e.send("usi");
    e.until("usiok", Duration::from_secs(10));
    let setup = said(
        &mut e,
        &[
            &format!("setoption name USI_Variant value {usi_name}"),
            "setoption name USI_Hash value 16",
            "setoption name USI_Ponder value false",
        ],
    );
    assert!(setup.is_empty(), "{setup:?}");
    e.send("usinewgame");
    let mut pos = Position::start(variant(game, options));
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let position = match moves.is_empty() {
            true => "position startpos".to_string(),
            false => format!("position startpos moves {}", moves.join(" ")),
        };
        e.send(&position);
        e.send("go btime 0 wtime 0 byoyomi 200");
        let t = Instant::now();
        let l = e.until("bestmove", WAIT);
        let spent = t.elapsed();
        assert!(
            spent < Duration::from_secs(5),
            "{game}: {spent:?} after {moves:?}"
        );
        assert!(!l.iter().any(|x| x.starts_with("info string")), "{l:?}");
        moves.push(play_best(&mut pos, &l));
    }
    e.send("gameover draw");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// Issue 48's real USI client check: a 40-ply Chu Shogi game at a
/// 0.2 s byoyomi, by lishogi's name for the game.
#[test]
fn a_gui_plays_forty_plies_of_chu_shogi_on_byoyomi() {
    gui_game("chushogi", "chu-shogi", &[], 40);
}

/// The same for a few plies of Sho Shogi, by Fairy-Stockfish's name (its
/// royal rule).
#[test]
fn a_gui_plays_sho_shogi_on_byoyomi() {
    gui_game(
        "shoshogi",
        "sho-shogi",
        &[("royal-count", "before-move")],
        8,
    );
}

/// Issue 80: `UCI_Elo`'s range is the game's own ladder: Chu Shogi's
/// (USI's first game) at the handshake, Tamerlane's announced again when
/// the game changes.
#[test]
fn the_elo_range_is_the_games_own() {
    use kamil_engine::skill::elo::{ELO_FLOOR, ladder};
    let range = |l: &[String]| -> (i32, i32) {
        let spin = l
            .iter()
            .find(|x| x.starts_with("option name UCI_Elo type spin "))
            .unwrap_or_else(|| panic!("{l:?}"));
        let n: Vec<i32> = spin.split(' ').filter_map(|w| w.parse().ok()).collect();
        (n[1], n[2])
    };
    let mut e = Session::start(&["usi"]);
    let l = answered(&mut e, &["usi"]);
    let chu = ladder(&variant("chu-shogi", &[])).range();
    assert_eq!(chu.0, ELO_FLOOR);
    assert_eq!(range(&l), chu);
    let l = answered(&mut e, &["setoption name USI_Variant value tamerlane"]);
    let tamerlane = ladder(&variant("tamerlane", &[])).range();
    assert_ne!(tamerlane, chu);
    assert_eq!(range(&l), tamerlane);
    e.send("quit");
}
