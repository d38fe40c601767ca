//! `kamil gen-data --label`: positions labelled by an engine's score, with
//! kamil itself (`kamil uci`) as the labelling engine.

mod common;
use common::{kamil, scratch_path};

/// Courier positions: the start, White a Rook up (White to move), Black a
/// Rook up (White to move), and the start with Black to move.
const FENS: [&str; 4] = [
    "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
    "1nebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
    "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/1NEBMK1WBENR w - - 0 1",
    "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/1NEBMK1WBENR b - - 0 1",
];

/// Labels `FENS` (written as a data file with game results) with
/// `kamil uci` at a fixed node count; returns the output lines.
fn label(concurrency: &str, tag: &str) -> Vec<String> {
    let input = scratch_path("gen-data", &format!("in-{tag}.txt"));
    let text: String = FENS.iter().map(|f| format!("{f};0.5\n")).collect();
    std::fs::write(&input, format!("# positions\n{text}")).unwrap();
    let out = scratch_path("gen-data", &format!("out-{tag}.txt"));
    let engine = format!("cmd={} uci,nodes=400", env!("CARGO_BIN_EXE_kamil"));
    let run = kamil(&[
        "gen-data",
        "courier",
        "--from-data",
        input.to_str().unwrap(),
        "--label",
        &engine,
        "--concurrency",
        concurrency,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn an_engine_labels_positions_for_the_first_player_whatever_the_concurrency() {
    let one = label("1", "one");
    assert_eq!(one.len(), FENS.len(), "{one:?}");
    let labels: Vec<f64> = one
        .iter()
        .zip(FENS)
        .map(|(l, f)| {
            let (fen, x) = l.rsplit_once(';').unwrap();
            assert_eq!(fen, f);
            x.parse().unwrap()
        })
        .collect();
    assert!(labels.iter().all(|x| (0.0..=1.0).contains(x)), "{labels:?}");
    assert!((labels[0] - 0.5).abs() < 0.2, "start: {labels:?}");
    assert!(labels[1] > 0.75, "White a Rook up: {labels:?}");
    assert!(labels[2] < 0.25, "Black a Rook up: {labels:?}");
    // Black to move a Rook up is still bad for White.
    assert!(
        labels[3] < 0.25,
        "Black a Rook up, Black to move: {labels:?}"
    );
    assert_eq!(one, label("2", "two"));
}

#[test]
fn labelling_needs_a_limit_and_good_positions() {
    let input = scratch_path("gen-data", "bad.txt");
    std::fs::write(&input, format!("{};1\nnot a fen;0\n", FENS[0])).unwrap();
    let out = scratch_path("gen-data", "bad-out.txt");
    let bin = env!("CARGO_BIN_EXE_kamil");
    let good = scratch_path("gen-data", "good.txt");
    std::fs::write(&good, format!("{}\n", FENS[0])).unwrap();
    let run = |engine: &str, data: &std::path::Path| {
        let r = kamil(&[
            "gen-data",
            "courier",
            "--from-data",
            data.to_str().unwrap(),
            "--label",
            engine,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!r.status.success());
        String::from_utf8_lossy(&r.stderr).into_owned()
    };
    let e = run(&format!("cmd={bin} uci"), &good);
    assert!(e.contains("limit"), "{e}");
    let e = run(&format!("cmd={bin} uci,nodes=100"), &input);
    assert!(e.contains("data position 2"), "{e}");
    let e = run("cmd=/no/such/engine,nodes=100", &good);
    assert!(e.contains("/no/such/engine"), "{e}");
}
