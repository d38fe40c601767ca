//! `--eval FILE` on the command line (issue 46): `kamil bench`, `kamil
//! play` and `kamil analyse` search with a network file for the game; a
//! damaged file, another game's or a missing one is an error naming the
//! file and what differs, before any search.

mod common;
use common::{kamil, scratch_path, variant};
use kamil_engine::nnue::Nnue;
use kamil_engine::nnue::features::Features;
use kamil_engine::nnue::network::{Buckets, Network};
use std::path::PathBuf;

/// A seeded Courier network's file, and a damaged copy.
fn nets() -> (PathBuf, PathBuf) {
    let v = variant("courier", &[]);
    let features = Features::new(&v);
    let net = Network::seeded(&features, 32, Buckets::ONE, 21);
    let bytes = Nnue::new(&v, features, net).to_bytes();
    let good = scratch_path("kamil-eval-file", "courier.nnue");
    std::fs::write(&good, &bytes).expect("write the net");
    let mut damaged = bytes;
    let at = damaged.len() - 7;
    damaged[at] ^= 0x40;
    let bad = scratch_path("kamil-eval-file", "courier-damaged.nnue");
    std::fs::write(&bad, &damaged).expect("write the damaged net");
    (good, bad)
}

/// Standard error of a run that must fail.
fn fails(args: &[&str]) -> String {
    let out = kamil(args);
    assert!(!out.status.success(), "kamil {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `nodes N` of `kamil bench`'s last line.
fn bench_nodes(args: &[&str]) -> u64 {
    let out = kamil(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    last.split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count: {stdout}"))
}

#[test]
fn bench_searches_with_a_network_and_refuses_a_bad_one() {
    let (good, bad) = nets();
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let default = bench_nodes(&["bench", "courier", "--depth", "4"]);
    let hand = bench_nodes(&["bench", "courier", "--depth", "4", "--eval", "hand"]);
    assert_ne!(
        default, hand,
        "the built-in network did not change the search"
    );
    let net = bench_nodes(&["bench", "courier", "--depth", "4", "--eval", good]);
    assert_ne!(hand, net, "the network did not change the search");
    assert_ne!(default, net, "the network did not change the search");
    // The count is deterministic with the network too.
    assert_eq!(
        net,
        bench_nodes(&["bench", "courier", "--depth", "4", "--eval", good])
    );
    let e = fails(&["bench", "courier", "--depth", "4", "--eval", bad]);
    assert!(e.contains(bad) && e.contains("damaged"), "{e}");
    let e = fails(&["bench", "sho-shogi", "--depth", "4", "--eval", good]);
    assert!(
        e.contains(good) && e.contains("made for variant courier, the variant has sho-shogi"),
        "{e}"
    );
    // A file is for one game: bench asks which.
    let e = fails(&["bench", "--eval", good]);
    assert!(e.contains("kamil bench VARIANT --eval FILE"), "{e}");
}

#[test]
fn play_and_analyse_refuse_a_network_that_cannot_be_used() {
    let (good, bad) = nets();
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let e = fails(&["play", "courier", "--depth", "1", "--eval", bad]);
    assert!(e.contains(bad) && e.contains("damaged"), "{e}");
    let e = fails(&["play", "chu-shogi", "--depth", "1", "--eval", good]);
    assert!(
        e.contains(good) && e.contains("made for variant courier, the variant has chu-shogi"),
        "{e}"
    );
    let missing = scratch_path("kamil-eval-file", "missing.nnue");
    let _ = std::fs::remove_file(&missing);
    let missing = missing.to_str().unwrap();
    let e = fails(&["play", "courier", "--eval", missing]);
    assert!(e.contains(missing), "{e}");

    let pgn = scratch_path("kamil-eval-file", "game.pgn");
    std::fs::write(&pgn, "[Variant \"courier\"]\n\n*\n").expect("write the game");
    let pgn = pgn.to_str().unwrap();
    let e = fails(&["analyse", pgn, "--movetime", "20", "--eval", bad]);
    assert!(e.contains(bad) && e.contains("damaged"), "{e}");
    // The good net reviews the game.
    let out = kamil(&["analyse", pgn, "--movetime", "20", "--eval", good]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("[Variant \"courier\"]"));
    // `--eval hand`: the hand-written evaluation, no file read.
    let out = kamil(&["analyse", pgn, "--movetime", "20", "--eval", "hand"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 78, case 3: one flipped bit of the built-in Courier net's scale
/// (byte 36: 25 became 1049 in generation 9's; generation 10's 400 becomes
/// 1424) was outside the checksum and played; now it
/// is refused as damaged, naming the file once and the cause once.
#[test]
fn a_flipped_bit_of_the_scale_is_refused_as_damage() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut bytes = std::fs::read(root.join("variants/courier.nnue")).expect("courier.nnue");
    assert_eq!(i32::from_le_bytes(bytes[36..40].try_into().unwrap()), 400);
    bytes[37] ^= 0x04;
    assert_eq!(i32::from_le_bytes(bytes[36..40].try_into().unwrap()), 1424);
    let bad = scratch_path("kamil-eval-file", "courier-scale.nnue");
    std::fs::write(&bad, &bytes).expect("write");
    let bad = bad.to_str().unwrap();
    let e = fails(&["bench", "courier", "--depth", "2", "--eval", bad]);
    assert!(e.contains("the file is damaged"), "{e}");
    assert_eq!(e.matches(bad).count(), 1, "the file named once: {e}");
    // --init the same, its cause said once.
    let data = scratch_path("kamil-eval-file", "one.txt");
    std::fs::write(&data, "8/8/8/8/8/8/8/8 w - - 0 1;0.5\n").unwrap();
    let e = fails(&[
        "train-net",
        "courier",
        "--data",
        data.to_str().unwrap(),
        "--init",
        bad,
    ]);
    assert!(
        e.contains("--init") && e.contains("the file is damaged"),
        "{e}"
    );
    assert_eq!(e.matches("damaged").count(), 1, "{e}");
}
