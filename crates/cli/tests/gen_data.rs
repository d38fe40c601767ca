//! `kamil gen-data`: positions labelled by an engine's score, with kamil
//! itself (`kamil uci`) as the labelling engine (`--label`); self-play in
//! shards, resumed, with near-best random choices, in both formats;
//! `kamil data-text` prints the binary format as the text one.

mod common;
use common::{kamil, scratch_path};

/// Runs `kamil ARGS` and asserts it succeeded, its standard error shown
/// if not.
fn kamil_ok(args: &[&str]) {
    let run = kamil(args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

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
    kamil_ok(&[
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
    // A depth is self-play's: the labelling engine takes its limit in --label.
    let r = kamil(&[
        "gen-data",
        "courier",
        "--from-data",
        good.to_str().unwrap(),
        "--label",
        &format!("cmd={bin} uci,nodes=100"),
        "--depth",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&r.stderr);
    assert!(
        !r.status.success() && e.contains("--depth is for self-play"),
        "{e}"
    );
    let e = run(&format!("cmd={bin} uci,nodes=100"), &input);
    assert!(e.contains("data position 2"), "{e}");
    let e = run("cmd=/no/such/engine,nodes=100", &good);
    assert!(e.contains("/no/such/engine"), "{e}");
}

/// Runs `kamil gen-data courier` (short seeded games) with `extra`
/// arguments into `out`; returns standard error on failure.
fn self_play(out: &std::path::Path, extra: &[&str]) -> Result<(), String> {
    let mut args = vec![
        "gen-data",
        "courier",
        "--nodes",
        "150",
        "--max-plies",
        "30",
        "--random-plies",
        "4",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let run = kamil(&args);
    if run.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&run.stderr).into_owned())
    }
}

/// The bytes of each of `n` shards of the [`self_play`] run with `extra`
/// arguments (`--shard I/N` added), in order.
fn shards(tag: &str, n: u32, extra: &[&str]) -> Vec<Vec<u8>> {
    (1..=n)
        .map(|i| {
            let part = fresh(&format!("{tag}-{i}.bin"));
            let shard = format!("{i}/{n}");
            self_play(&part, &[extra, &["--shard", &shard]].concat()).unwrap();
            std::fs::read(&part).unwrap()
        })
        .collect()
}

/// `kamil gen-data courier` of `games` short seeded games at depth 1,
/// compact, into `out`: the whole runs the scripts' shards are compared
/// with.
fn compact_run(out: &std::path::Path, games: &str, seed: &str) {
    kamil_ok(&[
        "gen-data",
        "courier",
        "--games",
        games,
        "--seed",
        seed,
        "--depth",
        "1",
        "--max-plies",
        "20",
        "--format",
        "compact",
        "--out",
        out.to_str().unwrap(),
    ]);
}

fn fresh(name: &str) -> std::path::PathBuf {
    let p = scratch_path("gen-data", name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn shards_concatenated_equal_one_run_and_a_stopped_run_resumes() {
    let v = common::variant("courier", &[]);
    let bin = ["--format", "binary"];
    let full = fresh("full.bin");
    self_play(&full, &[&["--games", "5"], &bin[..]].concat()).unwrap();
    let full_bytes = std::fs::read(&full).unwrap();
    let games = kamil_train::data::read(&v, &full_bytes).unwrap();
    assert_eq!(
        games.iter().map(|g| g.index).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    let records: usize = games.iter().map(|g| g.records.len()).sum();
    assert!(records > 5, "{records} records");
    // Three shards, concatenated in order (each with its header), read as
    // the run's games; without the repeated headers, byte for byte.
    let mut cat = Vec::new();
    let mut stripped = Vec::new();
    for (i, bytes) in (1..).zip(shards("shard", 3, &["--games", "5", "--format", "binary"])) {
        let h = header_len(&bytes);
        assert_eq!(bytes[..h], full_bytes[..h], "shard {i}'s header");
        stripped.extend_from_slice(if i == 1 { &bytes } else { &bytes[h..] });
        cat.extend(bytes);
    }
    assert_eq!(kamil_train::data::read(&v, &cat).unwrap(), games);
    assert_eq!(stripped, full_bytes);
    // A run stopped inside its third game (2 games, then part of a
    // game's bytes), started again with the full command, ends as the
    // uninterrupted run.
    let resumed = fresh("resumed.bin");
    self_play(&resumed, &[&["--games", "2"], &bin[..]].concat()).unwrap();
    let two = std::fs::read(&resumed).unwrap();
    let third = &full_bytes[two.len()..two.len() + 20];
    std::fs::write(&resumed, [&two[..], third].concat()).unwrap();
    self_play(&resumed, &[&["--games", "5"], &bin[..]].concat()).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), full_bytes);
    // Other settings do not resume the file: it is left as it was.
    let e = self_play(
        &resumed,
        &[&["--games", "6", "--hash", "2"], &bin[..]].concat(),
    )
    .unwrap_err();
    assert!(
        e.contains("other settings") && e.contains("resumed.bin"),
        "{e}"
    );
    assert_eq!(std::fs::read(&resumed).unwrap(), full_bytes);
    // The text format holds the same positions, scores and results.
    let text = fresh("full.txt");
    self_play(&text, &["--games", "5"]).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(&text)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let from_binary: Vec<String> = games
        .iter()
        .flat_map(|g| &g.records)
        .map(|r| format!("{};{};{}", r.fen, r.result, r.score))
        .collect();
    assert_eq!(lines, from_binary);
    // `kamil data-text` prints the binary file as the text run's lines
    // (and `#` lines, which readers skip).
    let shown = kamil(&["data-text", "courier", full.to_str().unwrap()]);
    assert!(shown.status.success());
    let shown = String::from_utf8(shown.stdout).unwrap();
    let data_lines: Vec<String> = shown
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(data_lines, lines);
    assert_eq!(
        shown.lines().filter(|l| l.starts_with("# game ")).count(),
        5
    );
    // Another game's variant is refused, naming the file.
    let wrong = kamil(&["data-text", "sho-shogi", full.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        !wrong.status.success() && e.contains("full.bin") && e.contains("sho-shogi"),
        "{e}"
    );
    // A binary run never overwrites a text file.
    let e = self_play(&text, &[&["--games", "5"], &bin[..]].concat()).unwrap_err();
    assert!(e.contains("cannot be resumed"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&text).unwrap().lines().count(),
        lines.len()
    );
}

/// The length of the header at the start of a binary data file: up to the
/// first game chunk's `G` after the settings text.
fn header_len(bytes: &[u8]) -> usize {
    // magic 8, version 4, then name, 2+1+1+8 bytes, options, settings,
    // checksum 8.
    let text = |at: usize| at + 2 + u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
    let after_name = text(12);
    let after_options = text(after_name + 12);
    text(after_options) + 8
}

/// Issue 78, case 7: resuming never throws data away without a word and
/// never keeps more than it says. A file of four games asked for two is
/// refused (it reported "0 positions written" and kept all four); a
/// damaged game is an error naming the file, the game and its byte, in
/// resuming, `data-text` and `train-net` (it was cut back to the header
/// without a word); a game cut short at the end is dropped, and said.
#[test]
fn resuming_refuses_damage_and_more_games_and_says_what_it_drops() {
    let bin = ["--format", "binary"];
    let four = fresh("four.bin");
    self_play(&four, &[&["--games", "4"], &bin[..]].concat()).unwrap();
    let bytes = std::fs::read(&four).unwrap();
    let e = self_play(&four, &[&["--games", "2"], &bin[..]].concat()).unwrap_err();
    assert!(
        e.contains("already holds 4 games, more than this run's 2"),
        "{e}"
    );
    assert_eq!(
        std::fs::read(&four).unwrap(),
        bytes,
        "the file is left as it was"
    );

    // One byte of the second game's first FEN changed (still text).
    let v = common::variant("courier", &[]);
    let games = kamil_train::data::read(&v, &bytes).unwrap();
    let h = header_len(&bytes);
    let first_game = 1
        + 4
        + 4
        + games[0]
            .records
            .iter()
            .map(|r| 2 + r.fen.len() + 2 + 4 + 2)
            .sum::<usize>()
        + 8;
    let second = h + first_game;
    let mut damaged = bytes.clone();
    let fen_at = second + 9 + 2;
    damaged[fen_at] = if damaged[fen_at] == b'r' { b'n' } else { b'r' };
    let bad = fresh("damaged.bin");
    std::fs::write(&bad, &damaged).unwrap();
    let where_ = format!("game 1 at byte {second} is damaged");
    let e = self_play(&bad, &[&["--games", "6"], &bin[..]].concat()).unwrap_err();
    assert!(e.contains(&where_) && e.contains("damaged.bin"), "{e}");
    assert_eq!(std::fs::read(&bad).unwrap(), damaged, "nothing cut away");
    let shown = kamil(&["data-text", "courier", bad.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&shown.stderr);
    assert!(
        !shown.status.success() && e.contains(&where_) && e.contains("damaged.bin"),
        "{e}"
    );
    let trained = kamil(&[
        "train-net",
        "courier",
        "--data",
        bad.to_str().unwrap(),
        "--out",
        fresh("never.nnue").to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&trained.stderr);
    assert!(
        !trained.status.success() && e.contains(&where_) && e.contains("damaged.bin"),
        "{e}"
    );

    // Cut inside the third game: dropped and said, then played again.
    let cut = fresh("cut.bin");
    let end = second + 20;
    std::fs::write(&cut, &bytes[..end]).unwrap();
    let out = fresh("cut-run.bin");
    let _ = out;
    let mut args = vec![
        "gen-data",
        "courier",
        "--nodes",
        "150",
        "--max-plies",
        "30",
        "--random-plies",
        "4",
        "--seed",
        "5",
        "--out",
        cut.to_str().unwrap(),
        "--games",
        "4",
    ];
    args.extend_from_slice(&bin);
    let run = kamil(&args);
    let e = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{e}");
    assert!(
        e.contains(&format!("the last 20 bytes (from byte {second})")),
        "{e}"
    );
    assert!(e.contains("1 games ("), "{e}");
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
}

#[test]
fn near_best_choices_are_seeded_and_change_the_games() {
    let choose = [
        "--games",
        "2",
        "--random-multipv",
        "3",
        "--random-cp",
        "200",
        "--random-until",
        "20",
    ];
    let (a, b, plain) = (
        fresh("near-a.txt"),
        fresh("near-b.txt"),
        fresh("near-0.txt"),
    );
    self_play(&a, &choose).unwrap();
    self_play(&b, &[&choose[..], &["--concurrency", "2"]].concat()).unwrap();
    self_play(&plain, &["--games", "2"]).unwrap();
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
    assert_eq!(read(&a), read(&b));
    assert_ne!(read(&a), read(&plain));
    let e = self_play(&a, &["--games", "1", "--random-multipv", "0"]).unwrap_err();
    assert!(e.contains("--random-multipv"), "{e}");
}

#[test]
fn self_play_with_a_net_names_it_and_resumes_only_with_it() {
    use kamil_engine::nnue::Nnue;
    use kamil_engine::nnue::features::Features;
    use kamil_engine::nnue::network::{Buckets, Network};
    let v = common::variant("courier", &[]);
    let f = Features::new(&v);
    let (a, b) = (fresh("net-a.nnue"), fresh("net-b.nnue"));
    for (path, seed) in [(&a, 1), (&b, 2)] {
        let net = Nnue::new(&v, f.clone(), Network::seeded(&f, 16, Buckets::ONE, seed));
        std::fs::write(path, net.to_bytes()).unwrap();
    }
    let out = fresh("by-net.bin");
    let games = ["--games", "2", "--format", "binary"];
    let with = |net: &std::path::Path| {
        let mut args = games.to_vec();
        args.extend(["--eval", net.to_str().unwrap()]);
        self_play(&out, &args)
    };
    with(&a).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    let header = String::from_utf8_lossy(&bytes[..header_len(&bytes)]).into_owned();
    assert!(header.contains("net=net-a.nnue fnv1a="), "{header}");
    // The same command resumes (nothing left to play); another net is
    // other settings, refused.
    with(&a).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    let e = with(&b).unwrap_err();
    assert!(e.contains("other settings"), "{e}");
    // Without --eval: Courier's built-in net, named; `--eval hand`: the
    // hand-written evaluation, no net named; each plays its own games,
    // and a file resumes only with its own.
    let default = fresh("by-default.bin");
    self_play(&default, &games).unwrap();
    let db = std::fs::read(&default).unwrap();
    let dh = String::from_utf8_lossy(&db[..header_len(&db)]).into_owned();
    assert!(dh.contains("net=built-in courier.nnue fnv1a="), "{dh}");
    let hand = fresh("by-hand.bin");
    let by_hand = [&games[..], &["--eval", "hand"]].concat();
    self_play(&hand, &by_hand).unwrap();
    let hb = std::fs::read(&hand).unwrap();
    let hh = String::from_utf8_lossy(&hb[..header_len(&hb)]).into_owned();
    assert!(!hh.contains("net="), "{hh}");
    assert_ne!(hb[header_len(&hb)..], bytes[header_len(&bytes)..]);
    assert_ne!(hb[header_len(&hb)..], db[header_len(&db)..]);
    let e = self_play(&default, &by_hand).unwrap_err();
    assert!(e.contains("other settings"), "{e}");
    // A file that is no net for the game is an error naming it.
    let bad = fresh("bad.nnue");
    std::fs::write(&bad, b"not a net").unwrap();
    let mut args = games.to_vec();
    args.extend(["--eval", bad.to_str().unwrap()]);
    let e = self_play(&fresh("by-bad.bin"), &args).unwrap_err();
    assert!(e.contains("--eval") && e.contains("bad.nnue"), "{e}");
}

/// Issue 77: `--format compact` stores the same games as `--format
/// binary` (the same records read back, the same `data-text` lines) in a
/// fraction of the bytes; its shards concatenate and a stopped run
/// resumes as the binary format's do.
#[test]
fn compact_files_hold_the_binary_files_games_in_fewer_bytes() {
    let v = common::variant("courier", &[]);
    let binary = fresh("same.bin");
    self_play(&binary, &["--games", "4", "--format", "binary"]).unwrap();
    let compact = fresh("same.compact");
    let cmp = ["--format", "compact"];
    self_play(&compact, &[&["--games", "4"], &cmp[..]].concat()).unwrap();
    let (b, c) = (
        std::fs::read(&binary).unwrap(),
        std::fs::read(&compact).unwrap(),
    );
    let games = kamil_train::data::read(&v, &b).unwrap();
    assert_eq!(kamil_train::data::read(&v, &c).unwrap(), games);
    let records: usize = games.iter().map(|g| g.records.len()).sum();
    let h = header_len(&b);
    let (per_b, per_c) = (
        (b.len() - h) as f64 / records as f64,
        (c.len() - h) as f64 / records as f64,
    );
    assert!(
        per_c * 4.0 < per_b,
        "{per_c:.1} against {per_b:.1} bytes a position"
    );
    let text = |p: &std::path::Path| {
        let out = kamil(&["data-text", "courier", p.to_str().unwrap()]);
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(text(&compact), text(&binary));
    // Two shards concatenated are the run; a run stopped inside its
    // second game resumes to the same bytes.
    let cat = shards("compact", 2, &[&["--games", "4"], &cmp[..]].concat()).concat();
    assert_eq!(kamil_train::data::read(&v, &cat).unwrap(), games);
    let resumed = fresh("resumed.compact");
    self_play(&resumed, &[&["--games", "1"], &cmp[..]].concat()).unwrap();
    let one = std::fs::read(&resumed).unwrap();
    std::fs::write(&resumed, [&one[..], &c[one.len()..one.len() + 12]].concat()).unwrap();
    self_play(&resumed, &[&["--games", "4"], &cmp[..]].concat()).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), c);
}

/// Issue 77: `scripts/gen-data-array.sbatch`, run as Slurm runs its array
/// tasks (the task variables set by hand), makes shards that concatenate
/// to the one run's games.
#[test]
fn the_slurm_array_scripts_shards_make_the_run() {
    let v = common::variant("courier", &[]);
    let whole = fresh("array-whole.bin");
    compact_run(&whole, "3", "4");
    let prefix = fresh("array");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/gen-data-array.sbatch"
    );
    let mut cat = Vec::new();
    for id in 5..=7 {
        let task = std::process::Command::new("bash")
            .arg(script)
            .env("KAMIL", env!("CARGO_BIN_EXE_kamil"))
            .env("GAMES", "3")
            .env("SEED", "4")
            .env("LABEL", "--depth 1")
            .env("EXTRA", "--max-plies 20")
            .env("OUT", &prefix)
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "5")
            .env("SLURM_ARRAY_TASK_MAX", "7")
            .output()
            .unwrap();
        assert!(
            task.status.success(),
            "{}",
            String::from_utf8_lossy(&task.stderr)
        );
        let file = format!("{}.shard-{:04}.bin", prefix.display(), id - 4);
        cat.extend(std::fs::read(&file).unwrap());
        let _ = std::fs::remove_file(&file);
    }
    let games = kamil_train::data::read(&v, &std::fs::read(&whole).unwrap()).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(kamil_train::data::read(&v, &cat).unwrap(), games);
}

/// Issue 77: `scripts/net-generation` makes a generation from the
/// repository and seeds: its parallel shards are the one run's games, the
/// net it trains loads, and the file beside it gives the command.
#[test]
fn the_generation_script_makes_data_a_net_and_its_record() {
    let dir = scratch_path("gen-data", "generation");
    let _ = std::fs::remove_dir_all(&dir);
    run_generation(
        &dir,
        "g1",
        &[("HIDDEN", "8"), ("EPOCHS", "1"), ("CHUNK", "50")],
    );
    assert_eq!(data_of(&dir), data_of(&whole_run("generation-whole.bin")));
    let v = common::variant("courier", &[]);
    kamil_engine::nnue::Nnue::load(&v, &dir.join("g1.nnue")).unwrap();
    let record = std::fs::read_to_string(dir.join("g1.nnue.md")).unwrap();
    assert!(
        record.contains("scripts/net-generation courier g1 --max-plies 20")
            && record.contains("GAMES=4 SEED=9 LABEL=\"--depth 1\""),
        "{record}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `EPOCHS=0`: the same data, and no net (trained by hand instead).
#[test]
fn the_generation_script_with_no_epochs_makes_the_data_alone() {
    let dir = scratch_path("gen-data", "generation-data-only");
    let _ = std::fs::remove_dir_all(&dir);
    run_generation(&dir, "g0", &[("EPOCHS", "0")]);
    assert_eq!(
        data_of(&dir),
        data_of(&whole_run("generation-data-only-whole.bin"))
    );
    assert!(!dir.join("g0.nnue").exists());
    assert!(!dir.join("train.log").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `scripts/net-generation courier NAME --max-plies 20` into `dir`:
/// 4 games, seed 9, depth-1 labels, 2 shards, with `env` besides; panics
/// with its stderr if it fails.
fn run_generation(dir: &std::path::Path, name: &str, env: &[(&str, &str)]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/net-generation");
    let run = std::process::Command::new("bash")
        .args([script, "courier", name, "--max-plies", "20"])
        .env("KAMIL", env!("CARGO_BIN_EXE_kamil"))
        .env("GAMES", "4")
        .env("SEED", "9")
        .env("LABEL", "--depth 1")
        .env("JOBS", "2")
        .env("DIR", dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The same 4 games in one compact run, at scratch file `name`.
fn whole_run(name: &str) -> std::path::PathBuf {
    let whole = fresh(name);
    compact_run(&whole, "4", "9");
    whole
}

/// The positions of `dir`'s concatenated `data.bin`, or of a data file.
fn data_of(p: &std::path::Path) -> Vec<kamil_train::data::Game> {
    let file = if p.is_dir() {
        p.join("data.bin")
    } else {
        p.to_path_buf()
    };
    let v = common::variant("courier", &[]);
    kamil_train::data::read(&v, &std::fs::read(file).unwrap()).unwrap()
}
