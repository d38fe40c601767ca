//! `kamil tune`: a fit on a few Courier positions writes a weights file
//! that reads back, and `--validate` reports the held-out loss before and
//! after the fit.

mod common;
use common::{kamil, scratch_path};

/// Courier positions labelled by who is a Rook up: the start (level),
/// White a Rook up, Black a Rook up, each with either side to move.
const DATA: &str = "\
rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1;0.5
1nebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1;1
1nebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR b - - 0 1;1
rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/1NEBMK1WBENR w - - 0 1;0
rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/1NEBMK1WBENR b - - 0 1;0
";

fn tune(data: &str, validate: &str, tag: &str) -> (std::process::Output, std::path::PathBuf) {
    let d = scratch_path("tune", &format!("data-{tag}.txt"));
    std::fs::write(&d, data).unwrap();
    let v = scratch_path("tune", &format!("validate-{tag}.txt"));
    std::fs::write(&v, validate).unwrap();
    let out = scratch_path("tune", &format!("out-{tag}.eval.toml"));
    let run = kamil(&[
        "tune",
        "courier",
        "--data",
        d.to_str().unwrap(),
        "--validate",
        v.to_str().unwrap(),
        "--epochs",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    (run, out)
}

#[test]
fn a_fit_writes_weights_and_the_held_out_loss() {
    let (run, out) = tune(DATA, DATA, "ok");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("held-out loss"))
        .unwrap_or_else(|| panic!("no held-out line in {stdout}"));
    // Two losses, each a number between 0 and 1.
    let losses: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse::<f64>().ok())
        .filter(|x| (0.0..=1.0).contains(x))
        .collect();
    assert!(losses.len() >= 2, "{line}");
    assert!(line.contains("5 positions"), "{line}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("# held-out loss"), "{written}");
    assert!(written.contains("[piece_value"), "{written}");
}

#[test]
fn a_bad_held_out_file_is_named() {
    let bad = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1;0.5\nnot a fen;1\n";
    let (run, _) = tune(DATA, bad, "bad");
    assert!(!run.status.success());
    let e = String::from_utf8_lossy(&run.stderr);
    assert!(e.contains("validate-bad.txt"), "{e}");
    let (run, _) = tune(DATA, "", "empty");
    assert!(!run.status.success());
    let e = String::from_utf8_lossy(&run.stderr);
    assert!(e.contains("no positions"), "{e}");
}
