//! `kamil train-net`: trains a network ([`kamil_train::nnue`]) on
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
//! --format binary`, [`kamil_train::data`]), told apart by its first
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
//! With `--stream N` a binary data file is read again each epoch, a game
//! at a time, and trained on `N` positions at a time (`stream.rs`), for
//! data larger than memory.
//!
//! With `--residual` the net is trained as a correction to the
//! hand-written evaluation: each position's prediction is the
//! hand-written score plus the net's output, and the net file says so,
//! so the search adds the two ([`kamil_engine::nnue::hybrid`]).

mod stream;

use crate::game_args::load_variant;
use anyhow::{Context, Result, bail};
use kamil_engine::files;
use kamil_engine::nnue::Nnue;
use kamil_engine::nnue::features::{Features, KingMap};
use kamil_engine::nnue::network::{Buckets, DEFAULT_SCALE, MAX_BUCKETS, MAX_HIDDEN, Network};
use kamil_engine::{EvalMode, Evaluator};
use kamil_rules::{Position, Variant};
use kamil_train::nnue::{Link, Model, Sample, Settings, Trainer, split};
use kamil_train::samples::{self, Blend};
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
    /// King buckets: the inputs split by how far each side's King stands
    /// from its own back rank, this many buckets (the last for that rank
    /// and beyond; 1: none). A net with them is written in format version
    /// 6. With --init, the net's buckets are kept and this must agree.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=16))]
    king_buckets: Option<u8>,
    /// Read the (binary) data file again each epoch, a game at a time,
    /// and train on this many positions at a time, shuffled among
    /// themselves: for data larger than memory. The held-out share is
    /// whole games, drawn by --seed.
    #[arg(long, value_name = "POSITIONS", value_parser = clap::value_parser!(u64).range(1..))]
    stream: Option<u64>,
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
    check_ranges(&args)?;
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
    let features = layout(&variant, &args)?;
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
    let streaming = streamed(&args, &variant, &features, blend, hand_below);
    let (train, held, count) = data_sets(
        &args,
        &variant,
        &features,
        blend,
        hand_below,
        streaming.as_ref(),
    )?;
    let factored = if args.factor {
        features.inputs() / features.squares()
    } else {
        0
    };
    let inputs = features.inputs() + factored;
    if count == 0 {
        bail!(
            "no positions left to train on in data file `{}`",
            args.data.display()
        );
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
        count,
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
    if streaming.is_none() {
        let _ = writeln!(
            out,
            "epoch 0 train loss {:.6}{}",
            trainer.model().loss(&train, link),
            shown(held_loss(trainer.model()))
        );
    }
    let bar = indicatif::ProgressBar::new(u64::from(args.epochs) * count as u64);
    for epoch in 1..=args.epochs {
        let t0 = Instant::now();
        let (loss, trained) = match &streaming {
            Some(s) => s.epoch(&mut trainer, &mut |n| bar.inc(n as u64))?,
            None => (
                trainer.epoch(&train, &mut |n| bar.inc(n as u64)),
                train.len(),
            ),
        };
        let rate = trained as f64 / t0.elapsed().as_secs_f64().max(1e-9);
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

/// The streamed reading of `--stream N`, if asked for.
fn streamed<'a>(
    args: &'a Args,
    variant: &'a Arc<Variant>,
    features: &'a Features,
    blend: Blend<'a>,
    hand_below: u16,
) -> Option<stream::Stream<'a>> {
    args.stream.map(|chunk| stream::Stream {
        v: variant,
        features,
        path: &args.data,
        blend,
        chunk: usize::try_from(chunk).unwrap_or(usize::MAX),
        holdout: if args.validate.is_some() {
            0.0
        } else {
            args.holdout
        },
        seed: args.seed,
        mirror: args.mirror,
        factor: args.factor,
        min_pieces: if args.only_net_positions {
            hand_below
        } else {
            0
        },
    })
}

/// Checks the arguments' ranges. Errors: the first out of range, named.
fn check_ranges(args: &Args) -> Result<()> {
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
    Ok(())
}

/// The training positions (none when streamed: they are read each
/// epoch), the held-out ones, and how many training positions an epoch
/// holds; mirror images and the factoriser's inputs added as asked.
///
/// Errors: a data file that does not load (naming it), or
/// `--only-net-positions` without a `hand_below`.
fn data_sets(
    args: &Args,
    variant: &Arc<Variant>,
    features: &Features,
    blend: Blend<'_>,
    hand_below: u16,
    streaming: Option<&stream::Stream<'_>>,
) -> Result<(Vec<Sample>, Vec<Sample>, usize)> {
    if args.only_net_positions && hand_below == 0 {
        bail!("--only-net-positions needs a --hand-below above 0 (given, or the --init net's)");
    }
    let (mut train, mut held, count) = match streaming {
        Some(s) => {
            let (mut held, count) = s.first_pass()?;
            if let Some(path) = &args.validate {
                held = net_positions(
                    args,
                    hand_below,
                    read_samples(variant, features, path, blend)?,
                    "held-out",
                );
                if args.factor {
                    held = held.iter().map(|x| x.factored(features)).collect();
                }
            }
            (Vec::new(), held, count)
        }
        None => {
            let (t, h) = training_sets(args, variant, features, blend, hand_below)?;
            (t, h, 0)
        }
    };
    if streaming.is_none() && args.mirror {
        let images: Vec<Sample> = train.iter().map(|s| s.mirrored(features)).collect();
        train.extend(images);
    }
    if args.factor && streaming.is_none() {
        for s in train.iter_mut().chain(held.iter_mut()) {
            *s = s.factored(features);
        }
    }
    let count = if streaming.is_some() {
        count
    } else {
        train.len()
    };
    Ok((train, held, count))
}

/// `samples` less, under `--only-net-positions`, those with fewer than
/// `hand_below` pieces (the hand-written evaluation's), saying how many
/// of the `what` positions were left out.
fn net_positions(
    args: &Args,
    hand_below: u16,
    mut samples: Vec<Sample>,
    what: &str,
) -> Vec<Sample> {
    if args.only_net_positions {
        let before = samples.len();
        samples.retain(|s| s.pieces >= hand_below);
        println!(
            "{} of {before} {what} positions left out: fewer than {hand_below} pieces",
            before - samples.len()
        );
    }
    samples
}

/// The training and held-out positions: `--data`, and `--validate` or a
/// `--holdout` share of the data, without the positions the net never
/// scores (fewer than `hand_below` pieces) under `--only-net-positions`.
///
/// Errors: a data file that does not load (naming the file and line).
fn training_sets(
    args: &Args,
    variant: &Arc<Variant>,
    features: &Features,
    blend: Blend<'_>,
    hand_below: u16,
) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let keep = |samples, what| net_positions(args, hand_below, samples, what);
    let data = keep(read_samples(variant, features, &args.data, blend)?, "data");
    Ok(match &args.validate {
        Some(path) => (
            data,
            keep(read_samples(variant, features, path, blend)?, "held-out"),
        ),
        None => split(data, args.holdout, args.seed),
    })
}

/// The inputs' layout: the `--init` net's (its king buckets), else the
/// variant's with `--king-buckets`.
///
/// Errors: a `--king-buckets` that differs from the `--init` net's, or an
/// `--init` net that does not load.
fn layout(variant: &Arc<Variant>, args: &Args) -> Result<Features> {
    let asked = args.king_buckets.unwrap_or(1);
    if let Some(path) = &args.init {
        let nnue = Nnue::load(variant, path).context("--init: the network file cannot be used")?;
        let has = nnue.features().kings().map_or(1, |k| k.count());
        if args.king_buckets.is_some_and(|k| usize::from(k) != has) {
            bail!(
                "--init `{}` has {has} king bucket(s), not --king-buckets {asked}",
                path.display()
            );
        }
        return Ok(nnue.features().clone());
    }
    let g = &variant.geometry;
    let map = KingMap::by_rank(asked, usize::from(g.files()), usize::from(g.ranks()))
        .map_err(anyhow::Error::msg)?;
    Features::new(variant)
        .with_kings(map)
        .map_err(anyhow::Error::msg)
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

/// Does the data file at `path` start as the binary format does (not
/// text lines)?
///
/// Errors: the file cannot be opened, is not a regular file or is too
/// large (naming it).
fn is_binary_file(path: &Path) -> Result<bool> {
    let (mut file, _) = files::open(path, "data file", files::MAX_DATA)?;
    let mut magic = [0u8; 8];
    let head = std::io::Read::read(&mut file, &mut magic).unwrap_or(0);
    Ok(kamil_train::data::is_binary(&magic[..head]))
}

/// The samples of the data file `path`, text or binary, read a game
/// ([`kamil_train::data::Reader`]) or a line
/// ([`kamil_train::text::TextReader`]) at a time, never whole.
///
/// Errors: a file that cannot be read, a line or record that does not
/// read (named by file and line or record).
fn read_samples(
    v: &Arc<Variant>,
    features: &Features,
    path: &Path,
    blend: Blend<'_>,
) -> Result<Vec<Sample>> {
    let named = || format!("data file `{}`", path.display());
    if is_binary_file(path)? {
        let games = kamil_train::data::open_file(v, path)?;
        return samples::from_games(v, features, games, blend).with_context(named);
    }
    let (records, _) = kamil_train::text::open_file(path)?;
    samples::from_text(v, features, records, blend).with_context(named)
}
