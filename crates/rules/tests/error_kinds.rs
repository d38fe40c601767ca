//! The error kinds of FEN, move, PGN and Betza reading: bad inputs give the
//! kind that names the problem, and the message text stays what it was
//! (the CLI's tests and users read those texts), except that a count of
//! one is singular and a long input is cut to an excerpt.

use kamil_rules::betza::{self, BetzaErrorKind};
use kamil_rules::fen::FenErrorKind;
use kamil_rules::notation::{MoveErrorKind, from_xboard, parse_move, parse_xboard_move};
use kamil_rules::pgn::{self, PgnErrorKind};
use kamil_rules::{Position, Variant};
use std::sync::Arc;

fn variant(name: &str) -> Arc<Variant> {
    Arc::new(Variant::builtin(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Courier's start board (12 files, 8 ranks; fields castling, ep,
/// halfmove, fullmove).
const COURIER: &str = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR";

/// The error of FEN `fen` in `name`, with its message.
fn fen_error(name: &str, fen: &str) -> (usize, FenErrorKind, String) {
    let e = Position::from_fen(variant(name), fen).expect_err(fen);
    (e.field, e.kind.clone(), e.to_string())
}

#[test]
fn fen_board_errors() {
    let (field, kind, text) = fen_error("courier", "");
    assert_eq!((field, kind), (1, FenErrorKind::Empty));
    assert_eq!(text, "FEN board: empty FEN");

    let fen = COURIER.replacen("rn", "rx", 1);
    let (field, kind, text) = fen_error("courier", &fen);
    let want = FenErrorKind::UnknownPiece {
        rank: 8,
        text: "xeb".into(),
    };
    assert_eq!((field, kind), (1, want));
    assert_eq!(text, "FEN board: rank 8: no piece is written `xeb`");

    let seven = COURIER.split_once('/').unwrap().1;
    let (_, kind, text) = fen_error("courier", seven);
    let want = FenErrorKind::WrongRankCount {
        given: 7,
        expected: 8,
    };
    assert_eq!(kind, want);
    assert_eq!(text, "FEN board: 7 ranks given, the board has 8");

    let (_, kind, text) = fen_error("courier", &COURIER.replace("6f5", "6f6"));
    let want = FenErrorKind::RankTooLong { rank: 6, files: 12 };
    assert_eq!(kind, want);
    assert_eq!(text, "FEN board: rank 6 is longer than 12 files");

    let (_, kind, text) = fen_error("courier", &COURIER.replace("6f5", "6f4"));
    let want = FenErrorKind::RankTooShort {
        rank: 6,
        cells: 11,
        files: 12,
    };
    assert_eq!(kind, want);
    assert_eq!(
        text,
        "FEN board: rank 6 has 11 cells, the board has 12 files"
    );

    let (_, kind, text) = fen_error("courier", &COURIER.replace("6f5", "6f0f4"));
    assert_eq!(kind, FenErrorKind::ZeroRun { rank: 6 });
    assert_eq!(text, "FEN board: rank 6: empty run of 0");

    let (_, kind, text) = fen_error("courier", &COURIER.replace("6f5", "*5f5"));
    let want = FenErrorKind::StarOnSquare {
        rank: 6,
        square: "a6".into(),
    };
    assert_eq!(kind, want);
    assert_eq!(text, "FEN board: rank 6: `*` on a6, which is a square");
}

#[test]
fn fen_side_and_field_errors() {
    let (field, kind, text) = fen_error("courier", &format!("{COURIER} x - - 0 1"));
    assert_eq!(field, 2);
    assert!(
        matches!(&kind, FenErrorKind::BadSide { text, expected } if text == "x" && expected == &["w", "b"]),
        "{kind:?}"
    );
    assert_eq!(text, "FEN side to move: `x`: expected `w` or `b`");

    let (field, kind, text) = fen_error("courier", &format!("{COURIER} w - z9 0 1"));
    let want = FenErrorKind::BadSquare { text: "z9".into() };
    assert_eq!((field, kind), (4, want));
    assert_eq!(text, "FEN field 4: `z9` is not a square");

    let (field, kind, _) = fen_error("courier", &format!("{COURIER} w - - many 1"));
    let want = FenErrorKind::BadHalfmove {
        text: "many".into(),
    };
    assert_eq!((field, kind), (5, want));
    let (field, kind, text) = fen_error("courier", &format!("{COURIER} w - - 0 -3"));
    let want = FenErrorKind::BadFullmove { text: "-3".into() };
    assert_eq!((field, kind), (6, want));
    assert_eq!(text, "FEN field 6: `-3` is not a move number");

    let frolov = variant("frolov-10x10").start_fen.clone();
    let (field, kind, text) = fen_error("frolov-10x10", &frolov.replace("KQkq", "KXkq"));
    assert_eq!(
        (field, kind),
        (3, FenErrorKind::BadCastling { letter: 'X' })
    );
    assert_eq!(text, "FEN field 3: castling `X`: expected K, Q, k, q or -");
    // Frolov's fifth field names a frozen piece of the side to move.
    let (field, kind, text) = fen_error("frolov-10x10", &frolov.replace("- - 0", "- e5 0"));
    let want = FenErrorKind::FrozenNotOwn { text: "e5".into() };
    assert_eq!((field, kind), (5, want));
    assert_eq!(
        text,
        "FEN field 5: frozen `e5`: no piece of the side to move there"
    );
    let (_, kind, _) = fen_error("frolov-10x10", &frolov.replace("- - 0", "- q5 0"));
    assert_eq!(kind, FenErrorKind::BadFrozenSquare { text: "q5".into() });

    let tamerlane = variant("tamerlane").start_fen.clone();
    let (field, kind, text) = fen_error("tamerlane", &tamerlane.replace(" Kk ", " Kq "));
    assert_eq!((field, kind), (3, FenErrorKind::BadSwap { letter: 'q' }));
    assert_eq!(text, "FEN field 3: swap right `q`: expected K, k or -");
}

/// The error of move `text` from courier's start, with its message.
fn move_error(text: &str) -> (MoveErrorKind, String) {
    let mut pos = Position::start(variant("courier"));
    let e = parse_move(&mut pos, text).expect_err(text);
    assert_eq!(e.text, text);
    (e.kind.clone(), e.to_string())
}

#[test]
fn move_errors() {
    let (kind, text) = move_error("b2b4");
    let want = MoveErrorKind::NotLegal {
        square: "b2".into(),
        legal: vec!["b2b3".into()],
    };
    assert_eq!(kind, want);
    assert_eq!(text, "move `b2b4`: illegal; legal moves of b2: b2b3");

    let (kind, text) = move_error("a2a3");
    assert_eq!(
        kind,
        MoveErrorKind::NoPiece {
            square: "a2".into()
        }
    );
    assert_eq!(text, "move `a2a3`: no piece on a2");

    let (kind, text) = move_error("b7b6");
    let want = MoveErrorKind::NotSideToMove {
        square: "b7".into(),
    };
    assert_eq!(kind, want);
    assert_eq!(
        text,
        "move `b7b6`: the piece on b7 is not the side to move's"
    );

    let (kind, text) = move_error("pawn up");
    let want = MoveErrorKind::Malformed {
        example: "a1a2".into(),
    };
    assert_eq!(kind, want);
    assert_eq!(
        text,
        "move `pawn up`: not a move in coordinate notation (e.g. a1a2)"
    );

    let (kind, _) = move_error("b2b3/z99");
    assert_eq!(kind, MoveErrorKind::BadSquare { text: "z99".into() });

    // A piece without any legal move: the list is empty, the text says so.
    let none = MoveErrorKind::NotLegal {
        square: "a1".into(),
        legal: Vec::new(),
    };
    assert_eq!(
        none.to_string(),
        "illegal; the piece on a1 has no legal move"
    );
}

#[test]
fn xboard_move_errors() {
    // Tamerlane's corner cells are no squares; XBoard counts its ten ranks
    // from 0.
    let e = from_xboard(&variant("tamerlane"), "a0a1").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::OffBoard { text: "a0".into() });
    assert_eq!(
        e.to_string(),
        "move `a0a1`: `a0` is not a square of this board"
    );

    let mut pos = Position::start(variant("courier"));
    let e = parse_xboard_move(&mut pos, "@@@@").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::NoPass);
    // XBoard text keeps the kind parse_move found, under the text given.
    let e = parse_xboard_move(&mut pos, "a2a3").unwrap_err();
    assert_eq!(
        e.kind,
        MoveErrorKind::NoPiece {
            square: "a2".into()
        }
    );
    assert_eq!(e.text, "a2a3");
}

#[test]
fn pgn_errors() {
    let e = pgn::read("[Event x]\n").unwrap_err();
    let want = PgnErrorKind::UnquotedValue {
        tag: "Event".into(),
    };
    assert_eq!((e.line, e.kind.clone()), (1, want));
    assert_eq!(
        e.to_string(),
        "PGN line 1: tag `Event`: value not in quotes"
    );

    let e = pgn::read("[Event \"x\"]\n[Site \"y\"\n").unwrap_err();
    assert_eq!((e.line, e.kind), (2, PgnErrorKind::UnclosedTag));
    let e = pgn::read("[Event]\n").unwrap_err();
    assert_eq!(e.kind, PgnErrorKind::NoTagValue);
    let e = pgn::read("[Event \"x\"]\n\n1. b2b3 {open").unwrap_err();
    assert_eq!((e.line, e.kind.clone()), (3, PgnErrorKind::UnclosedComment));
    assert_eq!(e.to_string(), "PGN line 3: comment `{` never closed");
    let e = pgn::read("1. b2b3 (1. c2c3").unwrap_err();
    assert_eq!(e.kind, PgnErrorKind::UnclosedVariation);
    let e = pgn::read(" \n ").unwrap_err();
    assert_eq!(e.kind, PgnErrorKind::Empty);
}

/// [`pgn::read`] does not check moves: an illegal one is found when the
/// record is played, as a move error naming the piece's legal moves.
#[test]
fn pgn_with_an_illegal_move() {
    let text = "[Variant \"courier\"]\n\n1. b2b3 h7h6 2. b3b5 *\n";
    let game = pgn::read(text).unwrap();
    let mut pos = Position::start(variant(game.tag("Variant").unwrap()));
    let mut error = None;
    for (i, m) in game.moves.iter().enumerate() {
        match parse_move(&mut pos, m) {
            Ok(mv) => pos.make(mv),
            Err(e) => {
                error = Some((i, e));
                break;
            }
        }
    }
    let (i, e) = error.expect("the third move is illegal");
    assert_eq!(i, 2);
    let want = MoveErrorKind::NotLegal {
        square: "b3".into(),
        legal: vec!["b3b4".into()],
    };
    assert_eq!(e.kind, want);
}

#[test]
fn betza_errors() {
    let cases = [
        ("KX", 1, BetzaErrorKind::UnknownAtom { letter: 'X' }),
        ("fm", 2, BetzaErrorKind::MissingAtom),
        ("aK", 0, BetzaErrorKind::LeadingA),
        ("NaN", 0, BetzaErrorKind::LaterLegAtom { atom: 'N' }),
        ("NaW", 0, BetzaErrorKind::CannotTurn),
        (
            "WhK",
            1,
            BetzaErrorKind::UnsupportedModifier { letter: 'h' },
        ),
        ("W300", 1, BetzaErrorKind::RangeTooLarge { range: 300 }),
        // Issue 17: six undirected legs used to take minutes to expand.
        ("WKaKaKaKaKaK", 1, BetzaErrorKind::TooManyLegs { legs: 6 }),
        ("KaKaKaKaK", 0, BetzaErrorKind::TooManyPaths),
    ];
    for (text, pos, kind) in cases {
        let e = betza::parse(text).expect_err(text);
        assert_eq!((e.pos, e.kind), (pos, kind), "{text}");
    }
    let e = betza::parse("KX").unwrap_err();
    assert_eq!(e.to_string(), "Betza `KX` at position 1: unknown atom `X`");
    let e = betza::parse("NaN").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Betza `NaN` at position 0: a later leg must use a one-step atom (W, F, K, R, B, Q), not `N`"
    );
}

/// Issue 17: the bounds on legs and paths let every legal move through.
#[test]
fn betza_bounds_keep_what_fits() {
    assert_eq!(betza::MAX_LEGS, 5);
    // Four undirected King legs: 8^4 paths, exactly the bound.
    let p = betza::parse("KaKaKaK").expect("4 legs");
    assert_eq!(p.len(), betza::MAX_PATHS);
    // Five legs are allowed when they fan out less.
    let p = betza::parse("fWafWafWafWafW").expect("5 legs");
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].legs.len(), 5);
    // A long message text is cut.
    let long = format!("{}X", "W".repeat(10_000));
    let e = betza::parse(&long).unwrap_err();
    assert!(e.to_string().len() < 200, "{e}");
    assert!(e.to_string().contains("(10001 characters)"), "{e}");
}

#[test]
fn a_count_of_one_is_singular() {
    let (_, kind, text) = fen_error("courier", "12 w - - 0 1");
    assert_eq!(
        kind,
        FenErrorKind::WrongRankCount {
            given: 1,
            expected: 8
        }
    );
    assert_eq!(text, "FEN board: 1 rank given, the board has 8");
    let (_, _, text) = fen_error("courier", &COURIER.replace("6f5", "1"));
    assert_eq!(text, "FEN board: rank 6 has 1 cell, the board has 12 files");
}

#[test]
fn long_input_is_cut_to_an_excerpt() {
    let huge = "x".repeat(100_000);
    let (field, kind, text) = fen_error("courier", &format!("{COURIER} {huge} - - 0 1"));
    // The kind keeps the text; the message shows its start and length.
    assert!(matches!(&kind, FenErrorKind::BadSide { text, .. } if text.len() == 100_000));
    assert_eq!(field, 2);
    let cut = format!("{}… (100000 characters)", "x".repeat(60));
    assert_eq!(
        text,
        format!("FEN side to move: `{cut}`: expected `w` or `b`")
    );
    for fen in [
        format!("{COURIER} w - {huge} 0 1"),
        format!("{COURIER} w - - {huge} 1"),
        format!("{COURIER} w - - 0 {huge}"),
    ] {
        let (_, _, text) = fen_error("courier", &fen);
        assert!(text.contains(&cut) && text.len() < 200, "{text}");
    }
    let frolov = variant("frolov-10x10").start_fen.clone();
    let (_, _, text) = fen_error(
        "frolov-10x10",
        &frolov.replace("- - 0", &format!("- {huge} 0")),
    );
    assert!(text.contains(&cut) && text.len() < 200, "{text}");

    let (_, text) = move_error(&huge);
    assert!(text.starts_with(&format!("move `{cut}`: ")), "{text}");
    assert!(text.len() < 200, "{text}");
    let (_, text) = move_error(&format!("b2b3/{huge}"));
    assert!(text.contains(&cut) && text.len() < 250, "{text}");
}

/// Issue 17: text after a shogi FEN's side letter switched it to XBoard's
/// side letters, so `b junk` was read as the second player to move. Only
/// XBoard's fields (`-`, numbers) switch; anything else is an error, and a
/// field after the variant's last is one too.
#[test]
fn trailing_text_after_a_fen_is_an_error() {
    use kamil_rules::Side;
    let sho = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL";
    let side = |fen: &str| {
        Position::from_fen(variant("sho-shogi"), fen)
            .expect(fen)
            .side()
    };
    assert_eq!(side(&format!("{sho} b")), Side::First);
    assert_eq!(side(&format!("{sho} w 0 1")), Side::First);
    assert_eq!(side(&format!("{sho} w - - 0 1")), Side::First);
    assert_eq!(side(&format!("{sho} b 0 1")), Side::Second);
    let (field, kind, text) = fen_error("sho-shogi", &format!("{sho} b junk"));
    assert_eq!(field, 3);
    assert_eq!(
        kind,
        FenErrorKind::NotXboardField {
            text: "junk".into()
        }
    );
    assert_eq!(
        text,
        "FEN field 3: `junk`: after the side to move an XBoard FEN has only `-` or numbers"
    );
    let courier = format!("{COURIER} w - - 0 1");
    Position::from_fen(variant("courier"), &courier).expect("six fields");
    let (field, kind, text) = fen_error("courier", &format!("{courier} junk"));
    assert_eq!(field, 7);
    assert_eq!(
        kind,
        FenErrorKind::ExtraField {
            text: "junk".into(),
            expected: 6
        }
    );
    assert_eq!(text, "FEN field 7: `junk`: the FEN has 6 fields at most");
}
