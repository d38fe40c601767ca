//! `kamil train-net`: a tiny network trained on a tiny self-play data set
//! lowers its loss and writes a file that loads; a residual net says so in
//! its file; a bad data line is an error naming the file and the line; a
//! finer `--scale` writes a net nearer the trained one.

mod common;
use common::{kamil, scratch_path, variant};
use kamil_engine::nnue::Nnue;

/// The `(epoch, train loss, validation loss)` of each epoch line.
fn losses(stdout: &str) -> Vec<(u32, f64, f64)> {
    stdout
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w[..] {
                ["epoch", e, "train", "loss", t, "validation", "loss", v, ..] => Some((
                    e.parse().ok()?,
                    t.trim_end_matches(',').parse().ok()?,
                    v.trim_end_matches(',').parse().ok()?,
                )),
                _ => None,
            }
        })
        .collect()
}

/// Writes 2 seeded Courier self-play games in `format` to `name`.
fn self_play(name: &str, format: &str) -> std::path::PathBuf {
    let data = scratch_path("train-net", name);
    let _ = std::fs::remove_file(&data);
    succeeded(&[
        "gen-data",
        "courier",
        "--games",
        "2",
        "--nodes",
        "200",
        "--max-plies",
        "80",
        "--format",
        format,
        "--out",
        data.to_str().unwrap(),
    ]);
    data
}

/// `kamil ARGS`, which must succeed: its standard output.
fn succeeded(args: &[&str]) -> String {
    let run = kamil(args);
    assert!(
        run.status.success(),
        "kamil {args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout).into_owned()
}

/// Trains a tiny net on `data`, writing `out`; returns standard output.
fn train(data: &std::path::Path, out: &std::path::Path) -> String {
    train_with(data, out, &[])
}

/// `kamil train-net courier --data DATA MORE...`, which must fail: its
/// standard error.
fn refused(data: &std::path::Path, more: &[&str]) -> String {
    let mut args = vec!["train-net", "courier", "--data", data.to_str().unwrap()];
    args.extend_from_slice(more);
    let out = kamil(&args);
    assert!(!out.status.success(), "train-net {more:?} was accepted");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// [`train`] with more arguments.
fn train_with(data: &std::path::Path, out: &std::path::Path, more: &[&str]) -> String {
    let _ = std::fs::remove_file(out);
    let mut args = vec![
        "train-net",
        "courier",
        "--data",
        data.to_str().unwrap(),
        "--holdout",
        "0.2",
        "--hidden",
        "8",
        "--epochs",
        "3",
        "--batch",
        "8",
        "--lr",
        "0.01",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    succeeded(&args)
}

#[test]
fn a_tiny_net_trains_on_self_play_and_its_file_loads() {
    let out = scratch_path("train-net", "tiny.nnue");
    let stdout = train(&self_play("data.txt", "text"), &out);
    let l = losses(&stdout);
    assert_eq!(
        l.iter().map(|x| x.0).collect::<Vec<_>>(),
        [0, 1, 2, 3],
        "{stdout}"
    );
    // Epoch 0 is the start; the last epoch's losses are lower.
    assert!(l[3].1 < l[0].1, "train loss did not fall:\n{stdout}");
    assert!(l[3].2 < l[0].2, "validation loss did not fall:\n{stdout}");
    assert!(stdout.contains("positions/s"), "{stdout}");
    let v = variant("courier", &[]);
    let net = Nnue::load(&v, &out).unwrap();
    assert_eq!(net.network().hidden(), 8);
    // The same games in the binary format train to the same losses and
    // the same net.
    let out2 = scratch_path("train-net", "tiny-binary.nnue");
    let binary = train(&self_play("data.bin", "binary"), &out2);
    assert_eq!(losses(&binary), l, "{binary}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&out2).unwrap());
}

#[test]
fn mirrored_factored_training_with_a_falling_step_writes_a_net_of_the_same_shape() {
    let data = self_play("data-mf.bin", "binary");
    let plain = scratch_path("train-net", "plain.nnue");
    let base = losses(&train(&data, &plain));
    let out = scratch_path("train-net", "mirror-factor.nnue");
    let stdout = train_with(
        &data,
        &out,
        &[
            "--mirror",
            "--factor",
            "--lr-decay",
            "0.5",
            "--hand-below",
            "18",
        ],
    );
    let l = losses(&stdout);
    assert_eq!(l.len(), 4, "{stdout}");
    assert!(l[3].1 < l[0].1 && l[3].2 < l[0].2, "{stdout}");
    // The step size halves each epoch, and is printed.
    assert!(
        stdout.contains("lr 0.01)") && stdout.contains("lr 0.0025)"),
        "{stdout}"
    );
    // Other training, the same file shape: the factoriser's inputs are
    // folded away.
    assert_ne!(l, base);
    let v = variant("courier", &[]);
    let (a, b) = (
        Nnue::load(&v, &out).unwrap(),
        Nnue::load(&v, &plain).unwrap(),
    );
    assert_eq!(a.network().inputs(), b.network().inputs());
    assert_eq!(a.network().hidden(), 8);
    assert_eq!(
        (a.network().hand_below(), b.network().hand_below()),
        (18, 0)
    );
    assert_eq!(
        std::fs::read(&out).unwrap().len(),
        std::fs::read(&plain).unwrap().len()
    );
    assert!(refused(&data, &["--lr-decay", "0"]).contains("--lr-decay"));
}

#[test]
fn a_residual_net_trains_on_the_hand_written_scores_and_says_so() {
    let data = self_play("data-res.bin", "binary");
    let plain = scratch_path("train-net", "res-plain.nnue");
    let base = losses(&train(&data, &plain));
    let out = scratch_path("train-net", "residual.nnue");
    let stdout = train_with(&data, &out, &["--residual"]);
    let l = losses(&stdout);
    assert_eq!(l.len(), 4, "{stdout}");
    // The same start weights, another prediction: the hand-written
    // evaluation's score is added to the net's from epoch 0 on.
    assert_ne!(l[0], base[0], "{stdout}");
    assert!(l[3].1 < l[0].1, "train loss did not fall:\n{stdout}");
    let v = variant("courier", &[]);
    assert!(Nnue::load(&v, &out).unwrap().network().residual());
    assert!(!Nnue::load(&v, &plain).unwrap().network().residual());
    // A mirror image's hand-written score is not its original's.
    let err = refused(&data, &["--residual", "--mirror"]);
    assert!(
        err.contains("--residual") && err.contains("--mirror"),
        "{err}"
    );
}

#[test]
fn a_bad_data_line_names_the_file_and_the_line() {
    let data = scratch_path("train-net", "bad.txt");
    std::fs::write(&data, "# comment\nnot a fen;1\n").unwrap();
    let run = kamil(&[
        "train-net",
        "courier",
        "--data",
        data.to_str().unwrap(),
        "--out",
        scratch_path("train-net", "bad.nnue").to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("bad.txt") && err.contains("line 2"), "{err}");
}

#[test]
fn a_net_trained_further_from_init_starts_where_it_ended() {
    let data = self_play("data-init.bin", "binary");
    let first = scratch_path("train-net", "init-first.nnue");
    let l = losses(&train_with(&data, &first, &["--hand-below", "18"]));
    // Trained further: epoch 0 is the first net's last loss, far from a
    // fresh start's (the same held-out split; only quantisation differs),
    // and with the factoriser's rows added at 0 it still is.
    for more in [&[][..], &["--factor"][..]] {
        let next = scratch_path("train-net", "init-next.nnue");
        let mut args = vec!["--init", first.to_str().unwrap()];
        args.extend_from_slice(more);
        let stdout = train_with(&data, &next, &args);
        let m = losses(&stdout);
        assert!(
            (m[0].2 - l[3].2).abs() < 0.05 * (l[0].2 - l[3].2),
            "{more:?} {l:?}\n{stdout}"
        );
        // It trained on from there (a converged start with a fresh Adam
        // need not fall at this step size, so only the weights are checked).
        assert_eq!(m.len(), 4, "{stdout}");
        assert_ne!(
            std::fs::read(&next).unwrap(),
            std::fs::read(&first).unwrap()
        );
    }
    // No epochs: the same file back, byte for byte (its --hand-below
    // kept), unless another --hand-below is given.
    let same = scratch_path("train-net", "init-same.nnue");
    succeeded(&[
        "train-net",
        "courier",
        "--data",
        data.to_str().unwrap(),
        "--init",
        first.to_str().unwrap(),
        "--epochs",
        "0",
        "--out",
        same.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&same).unwrap(),
        std::fs::read(&first).unwrap()
    );
    let other = scratch_path("train-net", "init-other.nnue");
    train_with(
        &data,
        &other,
        &["--init", first.to_str().unwrap(), "--hand-below", "5"],
    );
    let v = variant("courier", &[]);
    assert_eq!(Nnue::load(&v, &other).unwrap().network().hand_below(), 5);
    assert_eq!(Nnue::load(&v, &first).unwrap().network().hand_below(), 18);
    // A net that does not fit the other arguments is refused, named.
    let f = first.to_str().unwrap();
    let e = refused(&data, &["--init", f, "--hidden", "16"]);
    assert!(
        e.contains("init-first.nnue") && e.contains("8 hidden units"),
        "{e}"
    );
    let e = refused(&data, &["--init", f, "--residual"]);
    assert!(e.contains("a plain net") && e.contains("--residual"), "{e}");
    let e = refused(&data, &["--init", f, "--buckets", "4"]);
    assert!(e.contains("--buckets 4"), "{e}");
    let sho = scratch_path("train-net", "init-sho.nnue");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/sho-shogi.nnue"),
        &sho,
    )
    .unwrap();
    let e = refused(&data, &["--init", sho.to_str().unwrap()]);
    assert!(
        e.contains("init-sho.nnue") && e.contains("sho-shogi"),
        "{e}"
    );
}

/// The training and held-out counts of the line `N training positions,
/// M held out; ...`.
fn counts(stdout: &str) -> (usize, usize) {
    let line = stdout
        .lines()
        .find(|l| l.contains("training positions"))
        .unwrap_or_else(|| panic!("no count line:\n{stdout}"));
    let w: Vec<&str> = line.split_whitespace().collect();
    (w[0].parse().unwrap(), w[3].parse().unwrap())
}

#[test]
fn only_net_positions_leaves_out_the_hand_written_evaluations_positions() {
    let data = self_play("data-net-only.txt", "text");
    let text = std::fs::read_to_string(&data).unwrap();
    // Pieces on each position's board, counted from its FEN.
    let pieces: Vec<usize> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let board = l.split(' ').next().unwrap();
            board.chars().filter(char::is_ascii_alphabetic).count()
        })
        .collect();
    let below = 44;
    let sparse = pieces.iter().filter(|&&n| n < below).count();
    // Two 80-ply games go below 44 pieces, and do not start there.
    assert!(
        sparse > 0 && sparse < pieces.len(),
        "{sparse} of {}",
        pieces.len()
    );
    let out = scratch_path("train-net", "net-only.nnue");
    let hand_below = ["--hand-below", "44"];
    assert_eq!(hand_below[1], below.to_string());
    let all = counts(&train_with(&data, &out, &hand_below));
    assert_eq!(all.0 + all.1, pieces.len());
    let stdout = train_with(
        &data,
        &out,
        &[hand_below[0], hand_below[1], "--only-net-positions"],
    );
    assert!(
        stdout.contains(&format!(
            "{sparse} of {} data positions left out: fewer than {below} pieces",
            pieces.len()
        )),
        "{stdout}"
    );
    let kept = counts(&stdout);
    assert_eq!(kept.0 + kept.1, pieces.len() - sparse, "{stdout}");
    // The net's --hand-below comes from --init's net as well.
    let again = scratch_path("train-net", "net-only-again.nnue");
    let stdout = train_with(
        &data,
        &again,
        &["--init", out.to_str().unwrap(), "--only-net-positions"],
    );
    assert_eq!(counts(&stdout).0 + counts(&stdout).1, pieces.len() - sparse);
    // Without a --hand-below there is nothing to leave out: refused.
    let e = refused(&data, &["--only-net-positions"]);
    assert!(
        e.contains("--only-net-positions needs a --hand-below"),
        "{e}"
    );
}

/// The loss of the "the written net's validation loss X (scale S)" line.
fn written_loss(stdout: &str, scale: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("the written net's validation loss"))
        .unwrap_or_else(|| panic!("no written net's loss:\n{stdout}"));
    assert!(line.ends_with(&format!("(scale {scale})")), "{line}");
    line.split_whitespace().nth(5).unwrap().parse().unwrap()
}

#[test]
fn a_finer_scale_writes_a_net_nearer_the_trained_one() {
    let data = self_play("data-scale.bin", "binary");
    let coarse = scratch_path("train-net", "scale-400.nnue");
    let fine = scratch_path("train-net", "scale-25.nnue");
    let a = train(&data, &coarse);
    let b = train_with(&data, &fine, &["--scale", "25"]);
    // The same training; only the writing differs.
    assert_eq!(losses(&a), losses(&b));
    let float = losses(&a)[3].2;
    let (at400, at25) = (written_loss(&a, "400"), written_loss(&b, "25"));
    // No farther, give or take the last printed digit: on this small data
    // both may round to the float's loss, and then a unit decides.
    assert!(
        (at25 - float).abs() <= (at400 - float).abs() + 1e-6,
        "float {float}, written at 400 {at400}, at 25 {at25}"
    );
    // Within 1%, give or take the last printed digit (losses print to
    // six places: on small losses a unit there is more than 1%).
    assert!((at25 - float).abs() < 0.01 * float + 1e-6, "{float} {at25}");
    assert_ne!(
        std::fs::read(&coarse).unwrap(),
        std::fs::read(&fine).unwrap()
    );
    // Both load and score alike: the scale changes the rounding only.
    let v = variant("courier", &[]);
    let [c, f] = [&coarse, &fine].map(|p| Nnue::load(&v, p).unwrap());
    let pos = kamil_rules::Position::start(v.clone());
    assert!((c.evaluate_fresh(&pos) - f.evaluate_fresh(&pos)).abs() <= 3);
    for bad in ["0", "401"] {
        let err = refused(&data, &["--scale", bad]);
        assert!(err.contains("--scale"), "{err}");
    }
}

/// Issue 78: `train-net` on an empty data file names the file.
#[test]
fn an_empty_data_file_is_named() {
    let empty = scratch_path("train-net", "empty.txt");
    std::fs::write(&empty, "").unwrap();
    let out = kamil(&[
        "train-net",
        "courier",
        "--data",
        empty.to_str().unwrap(),
        "--out",
        scratch_path("train-net", "never.nnue").to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{e}");
    assert!(e.contains("empty.txt"), "{e}");
}

/// Issue 77: `--stream N` reads the data file again each epoch, a game at
/// a time. With every position in one step and none held out it trains
/// the very net the in-memory run trains; with small steps the held-out
/// positions are whole games and the counts add up to the file's; a text
/// file is refused by name.
#[test]
fn a_streamed_run_trains_the_in_memory_runs_net_and_holds_out_whole_games() {
    let data = scratch_path("train-net", "stream.compact");
    let _ = std::fs::remove_file(&data);
    succeeded(&[
        "gen-data",
        "courier",
        "--games",
        "6",
        "--depth",
        "2",
        "--max-plies",
        "60",
        "--format",
        "compact",
        "--out",
        data.to_str().unwrap(),
    ]);
    let run = |out: &std::path::Path, more: &[&str]| {
        let _ = std::fs::remove_file(out);
        let mut args = vec![
            "train-net",
            "courier",
            "--data",
            data.to_str().unwrap(),
            "--hidden",
            "8",
            "--epochs",
            "2",
            "--batch",
            "8",
            "--lr",
            "0.01",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        succeeded(&args)
    };
    let (memory, streamed) = (
        scratch_path("train-net", "memory.nnue"),
        scratch_path("train-net", "streamed.nnue"),
    );
    run(&memory, &["--holdout", "0"]);
    run(&streamed, &["--holdout", "0", "--stream", "1000000"]);
    assert_eq!(
        std::fs::read(&memory).unwrap(),
        std::fs::read(&streamed).unwrap()
    );
    let out = run(
        &streamed,
        &["--holdout", "0.4", "--stream", "16", "--seed", "3"],
    );
    let (trained, held) = counts(&out);
    let v = variant("courier", &[]);
    let games = kamil_train::data::read(&v, &std::fs::read(&data).unwrap()).unwrap();
    let sizes: Vec<usize> = games.iter().map(|g| g.records.len()).collect();
    assert_eq!(trained + held, sizes.iter().sum::<usize>());
    let whole_games = (0..1u32 << sizes.len()).any(|set| {
        let sum: usize = (0..sizes.len())
            .filter(|i| set >> i & 1 == 1)
            .map(|i| sizes[i])
            .sum();
        sum == held
    });
    assert!(
        whole_games && held > 0,
        "{held} held out of games of {sizes:?}"
    );
    let l = losses(&out);
    assert_eq!(l.len(), 2, "{out}");
    assert!(
        l.iter().all(|(_, t, v)| t.is_finite() && v.is_finite()),
        "{out}"
    );
    Nnue::load(&v, &streamed).unwrap();
    let text = scratch_path("train-net", "stream.txt");
    std::fs::write(
        &text,
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1;0.5\n",
    )
    .unwrap();
    let e = refused(&text, &["--stream", "10"]);
    assert!(
        e.contains("--stream reads a binary data file") && e.contains("stream.txt"),
        "{e}"
    );
}

/// Issue 77: `--king-buckets N` trains a net whose inputs are split by
/// where each King stands; it loads with them, a generation trained
/// further from it keeps them, and another count with `--init` is refused.
#[test]
fn king_buckets_are_trained_kept_and_checked() {
    let data = self_play("kings.txt", "text");
    let first = scratch_path("train-net", "kings.nnue");
    train_with(&data, &first, &["--king-buckets", "3"]);
    let v = variant("courier", &[]);
    let net = Nnue::load(&v, &first).unwrap();
    let kings = net.features().kings().expect("king buckets");
    assert_eq!(kings.count(), 3);
    assert_eq!(net.network().inputs(), 3 * net.features().bucket_inputs());
    let second = scratch_path("train-net", "kings-2.nnue");
    let init = first.to_str().unwrap();
    train_with(&data, &second, &["--init", init]);
    let again = Nnue::load(&v, &second).unwrap();
    assert_eq!(again.features().kings(), Some(kings));
    let e = refused(&data, &["--init", init, "--king-buckets", "2"]);
    assert!(e.contains("3 king bucket(s), not --king-buckets 2"), "{e}");
}
