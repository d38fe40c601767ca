//! `kamil match` as a user runs it, against fake engines written in Python
//! (tests/data/match/): a UCI one and a CECP one that play a scripted
//! Courier game ending in mate, and misbehave on request. The referee must
//! make illegal moves, crashes, flag falls, false claims and refused legal
//! moves lose, alternate colours, and write PGN. Real peers
//! (Fairy-Stockfish, Fairy-Max) are played when installed.

mod common;
use common::kamil;

use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/match")
}

fn script() -> String {
    data().join("courier-mate.txt").display().to_string()
}

/// A fresh scratch directory for one test, removed when dropped (also
/// when the test fails), so that runs leave nothing in the temp dir.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("kamil-match-{name}-"))
        .tempdir()
        .expect("scratch dir")
}

/// Python 3 runs the fakes; a test that needs them fails without it.
fn require_python() {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    // The test suite needs python3 anyway (scripts/test generates the
    // Fairy-Stockfish data with it): a missing one is an error, not a skip.
    assert!(ok, "python3 is needed for the fake engines of these tests");
}

/// `kamil match courier --engine A --engine B REST...`: (stdout, stderr).
fn courier_match(a: &str, b: &str, rest: &[&str]) -> (String, String) {
    let mut args = vec!["courier", "--engine", a, "--engine", b];
    args.extend_from_slice(rest);
    play(&args)
}

/// `cmd=python3 fake_uci.py --script ... EXTRA,name=..`.
fn fake_uci(name: &str, extra: &str) -> String {
    format!(
        "cmd=python3 {} --script {} --name {name} {extra},proto=uci",
        data().join("fake_uci.py").display(),
        script()
    )
}

fn fake_cecp(name: &str, extra: &str) -> String {
    format!(
        "cmd=python3 {} --script {} --name {name} {extra},proto=xboard",
        data().join("fake_cecp.py").display(),
        script()
    )
}

/// Runs a match that must succeed; returns (stdout, stderr).
fn play(args: &[&str]) -> (String, String) {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    let out = kamil(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "kamil {all:?} failed:\n{stderr}\n{stdout}"
    );
    (stdout, stderr)
}

/// The games of a PGN file, as text.
fn games(pgn: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pgn).expect("PGN written");
    text.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {g}"))
        .collect()
}

fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    let i = game.find(&start)? + start.len();
    let rest = &game[i..];
    Some(&rest[..rest.find("\"]")?])
}

#[test]
fn scripted_games_end_in_mate_with_colours_alternating() {
    require_python();
    let dir = scratch("mate");
    let pgn = dir.path().join("games.pgn");
    let rec = dir.path().join("b.rec");
    let b = fake_cecp("B", &format!("--record {}", rec.display()));
    let (out, err) = courier_match(
        &fake_uci("A", ""),
        &b,
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    // Each game is won by its first player (the script mates with White).
    assert!(
        out.contains("Score of A vs B: 1 - 1 - 0  [0.500] 2"),
        "{out}"
    );
    // One win each: even, and Wilson's interval bounds it (issue 80).
    assert!(
        out.contains("Elo difference: +0.0 +/- 392.5 (95%)"),
        "{out}"
    );
    assert!(!out.contains("Problems"), "{out}");
    assert!(
        err.contains("Finished game 1 (A vs B): 1-0 {checkmate}"),
        "{err}"
    );
    assert!(
        err.contains("Finished game 2 (B vs A): 1-0 {checkmate}"),
        "{err}"
    );
    // stderr is a pipe here: each game's line carries the running score,
    // from the first engine's side.
    assert!(err.contains("{checkmate}  [A: +1 -0 =0"), "{err}");
    assert!(err.contains("{checkmate}  [A: +1 -1 =0"), "{err}");
    let g = games(&pgn);
    assert_eq!(g.len(), 2);
    for (i, (w, b)) in [("A", "B"), ("B", "A")].iter().enumerate() {
        assert_eq!(tag(&g[i], "Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(tag(&g[i], "White"), Some(*w), "{}", g[i]);
        assert_eq!(tag(&g[i], "Black"), Some(*b));
        assert_eq!(tag(&g[i], "Variant"), Some("courier"));
        assert_eq!(tag(&g[i], "Result"), Some("1-0"));
        assert_eq!(tag(&g[i], "Termination"), Some("normal"));
        assert_eq!(tag(&g[i], "PlyCount"), Some("201"));
        assert!(
            tag(&g[i], "FEN").is_none(),
            "the variant's start needs no FEN"
        );
        // Each move of the UCI engine (A) carries the score it reported
        // (issue 77: both engines' view of the game, for the disagreement
        // measure); the CECP script reports none.
        let (opening, end) = if i == 0 {
            (
                "1. k1j3 {+0.00} 1... c8e6 2. h2h3 {+0.00}",
                "d8e7 {+0.00} {checkmate} 1-0",
            )
        } else {
            ("1. k1j3 c8e6 {+0.00} 2. h2h3", "d8e7 {checkmate} 1-0")
        };
        let flat = g[i].replace('\n', " ");
        assert!(flat.contains(opening), "{}", g[i]);
        assert!(flat.contains(end), "{}", g[i]);
    }
    // The CECP engine was treated as a GUI treats it.
    let heard = std::fs::read_to_string(&rec).unwrap();
    let pos = |s: &str| {
        heard
            .find(s)
            .unwrap_or_else(|| panic!("no `{s}` in\n{heard}"))
    };
    assert!(pos("accepted usermove") < pos("\nnew"));
    assert!(heard.contains("rejected highlight"));
    assert!(pos("memory 64") < pos("\ngo"));
    assert!(heard.contains("variant courier"));
    assert!(heard.contains("sd 1"));
    assert!(heard.contains("setboard rnebmk1wbenr/"));
    assert!(heard.contains("usermove k1j3"));
    assert!(heard.contains("result 1-0 {checkmate}"));
}

#[test]
fn illegal_move_loses() {
    require_python();
    let dir = scratch("illegal");
    let pgn = dir.path().join("games.pgn");
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_uci("B", "--illegal-at -1"),
        &[
            "--games",
            "2",
            "--nodes",
            "10",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of A vs B: 2 - 0 - 0"), "{out}");
    assert!(out.contains("Problems:"), "{out}");
    assert!(out.contains("game 1: B played an illegal move"), "{out}");
    assert!(out.contains("game 2: B played an illegal move"), "{out}");
    let g = games(&pgn);
    assert_eq!(tag(&g[0], "Result"), Some("1-0"));
    assert_eq!(tag(&g[1], "Result"), Some("0-1"));
    assert_eq!(tag(&g[0], "Termination"), Some("rules infraction"));
    assert!(
        g[0].contains("{B played an illegal move: move `a1a1`"),
        "{}",
        g[0]
    );
    // B moved first in game 2 and lost at once.
    assert_eq!(tag(&g[1], "PlyCount"), Some("0"));
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    require_python();
    let dir = scratch("crash");
    let pgn = dir.path().join("games.pgn");
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_cecp("B", "--crash-at 5"),
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    // B crashes when asked to play ply 5, which it meets only as Black (game
    // 1); started afresh, it plays game 2 as White to the end and mates.
    assert!(out.contains("Score of A vs B: 1 - 1 - 0"), "{out}");
    assert!(out.contains("game 1: B crashed (exit status 3)"), "{out}");
    assert!(!out.contains("game 2:"), "{out}");
    let g = games(&pgn);
    assert_eq!(tag(&g[0], "Termination"), Some("abandoned"));
    assert_eq!(tag(&g[0], "Result"), Some("1-0"));
    assert_eq!(tag(&g[0], "PlyCount"), Some("5"));
    assert!(g[0].contains("{B crashed (exit status 3)} 1-0"), "{}", g[0]);
    assert_eq!(tag(&g[1], "Termination"), Some("normal"));
    assert_eq!(tag(&g[1], "PlyCount"), Some("201"));
}

#[test]
fn flag_fall_loses() {
    require_python();
    let dir = scratch("flag");
    let pgn = dir.path().join("games.pgn");
    let t0 = std::time::Instant::now();
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_uci("B", "--hang-at 3"),
        &[
            "--games",
            "1",
            "--tc",
            "1+0.1",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of A vs B: 1 - 0 - 0"), "{out}");
    assert!(
        out.contains("game 1: B lost on time (no bestmove within the"),
        "{out}"
    );
    let g = games(&pgn);
    assert_eq!(tag(&g[0], "Termination"), Some("time forfeit"));
    assert_eq!(tag(&g[0], "TimeControl"), Some("1+0.1"));
    assert_eq!(tag(&g[0], "PlyCount"), Some("3"));
    // The hung engine was killed, not waited for.
    assert!(t0.elapsed().as_secs() < 20);
}

#[test]
fn resigning_loses_without_being_a_problem() {
    for (flag, dir) in [("--resign-at 7", "resign"), ("--null-at 7", "null-move")] {
        resigning_loses(flag, dir);
    }
}

/// B resigns at its 7th reply by `flag`: `resign`, or XBoard's null move
/// `move @@@@` (HaChu's way of giving up).
fn resigning_loses(flag: &str, dir: &str) {
    require_python();
    let dir = scratch(dir);
    let pgn = dir.path().join("games.pgn");
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_cecp("B", flag),
        &[
            "--games",
            "1",
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of A vs B: 1 - 0 - 0"), "{out}");
    assert!(!out.contains("Problems"), "{out}");
    let g = games(&pgn);
    assert_eq!(tag(&g[0], "Termination"), Some("normal"));
    assert!(g[0].contains("{B resigns} 1-0"), "{}", g[0]);
    assert_eq!(tag(&g[0], "PlyCount"), Some("7"));
}

#[test]
fn a_hung_engine_without_a_clock_loses_after_the_move_timeout() {
    require_python();
    // A hangs at its second move (silence before the first is no loss:
    // see `an_engine_that_cannot_start_stops_the_match`).
    let (out, _) = courier_match(
        &fake_uci("A", "--hang-at 2"),
        &fake_uci("B", ""),
        &["--games", "1", "--depth", "1", "--move-timeout", "0.5"],
    );
    assert!(out.contains("Score of A vs B: 0 - 1 - 0"), "{out}");
    assert!(out.contains("game 1: A did not move within 0.5 s"), "{out}");
}

#[test]
fn false_claims_no_move_and_refused_moves_lose() {
    require_python();
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_cecp("B", "--claim-at 3"),
        &["--games", "1", "--depth", "1"],
    );
    assert!(out.contains("Score of A vs B: 1 - 0 - 0"), "{out}");
    assert!(
        out.contains("B made a false claim: 0-1 {Black mates}"),
        "{out}"
    );

    let (out, _) = courier_match(
        &fake_uci("A", "--none-at 2"),
        &fake_uci("B", ""),
        &["--games", "1", "--depth", "1"],
    );
    assert!(out.contains("Score of A vs B: 0 - 1 - 0"), "{out}");
    assert!(out.contains("A said it has no move"), "{out}");

    // B's script goes on differently: it refuses A's legal second move
    // (after its own first move; before it, see
    // `an_engine_that_cannot_start_stops_the_match`).
    let dir = scratch("refuse");
    let other = dir.path().join("other.txt");
    let text = std::fs::read_to_string(script()).unwrap();
    std::fs::write(&other, text.replacen("h2h3", "a1a2", 1)).unwrap();
    let b = format!(
        "cmd=python3 {} --script {} --name B,proto=xboard",
        data().join("fake_cecp.py").display(),
        other.display()
    );
    let (out, _) = courier_match(&fake_uci("A", ""), &b, &["--games", "1", "--depth", "1"]);
    assert!(out.contains("Score of A vs B: 1 - 0 - 0"), "{out}");
    assert!(
        out.contains("B refused the legal move h2h3: Illegal move: h2h3"),
        "{out}"
    );
}

/// Runs `kamil match ARGS` expecting it to fail: (stdout, stderr).
fn fails(args: &[&str]) -> (String, String) {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    let out = kamil(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "kamil {all:?} succeeded:\n{stdout}");
    (stdout, stderr)
}

/// `kamil match chu-shogi` between `kamil uci` and HaChu (`setup=SETUP`),
/// with kamil's rules set as HaChu plays them (the command of
/// `docs/matches.md`, "HaChu") and the arguments `rest`: the summary and
/// the errors.
fn kamil_against_hachu(hachu: &Path, setup: &str, rest: &[&str]) -> (String, String) {
    let kamil = env!("CARGO_BIN_EXE_kamil");
    let uci = format!("cmd={kamil} uci,name=kamil");
    let xboard = format!(
        "cmd={},proto=xboard,name=HaChu,variant=chu,setup={setup},option.Allow repeats=1",
        hachu.display()
    );
    let mut args = vec![
        "chu-shogi",
        "--engine",
        &uci,
        "--engine",
        &xboard,
        "--option",
        "counterstrike=everywhere",
        "--option",
        "lion-protection=recapture",
        "--option",
        "forced-last-rank-promotion=true",
        "--option",
        "eagle-pass=false",
    ];
    args.extend_from_slice(rest);
    play(&args)
}

/// Issue 48: HaChu could not read the start position and every refused
/// start was scored as its loss (10-0 in under a second). A game an engine
/// cannot start stops the match, naming the engine, the game and what the
/// engine said, with no score and no game in the PGN.
#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    require_python();
    let dir = scratch("broken");
    let pgn = dir.path().join("games.pgn");
    let a = fake_uci("A", "");
    let b = fake_cecp("B", "--refuse-setup");
    let (out, err) = fails(&[
        "courier",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "4",
        "--depth",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(!out.contains("Score of"), "{out}");
    assert!(
        err.contains("game 1: B could not start the game: refused the set-up: it said `tellusererror Unknown piece ' ' in setup (32)`"),
        "{err}"
    );
    assert!(err.contains("no game is scored"), "{err}");
    assert!(!err.contains("Finished game"), "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "");

    // An `Illegal move` answer to the first move it hears.
    let other = dir.path().join("other.txt");
    let text = std::fs::read_to_string(script()).unwrap();
    std::fs::write(&other, text.replacen("k1j3", "a1a2", 1)).unwrap();
    let b = format!(
        "cmd=python3 {} --script {} --name B,proto=xboard",
        data().join("fake_cecp.py").display(),
        other.display()
    );
    let (out, err) = fails(&["courier", "--engine", &a, "--engine", &b, "--depth", "1"]);
    assert!(!out.contains("Score of"), "{out}");
    assert!(
        err.contains(
            "game 1: B could not start the game: rejected a legal move: Illegal move: k1j3"
        ),
        "{err}"
    );

    // Silence before the first move; then a crash before it.
    for (flag, said) in [
        (
            "--hang-at 0",
            "A could not start the game: timed out (no bestmove)",
        ),
        (
            "--crash-at 0",
            "A could not start the game: crashed (exit status 3)",
        ),
    ] {
        let a = fake_uci("A", flag);
        let b = fake_uci("B", "");
        let (out, err) = fails(&[
            "courier",
            "--engine",
            &a,
            "--engine",
            &b,
            "--depth",
            "1",
            "--move-timeout",
            "0.5",
        ]);
        assert!(!out.contains("Score of"), "{out}");
        assert!(err.contains(&format!("game 1: {said}")), "{flag}: {err}");
    }
}

/// With --keep-going the match plays on; the games an engine could not
/// start are listed apart and count neither as wins nor as losses.
#[test]
fn keep_going_lists_games_that_could_not_start_apart_from_the_score() {
    require_python();
    let dir = scratch("keep-going");
    let pgn = dir.path().join("games.pgn");
    // B is silent at ply 1: its first move as Black (game 1), a ply it
    // never plays as White (game 2), which it wins by the script's mate.
    let (out, err) = courier_match(
        &fake_uci("A", ""),
        &fake_uci("B", "--hang-at 1"),
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--move-timeout",
            "0.5",
            "--keep-going",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(
        out.contains("Score of A vs B: 0 - 1 - 0  [0.000] 1"),
        "{out}"
    );
    assert!(!out.contains("Problems"), "{out}");
    assert!(
        out.contains("Not played, not in the score (1 games an engine could not start):\n  game 1: B could not start the game: timed out (no bestmove)"),
        "{out}"
    );
    assert!(
        err.contains("Not played: game 1: B could not start"),
        "{err}"
    );
    assert!(
        err.contains("Finished game 2 (B vs A): 1-0 {checkmate}"),
        "{err}"
    );
    let g = games(&pgn);
    assert_eq!(g.len(), 1);
    assert_eq!(tag(&g[0], "Round"), Some("2"));
}

#[test]
fn edit_mode_and_openings_with_the_second_player_to_move() {
    require_python();
    let dir = scratch("edit");
    // The position after the script's first move, Black to move, and the
    // rest of the script from there.
    let openings = dir.path().join("openings.fen");
    std::fs::write(
        &openings,
        "# after k1j3\nrnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F2N2/1PPPPP1PPPP1/RNEBMK1WBE1R b - - 1 1\n",
    )
    .unwrap();
    let rest = dir.path().join("rest.txt");
    let text = std::fs::read_to_string(script()).unwrap();
    std::fs::write(&rest, text.lines().skip(1).collect::<Vec<_>>().join("\n")).unwrap();
    let rec = dir.path().join("b.rec");
    let a = format!(
        "cmd=python3 {} --script {},name=A",
        data().join("fake_uci.py").display(),
        rest.display()
    );
    let b = format!(
        "cmd=python3 {} --script {} --no-setboard --record {},name=B,proto=xboard",
        data().join("fake_cecp.py").display(),
        rest.display(),
        rec.display()
    );
    let pgn = dir.path().join("games.pgn");
    let (out, _) = courier_match(
        &a,
        &b,
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--openings",
            openings.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    // White mates in both games: A is White in game 1, B in game 2.
    assert!(out.contains("Score of A vs B: 1 - 1 - 0"), "{out}");
    let heard = std::fs::read_to_string(&rec).unwrap();
    assert!(!heard.contains("\nsetboard "), "{heard}");
    assert!(heard.contains("black\nforce\nedit\n#\nRa1\n"), "{heard}");
    assert!(heard.contains("\nNj3\n"), "{heard}");
    assert!(heard.contains("\nc\n"), "{heard}");
    assert!(heard.contains("\nRl8\n.\n"), "{heard}");
    let g = games(&pgn);
    assert_eq!(tag(&g[0], "SetUp"), Some("1"));
    assert!(
        tag(&g[0], "FEN").is_some_and(|f| f.ends_with(" b - - 1 1")),
        "{}",
        g[0]
    );
    assert!(g[0].contains("1... c8e6 2. h2h3"), "{}", g[0]);
    assert_eq!(tag(&g[0], "PlyCount"), Some("200"));
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    require_python();
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_uci("B", "--illegal-at -1"),
        &[
            "--games",
            "60",
            "--nodes",
            "1",
            "--sprt",
            "elo0=0,elo1=50",
            "--concurrency",
            "2",
        ],
    );
    assert!(out.contains("H1 accepted (elo1 = 50)"), "{out}");
    let line = out.lines().find(|l| l.starts_with("Score of")).unwrap();
    let n: u32 = line.rsplit(' ').next().unwrap().parse().unwrap();
    // Nine straight wins cross the bound; a second game may be under way.
    assert!((9..=11).contains(&n), "{line}");
    assert!(line.contains(&format!("{n} - 0 - 0")), "{line}");
}

#[test]
fn max_plies_adjudicates_a_draw() {
    require_python();
    let dir = scratch("maxplies");
    let pgn = dir.path().join("games.pgn");
    let (out, _) = courier_match(
        &fake_uci("A", ""),
        &fake_uci("B", ""),
        &[
            "--games",
            "1",
            "--depth",
            "1",
            "--max-plies",
            "10",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of A vs B: 0 - 0 - 1"), "{out}");
    let g = games(&pgn);
    assert_eq!(tag(&g[0], "Termination"), Some("adjudication"));
    assert_eq!(tag(&g[0], "PlyCount"), Some("10"));
    assert!(g[0].contains("{adjudicated a draw after 10 plies} 1/2-1/2"));
}

#[test]
fn bad_setups_are_errors_not_lost_games() {
    let fail = |args: &[&str]| {
        let mut all = vec!["match"];
        all.extend_from_slice(args);
        let out = kamil(&all);
        assert!(!out.status.success(), "kamil {all:?} succeeded");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = fail(&[
        "courier",
        "--engine",
        "cmd=/nonexistent/engine",
        "--engine",
        "cmd=/nonexistent/engine",
        "--depth",
        "1",
    ]);
    assert!(e.contains("engine 1") && e.contains("cannot run"), "{e}");
    let e = fail(&["courier", "--engine", "cmd=x", "--depth", "1"]);
    assert!(e.contains("exactly two --engine"), "{e}");
    let e = fail(&["courier", "--engine", "cmd=x", "--engine", "cmd=y"]);
    assert!(e.contains("no limit"), "{e}");
    let e = fail(&[
        "courier",
        "--engine",
        "cmd=x,proto=xboard",
        "--engine",
        "cmd=y",
        "--nodes",
        "5",
    ]);
    assert!(e.contains("no node limit"), "{e}");
    let e = fail(&[
        "courier",
        "--engine",
        "cmd=x,colour=red",
        "--engine",
        "cmd=y",
        "--depth",
        "1",
    ]);
    assert!(e.contains("engine field `colour`"), "{e}");
    let e = fail(&[
        "courier", "--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast",
    ]);
    assert!(e.contains("time control `fast`"), "{e}");
    require_python();
    // An engine that does not offer the variant is refused at the start.
    let e = fail(&[
        "courier-modern",
        "--engine",
        &fake_uci("A", ""),
        "--engine",
        &fake_uci("B", ""),
        "--depth",
        "1",
    ]);
    assert!(e.contains("does not offer variant `courier-modern`"), "{e}");
}

/// A program on PATH or in /usr/games (where Debian puts engines).
fn installed(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push(PathBuf::from("/usr/games"));
    let found = dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file());
    if found.is_none() {
        eprintln!("note: {name} is not installed; skipping (apt-get install {name})");
    }
    found
}

#[test]
fn fairy_stockfish_plays_fairy_max_at_courier() {
    let (Some(fsf), Some(fmax)) = (installed("fairy-stockfish"), installed("fairymax")) else {
        return;
    };
    let dir = scratch("peers");
    let pgn = dir.path().join("games.pgn");
    let (out, err) = courier_match(
        &format!("cmd={},name=FSF,depth=3", fsf.display()),
        &format!("cmd={},proto=xboard,name=FMax,depth=2", fmax.display()),
        &[
            "--games",
            "2",
            "--random-plies",
            "3",
            "--max-plies",
            "80",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of FSF vs FMax:"), "{out}");
    // Both programs understood every move: no game ended by a failure.
    assert!(!out.contains("Problems"), "{out}\n{err}");
    let g = games(&pgn);
    assert_eq!(g.len(), 2);
    for game in &g {
        assert_eq!(tag(game, "Variant"), Some("courier"));
        assert!(tag(game, "FEN").is_some_and(|f| f.contains(" b ")));
        let t = tag(game, "Termination").unwrap();
        assert!(t == "normal" || t == "adjudication", "{game}");
    }
}

/// Runs kamil's own engine twice, full evaluation against material only.
fn self_play(variant: &str, limits: &[&str], extra: &[&str]) -> (String, Vec<String>) {
    let kamil = env!("CARGO_BIN_EXE_kamil");
    let dir = scratch(&format!("self-{variant}"));
    let pgn = dir.path().join("games.pgn");
    let full = format!("cmd={kamil} uci,name=full");
    let material = format!("cmd={kamil} uci,name=material,option.Eval=material");
    let mut args = vec![variant, "--engine", &full, "--engine", &material];
    args.extend_from_slice(limits);
    args.extend_from_slice(extra);
    let p = pgn.to_str().unwrap().to_string();
    args.extend_from_slice(&["--games", "2", "--pgn", &p]);
    let (out, err) = play(&args);
    assert!(!out.contains("Problems"), "{out}\n{err}");
    assert!(out.contains("Score of full vs material: "), "{out}");
    (out, games(&pgn))
}

#[test]
fn kamil_uci_plays_itself_at_courier_on_a_clock() {
    // A clock generous enough that a busy test machine makes no one flag.
    let (_, g) = self_play(
        "courier",
        &["--tc", "5+0.1", "--time-margin", "1000"],
        &["--max-plies", "16"],
    );
    assert_eq!(g.len(), 2);
    assert_eq!(tag(&g[0], "White"), Some("full"));
    assert_eq!(tag(&g[1], "White"), Some("material"));
    for game in &g {
        assert_eq!(tag(game, "Variant"), Some("courier"));
        assert_eq!(tag(game, "TimeControl"), Some("5+0.1"));
        let t = tag(game, "Termination").unwrap();
        assert!(t == "normal" || t == "adjudication", "{game}");
    }
}

#[test]
fn kamil_uci_plays_itself_at_sho_shogi_from_random_openings() {
    // One random ply: the second player moves first, and the FEN given to
    // the engines is XBoard's (`w` = first player), so a misread side would
    // show as an illegal move.
    let (_, g) = self_play(
        "sho-shogi",
        &["--depth", "2"],
        &["--max-plies", "60", "--random-plies", "1", "--seed", "4"],
    );
    for game in &g {
        assert_eq!(tag(game, "Variant"), Some("sho-shogi"));
        assert!(
            tag(game, "FEN").is_some_and(|f| f.ends_with(" w")),
            "{game}"
        );
        assert!(game.contains("1... "), "{game}");
        let t = tag(game, "Termination").unwrap();
        assert!(t == "normal" || t == "adjudication", "{game}");
    }
}

/// The lines `kamil match --log` recorded as sent to the engine whose log
/// name starts with `who`.
fn sent_to<'a>(log: &'a str, who: &str) -> Vec<&'a str> {
    log.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let _time = w.next()?;
            let name = w.next()?;
            (name.starts_with(who) && w.next()? == "<").then(|| {
                let i = l.find(" < ").map(|i| i + 3).unwrap_or(l.len());
                &l[i..]
            })
        })
        .collect()
}

/// Issue 48: with `setup=startpos` the random opening plies go as moves
/// from the start: `new` and the moves in XBoard, `position startpos moves`
/// in UCI, never a FEN; the games' FEN is where those moves lead.
#[test]
fn setup_startpos_sends_random_openings_as_moves_from_the_start() {
    let kamil = env!("CARGO_BIN_EXE_kamil");
    let dir = scratch("startpos");
    let pgn = dir.path().join("games.pgn");
    let log = dir.path().join("match.log");
    let u = format!("cmd={kamil} uci,name=U,setup=startpos");
    let x = format!("cmd={kamil} xboard,proto=xboard,name=X,setup=startpos");
    let (out, err) = play(&[
        "courier",
        "--engine",
        &u,
        "--engine",
        &x,
        "--games",
        "2",
        "--depth",
        "1",
        "--random-plies",
        "3",
        "--max-plies",
        "6",
        "--pgn",
        pgn.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(
        !out.contains("Problems") && !out.contains("Not played"),
        "{out}\n{err}"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    let g = games(&pgn);
    assert_eq!(g.len(), 2);
    let fen = tag(&g[0], "FEN")
        .expect("a random opening's FEN")
        .to_string();
    assert_eq!(tag(&g[1], "FEN"), Some(fen.as_str()));

    let to_u = sent_to(&log, "U[");
    let positions: Vec<&str> = to_u
        .iter()
        .copied()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert!(!positions.is_empty(), "{log}");
    assert!(
        positions
            .iter()
            .all(|l| l.starts_with("position startpos moves ")),
        "{positions:?}"
    );
    // The first three moves of every position command are the opening.
    let words: Vec<&str> = positions[0].split_whitespace().skip(3).collect();
    assert!(words.len() >= 3, "{positions:?}");
    let line = &words[..3];
    let v = common::variant("courier", &[]);
    let mut pos = kamil_rules::Position::start(v);
    for m in line {
        let mv = kamil_rules::notation::parse_move(&mut pos, m).unwrap();
        pos.make(mv);
    }
    assert_eq!(pos.fen(), fen);

    let to_x = sent_to(&log, "X[");
    assert!(!to_x.iter().any(|l| l.starts_with("setboard")), "{to_x:?}");
    assert!(!to_x.contains(&"edit"), "{to_x:?}");
    // After `new`, the opening's moves in force mode, in order.
    let new = to_x.iter().position(|l| *l == "new").expect("new");
    let moves: Vec<&str> = to_x[new..]
        .iter()
        .filter_map(|l| l.strip_prefix("usermove "))
        .take(3)
        .collect();
    assert_eq!(moves, line, "{to_x:?}");
}

/// Issue 48: HaChu could not read kamil's FEN (`Unknown piece ' ' in
/// setup`); with `setup=startpos` it gets the random opening as moves and
/// plays real games. Skipped, with a note, where HaChu is not installed.
#[test]
fn hachu_plays_random_openings_with_setup_startpos() {
    let Some(hachu) = installed("hachu") else {
        return;
    };
    let dir = scratch("hachu");
    let pgn = dir.path().join("games.pgn");
    let (out, err) = kamil_against_hachu(
        &hachu,
        "startpos",
        &[
            "--games",
            "2",
            "--depth",
            "2",
            "--random-plies",
            "8",
            "--max-plies",
            "24",
            "--move-timeout",
            "20",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of kamil vs HaChu:"), "{out}");
    assert!(!out.contains("Not played"), "{out}\n{err}");
    assert!(!out.contains("Problems"), "{out}\n{err}");
    let g = games(&pgn);
    assert_eq!(g.len(), 2);
    for game in &g {
        assert!(tag(game, "FEN").is_some(), "{game}");
        // Real games: more moves than the opening's random plies.
        let plies: u32 = tag(game, "PlyCount").unwrap().parse().unwrap();
        assert!(plies > 8, "{game}");
        let t = tag(game, "Termination").unwrap();
        assert!(t == "normal" || t == "adjudication", "{game}");
    }
}

/// HaChu reads `setboard` with the board alone and gives the move to the
/// first player; with `setup=board` it plays from set-up positions (here a
/// Chu Shogi ending: the last position but one of a 600-ply draw against
/// it). A position with the second player to move cannot be given so: with
/// --keep-going its games are listed apart, not played. Skipped where
/// HaChu is not installed.
#[test]
fn hachu_plays_set_up_positions_with_setup_board() {
    let Some(hachu) = installed("hachu") else {
        return;
    };
    let dir = scratch("hachu-board");
    let pgn = dir.path().join("games.pgn");
    let openings = dir.path().join("ends.fen");
    let first = "9m2/5k2tc1s/1c3+r2e3/12/4V1+b5/12/12/2+d9/11+g/+p+p4E5/5O6/7K4 b";
    let second = "9m2/5k2tc1s/1c3+r2e3/12/4V1+b5/12/12/2+d9/11+g/+p+p4E5/7O4/7K4 w";
    std::fs::write(&openings, format!("{first}\n{second}\n")).unwrap();
    let (out, err) = kamil_against_hachu(
        &hachu,
        "board",
        &[
            "--openings",
            openings.to_str().unwrap(),
            "--games",
            "4",
            "--depth",
            "2",
            "--max-plies",
            "16",
            "--move-timeout",
            "20",
            "--keep-going",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(out.contains("Score of kamil vs HaChu:"), "{out}");
    assert!(!out.contains("Problems"), "{out}\n{err}");
    assert!(
        out.contains("Not played, not in the score (2 games an engine could not start)"),
        "{out}\n{err}"
    );
    assert!(out.contains("has the second player to move"), "{out}");
    let g = games(&pgn);
    assert_eq!(g.len(), 2, "{out}");
    for game in &g {
        assert_eq!(tag(game, "FEN"), Some(first), "{game}");
        let plies: u32 = tag(game, "PlyCount").unwrap().parse().unwrap();
        assert!(plies >= 1, "{game}");
    }
}

/// The `position` and `go` lines sent to the engine `who` in `log`.
fn positions_and_goes<'a>(log: &'a str, who: &str) -> (Vec<&'a str>, Vec<&'a str>) {
    let sent = sent_to(log, who);
    let of = |p: &str| sent.iter().copied().filter(|l| l.starts_with(p)).collect();
    (of("position "), of("go"))
}

/// `kamil match` with a USI engine (`proto=usi`, here `kamil usi`) against
/// a UCI one (`kamil uci`): `play(variant, usi_fields, rest)` returns the
/// summary, the games and the lines sent to the USI engine.
fn usi_against_uci(
    variant: &str,
    usi_fields: &str,
    rest: &[&str],
) -> (String, Vec<String>, String) {
    let kamil = env!("CARGO_BIN_EXE_kamil");
    let dir = scratch(&format!("usi-{variant}"));
    let pgn = dir.path().join("games.pgn");
    let log = dir.path().join("match.log");
    let usi = format!("cmd={kamil} usi,proto=usi,name=S{usi_fields}");
    let uci = format!("cmd={kamil} uci,proto=uci,name=C");
    let mut args = vec![variant, "--engine", &usi, "--engine", &uci, "--games", "2"];
    args.extend_from_slice(rest);
    let (p, l) = (pgn.to_str().unwrap(), log.to_str().unwrap());
    args.extend_from_slice(&["--pgn", p, "--log", l]);
    let (out, err) = play(&args);
    assert!(out.contains("Score of S vs C: "), "{out}\n{err}");
    assert!(
        !out.contains("Problems") && !out.contains("Not played"),
        "{out}\n{err}"
    );
    let g = games(&pgn);
    assert_eq!(g.len(), 2, "{out}");
    (out, g, std::fs::read_to_string(&log).unwrap())
}

/// Issue 48: USI engines can be matched. `kamil usi` plays two real Chu
/// Shogi games against `kamil uci` from random openings: it is set up with
/// `usi`, `USI_Variant` and `usinewgame`, gets each position as the
/// opening's SFEN and the moves in USI text, and hears `gameover`.
#[test]
fn a_usi_engine_plays_chu_shogi_against_a_uci_engine() {
    let (_, g, log) = usi_against_uci(
        "chu-shogi",
        "",
        &["--depth", "2", "--random-plies", "4", "--max-plies", "24"],
    );
    let v = common::variant("chu-shogi", &[]);
    for game in &g {
        let plies: u32 = tag(game, "PlyCount").unwrap().parse().unwrap();
        assert!(plies > 4, "{game}");
    }
    let sent = sent_to(&log, "S[");
    for want in [
        "usi",
        "setoption name USI_Variant value chu-shogi",
        "usinewgame",
    ] {
        assert!(sent.contains(&want), "{want}: {sent:?}");
    }
    assert!(sent.iter().any(|l| l.starts_with("gameover ")), "{sent:?}");
    let (positions, goes) = positions_and_goes(&log, "S[");
    assert!(goes.iter().all(|l| *l == "go depth 2"), "{goes:?}");
    // Each position is the game's start as SFEN, then legal USI moves.
    let fens: Vec<&str> = g.iter().map(|x| tag(x, "FEN").unwrap()).collect();
    for p in &positions {
        let rest = p.strip_prefix("position sfen ").expect(p);
        let (sfen, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
        let mut pos = kamil_rules::Position::from_sfen(v.clone(), sfen).expect(p);
        assert!(fens.contains(&pos.fen().as_str()), "{p}: {fens:?}");
        for m in moves.split_whitespace() {
            let mv = kamil_rules::usi::parse_move(&mut pos, m).expect(m);
            pos.make(mv);
        }
    }
}

/// With `setup=startpos` a USI engine gets the random opening as USI moves
/// from the start (`position startpos moves ...`); a time per move goes as
/// a byoyomi with no main time. Sho Shogi.
#[test]
fn a_usi_engine_with_setup_startpos_plays_sho_shogi_on_byoyomi() {
    let (_, g, log) = usi_against_uci(
        "sho-shogi",
        ",setup=startpos,movetime=0.1",
        &["--depth", "2", "--random-plies", "3", "--max-plies", "12"],
    );
    let v = common::variant("sho-shogi", &[]);
    let fens: Vec<&str> = g.iter().map(|x| tag(x, "FEN").unwrap()).collect();
    let (positions, goes) = positions_and_goes(&log, "S[");
    assert!(
        goes.iter()
            .all(|l| *l == "go btime 0 wtime 0 byoyomi 100 depth 2"),
        "{goes:?}"
    );
    assert!(!positions.is_empty());
    for p in &positions {
        let moves = p.strip_prefix("position startpos moves ").expect(p);
        let mut pos = kamil_rules::Position::start(v.clone());
        for (i, m) in moves.split_whitespace().enumerate() {
            if i == 3 {
                assert!(fens.contains(&pos.fen().as_str()), "{p}: {fens:?}");
            }
            let mv = kamil_rules::usi::parse_move(&mut pos, m).expect(m);
            pos.make(mv);
        }
    }
}

/// A USI engine that refuses the game's set-up (here `kamil usi` kept on
/// Dai Shogi, which cannot read a Chu Shogi SFEN) stops the match, as a
/// UCI or XBoard one does: no score, the engine's words in the error.
#[test]
fn a_usi_engine_that_refuses_the_position_stops_the_match() {
    let kamil = env!("CARGO_BIN_EXE_kamil");
    let usi = format!(
        "cmd={kamil} usi,proto=usi,name=S,option.USI_Variant=dai-shogi,option.VariantOptions=<empty>"
    );
    let uci = format!("cmd={kamil} uci,name=C");
    let (out, err) = fails(&[
        "chu-shogi",
        "--engine",
        &usi,
        "--engine",
        &uci,
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    assert!(!out.contains("Score of"), "{out}");
    assert!(
        err.contains("game 1: S could not start the game: it said `info string position not changed: SFEN board"),
        "{err}"
    );
    assert!(err.contains("no game is scored"), "{err}");
}
