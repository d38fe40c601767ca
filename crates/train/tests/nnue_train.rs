//! The network trainer (issue 46): a tiny net trained on positions of
//! seeded random Courier games, labelled by their material balance through
//! a sigmoid, lowers its loss on the training and the held-out positions;
//! the quantised network scores the positions as the float one does; its
//! file reads back.

use kamil_engine::nnue::Nnue;
use kamil_engine::nnue::features::Features;
use kamil_engine::nnue::network::Buckets;
use kamil_engine::values::PieceValues;
use kamil_rules::splitmix::SplitMix64;
use kamil_rules::{Move, Position, Side, Variant};
use kamil_train::nnue::{Link, Model, Sample, Settings, Trainer, split};
use std::sync::Arc;

/// Positions of `games` seeded random games of `v` (after 4 plies, up to
/// 120), each with the side to move's material balance in centipawns.
fn random_positions(v: &Arc<Variant>, games: usize, seed: u64) -> Vec<(Position, f64)> {
    let values = PieceValues::new(v);
    let material = |pos: &Position, side: Side| -> i32 {
        pos.pieces(side)
            .iter()
            .map(|&sq| pos.at(sq))
            .filter(|p| !v.pieces[p.kind() as usize].royal)
            .map(|p| values.value(p.kind()))
            .sum()
    };
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(v.clone());
        for ply in 0..120 {
            if pos.outcome().is_some() {
                break;
            }
            let moves: Vec<Move> = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply >= 4 {
                let us = pos.side();
                let balance = material(&pos, us) - material(&pos, us.flip());
                out.push((pos.clone(), f64::from(balance)));
            }
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    out
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[test]
fn a_tiny_net_learns_material_and_its_quantised_file_scores_alike() {
    let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
    let features = Features::new(&v);
    let positions = random_positions(&v, 40, 11);
    // Balance through the loss's own link (K = 400 cp): learnable exactly.
    let data: Vec<Sample> = positions
        .iter()
        .map(|(p, cp)| Sample::new(&features, p, sigmoid(cp / 400.0) as f32))
        .collect();
    let spread = data.iter().filter(|s| (s.target - 0.5).abs() > 0.1).count();
    assert!(
        spread * 4 > data.len(),
        "too few unbalanced positions: {spread}"
    );
    let (train, held) = split(data.clone(), 0.1, 3);
    assert!(!held.is_empty());
    let link = Link::default();
    let model = Model::<f32>::seeded(features.inputs(), 8, Buckets::spread(2, 48), 5);
    let (train0, held0) = (model.loss(&train, link), model.loss(&held, link));
    let settings = Settings {
        lr: 0.01,
        batch: 64,
        ..Settings::default()
    };
    let mut t = Trainer::new(model, settings).unwrap();
    t.check(&train).unwrap();
    let mut seen = 0;
    let mut epochs = Vec::new();
    for _ in 0..8 {
        epochs.push(t.epoch(&train, &mut |n| seen += n));
    }
    assert_eq!(seen, 8 * train.len());
    let (train1, held1) = (t.model().loss(&train, link), t.model().loss(&held, link));
    eprintln!(
        "train {train0:.5} -> {train1:.5}, held-out {held0:.5} -> {held1:.5}, epochs {epochs:?}"
    );
    assert!(train1 < 0.3 * train0, "train loss {train0} -> {train1}");
    assert!(held1 < 0.5 * held0, "held-out loss {held0} -> {held1}");

    let (net, clamped) = t.model().quantise(400);
    assert_eq!(clamped, 0);
    let nnue = Nnue::new(&v, features, net);
    let back = Nnue::from_bytes(&v, &nnue.to_bytes()).unwrap();
    let (mut worst, mut largest): (f64, f64) = (0.0, 0.0);
    for ((pos, _), s) in positions.iter().zip(&data) {
        let float = f64::from(t.model().output(s)) * 400.0;
        let quant = f64::from(nnue.evaluate_fresh(pos));
        assert_eq!(back.evaluate_fresh(pos), quant as i32);
        if float.abs() > 40.0 {
            assert_eq!(float > 0.0, quant > 0.0, "float {float}, quantised {quant}");
        }
        // Rounding each weight to 1/255 moves a sum of ~48 of them by
        // about 0.01 (at most 0.1), and h = acc² by twice that, times
        // output weights of a few units: tens of centipawns at most.
        let slack = 25.0 + 0.02 * float.abs();
        worst = worst.max((float - quant).abs() / slack);
        largest = largest.max(float.abs());
    }
    eprintln!(
        "float-quantised difference at most {worst:.2} of its slack; scores up to {largest:.0} cp"
    );
    assert!(worst < 1.0, "{worst}");
}

#[test]
fn training_is_reproducible_for_a_seed() {
    let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
    let features = Features::new(&v);
    let data: Vec<Sample> = random_positions(&v, 3, 2)
        .iter()
        .map(|(p, cp)| Sample::new(&features, p, sigmoid(cp / 400.0) as f32))
        .collect();
    let run = |seed| {
        let settings = Settings {
            seed,
            batch: 16,
            ..Settings::default()
        };
        let mut t = Trainer::new(
            Model::seeded(features.inputs(), 4, Buckets::ONE, 1),
            settings,
        )
        .unwrap();
        t.epoch(&data, &mut |_| {});
        t.into_model()
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
}
