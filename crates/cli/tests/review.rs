//! Game review, as a command and as the server's endpoint: `kamil analyse`
//! marks a hung Rook as a blunder in the PGN it writes back;
//! `POST /api/games/{id}/review` evaluates every ply within its bounded
//! time, streams each as an event, is stopped by `stop`, refuses a second
//! review of the same game, uses one engine, and answers bad input with a
//! 4xx. A game in XBoard's and HaChu's move texts is read too.

mod common;
#[path = "support/http.rs"]
mod http;

use common::kamil;
use http::{Server, get, post};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A short Courier game in which White's Rook walks to c6, where the Pawns
/// b7 and d7 take it for nothing (`c3c6`, then `b7c6`).
const HANGING_ROOK: &str = r#"[Event "review test"]
[Variant "courier"]
[White "a"]
[Black "b"]

1. a1a3 l8l7 2. a3c3 l7l6 3. c3c6 b7c6 *
"#;

const HANGING_ROOK_MOVES: [&str; 6] = ["a1a3", "l8l7", "a3c3", "l7l6", "c3c6", "b7c6"];

fn scratch(name: &str, text: &str) -> std::path::PathBuf {
    let path = common::scratch_path("kamil-review-tests", name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

#[test]
fn analyse_marks_a_hung_rook_as_a_blunder_and_the_pgn_reads_back() {
    let game = scratch("hanging-rook.pgn", HANGING_ROOK);
    let out_file = common::scratch_path("kamil-review-tests", "hanging-rook-reviewed.pgn");
    let out = kamil(&[
        "analyse",
        game.to_str().unwrap(),
        "--movetime",
        "60",
        "--hash",
        "8",
        "-o",
        out_file.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("blunders 1"), "{err}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    // The Rook's move is a blunder ($4), with the engine's better move.
    let at = text.find("c3c6 $4").unwrap_or_else(|| panic!("{text}"));
    let after = text[at + "c3c6 $4".len()..].trim_start();
    assert!(after.starts_with('{'), "{text}");
    let comment = &after[..after.find('}').unwrap()];
    assert!(
        comment.contains("blunder") && comment.contains("best "),
        "{comment}"
    );
    // Every move has its evaluation; only the Rook's move is a blunder.
    assert_eq!(text.matches('{').count(), 6, "{text}");
    assert_eq!(text.matches("$4").count(), 1, "{text}");
    assert!(text.contains("[White \"a\"]"), "{text}");
    assert!(text.contains("[Annotator \"kamil analyse"), "{text}");
    // Read back, it is the same game.
    let back = kamil_rules::pgn::read(&text).unwrap();
    assert_eq!(back.moves, HANGING_ROOK_MOVES.map(String::from));

    // To standard output; a move that is not legal is named.
    let out = kamil(&["analyse", game.to_str().unwrap(), "--movetime", "5"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("[Variant \"courier\"]"));
    let bad = scratch("bad-move.pgn", "[Variant \"courier\"]\n\n1. a1a3 a1a2 *\n");
    let out = kamil(&["analyse", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("move 2") && err.contains("a1a2"), "{err}");
}

/// `kamil analyse ARGS` with `stdin` as its input: its output, or a
/// failure when it has not ended within `limit`.
fn analyse_within(args: &[&str], stdin: &str, limit: Duration) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kamil"))
        .arg("analyse")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("kamil starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kamil analyse {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// Issue 47: an output path that cannot be written failed only after the
/// whole review (10 minutes a position here); `-` is standard input.
#[test]
fn analyse_checks_its_output_first_and_reads_standard_input() {
    let game = scratch("output-check.pgn", HANGING_ROOK);
    let out = analyse_within(
        &[
            game.to_str().unwrap(),
            "--movetime",
            "600000",
            "-o",
            "/nonexistent/x.pgn",
        ],
        "",
        Duration::from_secs(60),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("/nonexistent/x.pgn"), "{err}");
    let out = analyse_within(
        &["-", "--movetime", "5"],
        HANGING_ROOK,
        Duration::from_secs(60),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    let back = kamil_rules::pgn::read(&text).unwrap();
    assert_eq!(back.moves, HANGING_ROOK_MOVES.map(String::from));
}

/// Issue 47: a byte-order mark hid the Variant tag; `@@@@` as a first
/// move was "`` is not a square"; an empty board was reviewed silently.
#[test]
fn analyse_skips_a_bom_names_a_null_move_and_refuses_an_empty_board() {
    let game = scratch("bom.pgn", &format!("\u{feff}{HANGING_ROOK}"));
    let out = kamil(&["analyse", game.to_str().unwrap(), "--movetime", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let back = kamil_rules::pgn::read(&String::from_utf8_lossy(&out.stdout)).unwrap();
    assert_eq!(back.moves, HANGING_ROOK_MOVES.map(String::from));

    let pass = scratch("chu-pass.pgn", "[Variant \"chu\"]\n\n1. @@@@ *\n");
    let out = kamil(&["analyse", pass.to_str().unwrap(), "--movetime", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("move 1 (@@@@)") && err.contains("null move") && err.contains("no pass"),
        "{err}"
    );
    assert!(!err.contains("`` is not a square"), "{err}");

    let empty = scratch(
        "empty.pgn",
        "[Variant \"courier\"]\n[FEN \"12/12/12/12/12/12/12/12 w - - 0 1\"]\n\n*\n",
    );
    let out = kamil(&["analyse", empty.to_str().unwrap(), "--movetime", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("no pieces"), "{err}");
}

#[test]
fn analyse_reads_xboard_and_hachu_move_texts() {
    // Chu Shogi as XBoard and HaChu write it (XBoard's name `chu`): a Lion's double move in
    // XBoard's comma form, a Lion's pass as XBoard's null move `@@@@`.
    let game = scratch(
        "chu-xboard.pgn",
        "[Variant \"chu\"]\n\n1. f3f5 f9f8 2. f5f6,f6f7 e9e8 3. @@@@ g9g8 *\n",
    );
    let out = kamil(&["analyse", game.to_str().unwrap(), "--movetime", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    let back = kamil_rules::pgn::read(&text).unwrap();
    assert_eq!(back.moves.len(), 6, "{text}");
    assert_eq!(back.moves[2], "f5f7", "{text}");
    // The pass is written in kamil's notation: the Lion out and back.
    assert!(
        back.moves[4].starts_with("f7") && back.moves[4].ends_with("f7"),
        "{text}"
    );
}

fn server(extra: &[&str]) -> Server {
    Server::start(env!("CARGO_BIN_EXE_kamil"), extra)
}

/// A game of the hanging Rook on `s`; returns its id.
fn rook_game(addr: SocketAddr) -> String {
    let r = post(addr, "/api/games", &json!({"pgn": HANGING_ROOK}));
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_string()
}

/// Reads server-sent events from `path` until `count` events named `name`
/// have come, or 30 s; returns their data.
fn watch(
    addr: SocketAddr,
    path: &str,
    name: &'static str,
    count: usize,
) -> std::thread::JoinHandle<Vec<Value>> {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut event = String::new();
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { break };
            if let Some(n) = line.strip_prefix("event: ") {
                event = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ")
                && event == name
            {
                seen.push(serde_json::from_str(d).unwrap());
                if seen.len() == count {
                    break;
                }
            }
        }
        seen
    })
}

fn error_of(r: &http::Response, status: u16) -> String {
    assert_eq!(r.status, status, "{}", r.body);
    let m = r.json()["error"].as_str().unwrap_or_default().to_string();
    assert!(!m.is_empty(), "no message in {}", r.body);
    m
}

#[test]
fn the_review_endpoint_judges_every_ply_and_streams_its_progress() {
    let s = server(&["--engines", "2"]);
    let id = rook_game(s.addr);
    let events = watch(s.addr, &format!("/api/games/{id}/events"), "review", 7);
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let r = post(
        s.addr,
        &format!("/api/games/{id}/review"),
        &json!({"movetime_ms": 60}),
    );
    let took = started.elapsed();
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(r["complete"], true);
    assert_eq!(r["movetime_ms"], 60);
    assert_eq!(r["thresholds"]["blunder"], 300);
    // Seven positions at 60 ms each: well within a bound of seconds.
    assert!(took < Duration::from_secs(10), "{took:?}");
    let evals = r["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 7);
    assert!(evals.iter().enumerate().all(|(i, e)| e["ply"] == i));
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    let marked: Vec<(&str, &str)> = moves
        .iter()
        .filter(|m| m["judgement"] == "blunder")
        .map(|m| (m["move"].as_str().unwrap(), m["symbol"].as_str().unwrap()))
        .collect();
    assert_eq!(marked, [("c3c6", "??")], "{r}");
    assert!(
        moves[4]["better"].is_string() && moves[4]["nag"] == 4,
        "{r}"
    );
    assert!(moves[4]["loss_cp"].as_i64().unwrap() >= 300, "{r}");
    // After the Rook is lost, Black stands well (the first player's view).
    assert!(evals[5]["eval_cp"].as_i64().unwrap() <= -200, "{r}");
    // One event per position, in order.
    let seen = events.join().unwrap();
    let plies: Vec<u64> = seen.iter().map(|e| e["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, [0, 1, 2, 3, 4, 5, 6]);

    // The server's bound on search time bounds each position too.
    let s = server(&["--max-movetime", "20"]);
    let id = rook_game(s.addr);
    let r = post(
        s.addr,
        &format!("/api/games/{id}/review"),
        &json!({"movetime_ms": 600_000}),
    )
    .json();
    assert_eq!(r["movetime_ms"], 20, "{r}");
    assert_eq!(r["complete"], true, "{r}");
}

#[test]
fn a_review_is_stopped_a_second_one_refused_and_it_uses_one_engine() {
    let s = server(&["--engines", "2"]);
    let id = rook_game(s.addr);
    let addr = s.addr;
    let path = format!("/api/games/{id}/review");
    // Seven positions at 2 s each: 14 s if nothing stopped it.
    let review = std::thread::spawn(move || post(addr, &path, &json!({"movetime_ms": 2000})));
    let started = Instant::now();
    while get(s.addr, &format!("/api/games/{id}")).json()["searching"] != true {
        assert!(started.elapsed() < Duration::from_secs(20), "never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // One engine for the review, whatever the pool holds.
    assert_eq!(get(s.addr, "/api/status").json()["searches"], 1);
    // A second review, a search or a move of the same game: refused.
    let m = error_of(
        &post(s.addr, &format!("/api/games/{id}/review"), &json!({})),
        409,
    );
    assert!(m.contains("busy"), "{m}");
    error_of(
        &post(s.addr, &format!("/api/games/{id}/engine"), &json!({})),
        409,
    );
    error_of(
        &post(
            s.addr,
            &format!("/api/games/{id}/moves"),
            &json!({"move": "b7b6"}),
        ),
        409,
    );
    let stopped = Instant::now();
    let r = post(s.addr, &format!("/api/games/{id}/stop"), &json!({})).json();
    assert_eq!(r["stopped"], true);
    let r = review.join().unwrap();
    assert!(
        stopped.elapsed() < Duration::from_secs(3),
        "{:?}",
        stopped.elapsed()
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(r["complete"], false, "{r}");
    assert!(r["evals"].as_array().unwrap().len() < 7, "{r}");
    // The game is free again.
    assert_eq!(get(s.addr, "/api/status").json()["searches"], 0);
    let r = post(
        s.addr,
        &format!("/api/games/{id}/review"),
        &json!({"movetime_ms": 5}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["complete"], true);
}

#[test]
fn bad_review_requests_get_a_4xx() {
    let s = server(&[]);
    let id = rook_game(s.addr);
    let path = format!("/api/games/{id}/review");
    error_of(&post(s.addr, &path, &json!({"movetime_ms": 0})), 400);
    let r = post(s.addr, &path, &json!({"movetime": 10}));
    assert!((400..500).contains(&r.status), "{}", r.body);
    let r = post(s.addr, &path, &json!({"movetime_ms": "fast"}));
    assert!((400..500).contains(&r.status), "{}", r.body);
    error_of(
        &post(s.addr, "/api/games/nosuchgame/review", &json!({})),
        404,
    );
    let r = http::call(s.addr, "GET", &path, None);
    assert_eq!(r.status, 405, "{}", r.body);
    // The server still serves.
    let r = post(s.addr, &path, &json!({"movetime_ms": 5}));
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Issue 80: a PGN without a `Variant` tag is told its game with
/// `--variant` (another program's name too); without it the error says
/// how.
#[test]
fn analyse_takes_the_game_from_variant_where_the_pgn_has_no_tag() {
    let game = scratch("untagged.pgn", "1. b2b3 b7b6 *\n");
    let out = kamil(&["analyse", game.to_str().unwrap(), "--movetime", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("--variant"), "{err}");
    let out = kamil(&[
        "analyse",
        game.to_str().unwrap(),
        "--movetime",
        "5",
        "--variant",
        "courier",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shogi = scratch("untagged-chu.pgn", "1. 7i7h *\n");
    let out = kamil(&[
        "analyse",
        shogi.to_str().unwrap(),
        "--movetime",
        "5",
        "--variant",
        "chushogi",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("chu-shogi"));
}

/// Issue 80: a PGN whose moves name pieces with the labels `kamil play`
/// prints (the rule book's IDs, `Ln` for the Lion) reads in analyse.
#[test]
fn analyse_reads_the_piece_labels_kamil_prints() {
    let game = scratch("labels.pgn", "[Variant \"chu-shogi\"]\n\n1. Lnf5 f8 *\n");
    let out = kamil(&["analyse", game.to_str().unwrap(), "--movetime", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("f3f5"),
        "{err}"
    );
}
