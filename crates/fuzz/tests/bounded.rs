//! The fuzz targets on stable Rust, for a bounded number of inputs, as part
//! of `cargo test`: each target runs over its seed corpus
//! (`fuzz/corpus/<target>/`, and the built-in variant files for
//! `variant_file`, their rules texts for `rules_text`), then over a fixed number of mutations of those seeds
//! drawn from a fixed-seed PRNG (bit flips, byte changes, inserts,
//! deletes, duplications, splices with another seed, truncation). The same
//! inputs every run, so a failure repeats; it names the input.
//!
//! A target fails its test when it panics (a property it checks does not
//! hold, or kamil panicked, also on a thread of its own such as a search
//! thread, whose panic the session would otherwise swallow) or when one
//! input takes longer than [`HANG`]. `KAMIL_FUZZ_MUTATIONS=N` changes the number of mutations per
//! target (for a longer run on stable).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// The longest one input may take (libFuzzer's `-timeout=10` in the full
/// run); far above what any takes.
const HANG: Duration = Duration::from_secs(10);

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files of `dir`, sorted by name (none if it does not exist).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| {
            let p = e.path();
            let bytes = std::fs::read(&p).unwrap_or_else(|err| panic!("{}: {err}", p.display()));
            (p.display().to_string(), bytes)
        })
        .collect();
    out.sort();
    out
}

/// The seed inputs of `target`, named by their files.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = files(&root().join("fuzz/corpus").join(target));
    // The built-in games' files: variant files, and rules texts.
    let builtin = files(&root().join("variants"));
    match target {
        "variant_file" => out.extend(builtin.into_iter().filter(|(n, _)| !n.ends_with(".md"))),
        "rules_text" => out.extend(
            builtin
                .into_iter()
                .filter(|(n, _)| n.ends_with(".rules.md")),
        ),
        _ => {}
    }
    assert!(
        !out.is_empty(),
        "no seeds for {target} in fuzz/corpus/{target}"
    );
    out
}

/// xorshift64*: a small PRNG, the same numbers on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: &str) -> Rng {
        // FNV-1a of the target's name: each target its own sequence.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        Rng(h | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that often matter to kamil's readers.
const INTERESTING: &[u8] =
    b"\0\n\r \t/,.:;=+-*@#[]{}()\"\\'0123456789abcdefghijklmnopxyzKQRBNPAWFDHG";

/// A mutation of `input`: one to four edits, `others` giving splices.
fn mutate(rng: &mut Rng, input: &[u8], others: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = v.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                v[i] = INTERESTING[rng.below(INTERESTING.len())];
            }
            2 => {
                let b = if rng.below(2) == 0 {
                    INTERESTING[rng.below(INTERESTING.len())]
                } else {
                    rng.next() as u8
                };
                v.insert(rng.below(len + 1), b);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(8.min(len - i));
                v.drain(i..i + n);
            }
            4 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(16.min(len - i));
                let chunk = v[i..i + n].to_vec();
                let at = rng.below(len + 1);
                v.splice(at..at, chunk);
            }
            5 => {
                let other = &others[rng.below(others.len())].1;
                if !other.is_empty() {
                    let i = rng.below(other.len());
                    let n = 1 + rng.below(64.min(other.len() - i));
                    let at = rng.below(len + 1);
                    v.splice(at..at, other[i..i + n].iter().copied());
                }
            }
            6 if len > 0 => v.truncate(rng.below(len)),
            _ => {
                // A decimal number, often large, where a digit was.
                if let Some(i) = v.iter().position(|b| b.is_ascii_digit()) {
                    let n = rng.next() >> rng.below(64);
                    v.splice(i..i + 1, n.to_string().bytes());
                }
            }
        }
    }
    v
}

/// Panics on threads other than the ones running targets (search threads,
/// the server's blocking tasks), as the panic hook saw them.
static THREAD_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

thread_local! {
    /// This thread runs targets (its panics are caught where they happen).
    static RUNS_TARGETS: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once) a panic hook that records panics of other threads in
/// [`THREAD_PANICS`], then reports them as the default hook does; marks
/// this thread as one that runs targets.
fn watch_threads() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !RUNS_TARGETS.with(Cell::get) {
                let name = std::thread::current().name().map(str::to_string);
                let mut p = THREAD_PANICS.lock().unwrap_or_else(|e| e.into_inner());
                p.push(format!("thread {name:?}: {info}"));
            }
            previous(info);
        }));
    });
    RUNS_TARGETS.with(|r| r.set(true));
}

/// Runs `target` on one input: fails naming the input if it panics (on
/// any thread) or takes longer than [`HANG`]; returns the time it took.
fn run_one(target: &str, f: kamil_fuzz::Target, what: &str, input: &[u8]) -> Duration {
    watch_threads();
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| f(input)));
    let took = start.elapsed();
    let shown = String::from_utf8_lossy(&input[..input.len().min(2000)]);
    if let Err(e) = outcome {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!(
            "{target}: {what} failed: {msg}\ninput ({} bytes): {shown:?}",
            input.len()
        );
    }
    // Tests run in parallel: a panic seen here may be another target's,
    // but any is a failure, and the message names its thread.
    let others = std::mem::take(&mut *THREAD_PANICS.lock().unwrap_or_else(|e| e.into_inner()));
    assert!(
        others.is_empty(),
        "{target}: after {what}, a panic on another thread: {}\ninput ({} bytes): {shown:?}",
        others.join("; "),
        input.len()
    );
    assert!(
        took < HANG,
        "{target}: {what} took {took:?} (a hang?)\ninput ({} bytes): {shown:?}",
        input.len()
    );
    took
}

/// Runs `target` over its seeds, then `mutations` mutations of them.
fn run(target: &str, mutations: usize) {
    let f = kamil_fuzz::TARGETS
        .iter()
        .find(|(n, _)| *n == target)
        .unwrap_or_else(|| panic!("no target {target}"))
        .1;
    let mutations = std::env::var("KAMIL_FUZZ_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(mutations);
    let seeds = seeds(target);
    let start = Instant::now();
    let mut slowest = Duration::ZERO;
    for (name, input) in &seeds {
        slowest = slowest.max(run_one(target, f, &format!("seed {name}"), input));
    }
    let mut rng = Rng::new(target);
    for i in 0..mutations {
        let (name, seed) = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, seed, &seeds);
        let what = format!("mutation {i} of seed {name}");
        slowest = slowest.max(run_one(target, f, &what, &input));
    }
    eprintln!(
        "{target}: {} seeds and {mutations} mutations in {:.2?} (slowest input {slowest:.2?})",
        seeds.len(),
        start.elapsed()
    );
}

// The numbers of mutations: about 5 s per target in release on one core
// of the machine they were measured on (see each count), 40 s in all.

#[test]
fn fen() {
    run("fen", 200_000);
}

#[test]
fn move_text() {
    run("move_text", 100_000);
}

#[test]
fn pgn() {
    run("pgn", 40_000);
}

#[test]
fn variant_file() {
    run("variant_file", 15_000);
}

#[test]
fn betza() {
    run("betza", 100_000);
}

#[test]
fn rules_text() {
    run("rules_text", 10_000);
}

#[test]
fn uci() {
    run("uci", 2_000);
}

#[test]
fn usi() {
    run("usi", 1_000);
}

#[test]
fn cecp() {
    run("cecp", 500);
}

#[test]
fn http() {
    run("http", 1_000);
}

#[test]
fn every_target_has_a_test_and_seeds() {
    let here = include_str!("bounded.rs");
    for (name, _) in kamil_fuzz::TARGETS {
        assert!(
            here.contains(&format!("fn {name}() {{")),
            "no test for {name}"
        );
        assert!(!seeds(name).is_empty());
        let script = root().join(format!("fuzz/fuzz_targets/{name}.rs"));
        assert!(
            script.is_file(),
            "no cargo-fuzz target {}",
            script.display()
        );
    }
}

#[test]
fn net_file() {
    run("net_file", 300);
}

#[test]
fn data_file() {
    run("data_file", 20_000);
}
