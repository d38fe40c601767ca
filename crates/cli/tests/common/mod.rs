//! Helpers shared by the tests of the `kamil` binary: run it once, talk to
//! it line by line (UCI, XBoard), scratch files, built-in variants. The
//! HTTP client of the server's tests is `support/http.rs`, shared with
//! `examples/load_serve.rs`.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use kamil_rules::Variant;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Runs `kamil` with `args` and returns its output; whatever happens, it
/// must not panic or die by a signal.
pub fn kamil(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_kamil"))
        .args(args)
        .output()
        .expect("run kamil");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "kamil {args:?} panicked:\n{err}");
    assert!(
        out.status.code().is_some(),
        "kamil {args:?} was killed: {:?}\n{err}",
        out.status
    );
    out
}

/// The path of the file `name` in the scratch folder `folder` of this test
/// target (created if missing; the file is left as it is).
pub fn scratch_path(folder: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(folder);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir.join(name)
}

/// The built-in variant `name` with `(option, value)` choices; panics with
/// the loader's message if it does not load.
pub fn variant(name: &str, options: &[(&str, &str)]) -> Arc<Variant> {
    let opts: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Arc::new(Variant::builtin(name, &opts).unwrap_or_else(|e| panic!("{options:?}: {e}")))
}

/// A running `kamil` spoken to as a GUI does: lines to its standard input,
/// its standard output read line by line on a thread. Killed when dropped.
pub struct Session {
    /// The process (to wait for its exit).
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    /// Starts `kamil ARGS` with piped standard input and output.
    pub fn start(args: &[&str]) -> Session {
        Session::spawn(Command::new(env!("CARGO_BIN_EXE_kamil")).args(args))
    }

    /// Starts `kamil ARGS` with at most `kib` KiB of address space (the
    /// shell's `ulimit -v`), so that big allocations fail as on a machine
    /// without that much memory.
    pub fn start_limited(kib: u64, args: &[&str]) -> Session {
        Session::spawn(
            Command::new("sh")
                .arg("-c")
                .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                .arg(env!("CARGO_BIN_EXE_kamil"))
                .args(args),
        )
    }

    fn spawn(command: &mut Command) -> Session {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("kamil runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`;
    /// panics with the lines read if none comes within `timeout`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no `{prefix}` within {timeout:?}; got {got:?}"));
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
