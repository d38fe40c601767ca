//! `kamil play` driven through piped standard input: moves get replies, bad
//! moves get a message and the piece's legal moves, the commands work, and
//! a game that ends announces its result and is saved as PGN.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Courier: White has two Rooks, Black a lone Pawn on a5 that `a1a5` takes,
/// baring the Black King with White keeping two pieces: won at once.
const COURIER_BARE: &str = "5k6/12/12/p11/12/12/12/R4K5R w - - 0 1";

/// Sho Shogi: `b1b9` mates the lone White King (the Rook on a8 holds rank 8).
const SHO_MATE: &str = "4k4/R8/9/9/9/9/9/9/1R2K4 b";

struct Run {
    stdout: String,
    code: Option<i32>,
}

/// Runs `kamil play ARGS` with `input` on standard input; it must neither
/// panic nor die by a signal.
fn play(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kamil"))
        .arg("play")
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kamil");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write input");
    let out = child.wait_with_output().expect("run kamil");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "kamil play {args:?} panicked:\n{stderr}"
    );
    assert!(
        out.status.code().is_some(),
        "kamil play {args:?} was killed: {:?}\n{stderr}",
        out.status
    );
    Run {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        code: out.status.code(),
    }
}

/// Runs and expects a clean exit; returns stdout.
fn ok(args: &[&str], input: &str) -> String {
    let r = play(args, input);
    assert_eq!(r.code, Some(0), "kamil play {args:?} failed:\n{}", r.stdout);
    r.stdout
}

/// The lines printed in answer to the input line `command`: from the
/// prompt line that echoes it up to the next prompt.
fn answer<'a>(stdout: &'a str, command: &str) -> Vec<&'a str> {
    let mut lines = stdout.lines();
    for l in lines.by_ref() {
        if l.ends_with(&format!("> {command}")) {
            break;
        }
    }
    lines.take_while(|l| !l.contains("> ")).collect()
}

/// A path in this test target's scratch folder, with no file there yet.
fn scratch(name: &str) -> PathBuf {
    let path = common::scratch_path("kamil-play-tests", name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn courier_move_gets_a_reply_and_the_board_marks_it() {
    let out = ok(&["courier", "--depth", "1"], "b2b3\nquit\n");
    assert!(out.contains("kamil play: Courier Chess (courier)"), "{out}");
    // The start board: twelve files, Black's back rank on top.
    assert!(
        out.contains("    a  b  c  d  e  f  g  h  i  j  k  l\n"),
        "{out}"
    );
    assert!(
        out.contains(" 8  r  n  e  b  m  k  .  w  b  e  n  r  8\n"),
        "{out}"
    );
    let reply = answer(&out, "b2b3");
    let plays = reply
        .iter()
        .find(|l| l.starts_with("kamil plays "))
        .unwrap_or_else(|| panic!("no reply to b2b3:\n{out}"));
    assert!(plays.contains("depth 1"), "{plays}");
    // The reply's two squares are bracketed on the board drawn after it.
    let brackets: usize = reply.iter().map(|l| l.matches('[').count()).sum();
    assert_eq!(brackets, 2, "{out}");
    assert!(reply.iter().any(|l| l.starts_with("Last move: ")), "{out}");
    assert!(out.contains("2. White to move> quit\nBye."), "{out}");
}

#[test]
fn bad_moves_are_explained_and_the_game_goes_on() {
    let out = ok(
        &["courier", "--depth", "1"],
        "e2e5\ne2\nzz\ne7e6\nb2b3\nquit\n",
    );
    // An illegal move of a Pawn: its legal move is listed.
    let e2e5 = answer(&out, "e2e5").join("\n");
    assert!(e2e5.contains("move `e2e5`: illegal"), "{e2e5}");
    assert!(e2e5.contains("e2e3"), "{e2e5}");
    // Only a square: still the piece's moves.
    let e2 = answer(&out, "e2").join("\n");
    assert!(e2.contains("Legal moves of the Pawn on e2: e2e3"), "{e2}");
    let zz = answer(&out, "zz").join("\n");
    assert!(zz.contains("not a move"), "{zz}");
    assert!(!zz.contains("kamil plays"), "{zz}");
    // The opponent's piece.
    let e7 = answer(&out, "e7e6").join("\n");
    assert!(e7.contains("is kamil's; yours are in upper case"), "{e7}");
    // And a good move afterwards is played and answered.
    assert!(
        answer(&out, "b2b3")
            .iter()
            .any(|l| l.starts_with("kamil plays ")),
        "{out}"
    );
}

#[test]
fn moves_fen_and_undo() {
    let out = ok(
        &["courier", "--depth", "1"],
        "moves\nb2b3\nfen\nundo\nfen\nundo\nquit\n",
    );
    let moves = answer(&out, "moves");
    assert_eq!(moves[0], "26 legal moves:", "{out}");
    let listed: Vec<&str> = moves[1..].iter().flat_map(|l| l.split(' ')).collect();
    assert_eq!(listed.len(), 26, "{moves:?}");
    assert!(
        listed.contains(&"b2b3") && listed.contains(&"k1l3"),
        "{moves:?}"
    );

    // After b2b3 and the reply: a FEN with White to move at move 2 that loads.
    let fens: Vec<&str> = out
        .lines()
        .zip(out.lines().skip(1))
        .filter(|(a, _)| a.ends_with("> fen"))
        .map(|(_, b)| b)
        .collect();
    assert_eq!(fens.len(), 2, "{out}");
    assert!(fens[0].ends_with(" w - - 1 2") || fens[0].ends_with(" w - - 0 2"));
    assert!(fens[0].contains("/1P4F5/"), "b3 holds a Pawn: {}", fens[0]);
    let reload = ok(
        &["courier", "--depth", "1", "--fen", fens[0]],
        "fen\nquit\n",
    );
    assert!(
        reload.contains(&format!("> fen\n{}\n", fens[0])),
        "{reload}"
    );

    // Undo took back both moves: the start position again.
    let start = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";
    assert_eq!(fens[1], start, "{out}");
    let undo = answer(&out, "undo").join("\n");
    assert!(undo.starts_with("Took back b2b3 "), "{undo}");
    // A second undo at the start has nothing to take back.
    assert!(out.contains("> undo\nNothing to take back."), "{out}");
}

#[test]
fn end_of_input_ends_the_game_cleanly() {
    let out = ok(&["courier", "--depth", "1"], "b2b3\n");
    assert!(out.contains("End of input: leaving."), "{out}");
}

#[test]
fn nonsense_input_never_crashes() {
    let input = "\n   \nä€\nx\n+\na99a1\na1a1\na0b0\nsave\nl8l9\ne2e4,e4e5\n\
                 a1a2a3a4a5a6\n-\nxx\n%%%%\nb2-b3\nB2XB3=Q\n"
        .to_string()
        + &"z".repeat(10_000)
        + "\nquit\n";
    let out = ok(&["courier", "--depth", "1"], &input);
    assert!(out.contains("Usage: save FILE"), "{out}");
    // `b2-b3` is read as b2b3 and answered.
    assert!(
        answer(&out, "b2-b3")
            .iter()
            .any(|l| l.starts_with("kamil plays ")),
        "{out}"
    );
    assert!(out.ends_with("Bye.\n"), "{out}");
}

#[test]
fn courier_bare_king_win_is_announced_and_saved() {
    let pgn = scratch("bare.pgn");
    let pgn_arg = pgn.to_str().expect("UTF-8 path");
    let out = ok(
        &[
            "courier",
            "--depth",
            "1",
            "--fen",
            COURIER_BARE,
            "--pgn",
            pgn_arg,
        ],
        "a1a5\nb2b3\nquit\n",
    );
    assert!(out.contains("Result 1-0 (bare king)"), "{out}");
    assert!(out.contains("You win."), "{out}");
    // The final position is drawn once, the capture marked.
    assert_eq!(out.matches("Last move: a1a5 by White.").count(), 1, "{out}");
    assert!(out.contains(" 5 [R] "), "{out}");
    // Moves after the end are refused; kamil does not move.
    assert!(
        answer(&out, "b2b3")[0].starts_with("The game is over"),
        "{out}"
    );
    assert!(!out.contains("kamil is thinking"), "{out}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    assert!(text.contains("[Variant \"courier\"]"), "{text}");
    assert!(
        text.contains(&format!("[FEN \"{COURIER_BARE}\"]")),
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("1. a1a5 {bare king} 1-0"), "{text}");
}

#[test]
fn engine_wins_when_it_can_and_save_writes_the_game() {
    let pgn = scratch("lost.pgn");
    let save = format!("save {}\nquit\n", pgn.display());
    let out = ok(
        &[
            "courier",
            "--depth",
            "2",
            "--side",
            "second",
            "--fen",
            COURIER_BARE,
        ],
        &save,
    );
    // kamil, White, takes the last Black piece at once.
    assert!(out.contains("kamil plays a1a5"), "{out}");
    assert!(out.contains("Result 1-0 (bare king)"), "{out}");
    assert!(out.contains("kamil wins, playing White."), "{out}");
    assert_eq!(out.matches("Last move: a1a5 by White.").count(), 1, "{out}");
    let text = std::fs::read_to_string(&pgn).expect("PGN saved");
    assert!(text.contains("[White \"kamil\"]"), "{text}");
    assert!(text.contains("1. a1a5 {bare king} 1-0"), "{text}");
}

#[test]
fn undo_after_the_end_reopens_the_game() {
    let out = ok(
        &["courier", "--depth", "1", "--fen", COURIER_BARE],
        "a1a5\nundo\nresign\nquit\n",
    );
    assert!(out.contains("Result 1-0 (bare king)"), "{out}");
    assert!(out.contains("Took back a1a5."), "{out}");
    assert!(out.contains("Result 0-1 (White resigns)"), "{out}");
}

#[test]
fn sho_shogi_moves_errors_undo_and_fen() {
    let out = ok(
        &["sho-shogi", "--depth", "1"],
        "e3e4\nh2h5\nmoves\nfen\nundo\nquit\n",
    );
    assert!(out.contains("kamil play: Sho Shogi (sho-shogi)"), "{out}");
    // Rule-book IDs: the Drunk Elephants, upper case for Black (Sente).
    assert!(
        out.contains(" 8   .   r   .   .  de   .   .   b   .  8\n"),
        "{out}"
    );
    assert!(
        out.contains(" 2   .   B   .   .  DE   .   .   R   .  2\n"),
        "{out}"
    );
    assert!(out.contains("DE Drunk Elephant"), "{out}");
    assert!(
        answer(&out, "e3e4")
            .iter()
            .any(|l| l.starts_with("kamil plays ")),
        "{out}"
    );
    // The Rook on h2 cannot pass its own Pawn: its moves are listed.
    let h2 = answer(&out, "h2h5").join("\n");
    assert!(h2.contains("move `h2h5`: illegal"), "{h2}");
    assert!(h2.contains("h2g2"), "{h2}");
    let moves = answer(&out, "moves");
    assert!(moves[0].ends_with(" legal moves:"), "{out}");
    assert!(moves.len() >= 2, "{out}");
    let fen = answer(&out, "fen")[0];
    assert!(fen.ends_with(" b"), "Black (Sente) to move: {fen}");
    assert!(fen.contains("/4P4/"), "e4 holds Black's Pawn: {fen}");
    let reload = ok(&["sho-shogi", "--depth", "1", "--fen", fen], "quit\n");
    assert!(reload.contains("Bye."), "{reload}");
    assert!(
        answer(&out, "undo")[0].starts_with("Took back e3e4 "),
        "{out}"
    );
}

#[test]
fn sho_shogi_checkmate_is_announced_and_saved() {
    let pgn = scratch("sho.pgn");
    let pgn_arg = pgn.to_str().expect("UTF-8 path");
    let out = ok(
        &[
            "sho-shogi",
            "--depth",
            "1",
            "--fen",
            SHO_MATE,
            "--pgn",
            pgn_arg,
        ],
        "b1b9\n",
    );
    assert!(out.contains("Result 1-0 (checkmate)"), "{out}");
    assert!(out.contains("End of input: leaving."), "{out}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    assert!(text.contains("[Variant \"sho-shogi\"]"), "{text}");
    assert!(text.contains(&format!("[FEN \"{SHO_MATE}\"]")), "{text}");
    assert!(text.contains("1. b1b9 {checkmate} 1-0"), "{text}");
}

#[test]
fn second_player_sees_the_board_from_the_top() {
    let out = ok(&["sho-shogi", "--depth", "1", "--side", "second"], "quit\n");
    assert!(out.contains("You play White (Gote)"), "{out}");
    assert!(
        out.contains("     i   h   g   f   e   d   c   b   a\n"),
        "{out}"
    );
    // kamil, Black (Sente), moves first.
    assert!(out.contains("kamil plays "), "{out}");
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let r = play(&["courier", "--fen", "not a fen"], "");
    assert_ne!(r.code, Some(0));
    let r = play(&["no-such-game"], "");
    assert_ne!(r.code, Some(0));
    let r = play(&["courier", "--depth", "1", "--movetime", "10"], "");
    assert_ne!(r.code, Some(0));
}

/// Issue 80: a hint is the full engine's, whatever level kamil plays at:
/// at level 0 (one ply) it still searches to `--depth`.
#[test]
fn a_hint_is_the_full_engines() {
    let out = ok(&["courier", "--depth", "3", "--skill", "0"], "hint\nquit\n");
    let hint = answer(&out, "hint").join("\n");
    assert!(
        hint.contains("Hint: ") && hint.contains("depth 3"),
        "{hint}"
    );
}

#[test]
fn hint_board_help_and_a_failed_save() {
    let out = ok(
        &["courier", "--depth", "1"],
        "hint\nboard\nhelp\nsave /no/such/folder/x.pgn\nquit\n",
    );
    let hint = answer(&out, "hint").join("\n");
    assert!(hint.contains("Hint: "), "{hint}");
    assert!(hint.contains("depth 1"), "{hint}");
    let board = answer(&out, "board");
    assert_eq!(board[0], "    a  b  c  d  e  f  g  h  i  j  k  l", "{out}");
    assert_eq!(board.len(), 10, "{out}");
    let help = answer(&out, "help").join("\n");
    assert!(
        help.contains("save FILE") && help.contains("undo"),
        "{help}"
    );
    let save = answer(&out, "save /no/such/folder/x.pgn").join("\n");
    assert!(
        save.starts_with("Could not save the game: writing"),
        "{save}"
    );
    assert!(
        out.ends_with("Bye.\n"),
        "the game went on after the failed save:\n{out}"
    );
}

#[test]
fn sho_shogi_from_an_sfen_with_usi_moves_and_the_sfen_command() {
    let start = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1";
    let out = ok(
        &["sho-shogi", "--depth", "1", "--fen", start],
        "sfen\n5g5f\n2h2e\nsfen\nquit\n",
    );
    assert_eq!(answer(&out, "sfen")[0], start, "{out}");
    assert!(
        answer(&out, "5g5f")
            .iter()
            .any(|l| l.starts_with("kamil plays ")),
        "a USI move is played: {out}"
    );
    // The Rook on 2h cannot pass its own Pawn: USI's error lists its moves.
    let rook = answer(&out, "2h2e").join("\n");
    assert!(
        rook.contains("USI move `2h2e`: illegal; legal moves of 2h:"),
        "{rook}"
    );
    // After a move each: Black to move, ply 3.
    let after = out.lines().filter(|l| l.ends_with(" b - 3")).count();
    assert_eq!(after, 1, "{out}");
    let courier = ok(&["courier", "--depth", "1"], "sfen\nquit\n");
    assert!(
        answer(&courier, "sfen")[0].contains("has no SFEN"),
        "{courier}"
    );
}

/// Issue 48: `--skill` and `--elo` weaken the engine (Elo 1000 and level 0
/// think one ply whatever `--depth` says); a level or Elo out of range, or
/// both given, is refused with a message.
#[test]
fn skill_and_elo_set_the_engines_level() {
    for level in [["--skill", "0"], ["--elo", "1000"]] {
        let mut args = vec!["courier", "--depth", "4", "--side", "second"];
        args.extend(level);
        let out = ok(&args, "quit\n");
        assert!(out.contains("kamil plays "), "{out}");
        assert!(out.contains("(depth 1, "), "{level:?}: {out}");
    }
    let out = ok(&["courier", "--depth", "3", "--side", "second"], "quit\n");
    assert!(out.contains("(depth 3, "), "{out}");
    for bad in [
        &["courier", "--skill", "21"][..],
        &["courier", "--elo", "999"],
        &["courier", "--skill", "3", "--elo", "1500"],
    ] {
        let r = play(bad, "");
        assert_ne!(r.code, Some(0), "{bad:?}");
    }
}
