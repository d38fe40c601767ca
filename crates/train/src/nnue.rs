//! A small sparse CPU trainer for the engine's network
//! ([`kamil_engine::nnue::network`]): float
//! weights fitted to labelled positions, then quantised to a [`Network`].
//!
//! The model, in float terms, for a position with side to move `us`:
//!
//! ```text
//! acc_v = b1 + Σ W1[i] over the active inputs i of view v   (H values; v = us, them)
//! h_v   = clamp(acc_v, 0, 1)²
//! b     = the output bucket of the position's piece count (Buckets::index)
//! out   = w2[b][..H] · h_us + w2[b][H..] · h_them + b2[b]     (net units)
//! cp    = out · scale                                         (centipawns, side to move)
//! p     = σ(cp / K),  σ(x) = 1 / (1 + e^-x)
//! loss  = mean over a batch of (p - t)²
//! ```
//!
//! `t` is the side to move's expected score, 0 to 1 (a game's result, or
//! one blended with a search's score). **K** is in centipawns, 400 by
//! default, the same as the network's [`DEFAULT_SCALE`]: then `p = σ(out)`,
//! one net unit is one logit, and 400 centipawns are a 73% expectation,
//! the convention of the usual NNUE trainers (so their nets' scales and
//! ours compare). **The loss is the mean squared error** on `p`, as `kamil
//! tune` uses (so the two tools' losses compare): it is bounded per
//! position, so a position whose game was decided by a later blunder pulls
//! with bounded force, where cross-entropy grows without bound as the net
//! grows confident.
//!
//! Training is mini-batch Adam (decoupled weight decay optional). The first
//! layer is sparse: a batch touches only the rows of its positions' active
//! inputs, and only those rows' gradients, moments and weights are updated
//! (lazy Adam: an untouched row's moments do not decay). Each epoch visits
//! the data in an order shuffled by a seeded generator, so a run is
//! reproducible for a seed.
//!
//! [`Model`] is generic over the float type: the trainer uses `f32`; the
//! gradient check uses `f64`, where a central difference is accurate to
//! about 1e-10 and a wrong gradient cannot hide in rounding.

use crate::optim::Adam;
pub use crate::optim::Real;
use kamil_engine::nnue::features::Features;
use kamil_engine::nnue::network::{Buckets, DEFAULT_SCALE, MAX_HIDDEN, Network, QA, QB};
use kamil_rules::splitmix::SplitMix64;
use kamil_rules::{Position, Side};

/// One training position: its active inputs from each view and its target.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Active inputs of the side to move's view ([`Features::index`]).
    pub us: Vec<u32>,
    /// Active inputs of the other side's view.
    pub them: Vec<u32>,
    /// The side to move's expected score, 0 (lost) to 1 (won).
    pub target: f32,
    /// Pieces on the board, both sides (it picks the output bucket).
    pub pieces: u16,
    /// Net units added to the net's output before the loss's link: the
    /// hand-written evaluation's score of the position for a residual
    /// net (its centipawns over the net's scale), 0 otherwise.
    pub offset: f32,
}

impl Sample {
    /// The sample of `pos` under `features` (which must be its variant's
    /// layout), with `target` the side to move's expected score (0 to 1,
    /// clamped into that range; not a number counts 0.5).
    pub fn new(features: &Features, pos: &Position, target: f32) -> Sample {
        let us = pos.side();
        let view = |v: Side| -> Vec<u32> {
            let bucket = features.bucket(v, pos);
            [Side::First, Side::Second]
                .iter()
                .flat_map(|&s| pos.pieces(s).iter())
                .map(|&sq| features.index_in(v, bucket, pos.at(sq), sq) as u32)
                .collect()
        };
        let target = if target.is_nan() {
            0.5
        } else {
            target.clamp(0.0, 1.0)
        };
        let us = view(us);
        Sample {
            pieces: us.len().min(usize::from(u16::MAX)) as u16,
            them: view(pos.side().flip()),
            us,
            target,
            offset: 0.0,
        }
    }

    /// This sample with `offset` net units added to the output before
    /// the link ([`Sample::offset`]; not a number counts 0).
    pub fn with_offset(self, offset: f32) -> Sample {
        Sample {
            offset: if offset.is_finite() { offset } else { 0.0 },
            ..self
        }
    }

    /// This sample with the factoriser's virtual inputs added: for each
    /// input `i`, the input `features.inputs() + i / features.squares()`,
    /// one per (owner, piece type) whatever the square. Their weights are
    /// learnt from every position with such a piece and folded into the
    /// real inputs' rows after training ([`Model::folded`]), so a square
    /// seldom seen starts from its piece's common weight: the usual help
    /// for a net trained on little data. `features` must be the layout it
    /// was made by.
    pub fn factored(&self, features: &Features) -> Sample {
        let (base, squares) = (features.inputs() as u32, features.squares() as u32);
        let f = |v: &[u32]| {
            let mut out = v.to_vec();
            out.extend(v.iter().map(|&i| base + i / squares));
            out
        };
        Sample {
            us: f(&self.us),
            them: f(&self.them),
            target: self.target,
            pieces: self.pieces,
            offset: self.offset,
        }
    }

    /// This sample with the board's files reflected ([`Features::mirrored`]):
    /// the same target and offset, for augmenting the data of a game whose
    /// rules are left-right symmetric (the offset is the original
    /// position's, so a residual sample's image is right only where the
    /// hand-written evaluation is symmetric too). `features` must be the
    /// layout it was made by.
    pub fn mirrored(&self, features: &Features) -> Sample {
        let m = |v: &[u32]| {
            v.iter()
                .map(|&i| features.mirrored(i as usize) as u32)
                .collect()
        };
        Sample {
            us: m(&self.us),
            them: m(&self.them),
            target: self.target,
            pieces: self.pieces,
            offset: self.offset,
        }
    }
}

/// The loss's link from net units to a win expectation: `p = σ(c · out)`,
/// `c = scale / K`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Logits per net unit, `scale / K`.
    pub per_unit: f64,
}

impl Link {
    /// The link of a net whose unit is `scale` centipawns, under an eval
    /// scale of `k` centipawns per logit (both positive; 1 logit per unit
    /// otherwise).
    pub fn new(scale: f64, k: f64) -> Link {
        let c = scale / k;
        Link {
            per_unit: if c.is_finite() && c > 0.0 { c } else { 1.0 },
        }
    }
}

impl Default for Link {
    /// Scale and K both [`DEFAULT_SCALE`]: one logit per unit.
    fn default() -> Link {
        Link::new(f64::from(DEFAULT_SCALE), f64::from(DEFAULT_SCALE))
    }
}

/// The float network: the same shapes as [`Network`], unquantised.
#[derive(Clone, Debug, PartialEq)]
pub struct Model<T> {
    inputs: usize,
    hidden: usize,
    /// The output buckets.
    buckets: Buckets,
    /// First layer: H weights per input, input-major (as [`Network`]).
    w1: Vec<T>,
    /// First layer biases, H.
    b1: Vec<T>,
    /// Output weights per bucket: H for the side to move's view, then H
    /// for the other (bucket-major).
    w2: Vec<T>,
    /// Output biases, one per bucket, net units.
    b2: Vec<T>,
}

/// A model's gradient (or any buffer of its shape); the first layer's rows
/// are kept dense, with a list of the rows a batch touched.
#[derive(Clone, Debug)]
struct Grad<T> {
    w1: Vec<T>,
    b1: Vec<T>,
    w2: Vec<T>,
    b2: Vec<T>,
    /// The first layer's rows written since the last clear.
    touched: Vec<u32>,
    mark: Vec<bool>,
}

impl<T: Real> Grad<T> {
    fn new(inputs: usize, hidden: usize, buckets: Buckets) -> Grad<T> {
        Grad {
            w1: vec![T::default(); inputs * hidden],
            b1: vec![T::default(); hidden],
            w2: vec![T::default(); buckets.count() * 2 * hidden],
            b2: vec![T::default(); buckets.count()],
            touched: Vec::new(),
            mark: vec![false; inputs],
        }
    }

    /// Zeroes what the last batch wrote.
    fn clear(&mut self, hidden: usize) {
        for &i in &self.touched {
            let i = i as usize;
            self.w1[i * hidden..(i + 1) * hidden].fill(T::default());
            self.mark[i] = false;
        }
        self.touched.clear();
        self.b1.fill(T::default());
        self.w2.fill(T::default());
        self.b2.fill(T::default());
    }

    /// Adds `d` to row `i` of the first layer (an input of the model).
    #[inline]
    fn add_row(&mut self, i: usize, d: &[T]) {
        let h = d.len();
        if let Some(row) = self.w1.get_mut(i * h..(i + 1) * h) {
            if !self.mark[i] {
                self.mark[i] = true;
                self.touched.push(i as u32);
            }
            row.iter_mut().zip(d).for_each(|(g, &d)| *g += d);
        }
    }
}

/// Per-position working space of the forward and backward pass.
#[derive(Clone, Debug)]
struct Scratch<T> {
    us: Vec<T>,
    them: Vec<T>,
}

#[inline]
fn sigmoid<T: Real>(x: T) -> T {
    T::of(1.0) / (T::of(1.0) + (-x).exp())
}

/// The squared clipped ReLU and its derivative at `a`.
#[inline]
fn screlu<T: Real>(a: T) -> (T, T) {
    if a <= T::default() {
        (T::default(), T::default())
    } else if a >= T::of(1.0) {
        (T::of(1.0), T::default())
    } else {
        (a * a, T::of(2.0) * a)
    }
}

impl<T: Real> Model<T> {
    /// A model of `inputs` inputs, `hidden` units and `buckets`' outputs,
    /// all weights 0.
    pub fn zeroed(inputs: usize, hidden: usize, buckets: Buckets) -> Model<T> {
        Model {
            inputs,
            hidden,
            buckets,
            w1: vec![T::default(); inputs * hidden],
            b1: vec![T::default(); hidden],
            w2: vec![T::default(); buckets.count() * 2 * hidden],
            b2: vec![T::default(); buckets.count()],
        }
    }

    /// A model with small weights drawn from `seed`: first layer weights
    /// uniform in ±0.05 (a Courier position's ~48 pieces sum to about
    /// ±0.2), biases uniform in 0 to 0.5 so that units start inside the
    /// clamp's live range (0, 1) where their gradient is not 0, output
    /// weights uniform in ±1/√(2H) (each bucket its own), output biases 0.
    pub fn seeded(inputs: usize, hidden: usize, buckets: Buckets, seed: u64) -> Model<T> {
        let mut rng = SplitMix64::new(seed);
        let mut m = Model::zeroed(inputs, hidden, buckets);
        m.w1.iter_mut()
            .for_each(|w| *w = T::of(rng.symmetric(0.05)));
        m.b1.iter_mut().for_each(|w| *w = T::of(0.5 * rng.unit()));
        let a = 1.0 / ((2 * hidden.max(1)) as f64).sqrt();
        m.w2.iter_mut().for_each(|w| *w = T::of(rng.symmetric(a)));
        m
    }

    /// The model without the factoriser's virtual inputs
    /// ([`Sample::factored`]): `real` inputs, each row the sum of its own
    /// and its block's virtual row (block `i / squares`), so its output for
    /// a sample equals this model's for the factored sample. A model with
    /// no more than `real` inputs, or `squares` 0, is returned as it is.
    pub fn folded(&self, real: usize, squares: usize) -> Model<T> {
        if self.inputs <= real || squares == 0 {
            return self.clone();
        }
        let h = self.hidden;
        let mut m = Model::zeroed(real, h, self.buckets);
        for i in 0..real {
            let v = real + i / squares;
            for k in 0..h {
                let virt = self.w1.get(v * h + k).copied().unwrap_or_default();
                m.w1[i * h + k] = self.w1[i * h + k] + virt;
            }
        }
        m.b1.clone_from(&self.b1);
        m.w2.clone_from(&self.w2);
        m.b2.clone_from(&self.b2);
        m
    }

    /// The float model of a quantised `net`, in net units of
    /// [`DEFAULT_SCALE`] centipawns (a net of another scale has its output
    /// layer rescaled): the start of a generation trained further on new
    /// data. [`Model::quantise`] at [`DEFAULT_SCALE`] gives `net`'s weights
    /// back exactly where its scale is the default.
    pub fn from_network(net: &Network) -> Model<T> {
        let w = net.weights();
        let by = f64::from(w.scale) / f64::from(DEFAULT_SCALE);
        let of = T::of;
        Model {
            inputs: net.inputs(),
            hidden: net.hidden(),
            buckets: net.buckets(),
            w1: w
                .ft_weights
                .iter()
                .map(|&w| of(f64::from(w) / f64::from(QA)))
                .collect(),
            b1: w
                .ft_bias
                .iter()
                .map(|&w| of(f64::from(w) / f64::from(QA)))
                .collect(),
            w2: w
                .out_weights
                .iter()
                .map(|&w| of(f64::from(w) * by / f64::from(QB)))
                .collect(),
            b2: w
                .out_bias
                .iter()
                .map(|&b| of(f64::from(b) * by / f64::from(QA * QB)))
                .collect(),
        }
    }

    /// This model with inputs added up to `inputs` in all, their weights 0
    /// (the factoriser's virtual inputs, [`Sample::factored`], before
    /// training): every sample scores as before. A model with `inputs` or
    /// more inputs is returned as it is.
    pub fn widened(&self, inputs: usize) -> Model<T> {
        let mut m = self.clone();
        if inputs > m.inputs {
            m.w1.resize(inputs * m.hidden, T::default());
            m.inputs = inputs;
        }
        m
    }

    /// Inputs of one view.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Hidden width H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The output buckets.
    pub fn buckets(&self) -> Buckets {
        self.buckets
    }

    /// Are all of `s`'s inputs inputs of this model?
    pub fn fits(&self, s: &Sample) -> bool {
        s.us.iter()
            .chain(&s.them)
            .all(|&i| (i as usize) < self.inputs)
    }

    fn scratch(&self) -> Scratch<T> {
        Scratch {
            us: vec![T::default(); self.hidden],
            them: vec![T::default(); self.hidden],
        }
    }

    /// Fills `acc` with the first layer's sums of `inputs` (inputs out of
    /// range are left out; [`Model::fits`] tells).
    #[inline]
    fn accumulate(&self, inputs: &[u32], acc: &mut [T]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &i in inputs {
            let i = i as usize;
            if let Some(row) = self.w1.get(i * h..(i + 1) * h) {
                acc.iter_mut().zip(row).for_each(|(a, &w)| *a += w);
            }
        }
    }

    /// The output of `bucket` from filled accumulators.
    #[inline]
    fn head(&self, sc: &Scratch<T>, bucket: usize) -> T {
        let h = self.hidden;
        let w2 = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let dot = |acc: &[T], w: &[T]| {
            acc.iter()
                .zip(w)
                .fold(T::default(), |s, (&a, &w)| s + screlu(a).0 * w)
        };
        dot(&sc.us, &w2[..h]) + dot(&sc.them, &w2[h..]) + self.b2[bucket]
    }

    fn forward(&self, s: &Sample, sc: &mut Scratch<T>) -> T {
        self.accumulate(&s.us, &mut sc.us);
        self.accumulate(&s.them, &mut sc.them);
        self.head(sc, self.buckets.index(usize::from(s.pieces)))
    }

    /// The output of `s` in net units (side to move's view; centipawns
    /// are this times the network's scale).
    pub fn output(&self, s: &Sample) -> T {
        self.forward(s, &mut self.scratch())
    }

    /// The mean loss over `data` under `link` (0 for no data).
    pub fn loss(&self, data: &[Sample], link: Link) -> f64 {
        let mut sc = self.scratch();
        let c = link.per_unit;
        let total: f64 = data
            .iter()
            .map(|s| {
                let out = self.forward(s, &mut sc).f64() + f64::from(s.offset);
                let p = sigmoid(out * c);
                (p - f64::from(s.target)).powi(2)
            })
            .sum();
        total / data.len().max(1) as f64
    }

    /// Adds the gradient of the mean loss over `batch` to `g`; returns
    /// the batch's mean loss.
    fn backward(&self, batch: &[&Sample], link: Link, g: &mut Grad<T>, sc: &mut Scratch<T>) -> f64 {
        let h = self.hidden;
        let c = T::of(link.per_unit);
        let n = T::of(batch.len().max(1) as f64);
        let mut total = 0.0;
        let mut d_us = vec![T::default(); h];
        let mut d_them = vec![T::default(); h];
        for s in batch {
            let out = self.forward(s, sc) + T::of(f64::from(s.offset));
            let p = sigmoid(c * out);
            let e = p - T::of(f64::from(s.target));
            total += (e * e).f64();
            // d(mean (p - t)²)/d out.
            let d = T::of(2.0) * e * p * (T::of(1.0) - p) * c / n;
            let b = self.buckets.index(usize::from(s.pieces));
            g.b2[b] += d;
            let (w2, gw2) = (
                &self.w2[b * 2 * h..(b + 1) * 2 * h],
                &mut g.w2[b * 2 * h..(b + 1) * 2 * h],
            );
            for j in 0..h {
                let (hu, du) = screlu(sc.us[j]);
                let (ht, dt) = screlu(sc.them[j]);
                gw2[j] += d * hu;
                gw2[h + j] += d * ht;
                d_us[j] = d * w2[j] * du;
                d_them[j] = d * w2[h + j] * dt;
                g.b1[j] += d_us[j] + d_them[j];
            }
            for &i in &s.us {
                g.add_row(i as usize, &d_us);
            }
            for &i in &s.them {
                g.add_row(i as usize, &d_them);
            }
        }
        total / batch.len().max(1) as f64
    }

    /// The quantised network, scoring as this model does (a model's unit
    /// is [`DEFAULT_SCALE`] centipawns) with `scale` centipawns per unit of
    /// the network's output (at least 1): first layer × [`QA`], output
    /// weights × [`QB`] · `DEFAULT_SCALE / scale`, output biases × `QA ·
    /// QB` · `DEFAULT_SCALE / scale`, each rounded and clamped to its
    /// integer type. A smaller scale quantises the output layer more
    /// finely (25: 16 times finer than 400), as long as its weights fit
    /// int16. Returns the network and how many values were clamped (0 for
    /// a net that fits).
    pub fn quantise(&self, scale: i32) -> (Network, usize) {
        let scale = scale.max(1);
        let finer = f64::from(DEFAULT_SCALE) / f64::from(scale);
        let mut clamped = 0;
        let mut q16 = |x: f64, by: i32| -> i16 {
            let v = (x * f64::from(by)).round();
            if v.is_nan() || v < f64::from(i16::MIN) || v > f64::from(i16::MAX) {
                clamped += 1;
            }
            // `as` saturates (NaN to 0).
            v as i16
        };
        let mut n = Network::zeroed(self.inputs, self.hidden, self.buckets);
        let w = n.weights_mut();
        for (q, &x) in w.ft_weights.iter_mut().zip(&self.w1) {
            *q = q16(x.f64(), QA);
        }
        for (q, &x) in w.ft_bias.iter_mut().zip(&self.b1) {
            *q = q16(x.f64(), QA);
        }
        for (q, &x) in w.out_weights.iter_mut().zip(&self.w2) {
            *q = q16(x.f64() * finer, QB);
        }
        for (q, &b) in w.out_bias.iter_mut().zip(&self.b2) {
            let b = (b.f64() * finer * f64::from(QA * QB)).round();
            if b.is_nan() || b < f64::from(i32::MIN) || b > f64::from(i32::MAX) {
                clamped += 1;
            }
            *q = b as i32;
        }
        n.set_scale(scale);
        (n, clamped)
    }
}

/// Training settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Adam's step size.
    pub lr: f32,
    /// Adam's decay of the first moment.
    pub beta1: f32,
    /// Adam's decay of the second moment.
    pub beta2: f32,
    /// Adam's ε.
    pub eps: f32,
    /// Decoupled weight decay per step (times `lr`) of the weights, not
    /// the biases; 0 turns it off.
    pub weight_decay: f32,
    /// Positions per step.
    pub batch: usize,
    /// Seed of the epochs' shuffles.
    pub seed: u64,
    /// The loss's link from net units to a win expectation.
    pub link: Link,
}

impl Default for Settings {
    /// Adam's usual `lr` 1e-3, betas 0.9 and 0.999; no weight decay;
    /// batches of 256; seed 1; [`Link::default`].
    fn default() -> Settings {
        Settings {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            batch: 256,
            seed: 1,
            link: Link::default(),
        }
    }
}

/// Why training cannot start.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TrainError {
    /// A setting out of range.
    #[error("bad setting {name}: {value}")]
    Setting {
        /// The setting.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// A sample with an input the model does not have.
    #[error("sample {index} has an input out of the model's {inputs} inputs")]
    Sample {
        /// Its index in the data.
        index: usize,
        /// The model's inputs.
        inputs: usize,
    },
}

/// A float model under training, with Adam's state.
#[derive(Clone, Debug)]
pub struct Trainer {
    model: Model<f32>,
    settings: Settings,
    /// Adam's first and second moments, in the model's shape.
    m: Grad<f32>,
    v: Grad<f32>,
    grad: Grad<f32>,
    scratch: Scratch<f32>,
    step: i32,
    rng: SplitMix64,
}

impl Trainer {
    /// A trainer of `model` under `settings`.
    ///
    /// Errors: a step size, beta, ε or decay out of range, a batch of 0,
    /// a hidden width of 0 or over [`MAX_HIDDEN`].
    pub fn new(model: Model<f32>, settings: Settings) -> Result<Trainer, TrainError> {
        let bad = |name, value: String| Err(TrainError::Setting { name, value });
        let s = &settings;
        if !(s.lr > 0.0 && s.lr.is_finite()) {
            return bad("lr", s.lr.to_string());
        }
        for (name, b) in [("beta1", s.beta1), ("beta2", s.beta2)] {
            if !(0.0..1.0).contains(&b) {
                return bad(name, b.to_string());
            }
        }
        if !(s.eps > 0.0 && s.eps.is_finite()) {
            return bad("eps", s.eps.to_string());
        }
        if !(s.weight_decay >= 0.0 && s.weight_decay.is_finite()) {
            return bad("weight decay", s.weight_decay.to_string());
        }
        if s.batch == 0 {
            return bad("batch", "0".into());
        }
        if model.hidden == 0 || model.hidden > MAX_HIDDEN {
            return bad("hidden", model.hidden.to_string());
        }
        let (i, h, b) = (model.inputs, model.hidden, model.buckets);
        Ok(Trainer {
            scratch: model.scratch(),
            model,
            m: Grad::new(i, h, b),
            v: Grad::new(i, h, b),
            grad: Grad::new(i, h, b),
            step: 0,
            rng: SplitMix64::new(settings.seed),
            settings,
        })
    }

    /// The model as trained so far.
    pub fn model(&self) -> &Model<f32> {
        &self.model
    }

    /// Adam's step size now.
    pub fn lr(&self) -> f32 {
        self.settings.lr
    }

    /// Sets Adam's step size for the steps to come (a schedule's drop).
    ///
    /// Errors: a step size not positive or not finite.
    pub fn set_lr(&mut self, lr: f32) -> Result<(), TrainError> {
        if !(lr > 0.0 && lr.is_finite()) {
            return Err(TrainError::Setting {
                name: "lr",
                value: lr.to_string(),
            });
        }
        self.settings.lr = lr;
        Ok(())
    }

    /// Takes the model out.
    pub fn into_model(self) -> Model<f32> {
        self.model
    }

    /// Errors with the first sample of `data` that does not fit the model.
    pub fn check(&self, data: &[Sample]) -> Result<(), TrainError> {
        match data.iter().position(|s| !self.model.fits(s)) {
            Some(index) => Err(TrainError::Sample {
                index,
                inputs: self.model.inputs,
            }),
            None => Ok(()),
        }
    }

    /// One pass over `data` in a shuffled order, one Adam step per batch;
    /// `progress` is told each batch's size. Returns the mean of the
    /// batches' losses before their steps (weighted by size; 0 for no
    /// data). Inputs out of the model's range are left out ([`Trainer::check`]
    /// finds them first).
    pub fn epoch(&mut self, data: &[Sample], progress: &mut dyn FnMut(usize)) -> f64 {
        let mut order: Vec<usize> = (0..data.len()).collect();
        self.rng.shuffle(&mut order);
        let mut total = 0.0;
        for chunk in order.chunks(self.settings.batch) {
            let batch: Vec<&Sample> = chunk.iter().map(|&i| &data[i]).collect();
            total += self.step(&batch) * batch.len() as f64;
            progress(batch.len());
        }
        total / data.len().max(1) as f64
    }

    /// One Adam step on `batch`; returns its loss before the step.
    fn step(&mut self, batch: &[&Sample]) -> f64 {
        let h = self.model.hidden;
        self.grad.clear(h);
        let loss =
            self.model
                .backward(batch, self.settings.link, &mut self.grad, &mut self.scratch);
        self.step = self.step.saturating_add(1);
        let s = self.settings;
        let t = self.step;
        let opt = Adam {
            lr: s.lr,
            beta1: s.beta1,
            beta2: s.beta2,
            eps: s.eps,
        };
        let lr = opt.rate(t);
        let decay = s.lr * s.weight_decay;
        let adam = |w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], decay: f32| {
            opt.update_slice(lr, w, g, m, v, decay);
        };
        for &i in &self.grad.touched {
            let r = i as usize * h..(i as usize + 1) * h;
            adam(
                &mut self.model.w1[r.clone()],
                &self.grad.w1[r.clone()],
                &mut self.m.w1[r.clone()],
                &mut self.v.w1[r],
                decay,
            );
        }
        adam(
            &mut self.model.b1,
            &self.grad.b1,
            &mut self.m.b1,
            &mut self.v.b1,
            0.0,
        );
        adam(
            &mut self.model.w2,
            &self.grad.w2,
            &mut self.m.w2,
            &mut self.v.w2,
            decay,
        );
        adam(
            &mut self.model.b2,
            &self.grad.b2,
            &mut self.m.b2,
            &mut self.v.b2,
            0.0,
        );
        loss
    }
}

/// Splits `data` into training and held-out positions: about `fraction`
/// (0 to 1) of them, drawn by `seed`, are held out. Positions of one game
/// may fall on both sides (they are alike, so the held-out loss is a
/// little optimistic).
pub fn split(data: Vec<Sample>, fraction: f64, seed: u64) -> (Vec<Sample>, Vec<Sample>) {
    let fraction = if fraction.is_nan() {
        0.0
    } else {
        fraction.clamp(0.0, 1.0)
    };
    let mut rng = SplitMix64::new(seed ^ 0x006f_6c64_686f_7574);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for s in data {
        if rng.unit() < fraction {
            held.push(s);
        } else {
            train.push(s);
        }
    }
    (train, held)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples of random inputs of a model of `inputs` inputs.
    fn samples(inputs: usize, n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let mut pick = |k| (0..k).map(|_| rng.below(inputs) as u32).collect();
                let us = pick(6);
                let them = pick(5);
                Sample {
                    us,
                    them,
                    target: rng.unit() as f32,
                    pieces: 1 + rng.below(30) as u16,
                    offset: 0.0,
                }
            })
            .collect()
    }

    /// A tiny model whose units sit inside (0, 1) and whose output is
    /// large enough for the sigmoid's slope to matter, with two output
    /// buckets (up to 15 pieces, and more).
    fn tiny() -> Model<f64> {
        let mut m = Model::<f64>::seeded(40, 4, Buckets::new(2, 15), 9);
        m.w1.iter_mut().for_each(|w| *w *= 2.0);
        m.w2.iter_mut().for_each(|w| *w *= 3.0);
        m.b2 = vec![0.3, -0.2];
        m
    }

    /// Every parameter's relative error between `g` and a central
    /// difference of the loss over `data`; the largest.
    fn worst_error(m: &Model<f64>, data: &[Sample], g: &Grad<f64>) -> (f64, String) {
        let link = Link::new(400.0, 300.0);
        let eps = 1e-6;
        let fd = |m: &Model<f64>, set: &dyn Fn(&mut Model<f64>, f64)| {
            let (mut a, mut b) = (m.clone(), m.clone());
            set(&mut a, eps);
            set(&mut b, -eps);
            (a.loss(data, link) - b.loss(data, link)) / (2.0 * eps)
        };
        let rel = |a: f64, n: f64| (a - n).abs() / (a.abs() + n.abs()).max(1e-9);
        let mut worst = (0.0, String::new());
        let mut see = |name: String, a: f64, n: f64| {
            let e = rel(a, n);
            if e > worst.0 {
                worst = (e, format!("{name}: analytic {a:e}, numeric {n:e}"));
            }
        };
        let h = m.hidden;
        for i in 0..m.inputs * h {
            let n = fd(m, &|m, d| m.w1[i] += d);
            see(format!("w1[{}][{}]", i / h, i % h), g.w1[i], n);
        }
        for j in 0..h {
            let n = fd(m, &|m, d| m.b1[j] += d);
            see(format!("b1[{j}]"), g.b1[j], n);
        }
        for j in 0..m.w2.len() {
            let n = fd(m, &|m, d| m.w2[j] += d);
            see(format!("w2[{j}]"), g.w2[j], n);
        }
        for b in 0..m.b2.len() {
            let n = fd(m, &|m, d| m.b2[b] += d);
            see(format!("b2[{b}]"), g.b2[b], n);
        }
        worst
    }

    fn analytic(m: &Model<f64>, data: &[Sample]) -> Grad<f64> {
        let mut g = Grad::new(m.inputs, m.hidden, m.buckets);
        let batch: Vec<&Sample> = data.iter().collect();
        m.backward(&batch, Link::new(400.0, 300.0), &mut g, &mut m.scratch());
        g
    }

    #[test]
    fn the_gradient_of_every_parameter_agrees_with_a_central_difference() {
        let m = tiny();
        let data = samples(m.inputs, 5, 3);
        let g = analytic(&m, &data);
        // Some rows are active, some not (their gradient is 0 both ways).
        assert!(!g.touched.is_empty() && g.touched.len() < m.inputs);
        // Units inside the clamp's live range, so every kind is exercised.
        assert!(g.b1.iter().all(|&x| x != 0.0), "{:?}", g.b1);
        // Both buckets have samples.
        assert!(g.b2.iter().all(|&x| x != 0.0), "{:?}", g.b2);
        let (e, at) = worst_error(&m, &data, &g);
        eprintln!("worst relative error {e:e} at {at}");
        assert!(e < 1e-5, "relative error {e:e} at {at}");
    }

    #[test]
    fn the_gradient_with_offsets_agrees_with_a_central_difference() {
        let m = tiny();
        let data: Vec<Sample> = samples(m.inputs, 5, 3)
            .into_iter()
            .enumerate()
            .map(|(i, s)| s.with_offset(0.4 * i as f32 - 0.9))
            .collect();
        let plain = analytic(&m, &samples(m.inputs, 5, 3));
        let g = analytic(&m, &data);
        // The offsets move the loss and so its gradient.
        assert!(
            (g.b2[0] - plain.b2[0]).abs() > 1e-6,
            "{} {}",
            g.b2[0],
            plain.b2[0]
        );
        let (e, at) = worst_error(&m, &data, &g);
        assert!(e < 1e-5, "relative error {e:e} at {at}");
        // A sample's offset adds to its output before the link: the loss
        // of an offset sample is that of the output moved by the offset.
        let s = &data[0];
        let link = Link::new(400.0, 300.0);
        let p = 1.0 / (1.0 + (-(m.output(s) + f64::from(s.offset)) * link.per_unit).exp());
        let want = (p - f64::from(s.target)).powi(2);
        assert!((m.loss(std::slice::from_ref(s), link) - want).abs() < 1e-12);
        assert_eq!(s.clone().with_offset(f32::NAN).offset, 0.0);
    }

    #[test]
    fn the_check_catches_a_gradient_a_little_wrong() {
        let m = tiny();
        let data = samples(m.inputs, 5, 3);
        // Each kind of parameter, one value 1% off: the check must see it.
        let h = m.hidden;
        let row = analytic(&m, &data).touched[0] as usize;
        for (kind, spoil) in [
            (
                "w1",
                &(|g: &mut Grad<f64>| g.w1[row * h + 1] *= 1.01) as &dyn Fn(&mut Grad<f64>),
            ),
            ("b1", &|g| g.b1[2] *= 1.01),
            ("w2", &|g| g.w2[h + 3] *= 1.01),
            ("w2 of bucket 1", &|g| g.w2[2 * h + 1] *= 1.01),
            ("b2", &|g| g.b2[0] *= 1.01),
            ("b2 of bucket 1", &|g| g.b2[1] *= 1.01),
        ] {
            let mut g = analytic(&m, &data);
            spoil(&mut g);
            let (e, _) = worst_error(&m, &data, &g);
            assert!(e > 1e-3, "{kind}: a 1% error went unseen ({e:e})");
        }
    }

    #[test]
    fn the_f32_model_computes_what_the_f64_one_does() {
        let m = tiny();
        let mut m32 = Model::<f32>::zeroed(m.inputs, m.hidden, m.buckets);
        m32.w1 = m.w1.iter().map(|&x| x as f32).collect();
        m32.b1 = m.b1.iter().map(|&x| x as f32).collect();
        m32.w2 = m.w2.iter().map(|&x| x as f32).collect();
        m32.b2 = m.b2.iter().map(|&x| x as f32).collect();
        for s in samples(m.inputs, 20, 5) {
            assert!((m.output(&s) - f64::from(m32.output(&s))).abs() < 1e-5);
        }
    }

    #[test]
    fn quantising_scales_rounds_and_clamps() {
        let mut m = Model::<f32>::zeroed(2, 2, Buckets::new(2, 4));
        m.w1 = vec![1.0, -0.5, 0.002, 1000.0];
        m.b1 = vec![0.25, 0.0];
        m.w2 = vec![0.5, -1.0, 2.0, 0.0, 1.0, 0.0, 0.0, -0.25];
        m.b2 = vec![0.1, -0.5];
        let (n, clamped) = m.quantise(400);
        assert_eq!(n.weights().ft_weights, &vec![255, -128, 1, i16::MAX]);
        assert_eq!(n.weights().ft_bias, &vec![64, 0]);
        assert_eq!(
            n.weights().out_weights,
            &vec![32, -64, 128, 0, 64, 0, 0, -16]
        );
        let q = |b: f64| (b * f64::from(QA * QB)).round() as i32;
        assert_eq!(n.weights().out_bias, &vec![q(0.1), q(-0.5)]);
        assert_eq!(n.buckets(), Buckets::new(2, 4));
        assert_eq!(n.weights().scale, 400);
        assert_eq!(clamped, 1);
    }

    #[test]
    fn a_folded_model_gives_the_factored_samples_outputs() {
        use kamil_rules::Variant;
        use std::sync::Arc;
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let f = Features::new(&v);
        let blocks = f.inputs() / f.squares();
        let m = Model::<f64>::seeded(f.inputs() + blocks, 8, Buckets::spread(4, 48), 3);
        let folded = m.folded(f.inputs(), f.squares());
        assert_eq!(folded.inputs(), f.inputs());
        let mut pos = Position::start(v.clone());
        for _ in 0..6 {
            let s = Sample::new(&f, &pos, 0.5);
            let fs = s.factored(&f);
            assert_eq!(fs.us.len(), 2 * s.us.len());
            assert!(m.fits(&fs) && !folded.fits(&fs) && folded.fits(&s));
            let (a, b) = (m.output(&fs), folded.output(&s));
            assert!((a - b).abs() < 1e-9, "{a} {b}");
            // Without the virtual rows' help the outputs differ.
            assert!((m.output(&s) - a).abs() > 1e-6);
            let mv = pos.legal_moves()[0];
            pos.make(mv);
        }
        // A model with no virtual rows folds to itself.
        assert_eq!(folded.folded(f.inputs(), f.squares()), folded);
    }

    #[test]
    fn a_network_read_back_as_a_model_scores_as_it_does_and_quantises_to_itself() {
        use kamil_rules::Variant;
        use std::sync::Arc;
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let f = Features::new(&v);
        let net = Network::seeded(&f, 16, Buckets::spread(2, 48), 9);
        let m = Model::<f64>::from_network(&net);
        assert_eq!(
            Model::<f32>::from_network(&net).quantise(DEFAULT_SCALE).0,
            net
        );
        let nnue = kamil_engine::nnue::Nnue::new(&v, f.clone(), net.clone());
        // Widened by the factoriser's rows, a factored sample scores the same.
        let blocks = f.inputs() / f.squares();
        let wide = m.widened(f.inputs() + blocks);
        assert_eq!(wide.inputs(), f.inputs() + blocks);
        assert_eq!(wide.widened(1), wide);
        let mut pos = Position::start(v.clone());
        for _ in 0..8 {
            let s = Sample::new(&f, &pos, 0.5);
            let cp = f64::from(nnue.evaluate_fresh(&pos));
            // The net's integer arithmetic truncates twice: within 1.1 cp.
            let model_cp = m.output(&s) * f64::from(DEFAULT_SCALE);
            assert!((model_cp - cp).abs() < 1.1, "{model_cp} {cp}");
            let wide_cp = wide.output(&s.factored(&f)) * f64::from(DEFAULT_SCALE);
            assert!((wide_cp - model_cp).abs() < 1e-9);
            let mv = pos.legal_moves()[0];
            pos.make(mv);
        }
        // Another scale is folded into the output layer.
        let mut half = net.clone();
        half.set_scale(DEFAULT_SCALE / 2);
        let s = Sample::new(&f, &pos, 0.5);
        let (a, b) = (Model::<f64>::from_network(&half).output(&s), m.output(&s));
        assert!((2.0 * a - b).abs() < 1e-9, "{a} {b}");
    }

    #[test]
    fn a_finer_output_scale_scores_nearer_the_model_and_reads_back_to_itself() {
        use kamil_rules::Variant;
        use std::sync::Arc;
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let f = Features::new(&v);
        let mut m = Model::<f64>::seeded(f.inputs(), 16, Buckets::spread(2, 48), 5);
        // First-layer weights on their grid, so only the output layer rounds.
        let qa = f64::from(QA);
        m.w1.iter_mut().for_each(|w| *w = (*w * qa).round() / qa);
        m.b1.iter_mut().for_each(|w| *w = (*w * qa).round() / qa);
        let (coarse, c1) = m.quantise(DEFAULT_SCALE);
        let (fine, c2) = m.quantise(DEFAULT_SCALE / 16);
        assert_eq!((c1, c2), (0, 0));
        assert_eq!(fine.weights().scale, 25);
        assert_eq!(Model::<f32>::from_network(&fine).quantise(25).0, fine);
        let read = [&coarse, &fine].map(Model::<f64>::from_network);
        let nnue = kamil_engine::nnue::Nnue::new(&v, f.clone(), fine.clone());
        let mut errors = [0.0f64; 2];
        let mut pos = Position::start(v.clone());
        for i in 0..40 {
            let s = Sample::new(&f, &pos, 0.5);
            let want = m.output(&s);
            for (e, r) in errors.iter_mut().zip(&read) {
                *e += (r.output(&s) - want).abs();
            }
            // The integer arithmetic truncates to whole centipawns, and the
            // output layer still rounds a little.
            let cp = f64::from(nnue.evaluate_fresh(&pos));
            assert!(
                (want * f64::from(DEFAULT_SCALE) - cp).abs() < 1.5,
                "{want} {cp}"
            );
            let moves = pos.legal_moves();
            pos.make(moves[(i * 7) % moves.len()]);
        }
        // Steps 16 times finer: errors about 16 times smaller.
        assert!(errors[1] < errors[0] / 8.0, "{errors:?}");
    }

    #[test]
    fn bad_settings_and_foreign_samples_are_errors() {
        let m = Model::<f32>::seeded(10, 4, Buckets::ONE, 1);
        let bad = Settings {
            batch: 0,
            ..Settings::default()
        };
        assert!(matches!(
            Trainer::new(m.clone(), bad),
            Err(TrainError::Setting { name: "batch", .. })
        ));
        let mut t = Trainer::new(m, Settings::default()).unwrap();
        for lr in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(t.set_lr(lr).is_err(), "{lr}");
        }
        assert_eq!(t.lr(), Settings::default().lr);
        t.set_lr(0.25).unwrap();
        assert_eq!(t.lr(), 0.25);
        let mut data = samples(10, 3, 1);
        assert_eq!(t.check(&data), Ok(()));
        data[2].them.push(10);
        assert_eq!(
            t.check(&data),
            Err(TrainError::Sample {
                index: 2,
                inputs: 10
            })
        );
    }

    #[test]
    fn a_split_is_seeded_and_keeps_every_sample() {
        let data = samples(10, 400, 2);
        let (a, b) = split(data.clone(), 0.25, 7);
        assert_eq!(a.len() + b.len(), 400);
        assert!((60..140).contains(&b.len()), "{}", b.len());
        assert_eq!(split(data.clone(), 0.25, 7).1, b);
        assert_ne!(split(data, 0.25, 8).1, b);
    }
}
