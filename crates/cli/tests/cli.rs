//! The `kamil` binary as a user runs it: output contracts of `moves`,
//! `perft` and `variants`, variant files, and clear errors (never a panic)
//! for bad input.

mod common;
use common::kamil;

use std::path::PathBuf;
use std::process::{Command, Stdio};

const SHO_START: &str = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b";

/// Runs `kamil`, expects success and returns stdout.
fn ok(args: &[&str]) -> String {
    let out = kamil(args);
    assert!(
        out.status.success(),
        "kamil {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs `kamil`, expects failure with an error message on stderr, returns it.
fn fails(args: &[&str]) -> String {
    let out = kamil(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "kamil {args:?} should fail; stdout:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!err.trim().is_empty(), "kamil {args:?} failed silently");
    err
}

/// A file in this test target's scratch folder.
fn scratch(name: &str, text: &str) -> PathBuf {
    let path = common::scratch_path("kamil-cli-tests", name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

/// Checks the final line `nodes N time SECONDS nps N` and returns N.
fn nodes_line(stdout: &str) -> u64 {
    let last = stdout.lines().last().expect("perft prints a line");
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(w.len(), 6, "last line `{last}`");
    assert_eq!((w[0], w[2], w[4]), ("nodes", "time", "nps"), "`{last}`");
    let secs: f64 = w[3].parse().expect("seconds are a number");
    assert!(secs >= 0.0, "`{last}`");
    w[5].parse::<u64>().expect("nps is a whole number");
    w[1].parse().expect("nodes is a whole number")
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

#[test]
fn perft_courier_3() {
    let out = ok(&["perft", "courier", "3"]);
    assert_eq!(out.lines().count(), 1, "only the total without --divide");
    assert_eq!(nodes_line(&out), 18406);
}

#[test]
fn perft_divide_lists_every_root_move_then_the_total() {
    let out = ok(&["perft", "courier", "2", "--divide"]);
    let rows = lines(&out);
    let (last, per_move) = rows.split_last().expect("lines");
    assert_eq!(nodes_line(last), 678);
    let moves = ok(&["moves", "courier"]);
    let mut sum = 0;
    let mut listed = Vec::new();
    for row in per_move {
        let (m, n) = row.split_once(' ').expect("`move count`");
        listed.push(m);
        sum += n.parse::<u64>().expect("count");
    }
    assert_eq!(listed, lines(&moves), "one line per legal move, sorted");
    assert_eq!(sum, 678);
}

#[test]
fn perft_divide_writes_nothing_to_a_stderr_that_is_not_a_terminal() {
    let out = kamil(&["perft", "courier", "2", "--divide"]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn perft_depth_zero() {
    assert_eq!(nodes_line(&ok(&["perft", "courier", "0"])), 1);
    assert_eq!(nodes_line(&ok(&["perft", "courier", "0", "--divide"])), 1);
}

#[test]
fn perft_sho_shogi() {
    assert_eq!(nodes_line(&ok(&["perft", "sho-shogi", "2"])), 676);
}

#[test]
fn moves_json_is_an_array_of_strings() {
    let out = ok(&["moves", "courier", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let arr = v.as_array().expect("an array");
    assert_eq!(arr.len(), 26);
    assert!(arr.iter().all(|m| m.is_string()));
    let plain = ok(&["moves", "courier"]);
    let texts: Vec<&str> = arr.iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(texts, lines(&plain), "same moves as one per line");
}

#[test]
fn moves_from_a_fen_and_moves() {
    let out = ok(&[
        "moves",
        "sho-shogi",
        "--fen",
        SHO_START,
        "--moves",
        "e3e4,e7e6",
    ]);
    let after = "lnsgkgsnl/1r2e2b1/pppp1pppp/4p4/9/4P4/PPPP1PPPP/1B2E2R1/LNSGKGSNL b";
    assert_eq!(out, ok(&["moves", "sho-shogi", "--fen", after]));
    assert!(lines(&out).contains(&"e4e5"), "{out}");
    // The moves may also be given one by one.
    let out2 = ok(&["moves", "sho-shogi", "--moves", "e3e4", "--moves", "e7e6"]);
    assert_eq!(out, out2);
}

#[test]
fn moves_after_the_end_of_the_game_are_none() {
    // Courier's bare King: the second player, bared, cannot bare back.
    let out = ok(&[
        "moves",
        "courier",
        "--fen",
        "6k5/12/12/12/12/12/1RR9/6K5 b - - 0 1",
    ]);
    assert_eq!(out, "");
}

#[test]
fn options_change_the_rules() {
    let out = ok(&[
        "perft",
        "courier-modern",
        "2",
        "--option",
        "albers-castling=true",
        "--option",
        "albers-queen=true",
    ]);
    assert_eq!(nodes_line(&out), 1024);
}

#[test]
fn variants_lists_the_built_in_games() {
    let out = ok(&["variants"]);
    let names: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // Every built-in game, in the order of `variants/` as embedded.
    let builtin: Vec<&str> = kamil_rules::variant::BUILTIN
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(names, builtin);
    assert_eq!(
        &names[..6],
        [
            "courier",
            "courier-modern",
            "courier-albers",
            "sho-shogi",
            "chu-shogi",
            "dai-shogi"
        ]
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&["variants", "--json"])).expect("JSON");
    assert_eq!(json.as_array().expect("array").len(), builtin.len());
    let chu = json
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "chu-shogi")
        .expect("chu-shogi");
    let safety = chu["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "royal-safety")
        .expect("royal-safety");
    assert_eq!(safety["label"], "Check rule");
    assert_eq!(safety["value_labels"], serde_json::json!(["no", "yes"]));
}

/// `kamil variants` says each option in a player's words (issue 80): its
/// label and summary, how to set it, the values' names; no seed or rule
/// book section unless `--details` is asked for.
#[test]
fn variants_lists_options_in_plain_words_and_details_on_request() {
    let out = ok(&["variants"]);
    assert!(out.contains("  Check rule: "), "{out}");
    assert!(
        out.contains("      --option royal-safety=false|true  (default false)"),
        "{out}"
    );
    assert!(
        out.contains("strict: strict (JCSA)"),
        "the counter-strike values are named: {out}"
    );
    let option_lines = || {
        out.lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("      --option"))
    };
    for line in option_lines() {
        assert!(!line.to_lowercase().contains("seed 0"), "{line}");
        assert!(!line.contains("(6."), "{line}");
    }
    let details = ok(&["variants", "--details"]);
    assert!(
        details.contains("      details: Seed 000's arrangement"),
        "{details}"
    );
    assert!(details.lines().count() > out.lines().count());
}

#[test]
fn variant_file_extending_a_built_in_game() {
    let path = scratch(
        "courier-strong-man.toml",
        r#"# Courier, but the Man also leaps as a Knight.
extends = "courier"
name = "courier-strong-man"
title = "Courier with a strong Man"

[pieces.man]
betza = "KN"
"#,
    );
    let p = path.to_str().unwrap();
    let base = nodes_line(&ok(&["perft", "courier", "1"]));
    let strong = nodes_line(&ok(&["perft", p, "1"]));
    // The Man on e1 gains the Knight's d3, f3 and g2 (c2 is occupied).
    assert_eq!(strong, base + 3);
    assert!(lines(&ok(&["moves", p])).contains(&"e1d3"));
}

#[test]
fn variant_file_with_a_full_definition() {
    let path = scratch(
        "mini.toml",
        r#"name = "mini"
title = "Two Rooks on a 5x5 board"

[board]
files = 5
ranks = 5

[fen]
start = "r3k/5/5/5/R3K w"

[pieces.king]
name = "King"
letter = "K"
betza = "K"
royal = true

[pieces.rook]
name = "Rook"
letter = "R"
betza = "R"

[rules]
check = "royal-safety"
"#,
    );
    let p = path.to_str().unwrap();
    let moves = ok(&["moves", p]);
    assert_eq!(
        lines(&moves),
        [
            "a1a2", "a1a3", "a1a4", "a1a5", "a1b1", "a1c1", "a1d1", "e1d1", "e1d2", "e1e2"
        ]
    );
    assert_eq!(nodes_line(&ok(&["perft", p, "1"])), 10);
}

#[test]
fn unknown_variant() {
    let err = fails(&["moves", "no-such-game"]);
    assert!(err.contains("no-such-game"), "{err}");
    assert!(err.contains("no such variant"), "{err}");
    assert!(err.contains("courier"), "lists the built-in games: {err}");
    let err = fails(&["perft", "no-such-game", "1"]);
    assert!(err.contains("no such variant"), "{err}");
}

#[test]
fn missing_variant_file() {
    let err = fails(&["moves", "no/such/file.toml"]);
    assert!(err.contains("no/such/file.toml"), "{err}");
}

#[test]
fn bad_fen() {
    let err = fails(&["moves", "courier", "--fen", "12/12/12 w - - 0 1"]);
    assert!(err.contains("FEN"), "{err}");
    assert!(err.contains("3 ranks"), "names the rank count: {err}");
    let err = fails(&["perft", "sho-shogi", "1", "--fen", "9/9/9/9/9/9/9/9/K7k x"]);
    assert!(err.contains("side to move"), "{err}");
    let err = fails(&["moves", "courier", "--fen", "k12/12/12/12/12/12/12/K11"]);
    assert!(err.contains("rank 8"), "names the rank: {err}");
}

#[test]
fn illegal_move() {
    let err = fails(&["moves", "courier", "--moves", "b2b3,b7b6,a1a5"]);
    assert!(err.contains("a1a5"), "{err}");
    assert!(err.contains("move 3"), "says which of the moves: {err}");
    assert!(err.contains("illegal"), "{err}");
    let err = fails(&["perft", "sho-shogi", "1", "--moves", "e7e6"]);
    assert!(err.contains("e7e6"), "{err}");
    let err = fails(&["moves", "courier", "--moves", "hello"]);
    assert!(err.contains("hello"), "{err}");
}

#[test]
fn unknown_option() {
    let err = fails(&["moves", "courier", "--option", "no-such-option=1"]);
    assert!(err.contains("no-such-option"), "{err}");
    assert!(err.contains("unknown option"), "{err}");
}

#[test]
fn bad_option_value() {
    let err = fails(&[
        "perft",
        "courier-modern",
        "1",
        "--option",
        "albers-castling=maybe",
    ]);
    assert!(err.contains("albers-castling"), "{err}");
    assert!(err.contains("maybe"), "{err}");
}

#[test]
fn variant_file_with_a_toml_error() {
    let path = scratch("broken-toml.toml", "name = \"broken\"\n[board\nfiles = 8\n");
    let err = fails(&["moves", path.to_str().unwrap()]);
    assert!(err.contains("broken-toml.toml"), "names the file: {err}");
    assert!(err.contains(":2"), "names line 2: {err}");
}

#[test]
fn variant_file_with_bad_betza() {
    let path = scratch(
        "bad-betza.toml",
        "extends = \"courier\"\nname = \"bad-betza\"\n\n[pieces.man]\nbetza = \"K@!\"\n",
    );
    let err = fails(&["perft", path.to_str().unwrap(), "1"]);
    assert!(err.contains("bad-betza.toml"), "names the file: {err}");
    assert!(err.contains("pieces.man.betza"), "names the key: {err}");
}

#[test]
fn depth_too_deep_and_bad_arguments() {
    let err = fails(&["perft", "courier", "99"]);
    assert!(err.contains("99"), "{err}");
    fails(&["perft", "courier", "deep"]);
    fails(&["moves"]);
    fails(&["no-such-command"]);
}

#[test]
fn a_reader_that_goes_away_is_no_error() {
    // `kamil ... | head -1`: stdout closes before kamil has written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kamil"))
        .args(["perft", "sho-shogi", "3", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kamil");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for kamil");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.code().is_some(), "killed: {:?}", out.status);
}

#[test]
fn a_file_without_end_is_refused_at_its_limit() {
    // A variant "file" that never ends: refused as a device before it is
    // read (issue 78; it was read up to its 4 MB limit before).
    let err = fails(&["moves", "/dev/zero"]);
    assert!(
        err.contains("variant file `/dev/zero` is a device, not a regular file"),
        "names the file and its kind: {err}"
    );
    // A regular file over the limit is refused before it is read (sparse:
    // no disk is used).
    let path = common::scratch_path("kamil-cli-tests", "huge-variant.toml");
    std::fs::File::create(&path)
        .and_then(|f| f.set_len(5 << 20))
        .expect("a sparse file");
    let err = fails(&["perft", path.to_str().unwrap(), "1"]);
    assert!(
        err.contains("huge-variant.toml") && err.contains("4 MB"),
        "{err}"
    );
    // Opening books may be larger, but not without end.
    let err = fails(&[
        "match",
        "courier",
        "--engine",
        "cmd=true",
        "--engine",
        "cmd=true",
        "--depth",
        "1",
        "--openings",
        "/dev/zero",
    ]);
    assert!(
        err.contains("opening book `/dev/zero` is a device"),
        "{err}"
    );
}

/// Runs `kamil ARGS` with `input` on standard input (which kamil may stop
/// reading early) and returns its exit code and standard error.
fn with_input(args: &[&str], input: Vec<u8>) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kamil"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kamil");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        // kamil stops reading at its limit: a broken pipe is expected.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for kamil");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code(), err)
}

#[test]
fn a_line_of_standard_input_without_end_is_refused_at_its_limit() {
    let endless = vec![b'x'; 1 << 20];
    // The first line, which chooses the protocol.
    let (code, err) = with_input(&[], endless.clone());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("standard input") && err.contains("64 KB"),
        "{err}"
    );
    // A move typed in `kamil play`.
    let (code, err) = with_input(&["play", "courier", "--depth", "1"], endless);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("standard input") && err.contains("64 KB"),
        "{err}"
    );
}

#[test]
fn long_input_is_cut_in_messages_and_one_rank_is_singular() {
    let err = fails(&["moves", "courier", "--fen", "12 w - - 0 1"]);
    assert!(err.contains("1 rank given, the board has 8"), "{err}");
    let huge = "x".repeat(100_000);
    let cut = format!("{}… (100000 characters)", "x".repeat(60));
    let fen = format!("12/12/12/12/12/12/12/5K1k4 {huge}");
    for args in [
        vec!["moves", "courier", "--fen", fen.as_str()],
        vec!["moves", "courier", "--moves", huge.as_str()],
        vec![
            "moves",
            "courier",
            "--moves",
            "b2b3",
            "--moves",
            huge.as_str(),
        ],
        vec!["perft", huge.as_str(), "1"],
        vec!["moves", "courier", "--option", huge.as_str()],
    ] {
        let err = fails(&args);
        assert!(err.contains(&cut), "{err}");
        assert!(
            err.len() < 1000,
            "{} bytes: {}",
            err.len(),
            err.chars().take(1000).collect::<String>()
        );
    }
    // The FEN is cut where the CLI names it, the field where the rules do.
    let err = fails(&["moves", "courier", "--fen", &format!("{huge} w")]);
    assert!(err.contains("bad FEN `xxx") && err.len() < 1000, "{err}");
}

/// Issue 17: a bench table bigger than any memory is an error, not an abort.
#[test]
fn bench_with_a_hash_too_big_for_memory_fails_cleanly() {
    let err = fails(&[
        "bench",
        "courier",
        "--depth",
        "1",
        "--hash",
        "1000000000000",
    ]);
    assert!(
        err.contains("--hash") && err.contains("cannot allocate"),
        "{err}"
    );
}

/// Issue 17: a piece with six undirected legs never finished loading; the
/// file is now refused at once, naming the key and the bound.
#[test]
fn a_betza_move_with_too_many_legs_is_refused() {
    let path = scratch(
        "six-legs.toml",
        "extends = \"courier\"\nname = \"six-legs\"\n[pieces.man]\nbetza = \"KaKaKaKaKaK\"\n",
    );
    let err = fails(&["moves", path.to_str().unwrap()]);
    assert!(err.contains("pieces.man.betza"), "{err}");
    assert!(err.contains("6 legs in one move; at most 5"), "{err}");
}

/// Issue 47: a byte-order mark (Windows editors write one) is skipped
/// before a FEN and a variant file.
#[test]
fn a_byte_order_mark_is_skipped() {
    let start = ok(&["moves", "sho-shogi"]);
    assert_eq!(
        ok(&[
            "moves",
            "sho-shogi",
            "--fen",
            &format!("\u{feff}{SHO_START}")
        ]),
        start
    );
    let toml = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../variants/chu-shogi.toml"),
    )
    .unwrap();
    let file = scratch("bom-chu.toml", &format!("\u{feff}{toml}"));
    assert_eq!(
        ok(&["moves", file.to_str().unwrap()]),
        ok(&["moves", "chu-shogi"])
    );
}

#[test]
fn moves_and_perft_take_an_sfen_and_usi_moves() {
    // The same position as a FEN with kamil's moves and as an SFEN with
    // USI moves: the same output, in the same format.
    let fen_out = ok(&["moves", "sho-shogi", "--moves", "e3e4,e7e6"]);
    let sfen = "lnsgkgsnl/1r2e2b1/pppp1pppp/4p4/9/4P4/PPPP1PPPP/1B2E2R1/LNSGKGSNL b - 3";
    assert_eq!(ok(&["moves", "sho-shogi", "--fen", sfen]), fen_out);
    assert_eq!(
        ok(&["moves", "sho-shogi", "--moves", "5g5f,5c5d"]),
        fen_out,
        "USI moves read as kamil's"
    );
    let start = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1";
    let out = ok(&["perft", "sho-shogi", "2", "--fen", start]);
    assert_eq!(nodes_line(&out), 676);
    // White to move in an SFEN (`w`), where a FEN of XBoard's with fields
    // after the side would mean the first player.
    let white = ok(&[
        "moves",
        "sho-shogi",
        "--fen",
        &format!("{} w - 2", &start[..start.len() - 6]),
    ]);
    assert!(lines(&white).contains(&"e7e6"), "{white}");
    // Chu Shogi: the Lion-capture square binds the counter-strike rule.
    let board = "6k5/12/12/12/12/6n5/6G5/5+o6/5G6/12/12/6K5";
    let free = ok(&["moves", "chu-shogi", "--fen", &format!("{board} b - 11")]);
    let bound = ok(&["moves", "chu-shogi", "--fen", &format!("{board} b 7h 11")]);
    assert!(lines(&free).contains(&"g6g7"), "{free}");
    assert!(!lines(&bound).contains(&"g6g7"), "{bound}");
    assert!(lines(&bound).contains(&"f4f5"), "{bound}");
}

#[test]
fn bad_sfen_and_usi_moves_are_named() {
    let err = fails(&["moves", "sho-shogi", "--fen", "9/9/9/9/9/9/9/9/9 b P 1"]);
    assert!(
        err.contains("bad SFEN") && err.contains("SFEN hands"),
        "{err}"
    );
    let err = fails(&["perft", "chu-shogi", "1", "--fen", "12/12 b 13z 1"]);
    assert!(err.contains("SFEN board"), "{err}");
    let err = fails(&["moves", "sho-shogi", "--moves", "7g7f,P*5e"]);
    assert!(err.contains("move 2") && err.contains("a drop"), "{err}");
    let err = fails(&["moves", "sho-shogi", "--moves", "7g7e"]);
    assert!(
        err.contains("USI move `7g7e`: illegal; legal moves of 7g: 7g7f"),
        "{err}"
    );
}
