//! Issue 78: files kamil reads never take the machine down. A device
//! (`/dev/zero`), a FIFO or a folder given as a network or data file is
//! refused by its kind before it is opened, in every front end: UCI, USI
//! and XBoard's `EvalFile`, `--eval`, `--init`, `--data`, `data-text` and
//! `--from-pgn`. Each run has an address-space limit, so a reader that
//! reads `/dev/zero` for ever fails the test by running out of memory
//! rather than taking the machine down, and a timeout, so a reader that
//! waits on a FIFO fails the test rather than hanging it.

mod common;
use common::{Session, scratch_path};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The address space each `kamil` of these tests may use, KiB (1 GB: the
/// engine needs tens of MB; reading `/dev/zero` whole needs all of it).
const LIMIT_KIB: u64 = 1_000_000;

/// Runs `kamil ARGS` under [`LIMIT_KIB`] and a 60-second timeout (killed
/// past it, and the test fails); returns its output.
fn kamil_limited(args: &[&str]) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_kamil"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kamil");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kamil {args:?} did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "kamil {args:?} panicked:\n{err}");
    assert!(
        out.status.code().is_some(),
        "kamil {args:?} was killed: {:?}\n{err}",
        out.status
    );
    out
}

/// Standard error of a limited run that must fail.
fn fails(args: &[&str]) -> String {
    let out = kamil_limited(args);
    assert!(!out.status.success(), "kamil {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A FIFO in the scratch folder (made anew; no writer ever opens it).
fn fifo(name: &str) -> std::path::PathBuf {
    let p = scratch_path("kamil-files", name);
    let _ = std::fs::remove_file(&p);
    let made = Command::new("mkfifo").arg(&p).status().expect("mkfifo");
    assert!(made.success(), "mkfifo {}", p.display());
    p
}

/// `EvalFile` set to `file` in each protocol, then the protocol's ping:
/// the file is refused, said (containing `said`), and the engine answers.
fn eval_file_is_refused_in_every_protocol(file: &str, said: &str) {
    let uci_like = [
        ("uci", "uciok", "isready", "readyok"),
        ("usi", "usiok", "isready", "readyok"),
    ];
    for (proto, ok, ping, pong) in uci_like {
        let mut e = Session::start_limited(LIMIT_KIB, &[proto]);
        e.send(proto);
        e.until(ok, Duration::from_secs(10));
        e.send(&format!("setoption name EvalFile value {file}"));
        e.send(ping);
        let lines = e.until(pong, Duration::from_secs(10));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string EvalFile not used") && l.contains(said)),
            "{proto}: {lines:?}"
        );
        e.send("quit");
    }
    let mut e = Session::start_limited(LIMIT_KIB, &["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    e.until("feature done=1", Duration::from_secs(10));
    e.send(&format!("option EvalFile={file}"));
    e.send("ping 7");
    let lines = e.until("pong 7", Duration::from_secs(10));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("tellusererror EvalFile not used") && l.contains(said)),
        "xboard: {lines:?}"
    );
    e.send("quit");
}

/// Case 1: `EvalFile /dev/zero` grew the process to 24 GB.
#[test]
fn eval_file_dev_zero_is_refused_within_a_memory_limit() {
    eval_file_is_refused_in_every_protocol(
        "/dev/zero",
        "network file `/dev/zero` is a device, not a regular file",
    );
}

/// Case 2: a FIFO as `EvalFile` hung the engine (no `readyok`).
#[test]
fn eval_file_fifo_is_refused_without_hanging() {
    let f = fifo("eval.nnue");
    eval_file_is_refused_in_every_protocol(f.to_str().unwrap(), "is a FIFO, not a regular file");
}

/// Case 1 on the command line: every option that reads a network or a
/// data file refuses a device and a FIFO by name, within the memory limit
/// and without waiting.
#[test]
fn command_line_files_refuse_devices_and_fifos() {
    let f = fifo("data.bin");
    let f = f.to_str().unwrap();
    for (file, kind) in [("/dev/zero", "a device"), (f, "a FIFO")] {
        let not_regular = format!("`{file}` is {kind}, not a regular file");
        let runs: [Vec<&str>; 6] = [
            vec!["bench", "courier", "--depth", "1", "--eval", file],
            vec!["analyse", file, "--movetime", "10"],
            vec!["train-net", "courier", "--data", file, "--epochs", "1"],
            vec!["data-text", "courier", file],
            vec![
                "gen-data",
                "courier",
                "--from-pgn",
                file,
                "--out",
                "/dev/null",
            ],
            vec!["tune", "courier", "--data", file],
        ];
        for args in runs {
            let e = fails(&args);
            assert!(e.contains(&not_regular), "{args:?}: {e}");
        }
        let data = scratch_path("kamil-files", "init.txt");
        std::fs::write(&data, "8/8/8/8/8/8/8/8 w - - 0 1;0.5\n").unwrap();
        let e = fails(&[
            "train-net",
            "courier",
            "--data",
            data.to_str().unwrap(),
            "--init",
            file,
        ]);
        assert!(e.contains(&not_regular), "--init: {e}");
    }
}
