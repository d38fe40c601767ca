//! The learned evaluation's machinery (issue 46), with seeded random
//! networks: in every built-in variant the accumulators the search updates
//! move by move from the change lists equal ones computed from the board,
//! for every legal move of seeded random games and for the null move, and
//! the SIMD path (AVX2 where the processor has it) gives the plain path's
//! accumulators and scores bit for bit; each
//! side's view turns the board so that a symmetric start scores the same
//! for either side to move; the file format reads back what it wrote and
//! refuses a damaged, truncated or foreign file, saying what is wrong; an
//! engine searches with a network.

use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::evaluation::StaticEval;
use kamil_engine::nnue::accumulator::Accumulators;
use kamil_engine::nnue::features::{Features, KingMap, Turn};
use kamil_engine::nnue::file::NetError;
use kamil_engine::nnue::network::{Buckets, Network};
use kamil_engine::nnue::simd::Simd;
use kamil_engine::nnue::{NetFileError, Nnue};
use kamil_engine::{Engine, EngineConfig, Limits, Score, Skill};
use kamil_rules::splitmix::SplitMix64;
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, Position, Side, Variant};
use std::sync::Arc;

/// `bytes` with their trailing checksum made again, so that a header
/// field changed by a test reads as written (not as damage).
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let end = bytes.len() - 8;
    let sum = kamil_engine::fingerprint::fnv1a(&bytes[8..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

fn variant(name: &str) -> Arc<Variant> {
    Arc::new(Variant::builtin(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// A seeded net of `v` with three output buckets over its start position's
/// pieces, so that games pass from one bucket to another.
fn seeded(v: &Arc<Variant>, hidden: usize, seed: u64) -> Nnue {
    seeded_with_kings(v, hidden, seed, 1)
}

/// [`seeded`] with `kings` king buckets by rank ([`KingMap::by_rank`]; 1:
/// none).
fn seeded_with_kings(v: &Arc<Variant>, hidden: usize, seed: u64, kings: u8) -> Nnue {
    let g = &v.geometry;
    let map = KingMap::by_rank(kings, g.files() as usize, g.ranks() as usize).unwrap();
    let features = Features::new(v).with_kings(map).unwrap();
    let start = Position::start(v.clone());
    let full = start.pieces_on_board();
    let net = Network::seeded(&features, hidden, Buckets::spread(3, full), seed);
    Nnue::new(v, features, net)
}

/// The plain path's evaluation and that of the fastest path this
/// processor has (AVX2 where present; else the plain one again, and the
/// comparison checks nothing more).
fn both_paths(nnue: Nnue) -> (Nnue, Nnue) {
    let fast = Simd::avx2().unwrap_or(Simd::plain());
    if !fast.is_avx2() {
        eprintln!("no AVX2 here: the SIMD path is not compared");
    }
    (nnue.clone().with_simd(Simd::plain()), nnue.with_simd(fast))
}

/// Both views of the two paths' accumulators are equal, and so are their
/// evaluations, which equal the one computed from the board; returns it.
fn same_on_both_paths(
    (plain, fast): (&Nnue, &Nnue),
    (ps, fs): (&mut Accumulators, &mut Accumulators),
    pos: &Position,
    at: &dyn Fn() -> String,
) -> i32 {
    // Evaluating brings the lazily kept views up to date.
    let e = plain.evaluate(pos, ps);
    assert_eq!(fast.evaluate(pos, fs), e, "{}", at());
    for side in [Side::First, Side::Second] {
        assert_eq!(ps.view(side), fs.view(side), "{side:?} view, {}", at());
    }
    assert_eq!(e, plain.evaluate_fresh(pos), "plain, {}", at());
    assert_eq!(e, fast.evaluate_fresh(pos), "fast, {}", at());
    e
}

#[test]
fn incremental_accumulators_equal_fresh_ones_and_simd_equals_plain_in_every_variant() {
    every_variant_incrementally(1);
}

/// Issue 77: with king buckets, a view whose King changes bucket is
/// computed from the board, the other incrementally: still the fresh
/// accumulator's values, in every game, along games in which Kings cross
/// from the back rank and back.
#[test]
fn with_king_buckets_incremental_accumulators_equal_fresh_ones_in_every_variant() {
    let crossings = every_variant_incrementally(2);
    assert!(crossings > 10, "{crossings} bucket changes seen");
}

/// The check of the test above with `kings` king buckets; returns how
/// many moves of the games played changed a view's bucket.
fn every_variant_incrementally(kings: u8) -> usize {
    let mut crossings = 0;
    for (name, _) in BUILTIN {
        let v = variant(name);
        // 40 hidden units: two and a half AVX2 vectors, so the tail counts.
        let (plain, fast) = both_paths(seeded_with_kings(&v, 40, 7, kings));
        let nets = (&plain, &fast);
        let mut rng = SplitMix64::new(0x5eed ^ name.len() as u64);
        let mut scores = std::collections::HashSet::new();
        for game in 0..2 {
            let mut pos = Position::start(v.clone());
            let (mut ps, mut fs) = (plain.new_state(&pos), fast.new_state(&pos));
            for ply in 0..40 {
                if pos.outcome().is_some() {
                    break;
                }
                let moves: Vec<Move> = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    pos.make(m);
                    plain.push(&mut ps, &pos, pos.last_changes());
                    fast.push(&mut fs, &pos, pos.last_changes());
                    let at = || {
                        let mut p = pos.clone();
                        p.unmake();
                        format!(
                            "{name} game {game} ply {ply}: after {m:?} from `{}`",
                            p.fen()
                        )
                    };
                    scores.insert(same_on_both_paths(nets, (&mut ps, &mut fs), &pos, &at));
                    plain.pop(&mut ps);
                    fast.pop(&mut fs);
                    pos.unmake();
                }
                // The null move: no change, the other side's view first.
                let u = pos.make_null();
                plain.push(&mut ps, &pos, &[]);
                fast.push(&mut fs, &pos, &[]);
                let at = || format!("{name}: null move at ply {ply}");
                same_on_both_paths(nets, (&mut ps, &mut fs), &pos, &at);
                plain.pop(&mut ps);
                fast.pop(&mut fs);
                pos.unmake_null(u);
                let m = moves[rng.next_u64() as usize % moves.len()];
                let f = plain.features();
                let before = [f.bucket(Side::First, &pos), f.bucket(Side::Second, &pos)];
                pos.make(m);
                let after = [f.bucket(Side::First, &pos), f.bucket(Side::Second, &pos)];
                crossings += usize::from(before != after);
                plain.push(&mut ps, &pos, pos.last_changes());
                fast.push(&mut fs, &pos, pos.last_changes());
            }
            let at = || format!("{name} game {game}: the end");
            same_on_both_paths(nets, (&mut ps, &mut fs), &pos, &at);
        }
        // The scores compared were many, not one value throughout.
        assert!(scores.len() > 20, "{name}: {} scores", scores.len());
    }
    crossings
}

#[test]
fn a_dropped_change_makes_the_accumulator_differ() {
    // The check above compares real sums: one change left out shows.
    let v = variant("courier");
    let nnue = seeded(&v, 16, 3);
    let mut pos = Position::start(v.clone());
    let mut state = nnue.new_state(&pos);
    let m = pos.legal_moves()[0];
    pos.make(m);
    let changes = pos.last_changes().to_vec();
    assert!(changes.len() >= 2);
    nnue.push(&mut state, &pos, &changes[1..]);
    assert_ne!(nnue.evaluate(&pos, &mut state), nnue.evaluate_fresh(&pos));
}

#[test]
fn each_view_turns_the_board_so_a_symmetric_start_scores_alike_for_both_sides() {
    for (name, turn) in [
        ("courier", Turn::RankFlip),
        ("alfonso-great-chess", Turn::RankFlip),
        ("sho-shogi", Turn::HalfTurn),
        ("chu-shogi", Turn::HalfTurn),
        ("dai-shogi", Turn::HalfTurn),
    ] {
        let v = variant(name);
        assert_eq!(Features::turn_of(&v), turn, "{name}");
        let nnue = seeded(&v, 32, 11);
        let mut pos = Position::start(v.clone());
        let first = nnue.evaluate_fresh(&pos);
        pos.make_null();
        assert_eq!(nnue.evaluate_fresh(&pos), first, "{name}");
    }
    // With the wrong turn the two sides' views of a shogi start differ.
    let v = variant("sho-shogi");
    let features = Features::with_turn(&v, Turn::RankFlip);
    let net = Network::seeded(&features, 32, Buckets::ONE, 11);
    let nnue = Nnue::new(&v, features, net);
    let mut pos = Position::start(v.clone());
    let first = nnue.evaluate_fresh(&pos);
    pos.make_null();
    assert_ne!(nnue.evaluate_fresh(&pos), first);
}

#[test]
fn a_network_file_reads_back_and_bad_files_say_what_is_wrong() {
    let v = variant("courier");
    let nnue = seeded(&v, 24, 5);
    let bytes = nnue.to_bytes();
    let back = Nnue::from_bytes(&v, &bytes).expect("reads back");
    assert_eq!(back.network(), nnue.network());
    let pos = Position::start(v.clone());
    assert_eq!(back.evaluate_fresh(&pos), nnue.evaluate_fresh(&pos));

    let mut damaged = bytes.clone();
    let last = damaged.len() - 10;
    damaged[last] ^= 1;
    assert!(matches!(
        Nnue::from_bytes(&v, &damaged),
        Err(NetError::Checksum { .. })
    ));
    assert!(matches!(
        Nnue::from_bytes(&v, &bytes[..bytes.len() - 3]),
        Err(NetError::Truncated { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        Nnue::from_bytes(&v, &longer).err(),
        Some(NetError::Trailing(1))
    );
    assert_eq!(
        Nnue::from_bytes(&v, b"not a net").err(),
        Some(NetError::Magic)
    );
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        Nnue::from_bytes(&v, &version).err(),
        Some(NetError::Version(9))
    );
    // Courier's net is no net for the modern Courier (same board).
    let modern = variant("courier-modern");
    let e = Nnue::from_bytes(&modern, &bytes).expect_err("another variant");
    assert_eq!(
        e.to_string(),
        "made for variant courier, the variant has courier-modern"
    );
    // A file's error names the file.
    let dir = std::env::temp_dir().join(format!("kamil-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("courier.nnue");
    std::fs::write(&path, &damaged).expect("write");
    let e = Nnue::load(&v, &path).expect_err("damaged");
    assert!(matches!(e, NetFileError::Net { .. }));
    assert_eq!(e.to_string(), format!("network file `{}`", path.display()));
    let cause = std::error::Error::source(&e)
        .expect("the cause")
        .to_string();
    assert!(cause.contains("damaged"), "{cause}");
    let e = Nnue::load(&v, &dir.join("missing.nnue")).expect_err("missing");
    assert!(matches!(e, NetFileError::File(_)), "{e}");
    // Without a variant: the built-in game the header names.
    let good = dir.join("good.nnue");
    std::fs::write(&good, &bytes).expect("write");
    let n = Nnue::load_builtin(&good).expect("a courier net");
    assert_eq!(n.variant().name, "courier");
    assert_eq!(n.network(), nnue.network());
    let e = Nnue::load_builtin(&path).expect_err("damaged");
    let cause = std::error::Error::source(&e)
        .expect("the cause")
        .to_string();
    assert!(cause.contains("damaged"), "{cause}");
    let mut other = bytes.clone();
    // The name's last letter (after magic, version and length): `couriex`.
    other[8 + 4 + 2 + "courier".len() - 1] = b'x';
    std::fs::write(&good, &other).expect("write");
    let e = Nnue::load_builtin(&good).expect_err("no such game");
    assert_eq!(e.to_string(), format!("network file `{}`", good.display()));
    assert_eq!(
        std::error::Error::source(&e)
            .expect("the cause")
            .to_string(),
        "made for variant couriex, which is not a built-in game"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 78: the checksum covers the header. One flipped bit of the
/// built-in Courier net's scale (byte 36: 25 became 1049 in generation 9;
/// 400 becomes 1424 in generation 10) read as another net and played; now
/// any flipped bit after the magic is an error, a damaged one for every
/// byte after the version. An older version is refused by name.
#[test]
fn a_flipped_bit_of_the_header_is_damage() {
    let v = variant("courier");
    let bytes = kamil_engine::builtin::BUILTIN_NETS
        .iter()
        .find(|(name, _)| *name == "courier")
        .expect("courier's net")
        .1
        .to_vec();
    let net = Nnue::from_bytes(&v, &bytes).expect("the built-in net reads");
    assert_eq!(i32::from_le_bytes(bytes[36..40].try_into().unwrap()), 400);
    assert_eq!(net.network().hidden(), 256);
    let mut scale = bytes.clone();
    scale[36 + 1] ^= 0x04;
    assert!(
        matches!(Nnue::from_bytes(&v, &scale), Err(NetError::Checksum { .. })),
        "a scale of {}",
        i32::from_le_bytes(scale[36..40].try_into().unwrap())
    );
    // Every byte of the header, after the version, one bit at a time.
    let header_end = 8 + 4 + 2 + "courier".len() + 2 + 1 + 1 + 1 + 8 + 2 + 4 + 2 + 2 + 2 + 1 + 8;
    for at in 12..header_end {
        for bit in [0x01, 0x80] {
            let mut b = bytes.clone();
            b[at] ^= bit;
            let e = Nnue::from_bytes(&v, &b).expect_err("a damaged header");
            // A length field changed may make the file short or long
            // instead; the rest is damage.
            assert!(
                matches!(
                    e,
                    NetError::Checksum { .. } | NetError::Truncated { .. } | NetError::Trailing(_)
                ),
                "byte {at}, bit {bit:#x}: {e}"
            );
        }
    }
    for old in 1..=4u8 {
        let mut b = bytes.clone();
        b[8] = old;
        let e = Nnue::from_bytes(&v, &b).expect_err("an old version");
        assert_eq!(e, NetError::Old(u32::from(old)));
        assert!(e.to_string().contains("leaves the header out"), "{e}");
    }
}

#[test]
fn an_engine_searches_with_a_network() {
    let v = variant("courier");
    let nnue = seeded(&v, 32, 9);
    let pos = Position::start(v.clone());
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    engine.set_evaluation(EvalChoice::Net(Box::new(nnue.clone())));
    let r = engine.search(&pos, &Limits::depth(4), &mut |_| {});
    let best = r.best.expect("a move");
    assert!(pos.clone().legal_moves().contains(&best));
    // The same search with the hand-written evaluation goes otherwise: the
    // network was used.
    let mut hand = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    let h = hand.search(&pos, &Limits::depth(4), &mut |_| {});
    assert_ne!((r.nodes, r.score), (h.nodes, h.score));
    // Another variant falls back to the hand-written evaluation.
    let sho = Position::start(variant("sho-shogi"));
    let s = engine.search(&sho, &Limits::depth(2), &mut |_| {});
    assert!(s.best.is_some());
}

/// The threshold reads back; versions 1 to 4 (issue 78: their checksum
/// left the header out) are refused by name, however well formed.
#[test]
fn the_hand_written_threshold_is_kept_and_old_versions_are_refused_by_name() {
    let v = variant("courier");
    let features = Features::new(&v);
    let mut net = Network::seeded(&features, 16, Buckets::ONE, 4);
    net.set_hand_below(18);
    let nnue = Nnue::new(&v, features.clone(), net);
    let bytes = nnue.to_bytes();
    let back = Nnue::from_bytes(&v, &bytes).expect("reads back");
    assert_eq!(back.network().hand_below(), 18);
    assert_eq!(back.network(), nnue.network());
    // After the scale (magic, version, name, types, files, ranks, turn,
    // pieces, hidden, scale come first): the threshold (from version 2),
    // then the buckets and their size (from version 3).
    let at = 8 + 4 + 2 + "courier".len() + 2 + 1 + 1 + 1 + 8 + 2 + 4;
    assert_eq!(&bytes[at..at + 2], &18u16.to_le_bytes());
    assert_eq!(&bytes[at + 2..at + 6], &[1, 0, 1, 0]);
    let mut v2 = bytes.clone();
    v2.drain(at + 2..at + 6);
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(Nnue::from_bytes(&v, &v2).err(), Some(NetError::Old(2)));
    let mut v1 = v2.clone();
    v1.drain(at..at + 2);
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    assert_eq!(Nnue::from_bytes(&v, &v1).err(), Some(NetError::Old(1)));
}

#[test]
fn a_residual_net_is_flagged_and_searched_as_a_correction() {
    let v = variant("courier");
    let features = Features::new(&v);
    let mut net = Network::seeded(&features, 16, Buckets::ONE, 8);
    let plain = Nnue::new(&v, features.clone(), net.clone());
    net.set_residual(true);
    let residual = Nnue::new(&v, features.clone(), net);
    let (pb, rb) = (plain.to_bytes(), residual.to_bytes());
    // Both version 5; the flag after the buckets says which (issue 78:
    // under the checksum).
    assert_eq!(&pb[8..12], &5u32.to_le_bytes());
    assert_eq!(&rb[8..12], &5u32.to_le_bytes());
    let at = 8 + 4 + 2 + "courier".len() + 2 + 1 + 1 + 1 + 8 + 2 + 4 + 2 + 4;
    assert_eq!((pb[at], rb[at]), (0, 1));
    let mut without = rb.clone();
    without[at] = 0;
    assert_eq!(resealed(without), pb);
    let back = Nnue::from_bytes(&v, &rb).expect("reads back");
    assert!(back.network().residual());
    assert_eq!(back.network(), residual.network());
    assert!(!Nnue::from_bytes(&v, &pb).unwrap().network().residual());
    let mut bad = rb.clone();
    bad[at] = 2;
    let e = Nnue::from_bytes(&v, &bad).expect_err("flag 2 unsealed");
    assert!(matches!(e, NetError::Checksum { .. }), "{e}");
    let e = Nnue::from_bytes(&v, &resealed(bad)).expect_err("flag 2");
    assert_eq!(e.to_string(), "bad residual flag: 2");
    // The search scores with the hand-written evaluation plus the net:
    // not what the net alone or the hand-written evaluation alone give.
    let mut pos = Position::start(v.clone());
    for i in [3, 5, 2] {
        let mv = pos.legal_moves()[i];
        pos.make(mv);
    }
    let search = |c: EvalChoice| searched(&pos, Some(c), Skill::FULL, 1);
    let with_residual = search(EvalChoice::Net(Box::new(back)));
    let with_plain = search(EvalChoice::Net(Box::new(plain)));
    let by_hand = search(EvalChoice::Hand);
    assert_ne!(with_residual, with_plain);
    assert_ne!(with_residual, by_hand);
}

#[test]
fn a_bucketed_net_reads_back_and_refuses_bad_bucket_fields() {
    let v = variant("courier");
    let features = Features::new(&v);
    let net = Network::seeded(&features, 16, Buckets::spread(8, 48), 6);
    let nnue = Nnue::new(&v, features.clone(), net);
    let bytes = nnue.to_bytes();
    let back = Nnue::from_bytes(&v, &bytes).expect("reads back");
    assert_eq!(back.network(), nnue.network());
    assert_eq!(back.network().buckets(), Buckets::spread(8, 48));
    // The same weights in bucket 0 only score otherwise.
    let pos = Position::start(v.clone());
    let one = Nnue::new(
        &v,
        features.clone(),
        Network::seeded(&features, 16, Buckets::ONE, 6),
    );
    assert_ne!(one.evaluate_fresh(&pos), nnue.evaluate_fresh(&pos));
    let at = 8 + 4 + 2 + "courier".len() + 2 + 1 + 1 + 1 + 8 + 2 + 4 + 2;
    assert_eq!(&bytes[at..at + 4], &[8, 0, 6, 0]);
    for (field, value, what) in [
        (at, 0u16, "bad output buckets: 0"),
        (at, 65, "bad output buckets: 65"),
        (at + 2, 0, "bad pieces per bucket: 0"),
    ] {
        let mut bad = bytes.clone();
        bad[field..field + 2].copy_from_slice(&value.to_le_bytes());
        let e = Nnue::from_bytes(&v, &resealed(bad)).expect_err(what);
        assert_eq!(e.to_string(), what);
    }
    // Fewer buckets than the weights: the payload length says so.
    let mut fewer = bytes.clone();
    fewer[at..at + 2].copy_from_slice(&4u16.to_le_bytes());
    let e = Nnue::from_bytes(&v, &resealed(fewer)).expect_err("payload");
    assert!(e.to_string().starts_with("made for payload length"), "{e}");
}

#[test]
fn a_net_with_a_hand_written_threshold_searches_otherwise() {
    let v = variant("courier");
    let features = Features::new(&v);
    let pos = Position::start(v.clone());
    let search = |below: u16| {
        let mut net = Network::seeded(&features, 32, Buckets::ONE, 9);
        net.set_hand_below(below);
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            ..EngineConfig::default()
        });
        engine.set_evaluation(EvalChoice::Net(Box::new(Nnue::new(
            &v,
            features.clone(),
            net,
        ))));
        let r = engine.search(&pos, &Limits::depth(4), &mut |_| {});
        assert!(
            r.best
                .is_some_and(|m| pos.clone().legal_moves().contains(&m))
        );
        (r.nodes, r.score)
    };
    // Below 2 pieces never happens: the net alone. Below 100: every
    // position is the hand-written evaluation's.
    assert_eq!(search(2), search(0));
    assert_ne!(search(100), search(0));
}

/// The checked-in Courier network (`variants/courier.nnue`, generation 10;
/// `variants/courier.nnue.md` has the commands that made it) reads for
/// Courier and no other game, scores every position itself (no hand-off
/// to the hand-written evaluation), scores the symmetric start near even
/// for either side to move, and searches to a legal move.
#[test]
fn the_checked_in_courier_net_loads_and_plays() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants/courier.nnue");
    let v = variant("courier");
    let nnue = Nnue::load(&v, &path).expect("the checked-in Courier net");
    assert_eq!(nnue.network().hand_below(), 0);
    assert_eq!(nnue.network().buckets().count(), 1);
    assert!(Nnue::load(&variant("courier-modern"), &path).is_err());
    let mut pos = Position::start(v.clone());
    let white = nnue.evaluate_fresh(&pos);
    pos.make_null();
    assert_eq!(nnue.evaluate_fresh(&pos), white);
    assert!(white.abs() < 100, "start position {white} cp");
    let pos = Position::start(v.clone());
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    engine.set_evaluation(EvalChoice::Net(Box::new(nnue)));
    let r = engine.search(&pos, &Limits::depth(5), &mut |_| {});
    assert!(
        r.best
            .is_some_and(|m| pos.clone().legal_moves().contains(&m))
    );
}

/// A bare King hunted (issue 46): from the last position of a game that
/// Sho Shogi's generation-2 net drew against Fairy-Stockfish at 500 plies
/// a bare King up (King, Gold, Tokin and two promoted Lances against a
/// King), the built-in net, playing both sides at 20,000 nodes a move,
/// ends the game for the hunter within 150 plies (in Sho the side left
/// without a move loses, mated or not). With the net's own score of
/// such an ending it did not in 300 plies (`kamil_engine::nnue::hybrid`).
#[test]
fn the_built_in_sho_net_hunts_a_bare_king_down() {
    let v = variant("sho-shogi");
    let mut pos = Position::from_fen(v, "4+L4/2K6/9/9/1G7/9/1+P7/6k2/4+L4 b").unwrap();
    let hunter = pos.side();
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 16,
        ..EngineConfig::default()
    });
    for ply in 0..150 {
        if pos.legal_moves().is_empty() {
            assert_ne!(pos.side(), hunter, "the hunter without a move");
            eprintln!("over after {ply} plies");
            return;
        }
        let r = engine.search(&pos, &Limits::nodes(20_000), &mut |_| {});
        pos.make(r.best.expect("a move"));
    }
    panic!("the bare King still moves after 150 plies: {}", pos.fen());
}

/// The search of `pos` to `depth` with `choice` at `level`: its nodes,
/// score and best move, what differs when the evaluation does.
fn searched(
    pos: &Position,
    choice: Option<EvalChoice>,
    level: u8,
    depth: u32,
) -> (u64, Score, Option<Move>) {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    if let Some(c) = choice {
        engine.set_evaluation(c);
    }
    engine.set_skill(Skill::new(level), 7);
    let r = engine.search(pos, &Limits::depth(depth), &mut |_| {});
    (r.nodes, r.score, r.best)
}

/// Issue 46: every built-in network (`variants/NAME.nnue`, embedded) reads
/// for its game with the default options, scores the symmetric start near
/// even for either side to move, and a new engine searches with it: as
/// with the network given, not as with the hand-written evaluation.
/// A level below full strength searches with the hand-written evaluation
/// (the levels' Elo ladders were measured with it), and so does a game
/// without a network or a variant file that extends one keeping its name.
#[test]
fn the_built_in_networks_evaluate_by_default() {
    assert!(!kamil_engine::builtin::BUILTIN_NETS.is_empty());
    for (name, _) in kamil_engine::builtin::BUILTIN_NETS {
        let v = variant(name);
        let nnue = Nnue::builtin(&v)
            .expect("a built-in net")
            .unwrap_or_else(|e| panic!("{name}.nnue: {e}"));
        // Each game's start is symmetric: even for either side to move.
        let mut pos = Position::start(v.clone());
        let first = nnue.evaluate_fresh(&pos);
        pos.make_null();
        assert_eq!(nnue.evaluate_fresh(&pos), first, "{name}");
        assert!(first.abs() < 100, "{name}: start position {first} cp");
        let pos = Position::start(v.clone());
        let by_default = searched(&pos, None, Skill::FULL, 5);
        let net = searched(&pos, Some(EvalChoice::Net(Box::new(nnue))), Skill::FULL, 5);
        let hand = searched(&pos, Some(EvalChoice::Hand), Skill::FULL, 5);
        assert_eq!(by_default, net, "{name}");
        assert_ne!(by_default, hand, "{name}");
        // Level 10: its shallow depth, several lines, a seeded pick.
        let weak = searched(&pos, None, 10, 5);
        assert_eq!(
            weak,
            searched(&pos, Some(EvalChoice::Hand), 10, 5),
            "{name}"
        );
    }
    // A game without a net: its default is the hand-written evaluation.
    let (bare, _) = BUILTIN
        .iter()
        .find(|(n, _)| {
            !kamil_engine::builtin::BUILTIN_NETS
                .iter()
                .any(|(m, _)| m == n)
        })
        .expect("a game without a net");
    let pos = Position::start(variant(bare));
    assert!(Nnue::builtin(pos.variant()).is_none());
    assert_eq!(
        searched(&pos, None, Skill::FULL, 4),
        searched(&pos, Some(EvalChoice::Hand), Skill::FULL, 4),
        "{bare}"
    );
    // A file that extends a game with a net keeping its name: not the net.
    let (name, _) = kamil_engine::builtin::BUILTIN_NETS[0];
    let text = format!("extends = \"{name}\"\n");
    let file = Arc::new(Variant::from_toml("mine.toml", &text, &[]).expect("a variant file"));
    assert_eq!(file.name, name);
    assert!(Nnue::builtin(&file).is_none());
}

/// Issue 77: a net with king buckets is written in version 6 with its
/// map and reads back the same; one without is written in version 5 as
/// before; a map that is not left-right symmetric, or of a bucket out of
/// range, is refused by name.
#[test]
fn a_king_bucketed_net_reads_back_and_bad_maps_are_refused() {
    let v = variant("chu-shogi");
    let nnue = seeded_with_kings(&v, 8, 3, 3);
    let bytes = nnue.to_bytes();
    assert_eq!(bytes[8..12], 6u32.to_le_bytes());
    let back = Nnue::from_bytes(&v, &bytes).unwrap();
    assert_eq!(back.features().kings(), nnue.features().kings());
    assert_eq!(
        back.features().inputs(),
        3 * back.features().bucket_inputs()
    );
    let mut pos = Position::start(v.clone());
    for ply in 0..8 {
        let moves = pos.legal_moves();
        pos.make(moves[(ply * 7) % moves.len()]);
        assert_eq!(
            back.evaluate_fresh(&pos),
            nnue.evaluate_fresh(&pos),
            "ply {ply}"
        );
    }
    let plain = seeded(&v, 8, 3).to_bytes();
    assert_eq!(plain[8..12], 5u32.to_le_bytes());
    // The map's first square: after the header up to the residual flag,
    // the bucket count, then the map.
    let name = v.name.len();
    let map_at = 8 + 4 + 2 + name + 2 + 1 + 1 + 1 + 8 + 2 + 4 + 2 + 2 + 2 + 1 + 1;
    assert_eq!(bytes[map_at - 1], 3, "the bucket count");
    let mut lopsided = bytes.clone();
    lopsided[map_at] = 1 - lopsided[map_at].min(1);
    let e = Nnue::from_bytes(&v, &resealed(lopsided))
        .unwrap_err()
        .to_string();
    assert!(e.contains("king buckets") && e.contains("symmetric"), "{e}");
    let mut beyond = bytes.clone();
    beyond[map_at] = 9;
    let e = Nnue::from_bytes(&v, &resealed(beyond))
        .unwrap_err()
        .to_string();
    assert!(e.contains("king bucket 9 of 3"), "{e}");
}

/// Issue 77: the accumulators are brought up to date lazily, when a
/// position is evaluated, over however many moves were pushed since the
/// last evaluation, and after take-backs; with and without king buckets
/// (a King changing bucket on the way makes the view computed from the
/// board), the values are the fresh ones, in every game.
#[test]
fn lazy_updates_over_long_lines_and_take_backs_equal_fresh_ones() {
    for kings in [1, 2] {
        for (name, _) in BUILTIN {
            let v = variant(name);
            let (plain, fast) = both_paths(seeded_with_kings(&v, 24, 11, kings));
            let mut rng = SplitMix64::new(0x1a27 ^ name.len() as u64);
            let mut pos = Position::start(v.clone());
            let (mut ps, mut fs) = (plain.new_state(&pos), fast.new_state(&pos));
            let mut depth = 0;
            for ply in 0..60 {
                let moves: Vec<Move> = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.make(moves[rng.next_u64() as usize % moves.len()]);
                plain.push(&mut ps, &pos, pos.last_changes());
                fast.push(&mut fs, &pos, pos.last_changes());
                depth += 1;
                let roll = rng.next_u64() % 7;
                if roll == 0 {
                    let at = || format!("{name} kings {kings}: ply {ply}");
                    same_on_both_paths((&plain, &fast), (&mut ps, &mut fs), &pos, &at);
                } else if roll == 1 && depth > 3 {
                    for _ in 0..3 {
                        pos.unmake();
                        plain.pop(&mut ps);
                        fast.pop(&mut fs);
                    }
                    depth -= 3;
                }
            }
            let at = || format!("{name} kings {kings}: the end");
            same_on_both_paths((&plain, &fast), (&mut ps, &mut fs), &pos, &at);
        }
    }
}
