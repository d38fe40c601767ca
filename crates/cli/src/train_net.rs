//! `kamil train-net`: trains a network ([`kamil_engine::nnue::train`]) on
//! labelled positions and writes it as a `.nnue` file.
//!
//! The data are `kamil gen-data`'s lines, `FEN;RESULT` (RESULT what the
//! game was worth to the first player, 0 to 1), `#` comments. A line may
//! carry a third field, `FEN;RESULT;SCORE`, a search's score in centipawns
//! from the side to move's view; its target is then the blend
//! `w · σ(SCORE / K) + (1 - w) · result` (both as the side to move's
//! expectation, `w` being `--score-weight`), so a score steadies a label
//! that a game's result gives only noisily. Lines without a score are
//! trained on the result alone.
//!
//! A data file may also be kamil's binary data file (`kamil gen-data
//! --format binary`, [`kamil_engine::data`]), told apart by its first
//! bytes; its records give the same samples as the same positions' lines.
//!
//! The loss per epoch is printed for the training and the held-out
//! positions (`--validate FILE`, or a `--holdout` share of the data), with
//! the positions trained per second; at the end, the held-out loss per
//! eighth of a full board's pieces (where a net is weak), and the
//! held-out loss of the net as written, its integer rounding included
//! (`--scale` sets how finely the output layer is rounded).
//!
//! With `--init FILE` training starts from a network file's weights
//! instead of seeded ones, so that a generation can be trained further on
//! new data when the old data are gone.
//!
//! With `--only-net-positions` the positions the hand-written evaluation
//! scores in play (fewer pieces than the net's `--hand-below`) are left
//! out of training and validation, so the net's width and the held-out
//! loss are spent where the net is used.
//!
//! With `--residual` the net is trained as a correction to the
//! hand-written evaluation: each position's prediction is the
//! hand-written score plus the net's output, and the net file says so,
//! so the search adds the two ([`kamil_engine::nnue::hybrid`]).

use crate::game_args::load_variant;
use anyhow::{Context, Result, bail};
use kamil_engine::data;
use kamil_engine::nnue::Nnue;
use kamil_engine::nnue::features::Features;
use kamil_engine::nnue::network::{Buckets, DEFAULT_SCALE, MAX_BUCKETS, MAX_HIDDEN, Network};
use kamil_engine::nnue::train::{Link, Model, Sample, Settings, Trainer, split};
use kamil_engine::{EvalMode, Evaluator};
use kamil_rules::{Position, Side, Variant};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `kamil train-net`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A built-in variant or a variant TOML file.
    variant: String,
    /// A variant option, `KEY=VALUE`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// The labelled positions (`FEN;RESULT[;SCORE]` lines or the binary
    /// data file, `kamil gen-data`'s formats).
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    /// Held-out positions (same format, not trained on).
    #[arg(long, value_name = "FILE")]
    validate: Option<PathBuf>,
    /// Without --validate: the share of --data held out, 0 to 1.
    #[arg(long, default_value_t = 0.05, conflicts_with = "validate")]
    holdout: f64,
    /// Hidden units per view, H [default: 64; with --init, the net's].
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets: outputs chosen by the pieces on the board, the
    /// start position's count shared out evenly among them (1: one
    /// output for all positions) [default: 1; with --init, the net's].
    #[arg(long)]
    buckets: Option<u16>,
    /// Start from this network file's weights instead of seeded ones (a
    /// generation trained further on new data): a net of this variant,
    /// residual exactly when --residual is given; its width and buckets
    /// are kept (--hidden and --buckets, if given, must agree), and its
    /// --hand-below unless another is given.
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// After each epoch the step size is multiplied by this, 0 to 1 (1:
    /// a constant step size).
    #[arg(long, default_value_t = 1.0)]
    lr_decay: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Seed of the start weights, the held-out split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Decoupled weight decay of the weights (not the biases).
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// K: centipawns per logit of the win expectation σ(cp / K).
    #[arg(long, default_value_t = 400.0)]
    k: f64,
    /// The weight of a line's SCORE against its RESULT, 0 to 1.
    #[arg(long, default_value_t = 0.5)]
    score_weight: f64,
    /// Train on each position and its mirror image (files reflected) too:
    /// twice the data, for a game whose rules are left-right symmetric
    /// (Courier, the shogi games; not Tamerlane's citadels). The held-out
    /// positions are not mirrored.
    #[arg(long)]
    mirror: bool,
    /// Train with the factoriser: one virtual input per (owner, piece
    /// type) beside each (owner, piece type, square), folded into the
    /// square inputs when the net is written, so that squares seldom seen
    /// start from their piece's common weight (the net written is the
    /// same size).
    #[arg(long)]
    factor: bool,
    /// Written into the net: positions with fewer pieces than this on the
    /// board (both sides, royals included) are scored by the hand-written
    /// evaluation, not the net (0: never). For a net weaker than the
    /// hand-written evaluation in sparse endings [default: 0; with
    /// --init, the net's].
    #[arg(long)]
    hand_below: Option<u16>,
    /// Centipawns per unit of the written net's output, 1 to 400: a
    /// smaller scale writes the output layer's weights more finely (25:
    /// 16 times finer than 400), so the written net scores nearer the
    /// trained one, as long as its weights fit int16 (a warning says if
    /// any did not). The net's play does not depend on it otherwise.
    #[arg(long, default_value_t = DEFAULT_SCALE, value_parser = clap::value_parser!(i32).range(1..=400))]
    scale: i32,
    /// Train the net as a correction to the hand-written evaluation: the
    /// score is the hand-written one plus the net's (written into the
    /// net, so the search adds them too). Not with --mirror: a mirror
    /// image's hand-written score is not its original's.
    #[arg(long, conflicts_with = "mirror")]
    residual: bool,
    /// Train and validate only on the positions the net scores in play,
    /// those with at least --hand-below pieces on the board: the others
    /// are the hand-written evaluation's, and fitting them spends the
    /// net's width where it is never asked (in Courier's self-play about
    /// half the positions). Needs a --hand-below above 0, given or the
    /// --init net's.
    #[arg(long)]
    only_net_positions: bool,
    /// The network file to write (default `NAME.nnue` here).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Reads the data, trains, writes the network; prints the losses per
/// epoch.
///
/// Errors: a variant or data file that does not load (naming the file and
/// line), no training positions, settings out of range, an output that
/// cannot be written.
pub fn run(args: Args) -> Result<()> {
    if !(args.k > 0.0 && args.k.is_finite()) {
        bail!("--k must be a positive number");
    }
    if !(0.0..=1.0).contains(&args.score_weight) {
        bail!("--score-weight must be from 0 to 1");
    }
    if !(0.0..1.0).contains(&args.holdout) {
        bail!("--holdout must be from 0 to below 1");
    }
    if !(args.lr_decay > 0.0 && args.lr_decay <= 1.0) {
        bail!("--lr-decay must be above 0 and at most 1");
    }
    if args.hidden.is_some_and(|h| h == 0 || h > MAX_HIDDEN) {
        bail!("--hidden must be from 1 to {MAX_HIDDEN}");
    }
    if args.buckets.is_some_and(|b| b == 0 || b > MAX_BUCKETS) {
        bail!("--buckets must be from 1 to {MAX_BUCKETS}");
    }
    let variant = load_variant(&args.variant, &args.options)?;
    let full = full_board(&variant);
    let start = match &args.init {
        Some(path) => Some(initial_net(&variant, path, &args, full)?),
        None => None,
    };
    let (hidden, buckets) = match &start {
        Some(net) => (net.hidden(), net.buckets()),
        None => (
            args.hidden.unwrap_or(64),
            Buckets::spread(args.buckets.unwrap_or(1), full),
        ),
    };
    let features = Features::new(&variant);
    let hand = args
        .residual
        .then(|| Evaluator::new(variant.clone(), EvalMode::Full));
    let blend = Blend {
        k: args.k,
        score_weight: args.score_weight,
        hand: hand.as_ref(),
    };
    let hand_below = args
        .hand_below
        .or(start.as_ref().map(Network::hand_below))
        .unwrap_or(0);
    let (mut train, mut held) = training_sets(&args, &variant, &features, blend, hand_below)?;
    if args.mirror {
        let images: Vec<Sample> = train.iter().map(|s| s.mirrored(&features)).collect();
        train.extend(images);
    }
    let mut inputs = features.inputs();
    if args.factor {
        for s in train.iter_mut().chain(held.iter_mut()) {
            *s = s.factored(&features);
        }
        inputs += features.inputs() / features.squares();
    }
    if train.is_empty() {
        bail!("no positions left to train on");
    }
    let settings = Settings {
        lr: args.lr,
        weight_decay: args.weight_decay,
        batch: args.batch,
        seed: args.seed,
        link: Link::new(f64::from(DEFAULT_SCALE), args.k),
        ..Settings::default()
    };
    let model = match &start {
        Some(net) => Model::from_network(net).widened(inputs),
        None => Model::seeded(inputs, hidden, buckets, args.seed),
    };
    let mut trainer = Trainer::new(model, settings)?;
    println!(
        "{} training positions, {} held out; {} inputs x {} hidden x {} output bucket(s) of {} pieces, K = {}",
        train.len(),
        held.len(),
        features.inputs(),
        hidden,
        buckets.count(),
        buckets.size(),
        args.k
    );
    let link = settings.link;
    let mut out = std::io::stdout().lock();
    let held_loss = |m: &Model<f32>| (!held.is_empty()).then(|| m.loss(&held, link));
    // A closed standard output only loses the log.
    let _ = writeln!(
        out,
        "epoch 0 train loss {:.6}{}",
        trainer.model().loss(&train, link),
        shown(held_loss(trainer.model()))
    );
    let bar = indicatif::ProgressBar::new(u64::from(args.epochs) * train.len() as u64);
    for epoch in 1..=args.epochs {
        let t0 = Instant::now();
        let loss = trainer.epoch(&train, &mut |n| bar.inc(n as u64));
        let rate = train.len() as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        let v = held_loss(trainer.model());
        bar.set_message(format!("loss {loss:.6}"));
        bar.suspend(|| {
            let _ = writeln!(
                out,
                "epoch {epoch} train loss {loss:.6}{} ({rate:.0} positions/s, lr {})",
                shown(v),
                trainer.lr()
            );
        });
        trainer.set_lr((trainer.lr() * args.lr_decay).max(f32::MIN_POSITIVE))?;
    }
    bar.finish_and_clear();
    if !held.is_empty() {
        let _ = writeln!(
            out,
            "held-out loss by pieces on the board: {}",
            by_pieces(trainer.model(), &held, link, full)
        );
    }
    let model = trainer
        .model()
        .folded(features.inputs(), features.squares());
    let (mut net, clamped) = model.quantise(args.scale);
    net.set_hand_below(hand_below);
    net.set_residual(args.residual);
    if clamped > 0 {
        eprintln!("warning: {clamped} weights out of the integer range were clamped");
    }
    if !held.is_empty() {
        // The net as written, its rounding included, read back as a model.
        let written = Model::<f32>::from_network(&net).widened(inputs);
        let _ = writeln!(
            out,
            "the written net's validation loss {:.6} (scale {})",
            written.loss(&held, link),
            args.scale
        );
    }
    let nnue = Nnue::new(&variant, features, net);
    let path = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("{}.nnue", variant.name)));
    std::fs::write(&path, nnue.to_bytes())
        .with_context(|| format!("writing `{}`", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// The training and held-out positions: `--data`, and `--validate` or a
/// `--holdout` share of the data, without the positions the net never
/// scores (fewer than `hand_below` pieces) under `--only-net-positions`.
///
/// Errors: `--only-net-positions` with no `hand_below`; a data file that
/// does not load (naming the file and line).
fn training_sets(
    args: &Args,
    variant: &Arc<Variant>,
    features: &Features,
    blend: Blend<'_>,
    hand_below: u16,
) -> Result<(Vec<Sample>, Vec<Sample>)> {
    if args.only_net_positions && hand_below == 0 {
        bail!("--only-net-positions needs a --hand-below above 0 (given, or the --init net's)");
    }
    let keep = |mut samples: Vec<Sample>, what: &str| {
        if args.only_net_positions {
            let before = samples.len();
            samples.retain(|s| s.pieces >= hand_below);
            println!(
                "{} of {before} {what} positions left out: fewer than {hand_below} pieces",
                before - samples.len()
            );
        }
        samples
    };
    let data = keep(read_samples(variant, features, &args.data, blend)?, "data");
    Ok(match &args.validate {
        Some(path) => (
            data,
            keep(read_samples(variant, features, path, blend)?, "held-out"),
        ),
        None => split(data, args.holdout, args.seed),
    })
}

/// The network `--init` names, checked against the other arguments.
///
/// Errors: the file cannot be read or is no network of `v` (naming the
/// file and what differs); its width or buckets differ from `--hidden` or
/// `--buckets` given; it is residual and `--residual` is not given, or the
/// other way round.
fn initial_net(v: &Arc<Variant>, path: &Path, args: &Args, full: usize) -> Result<Network> {
    let nnue = Nnue::load(v, path).context("--init: the network file cannot be used")?;
    let net = nnue.network().clone();
    let shown = path.display();
    if let Some(h) = args.hidden.filter(|&h| h != net.hidden()) {
        bail!(
            "--init `{shown}` has {} hidden units, not --hidden {h}",
            net.hidden()
        );
    }
    if let Some(b) = args
        .buckets
        .filter(|&b| Buckets::spread(b, full) != net.buckets())
    {
        bail!(
            "--init `{shown}` has {} output bucket(s) of {} pieces, not --buckets {b}",
            net.buckets().count(),
            net.buckets().size()
        );
    }
    if net.residual() != args.residual {
        let (is, flag) = if net.residual() {
            ("a correction to the hand-written evaluation", "needs")
        } else {
            ("a plain net", "cannot take")
        };
        bail!("--init `{shown}` is {is}: it {flag} --residual");
    }
    Ok(net)
}

/// Pieces on the start board of `v` (both sides).
fn full_board(v: &Arc<Variant>) -> usize {
    let start = Position::start(v.clone());
    start.pieces_on_board()
}

/// The loss of `model` on `held` per eighth of a `full` board's pieces:
/// `1-6 0.000412 (1203)`, the band, its loss and its positions, for each
/// band that has positions.
fn by_pieces(model: &Model<f32>, held: &[Sample], link: Link, full: usize) -> String {
    let bands = Buckets::spread(8, full);
    let mut groups: Vec<Vec<Sample>> = vec![Vec::new(); bands.count()];
    for s in held {
        groups[bands.index(usize::from(s.pieces))].push(s.clone());
    }
    let size = usize::from(bands.size());
    groups
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.is_empty())
        .map(|(b, g)| {
            let lo = b * size + 1;
            let hi = if b + 1 == bands.count() {
                "".to_string()
            } else {
                ((b + 1) * size).to_string()
            };
            format!("{lo}-{hi} {:.6} ({})", model.loss(g, link), g.len())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn shown(loss: Option<f64>) -> String {
    loss.map_or(String::new(), |l| format!(", validation loss {l:.6}"))
}

/// How a line's target is made.
#[derive(Clone, Copy, Debug)]
struct Blend<'a> {
    /// Centipawns per logit.
    k: f64,
    /// The weight of a score against the result.
    score_weight: f64,
    /// For a residual net: the hand-written evaluation, whose score of
    /// each position is its sample's offset.
    hand: Option<&'a Evaluator>,
}

/// The samples of the data file `path`, text or binary. Errors: a file
/// that cannot be read, a line or record that does not read (named by
/// file and line or record).
fn read_samples(
    v: &Arc<Variant>,
    features: &Features,
    path: &Path,
    blend: Blend<'_>,
) -> Result<Vec<Sample>> {
    let bytes =
        std::fs::read(path).with_context(|| format!("reading data file `{}`", path.display()))?;
    if data::is_binary(&bytes) {
        return binary_samples(v, features, path, &bytes, blend);
    }
    let text = std::str::from_utf8(&bytes).with_context(|| {
        format!(
            "data file `{}` is neither text nor binary data",
            path.display()
        )
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let s = sample(v, features, line, blend)
            .with_context(|| format!("`{}` line {}", path.display(), i + 1))?;
        out.push(s);
    }
    Ok(out)
}

/// The samples of a binary data file's `bytes` (read from `path`).
fn binary_samples(
    v: &Arc<Variant>,
    features: &Features,
    path: &Path,
    bytes: &[u8],
    blend: Blend<'_>,
) -> Result<Vec<Sample>> {
    let games = data::read(v, bytes).with_context(|| format!("data file `{}`", path.display()))?;
    let records = games
        .iter()
        .flat_map(|g| g.records.iter().map(move |r| (g.index, r)));
    let mut out = Vec::new();
    for (n, (game, r)) in records.enumerate() {
        let s = Position::from_fen(v.clone(), &r.fen)
            .with_context(|| format!("bad FEN `{}`", r.fen))
            .map(|pos| {
                let cp = f64::from(r.score);
                target_sample(features, &pos, f64::from(r.result), Some(cp), blend)
            })
            .with_context(|| format!("`{}` record {} (game {game})", path.display(), n + 1))?;
        out.push(s);
    }
    Ok(out)
}

/// The sample of one data line `FEN;RESULT[;SCORE]`.
fn sample(v: &Arc<Variant>, features: &Features, line: &str, blend: Blend<'_>) -> Result<Sample> {
    let fields: Vec<&str> = line.split(';').map(str::trim).collect();
    let (fen, result, score) = match fields[..] {
        [fen, r] => (fen, r, None),
        [fen, r, s] => (fen, r, Some(s)),
        _ => bail!("expected `FEN;RESULT` or `FEN;RESULT;SCORE`"),
    };
    let result: f64 = result
        .parse()
        .ok()
        .filter(|x| (0.0..=1.0).contains(x))
        .with_context(|| format!("result `{result}` is not from 0 to 1"))?;
    let pos = Position::from_fen(v.clone(), fen).with_context(|| format!("bad FEN `{fen}`"))?;
    let cp = match score {
        Some(s) => Some(
            s.parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .with_context(|| format!("score `{s}` is not a number of centipawns"))?,
        ),
        None => None,
    };
    Ok(target_sample(features, &pos, result, cp, blend))
}

/// The sample of `pos` from its game's `result` (first player's view, 0
/// to 1) and the search's score `cp` (side to move's view), if any.
fn target_sample(
    features: &Features,
    pos: &Position,
    result: f64,
    cp: Option<f64>,
    blend: Blend<'_>,
) -> Sample {
    let mut target = if pos.side() == Side::First {
        result
    } else {
        1.0 - result
    };
    if let Some(cp) = cp {
        let p = 1.0 / (1.0 + (-cp / blend.k).exp());
        target = blend.score_weight * p + (1.0 - blend.score_weight) * target;
    }
    let s = Sample::new(features, pos, target as f32);
    match blend.hand {
        Some(hand) => s.with_offset(hand.evaluate(pos) as f32 / DEFAULT_SCALE as f32),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";

    fn setup() -> (Arc<Variant>, Features, Blend<'static>) {
        let v = load_variant("courier", &[]).unwrap();
        let f = Features::new(&v);
        let b = Blend {
            k: 400.0,
            score_weight: 0.5,
            hand: None,
        };
        (v, f, b)
    }

    #[test]
    fn targets_are_the_side_to_moves_and_blend_a_score() {
        let (v, f, b) = setup();
        let t = |l: &str| sample(&v, &f, l, b).unwrap().target;
        assert_eq!(t(&format!("{START};1")), 1.0);
        let black = START.replace(" w ", " b ");
        assert_eq!(t(&format!("{black};1")), 0.0);
        assert_eq!(t(&format!("{black};0.25")), 0.75);
        // Score 0 is an even expectation: half of 0.5 and half of 1.
        assert_eq!(t(&format!("{START};1;0")), 0.75);
        assert!(t(&format!("{START};0;400")) > 0.36);
    }

    /// `fen` with each rank's cells reversed (files reflected).
    fn mirror_fen(fen: &str) -> String {
        let (board, rest) = fen.split_once(' ').unwrap();
        let mirror_rank = |rank: &str| {
            let mut cells: Vec<String> = Vec::new();
            let mut digits = String::new();
            for c in rank.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    cells.push(std::mem::take(&mut digits));
                }
                cells.push(c.to_string());
            }
            if !digits.is_empty() {
                cells.push(digits);
            }
            cells.reverse();
            cells.concat()
        };
        let ranks: Vec<String> = board.split('/').map(mirror_rank).collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        let (v, f, b) = setup();
        let fens = [
            START.to_string(),
            START.replace(" w ", " b "),
            "r1ebmk1w1enr/1ppppp2ppp1/2n4pf3/p10p/P3BBP4P/7P1N2/1P1PPP2PPP1/RNEBMK1W1E1R b - - 0 7"
                .to_string(),
        ];
        let sorted = |mut x: Vec<u32>| {
            x.sort_unstable();
            x
        };
        for fen in fens {
            let s = sample(&v, &f, &format!("{fen};1;35"), b).unwrap();
            let m = sample(&v, &f, &format!("{};1;35", mirror_fen(&fen)), b).unwrap();
            let image = s.mirrored(&f);
            assert_eq!(sorted(image.us.clone()), sorted(m.us.clone()), "{fen}");
            assert_eq!(sorted(image.them), sorted(m.them), "{fen}");
            assert_eq!(image.target, m.target);
            // The start position is not symmetric: its image differs.
            assert_ne!(sorted(s.us.clone()), sorted(m.us), "{fen}");
            assert_eq!(s.mirrored(&f).mirrored(&f), s);
        }
    }

    #[test]
    fn a_bad_line_is_an_error_that_names_file_and_line() {
        let (v, f, b) = setup();
        let path = std::env::temp_dir().join(format!("kamil-train-net-{}.txt", std::process::id()));
        std::fs::write(&path, format!("# c\n{START};1\n{START};2\n")).unwrap();
        let e = read_samples(&v, &f, &path, b).unwrap_err();
        let _ = std::fs::remove_file(&path);
        let msg = format!("{e:#}");
        assert!(
            msg.contains("line 3") && msg.contains("result `2`"),
            "{msg}"
        );
        for bad in [
            "x;1",
            START,
            &format!("{START};1;x"),
            &format!("{START};1;2;3"),
        ] {
            assert!(sample(&v, &f, bad, b).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_binary_file_gives_the_samples_of_its_text_lines() {
        let (v, f, b) = setup();
        let black = START.replace(" w ", " b ");
        let rows = [
            (START, 1.0, 35i16),
            (black.as_str(), 0.5, -120),
            (START, 0.0, 4000),
        ];
        let text: String = rows
            .iter()
            .map(|(fen, r, cp)| format!("{fen};{r};{cp}\n"))
            .collect();
        let game = data::Game {
            index: 0,
            records: rows
                .iter()
                .enumerate()
                .map(|(k, &(fen, result, score))| data::Record {
                    fen: fen.to_string(),
                    score,
                    result,
                    ply: k as u16,
                })
                .collect(),
        };
        let mut bytes = data::Header::new(&v, "test").to_bytes();
        bytes.extend(game.to_bytes().unwrap());
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let (tp, bp) = (
            dir.join(format!("kamil-train-net-{id}-same.txt")),
            dir.join(format!("kamil-train-net-{id}-same.bin")),
        );
        std::fs::write(&tp, text).unwrap();
        std::fs::write(&bp, &bytes).unwrap();
        let from_text = read_samples(&v, &f, &tp, b).unwrap();
        let from_binary = read_samples(&v, &f, &bp, b).unwrap();
        assert_eq!(from_text.len(), 3);
        assert_eq!(from_text, from_binary);
        // Cut short, the file and the record are named.
        std::fs::write(&bp, &bytes[..bytes.len() - 4]).unwrap();
        let e = format!("{:#}", read_samples(&v, &f, &bp, b).unwrap_err());
        assert!(
            e.contains(&bp.display().to_string()) && e.contains("record 3"),
            "{e}"
        );
        // Another variant's data are refused, naming both.
        let sho = load_variant("sho-shogi", &[]).unwrap();
        std::fs::write(&bp, data::Header::new(&sho, "test").to_bytes()).unwrap();
        let e = format!("{:#}", read_samples(&v, &f, &bp, b).unwrap_err());
        assert!(e.contains("sho-shogi") && e.contains("courier"), "{e}");
        let _ = std::fs::remove_file(&tp);
        let _ = std::fs::remove_file(&bp);
    }
}
