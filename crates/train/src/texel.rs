//! Texel's method for the hand-written evaluation (`kamil tune`). Each
//! position's features are traced once ([`kamil_engine::Evaluator::trace`]):
//! the evaluation is linear in the weights, `e = Σ c_k w_k` (centipawns,
//! first player's view). The loss is the mean squared error between the
//! result and `σ(K e)`, `σ(x) = 1 / (1 + exp(-x))`. First `K` (per
//! centipawn) is chosen to minimise the loss with the starting weights
//! ([`best_scale`]), then the weights descend the loss's gradient
//! ([`descend`]: Adam, full batch).

use crate::optim::Adam;
use kamil_engine::Evaluator;
use kamil_engine::eval::weights::{Pair, Params, promotion_floors};
use kamil_rules::{Position, Side, Variant};

/// One position's features: `(k, c)` as in
/// [`kamil_engine::eval::trace::Trace::coefficients`], first player's view,
/// and the result for the first player.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Nonzero coefficients of the weights (index `k` into the flat list
    /// of middle-game and end-game weights).
    pub coefficients: Vec<(u32, f32)>,
    /// What the game was worth to the first player, 0 to 1.
    pub result: f32,
}

/// Does `name` (`mobility.rook`) fall under `pattern`: the name itself or
/// its section (`mobility`)?
pub fn matches(name: &str, pattern: &str) -> bool {
    name == pattern
        || name
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Per flat weight (`[mg0, eg0, mg1, ...]` of the pairs named `names`):
/// is it frozen by one of `freeze`? Errors with the first pattern that
/// names nothing.
pub fn frozen_weights<'a>(names: &[String], freeze: &'a [String]) -> Result<Vec<bool>, &'a str> {
    if let Some(f) = freeze.iter().find(|f| !names.iter().any(|n| matches(n, f))) {
        return Err(f);
    }
    Ok(names
        .iter()
        .flat_map(|n| {
            let on = freeze.iter().any(|f| matches(n, f));
            [on, on]
        })
        .collect())
}

/// The traced features of `pos` (first player's view) with its result.
pub fn sample(ev: &Evaluator, pos: &Position, result: f64) -> Sample {
    let t = ev.trace(pos);
    let sign = if pos.side() == Side::First { 1.0 } else { -1.0 };
    Sample {
        coefficients: t
            .coefficients
            .iter()
            .map(|&(k, c)| (k, (sign * c) as f32))
            .collect(),
        result: result as f32,
    }
}

/// Pairs as the flat list of weights `[mg0, eg0, mg1, eg1, ...]`.
pub fn flat(pairs: &[Pair]) -> Vec<f64> {
    pairs
        .iter()
        .flat_map(|p| [f64::from(p.mg), f64::from(p.eg)])
        .collect()
}

/// A sample's evaluation under `w`, centipawns.
fn eval(s: &Sample, w: &[f64]) -> f64 {
    s.coefficients
        .iter()
        .map(|&(k, c)| f64::from(c) * w[k as usize])
        .sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `σ(k e)` against the results.
pub fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = f64::from(s.result) - sigmoid(k * eval(s, w));
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale `K` (per centipawn) that minimises the loss under `w`: a
/// search over a logarithmic grid, then golden-section refinement.
pub fn best_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let f = |lk: f64| loss(samples, w, 10f64.powf(lk));
    let mut best = -4.0;
    let mut best_loss = f(best);
    let mut lk = -4.0;
    while lk <= -0.5 {
        let l = f(lk);
        if l < best_loss {
            (best, best_loss) = (lk, l);
        }
        lk += 0.1;
    }
    let (mut a, mut b) = (best - 0.1, best + 0.1);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// The settings of one fit by [`descend`].
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// The sigmoid's scale, per centipawn.
    pub k: f64,
    /// Passes over the data.
    pub epochs: u32,
    /// Adam's step size, in the weights' units.
    pub lr: f64,
    /// Ridge penalty per squared unit of a weight's distance from its
    /// start (0: none).
    pub l2: f64,
}

/// Adam over the mean squared error (plus `fit.l2` times the squared
/// distance from `start`) from weights `start` (flat), leaving the
/// `frozen` ones; calls `on_epoch(epoch, loss)` after each pass with the
/// data's loss alone. After each step every pair `(low, high)` of
/// `floors` (flat indices) is kept at `w[high] >= w[low]` (projected:
/// `high` raised, or `low` lowered where `high` is frozen): a promoted
/// piece worth at least what it promotes from ([`flat_floors`]). Returns
/// the tuned weights (flat, unrounded).
pub fn descend(
    samples: &[Sample],
    start: &[f64],
    frozen: &[bool],
    floors: &[(usize, usize)],
    fit: Fit,
    on_epoch: &mut dyn FnMut(u32, f64),
) -> Vec<f64> {
    let Fit { k, epochs, lr, l2 } = fit;
    let opt = Adam {
        lr,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
    };
    let n = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut grad = vec![0.0; n];
    let count = samples.len().max(1) as f64;
    for epoch in 1..=epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for s in samples {
            let p = sigmoid(k * eval(s, &w));
            let d = f64::from(s.result) - p;
            total += d * d;
            // d/dw of (r - σ(k e))² = -2 (r - σ) σ (1 - σ) k c.
            let common = -2.0 * d * p * (1.0 - p) * k / count;
            for &(i, c) in &s.coefficients {
                grad[i as usize] += common * f64::from(c);
            }
        }
        let rate = opt.rate(i32::try_from(epoch).unwrap_or(i32::MAX));
        for i in 0..n {
            if frozen.get(i).copied().unwrap_or(false) {
                continue;
            }
            grad[i] += 2.0 * l2 * (w[i] - start[i]);
            opt.update(rate, &mut w[i], grad[i], &mut m[i], &mut v[i], 0.0);
        }
        keep_floors(&mut w, frozen, floors);
        on_epoch(epoch, total / count);
    }
    w
}

/// Projects `w` onto `w[high] >= w[low]` for each pair of `floors`:
/// `high` raised to `low`, or `low` lowered to `high` where `high` is
/// `frozen` (both frozen: left). A chain settles in as many passes as it
/// is long.
fn keep_floors(w: &mut [f64], frozen: &[bool], floors: &[(usize, usize)]) {
    let is_frozen = |i: usize| frozen.get(i).copied().unwrap_or(false);
    for _ in 0..=floors.len() {
        let mut changed = false;
        for &(low, high) in floors {
            if w[high] >= w[low] {
                continue;
            }
            if !is_frozen(high) {
                w[high] = w[low];
            } else if !is_frozen(low) {
                w[low] = w[high];
            } else {
                continue;
            }
            changed = true;
        }
        if !changed {
            break;
        }
    }
}

/// The promotion floors of `variant` ([`promotion_floors`]) as flat
/// indices of `params`' weights, `(low, high)` in the middle game and in
/// the end game.
pub fn flat_floors(variant: &Variant, params: &Params) -> Vec<(usize, usize)> {
    promotion_floors(variant)
        .into_iter()
        .flat_map(|(from, to)| {
            let (f, t) = (params.piece_value_index(from), params.piece_value_index(to));
            [(2 * f, 2 * t), (2 * f + 1, 2 * t + 1)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_engine::EvalMode;
    use kamil_rules::movegen::legal_moves;
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    /// Traces every position of `positions` under `ev` with results from
    /// `label`.
    fn samples_of(
        ev: &Evaluator,
        positions: &[Position],
        label: &mut dyn FnMut(&Position) -> f64,
    ) -> Vec<Sample> {
        positions.iter().map(|p| sample(ev, p, label(p))).collect()
    }

    /// Positions of random courier games, material well spread.
    fn positions(variant: &Arc<Variant>, games: u32) -> Vec<Position> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = Position::start(variant.clone());
            for ply in 0..160 {
                moves.clear();
                legal_moves(&mut pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                pos.make(m);
                if ply % 8 == 7 {
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    #[test]
    fn freezing_takes_names_and_sections_and_refuses_unknown_ones() {
        let names: Vec<String> = ["tempo", "mobility.rook", "mobility.rook2", "mobility_x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let f = |p: &[&str]| {
            let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
            frozen_weights(&names, &p).map_err(|e| e.to_string())
        };
        assert_eq!(
            f(&["mobility"]).unwrap(),
            [false, false, true, true, true, true, false, false]
        );
        assert_eq!(
            f(&["tempo", "mobility.rook"]).unwrap(),
            [true, true, true, true, false, false, false, false]
        );
        assert_eq!(f(&["mob"]), Err("mob".to_string()));
        assert!(f(&[]).unwrap().iter().all(|&b| !b));
    }

    #[test]
    fn the_loss_falls_and_a_known_weight_is_recovered() {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let defaults = Params::defaults(&v);
        // The truth: a Knight is worth 150 more than the file says.
        let knight = v.piece_by_key("knight").unwrap() as usize;
        let i = defaults.piece_value_index(knight);
        let mut truth = defaults.pairs.clone();
        truth[i] = Pair::new(truth[i].mg + 150, truth[i].eg + 150);
        let truth = defaults.with_pairs(&v, &truth).unwrap();
        let k = 0.01;
        let ev = Evaluator::with_params(v.clone(), EvalMode::Full, defaults.clone());
        let true_ev = Evaluator::with_params(v.clone(), EvalMode::Full, truth.clone());
        let pos = positions(&v, 60);
        let samples = samples_of(&ev, &pos, &mut |p| {
            let s = sample(&true_ev, p, 0.0);
            sigmoid(k * eval(&s, &flat(&truth.pairs)))
        });
        let start = flat(&defaults.pairs);
        // Only the piece values move, so the Knight's is identifiable.
        let frozen: Vec<bool> = (0..start.len())
            .map(|j| !defaults.is_piece_value(j / 2))
            .collect();
        let before = loss(&samples, &start, k);
        let mut last = f64::MAX;
        let fit = Fit {
            k,
            epochs: 400,
            lr: 2.0,
            l2: 0.0,
        };
        let tuned = descend(&samples, &start, &frozen, &[], fit, &mut |_, l| last = l);
        assert!(last < before / 4.0, "loss {before} -> {last}");
        let found = (tuned[2 * i] + tuned[2 * i + 1]) / 2.0;
        let wanted = f64::from(truth.pairs[i].mg);
        assert!(
            (found - wanted).abs() < 40.0,
            "knight {found}, wanted {wanted}"
        );
        // A strong ridge penalty holds the Knight near where it started.
        let held = descend(
            &samples,
            &start,
            &frozen,
            &[],
            Fit { l2: 1e-3, ..fit },
            &mut |_, _| {},
        );
        let moved = (held[2 * i] + held[2 * i + 1]) / 2.0 - start[2 * i];
        assert!(moved.abs() < 20.0, "knight moved {moved} under the penalty");
        // K is found again from data labelled with it.
        let k_found = best_scale(&samples, &flat(&truth.pairs));
        assert!((k_found / k - 1.0).abs() < 0.05, "K {k_found}");
    }

    #[test]
    fn a_promoted_piece_stays_worth_what_it_promotes_from() {
        // Data that says Courier's Fers is worth 200 less than the file
        // says, in both phases: far below the Pawn it promotes from.
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let defaults = Params::defaults(&v);
        let fers = v.piece_by_key("fers").unwrap() as usize;
        let pawn = v.piece_by_key("pawn").unwrap() as usize;
        let (f, p) = (
            defaults.piece_value_index(fers),
            defaults.piece_value_index(pawn),
        );
        let mut truth = defaults.pairs.clone();
        truth[f] = Pair::new(truth[f].mg - 200, truth[f].eg - 200);
        let truth = defaults.with_pairs(&v, &truth).unwrap();
        let k = 0.01;
        let ev = Evaluator::with_params(v.clone(), EvalMode::Full, defaults.clone());
        let true_ev = Evaluator::with_params(v.clone(), EvalMode::Full, truth.clone());
        let samples = samples_of(&ev, &positions(&v, 60), &mut |q| {
            let s = sample(&true_ev, q, 0.0);
            sigmoid(k * eval(&s, &flat(&truth.pairs)))
        });
        let start = flat(&defaults.pairs);
        let frozen: Vec<bool> = (0..start.len())
            .map(|j| !defaults.is_piece_value(j / 2) || j / 2 == p)
            .collect();
        let fit = Fit {
            k,
            epochs: 300,
            lr: 2.0,
            l2: 0.0,
        };
        let floors = flat_floors(&v, &defaults);
        assert!(floors.contains(&(2 * p, 2 * f)) && floors.contains(&(2 * p + 1, 2 * f + 1)));
        // Free, the fit takes the Fers below the Pawn in some phase...
        let free = descend(&samples, &start, &frozen, &[], fit, &mut |_, _| {});
        assert!(
            free[2 * f] < free[2 * p] || free[2 * f + 1] < free[2 * p + 1],
            "fers {}/{}, pawn {}/{}",
            free[2 * f],
            free[2 * f + 1],
            free[2 * p],
            free[2 * p + 1]
        );
        // ...with the floors it stays at least the Pawn in both.
        let kept = descend(&samples, &start, &frozen, &floors, fit, &mut |_, _| {});
        assert!(kept[2 * f] >= kept[2 * p] && kept[2 * f + 1] >= kept[2 * p + 1]);
        assert_eq!(
            (kept[2 * p], kept[2 * p + 1]),
            (start[2 * p], start[2 * p + 1])
        );
    }
}
