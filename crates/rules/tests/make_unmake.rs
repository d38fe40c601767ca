//! Property tests of make / unmake, the incremental hash and FEN.
//!
//! From the start position of every built-in variant (and of the option sets
//! that change the rules most), proptest plays random legal games of up to
//! 60 plies. At every ply, for every legal move: make keeps the incremental
//! hash equal to one computed from scratch, and unmake restores the exact FEN
//! and hash. After the move played, reading the position's own FEN back gives
//! the same FEN, hash and legal moves (the FEN carries the whole state the
//! rules look at; the history is not part of it). No two legal moves share
//! a text.

mod common;
use common::{legal, variant};

use kamil_rules::notation::{move_text, parse_move};
use kamil_rules::outcome::ended_by_rule;
use kamil_rules::variant::FenField;
use kamil_rules::{Position, Reason, Variant};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Longest random game, in plies.
const MAX_PLIES: usize = 60;

/// Random games per variant (32 keeps this test near a minute on two
/// cores; `PROPTEST_CASES` does not override it, edit here for a longer run).
const CASES: u32 = 32;

/// Legal moves as sorted, exact (Debug) descriptions, for comparing positions.
fn sorted_moves(pos: &mut Position) -> Vec<String> {
    let mut out: Vec<String> = legal(pos).iter().map(|m| format!("{m:?}")).collect();
    out.sort();
    out
}

/// Reading `pos.fen()` back gives the same FEN, hash and legal moves.
fn check_fen_reload(pos: &mut Position, played: &[String]) -> Result<(), TestCaseError> {
    let fen = pos.fen();
    let v = pos.variant().clone();
    let mut back = match Position::from_fen(v, &fen) {
        Ok(p) => p,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "own FEN `{fen}` (after {played:?}) does not read back: {e}"
            )));
        }
    };
    prop_assert_eq!(back.fen(), fen.clone(), "FEN rewritten, after {:?}", played);
    if pos.variant().specials.counterstrike_pending(pos) {
        // Chu's counter-strike state (6.4 LT3) is part of the position but
        // not of the FEN: the reloaded position rightly differs.
        prop_assert_ne!(back.hash(), pos.hash(), "state not in the hash");
        return Ok(());
    }
    prop_assert_eq!(
        back.hash(),
        pos.hash(),
        "hash of `{}` read back differs, after {:?}",
        fen,
        played
    );
    if let (Some(now), Some(read)) = (pos.en_passant(), back.en_passant())
        && now.victim != read.victim
    {
        // Two pawns could have passed the en-passant square (a Berolina's
        // diagonal double step beside a straight pawn, rules/frolov-10x10.md
        // 5.1): the FEN names the square, not the pawn, so the moves read
        // back can only agree in their text.
        let texts = |p: &mut Position| {
            let v = p.variant().clone();
            let mut t: Vec<String> = legal(p).iter().map(|&m| move_text(&v, m)).collect();
            t.sort();
            t
        };
        prop_assert_eq!(
            texts(&mut back),
            texts(pos),
            "move texts of `{}` read back",
            fen
        );
        return Ok(());
    }
    if ended_by_rule(pos).is_some_and(|o| o.reason() == Reason::OnlySpecial) {
        // Frolov's only-special win (rules/frolov-10x10.md 5.5) is decided
        // by the last move, which a FEN does not carry.
        return Ok(());
    }
    prop_assert_eq!(
        sorted_moves(&mut back),
        sorted_moves(pos),
        "legal moves of `{}` read back differ, after {:?}",
        fen,
        played
    );
    Ok(())
}

/// Plays the game chosen by `choices` from `pos`, checking every legal move at
/// every ply; finally takes every move back and expects the start again.
fn walk(mut pos: Position, choices: &[u16]) -> Result<(), TestCaseError> {
    let v = pos.variant().clone();
    let (start_fen, start_hash, start_depth) = (pos.fen(), pos.hash(), pos.depth());
    prop_assert_eq!(pos.hash(), pos.hash_from_scratch(), "start `{}`", start_fen);
    check_fen_reload(&mut pos, &[])?;
    let mut played: Vec<String> = Vec::new();
    for &c in choices.iter().take(MAX_PLIES) {
        let moves = legal(&mut pos);
        if moves.is_empty() {
            break;
        }
        let (fen, hash) = (pos.fen(), pos.hash());
        // One text per move, so that `parse_move`'s exact match (tried
        // first) gives back the very move: two moves written alike once let
        // a referee and an engine read one text as different moves.
        let mut texts: Vec<String> = moves.iter().map(|&m| move_text(&v, m)).collect();
        texts.sort();
        let before = texts.len();
        texts.dedup();
        prop_assert_eq!(texts.len(), before, "two moves written alike in `{}`", fen);
        for &m in &moves {
            pos.make(m);
            prop_assert_eq!(
                pos.hash(),
                pos.hash_from_scratch(),
                "incremental hash wrong after {} from `{}` (game {:?})",
                move_text(&v, m),
                fen,
                played
            );
            pos.unmake();
            prop_assert_eq!(
                pos.fen(),
                fen.clone(),
                "unmake of {} changed the FEN (game {:?})",
                move_text(&v, m),
                played
            );
            prop_assert_eq!(
                pos.hash(),
                hash,
                "unmake of {} changed the hash of `{}` (game {:?})",
                move_text(&v, m),
                fen,
                played
            );
        }
        let m = moves[c as usize % moves.len()];
        played.push(move_text(&v, m));
        pos.make(m);
        prop_assert_eq!(pos.hash(), pos.hash_from_scratch(), "game {:?}", played);
        check_fen_reload(&mut pos, &played)?;
    }
    prop_assert_eq!(pos.depth(), start_depth + played.len());
    for _ in 0..played.len() {
        pos.unmake();
    }
    prop_assert_eq!(pos.fen(), start_fen, "taking back {:?}", played);
    prop_assert_eq!(pos.hash(), start_hash, "taking back {:?}", played);
    Ok(())
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..=MAX_PLIES)
}

/// A position of a rule-book case: variant, options, FEN, moves played from it.
#[derive(PartialEq, Debug)]
struct BookPosition {
    variant: String,
    options: Vec<(String, String)>,
    fen: String,
    moves: Vec<String>,
}

/// The rule-book positions of the built-in variants, each once.
fn rulebook_positions() -> Vec<BookPosition> {
    let builtin: Vec<&str> = kamil_rules::variant::BUILTIN
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let mut out: Vec<BookPosition> = Vec::new();
    for c in &common::cases() {
        let variant = c["variant"].as_str().expect("variant");
        let Some(fen) = c["fen"].as_str() else {
            continue;
        };
        if !builtin.contains(&variant) {
            continue;
        }
        let mut options = common::case_options(c);
        options.sort();
        // A case under an option not built yet (`tests/rulebook.rs` keeps
        // it in PENDING and checks that the variant still refuses it).
        if Variant::builtin(variant, &options).is_err() {
            continue;
        }
        let moves: Vec<String> = c["moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|m| m.as_str().expect("move text").to_string())
                    .collect()
            })
            .unwrap_or_default();
        let entry = BookPosition {
            variant: variant.to_string(),
            options,
            fen: fen.to_string(),
            moves,
        };
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

/// Is the FEN's third field castling rights?
fn castling_field(v: &Variant) -> bool {
    v.fen.fields.first() == Some(&FenField::Castling)
}

fn options_of(opts: &[(String, String)]) -> Vec<(&str, &str)> {
    opts.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn courier(choices in choices()) {
        walk(Position::start(variant("courier", &[])), &choices)?;
    }

    #[test]
    fn courier_explicit_opening(choices in choices()) {
        let v = variant("courier", &[("courier-opening", "explicit")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn courier_modern(choices in choices()) {
        walk(Position::start(variant("courier-modern", &[])), &choices)?;
    }

    #[test]
    fn courier_modern_albers_castling_queen(choices in choices()) {
        let v = variant(
            "courier-modern",
            &[("albers-castling", "true"), ("albers-queen", "true")],
        );
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn courier_albers(choices in choices()) {
        walk(Position::start(variant("courier-albers", &[])), &choices)?;
    }

    #[test]
    fn sho_shogi(choices in choices()) {
        walk(Position::start(variant("sho-shogi", &[])), &choices)?;
    }

    #[test]
    fn sho_shogi_capture_royalty(choices in choices()) {
        let v = variant("sho-shogi", &[("sho-capture-royalty", "true"), ("bare-king", "true")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn sho_shogi_royal_count_before_move(choices in choices()) {
        let v = variant("sho-shogi", &[("royal-count", "before-move")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn chu_shogi(choices in choices()) {
        walk(Position::start(variant("chu-shogi", &[])), &choices)?;
    }

    #[test]
    fn chu_shogi_royal_safety(choices in choices()) {
        let v = variant("chu-shogi", &[("royal-safety", "true"), ("chu-old-setup", "true")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn dai_shogi(choices in choices()) {
        walk(Position::start(variant("dai-shogi", &[])), &choices)?;
    }

    #[test]
    fn dai_shogi_royal_safety(choices in choices()) {
        let v = variant("dai-shogi", &[("royal-safety", "true"), ("dai-relief", "all-forward")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn hiashatar(choices in choices()) {
        walk(Position::start(variant("hiashatar", &[])), &choices)?;
    }

    #[test]
    fn hiashatar_zones_all_diag1(choices in choices()) {
        let v = variant("hiashatar", &[("hia-zone-affects", "all"), ("hia-capture", "diag1")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn hiashatar_winther_mirror_step_only(choices in choices()) {
        let v = variant(
            "hiashatar",
            &[("pawns", "winther"), ("array", "mirror"), ("hia-zone", "step-only")],
        );
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn alfonso_great_chess(choices in choices()) {
        walk(Position::start(variant("alfonso-great-chess", &[])), &choices)?;
    }

    #[test]
    fn alfonso_great_chess_pawn_rank_3_castling_two(choices in choices()) {
        let v = variant("alfonso-great-chess", &[("pawn-rank", "3"), ("castling", "two")]);
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn tamerlane(choices in choices()) {
        walk(Position::start(variant("tamerlane", &[])), &choices)?;
    }

    /// Every non-default rule of rules/tamerlane.md at once.
    #[test]
    fn tamerlane_options(choices in choices()) {
        let v = variant(
            "tamerlane",
            &[
                ("array", "feminine"),
                ("pop", "two-stage"),
                ("royals", "king-only"),
                ("swap", "mated-only"),
                ("citadel", "draw-unless-swap"),
                ("bareking", "shatranj"),
            ],
        );
        walk(Position::start(v), &choices)?;
    }

    #[test]
    fn tamerlane_greenwood(which in 1u32..=5, choices in choices()) {
        let v = variant(&format!("tamerlane-greenwood-{which}"), &[]);
        walk(Position::start(v), &choices)?;
    }

    /// Tamerlane positions where the pawn of pawns, the King swap and the
    /// citadels are about to act: every stage change, swap and entry is
    /// made, hashed and taken back.
    #[test]
    fn tamerlane_special_positions(which in any::<u16>(), choices in choices()) {
        const FENS: [&str; 5] = [
            // Giraffes, Pickets, a pawn of pawns before its first arrival,
            // a relocated one, a King in check with swap partners.
            "*11*/1r1g1k1t1n2*/*1PP1pk1G5*/*2T3pr4*/*4g6*/*11*/*1t4R2G1*/*3PK2pp4*/*2N2K4PY1/*11* w Kk 0 1",
            // Parked pawns of pawns of both sides, pieces to fork or trap.
            "*PX3k6*/12*/*2n1r3t2*/*11*/*3N1w5*/*11*/*6R4*/*1H9*/*4K2G4/*8px2* w Kk 0 1",
            // A relocated pawn about to arrive with f3 taken, and one of
            // Black's with f8 free; Kings near the citadels.
            "*11*/1K1PY8*/*11*/*11*/*11*/*11*/*11*/*5N5*/*9py2/*10k* w Kk 0 1",
            // A transferred pawn about to become an Adventitious King next
            // to its citadel, an Adventitious King in its citadel.
            "*10k*/5PZ6*/*11*/*11*/*11*/*11*/*11*/*11*/*4K6A/*11* w Kk 0 1",
            // Prince and King with the citadel within reach.
            "*1K9*/12*/*1H9*/*11*/*11*/*11*/*11*/*9h1*/*10k1/*11* w Kk 0 1",
        ];
        let options: [&[(&str, &str)]; 2] = [&[], &[("citadel", "draw-unless-swap"), ("pop", "two-stage")]];
        let fen = FENS[which as usize % FENS.len()];
        let v = variant("tamerlane", options[(which as usize / FENS.len()) % 2]);
        let pos = Position::from_fen(v, fen)
            .map_err(|e| TestCaseError::fail(format!("`{fen}`: {e}")))?;
        walk(pos, &choices)?;
    }

    #[test]
    fn frolov_10x10(choices in choices()) {
        walk(Position::start(variant("frolov-10x10", &[])), &choices)?;
    }

    /// Frolov's open position of section 9 (special captures at once) with
    /// the hostile general dropped anywhere, not frozen, and compulsory
    /// upgrades.
    #[test]
    fn frolov_10x10_open_drop_no_freeze(choices in choices()) {
        let v = variant(
            "frolov-10x10",
            &[("fr.drop", "true"), ("fr.no-freeze", "true"), ("fr.bonus-compulsory", "true")],
        );
        let fen = "jcvewgdwevcj/*rnbmkqabnr*/*2s2p2p1*/*10*/*1p4s3*/*10*/*3P4S1*/*1S2P2S2*/\
                   *RNBAQKMBNR*/JCVEWDGWEVCJ w KQkq - - 0 1";
        walk(Position::from_fen(v, fen).unwrap(), &choices)?;
    }

    /// Random games from the rule books' positions, which reach promotions,
    /// bare kings and ends of game far sooner than games from the start.
    #[test]
    fn from_rulebook_positions(which in any::<u16>(), choices in choices()) {
        let all = rulebook_positions();
        prop_assume!(!all.is_empty());
        let BookPosition { variant: name, options: opts, fen, moves } = &all[which as usize % all.len()];
        let v = variant(name, &options_of(opts));
        let mut pos = Position::from_fen(v, fen)
            .map_err(|e| TestCaseError::fail(format!("{name} `{fen}`: {e}")))?;
        for m in moves {
            // A book move our rules refuse is one of rulebook.rs's
            // CONTRADICTED cases (checked there): walk from before it.
            let Ok(mv) = parse_move(&mut pos, m) else {
                break;
            };
            pos.make(mv);
        }
        walk(pos, &choices)?;
    }
}

/// Every rule-book FEN of a built-in variant reads, and writes back as given
/// (castling rights that no rule in force can use are dropped, and written
/// `-`); the FEN written reads back to the same position.
#[test]
fn rulebook_fens_round_trip() {
    let all = rulebook_positions();
    assert!(
        all.iter().any(|p| p.variant == "courier") && all.iter().any(|p| p.variant == "sho-shogi"),
        "cases.json has Courier and Sho Shogi positions"
    );
    let mut failures = Vec::new();
    for BookPosition {
        variant: name,
        options: opts,
        fen,
        ..
    } in &all
    {
        let v = variant(name, &options_of(opts));
        let pos = match Position::from_fen(v.clone(), fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name} {opts:?} `{fen}`: {e}"));
                continue;
            }
        };
        let written = pos.fen();
        let mut expected: Vec<String> = fen.split_whitespace().map(String::from).collect();
        if v.rules.castling.is_none() && castling_field(&v) && expected.len() > 2 {
            // Rights without castling in force are void.
            expected[2] = "-".into();
        }
        if written != expected.join(" ") {
            failures.push(format!(
                "{name} {opts:?}: `{fen}` is written back as `{written}`"
            ));
        }
        match Position::from_fen(v, &written) {
            Ok(back) => {
                if back.fen() != written || back.hash() != pos.hash() {
                    failures.push(format!("{name} {opts:?}: `{written}` does not read back"));
                }
            }
            Err(e) => failures.push(format!("{name} {opts:?}: `{written}`: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The start FEN of every built-in variant, and of every option value,
/// writes back as the variant file gives it.
#[test]
fn start_fens_round_trip() {
    let mut failures = Vec::new();
    for (name, _) in kamil_rules::variant::BUILTIN {
        let base = variant(name, &[]);
        let mut sets: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for o in &base.options {
            for value in &o.values {
                sets.push(vec![(o.name.clone(), value.clone())]);
            }
        }
        for set in sets {
            let v = variant(name, &options_of(&set));
            let pos = Position::start(v.clone());
            let written = pos.fen();
            let back = Position::from_fen(v.clone(), &written).expect("own FEN reads");
            if back.fen() != written || back.hash() != pos.hash() {
                failures.push(format!("{name} {set:?}: `{written}` does not read back"));
            }
            let mut expected: Vec<String> =
                v.start_fen.split_whitespace().map(String::from).collect();
            if v.rules.castling.is_none() && castling_field(&v) && expected.len() > 2 {
                expected[2] = "-".into();
            }
            if written != expected.join(" ") {
                failures.push(format!(
                    "{name} {set:?}: start `{}` is written as `{written}`",
                    v.start_fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any text given as a FEN is read or refused with an error, never a panic.
    #[test]
    fn fen_reader_never_panics(
        which in any::<u16>(),
        text in concat!(
            "[0-9a-zA-Z/+*^ -]{0,40}|\\PC{0,40}|",
            // Shaped like a FEN: 8 or 9 ranks, pieces, runs, optional fields.
            "(([1-9]|1[0-2]|[+]?[KkPpRrNnBbEeFfWwMmQqGgSsLl^]){1,9}/){7,8}",
            "([1-9]|1[0-2]|[+]?[KkPpRrGg]){1,9}",
            "( [wb]( [KQkq-]{1,4}( [a-l][1-9]| -)( [0-9]{1,3}){0,2})?)?",
        ),
    ) {
        let name = kamil_rules::variant::BUILTIN[which as usize % kamil_rules::variant::BUILTIN.len()].0;
        let v = variant(name, &[]);
        if let Ok(mut pos) = Position::from_fen(v.clone(), &text) {
            // What was accepted writes a FEN that reads back the same.
            let fen = pos.fen();
            check_fen_reload(&mut pos, &[])?;
            prop_assert!(Position::from_fen(v, &fen).is_ok());
        }
    }

    /// Any text given as a move is a legal move or an error, never a panic.
    #[test]
    fn move_reader_never_panics(
        which in any::<u16>(),
        text in "[a-l0-9,x=+@ -]{0,12}|\\PC{0,12}|\\PC[0-9],[a-l0-9]{0,3}",
    ) {
        let name = kamil_rules::variant::BUILTIN[which as usize % kamil_rules::variant::BUILTIN.len()].0;
        let mut pos = Position::start(variant(name, &[]));
        if let Ok(m) = parse_move(&mut pos, &text) {
            prop_assert!(legal(&mut pos).contains(&m));
        }
    }
}
