//! The targets of the rules library's readers: FEN, move text, PGN,
//! variant files and Betza strings.

use crate::variants;
use crate::{MAX_INPUT, MAX_VARIANT_FILE, text};
use kamil_rules::notation::{
    move_text as text_of, parse_move, parse_xboard_move, xboard_move_text,
};
use kamil_rules::pgn::{self, GameRecord};
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Move, Position, Variant};
use std::sync::Arc;

/// Most legal moves of a position whose text round trip and make/unmake
/// are checked (the rest are counted only): a Chu Shogi middlegame has
/// several hundred, and each parse generates them all again.
const MOVES_CHECKED: usize = 48;

/// Most root moves whose replies are counted (perft 2) in a fuzzed variant.
const PERFT_ROOTS: usize = 64;

/// Target `fen`: the first byte chooses a built-in variant (with one of
/// its options set, see `variants`), the rest is read as a FEN of it.
///
/// If it reads: the FEN written back reads again to the same FEN text and
/// the same hash, the hash is the one computed from scratch, and the
/// position's legal moves pass `check_moves` (count, text round trip,
/// make/unmake).
pub fn fen(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let v = variants::by_byte(first);
    let given = text(rest, MAX_INPUT);
    let Ok(mut pos) = Position::from_fen(v.clone(), &given) else {
        return;
    };
    let written = pos.fen();
    let again = Position::from_fen(v.clone(), &written).unwrap_or_else(|e| {
        panic!(
            "{}: FEN `{given}` reads, its FEN `{written}` does not: {e}",
            v.name
        )
    });
    assert_eq!(
        again.fen(),
        written,
        "{}: FEN `{given}` written, read and written again differs",
        v.name
    );
    assert_eq!(
        again.hash(),
        pos.hash(),
        "{}: FEN `{written}` read twice gives two hashes",
        v.name
    );
    assert_eq!(
        pos.hash(),
        pos.hash_from_scratch(),
        "{}: FEN `{written}`: incremental and from-scratch hash differ",
        v.name
    );
    check_moves(&mut pos);
}

/// Target `move_text`: the first byte chooses a built-in variant, the low
/// four bits of the second the number of plies played from its start (each
/// chosen by one of the next bytes among the legal moves), and the rest is
/// read as a move, in kamil's notation and in XBoard's.
///
/// If it reads: the move is legal, its text reads back to the same move
/// (kamil's notation) or to a move leaving the same position (XBoard's,
/// where `g6g6` means any pass of the piece on g6).
pub fn move_text(data: &[u8]) {
    let [first, plies, rest @ ..] = data else {
        return;
    };
    let v = variants::by_byte(*first);
    let mut pos = Position::start(v.clone());
    let plies = (*plies & 15) as usize;
    let (choices, rest) = rest.split_at(plies.min(rest.len()));
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make(moves[c as usize % moves.len()]);
    }
    let given = text(rest, MAX_INPUT);
    if let Ok(m) = parse_move(&mut pos, &given) {
        assert!(
            pos.is_legal(m),
            "{}: `{given}` read as {m:?}, not legal in {}",
            v.name,
            pos.fen()
        );
        round_trip(&mut pos, m);
    }
    if let Ok(m) = parse_xboard_move(&mut pos, &given) {
        assert!(
            pos.is_legal(m),
            "{}: XBoard move `{given}` read as {m:?}, not legal in {}",
            v.name,
            pos.fen()
        );
        xboard_round_trip(&mut pos, m);
    }
}

/// Target `pgn`: the bytes are read as PGN.
///
/// If they read: the game is set up (its `Variant` tag, else the first
/// built-in game, with its `VariantOptions` and `FEN`; nothing more if those
/// do not load) and its moves played up to the first that is not legal;
/// that game written as PGN reads again, with the same tags, the same
/// options in force, the same result, moves that are the texts of the
/// moves played, and, played from its `FEN` tag, the same final position.
pub fn pgn(data: &[u8]) {
    let given = text(data, MAX_INPUT);
    let Ok(game) = pgn::read(&given) else {
        return;
    };
    let name = game.tag("Variant").unwrap_or(BUILTIN[0].0);
    let Some(v) = variants::named(name, &options_tag(&game)) else {
        return;
    };
    let start = match game.tag("FEN") {
        Some(f) => match Position::from_fen(v.clone(), f) {
            Ok(p) => p,
            Err(_) => return,
        },
        None => Position::start(v.clone()),
    };
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for t in &game.moves {
        match parse_move(&mut pos, t) {
            Ok(m) => {
                pos.make(m);
                moves.push(m);
            }
            Err(_) => break,
        }
    }
    let result = game.result.as_deref().unwrap_or("*");
    let written = pgn::write(&GameRecord {
        start: &start,
        moves: &moves,
        tags: &game.tags,
        result,
        termination: None,
    });
    let again = pgn::read(&written).unwrap_or_else(|e| {
        panic!("PGN read from `{given}` and written does not read: {e}\n{written}")
    });
    let texts: Vec<String> = moves.iter().map(|&m| text_of(&v, m)).collect();
    assert_eq!(again.moves, texts, "moves differ once written:\n{written}");
    assert_eq!(
        again.result.as_deref(),
        Some(result),
        "result differs once written:\n{written}"
    );
    assert_eq!(again.tag("Variant"), Some(v.name.as_str()), "{written}");
    let options_again = options_tag(&again);
    let v_again = variants::named(&v.name, &options_again).unwrap_or_else(|| {
        panic!("the written VariantOptions {options_again:?} do not load:\n{written}")
    });
    assert_eq!(
        v_again.chosen, v.chosen,
        "the options in force differ once written:\n{written}"
    );
    // Tags: the seven-tag roster (first value of each, `?` if missing),
    // then every other tag but those written from the game itself.
    const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];
    const OWN: [&str; 5] = ["Result", "Variant", "VariantOptions", "SetUp", "FEN"];
    for name in ROSTER {
        assert_eq!(
            again.tag(name),
            Some(game.tag(name).unwrap_or("?")),
            "tag {name} differs once written:\n{written}"
        );
    }
    let others = |tags: &[(String, String)]| -> Vec<(String, String)> {
        tags.iter()
            .filter(|(k, _)| !ROSTER.contains(&k.as_str()) && !OWN.contains(&k.as_str()))
            .cloned()
            .collect()
    };
    assert_eq!(
        others(&again.tags),
        others(&game.tags),
        "tags differ once written:\n{written}"
    );
    let mut replay = match again.tag("FEN") {
        Some(f) => Position::from_fen(v_again.clone(), f)
            .unwrap_or_else(|e| panic!("written FEN tag `{f}` does not read: {e}\n{written}")),
        None => Position::start(v_again.clone()),
    };
    for t in &again.moves {
        let m = parse_move(&mut replay, t)
            .unwrap_or_else(|e| panic!("written move `{t}` is not legal: {e}\n{written}"));
        replay.make(m);
    }
    assert_eq!(
        replay.fen(),
        pos.fen(),
        "the written game ends elsewhere:\n{written}"
    );
}

/// The option choices of a PGN game's `VariantOptions` tag (`KEY=VALUE`
/// separated by spaces; a bare `KEY` is `KEY=true`), as `kamil serve` reads
/// them.
fn options_tag(game: &pgn::PgnGame) -> Vec<(String, String)> {
    game.tag("VariantOptions")
        .map(|o| {
            o.split_whitespace()
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, "true"));
                    (k.to_string(), v.to_string())
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Target `variant_file`: the bytes (up to [`MAX_VARIANT_FILE`]) are read
/// as a variant's TOML file, its Betza strings included.
///
/// If it loads: the start position's FEN reads back to the same FEN, its
/// legal moves pass `check_moves`, the game-end test answers, and the
/// replies to (up to `PERFT_ROOTS`) root moves are counted: perft 2.
pub fn variant_file(data: &[u8]) {
    let given = text(data, MAX_VARIANT_FILE);
    if known_betza_hang(&given) {
        return;
    }
    let Ok(v) = Variant::from_toml("fuzz.toml", &given, &[]) else {
        return;
    };
    let v = Arc::new(v);
    let mut pos = Position::start(v.clone());
    let fen = pos.fen();
    let again = Position::from_fen(v.clone(), &fen)
        .unwrap_or_else(|e| panic!("the start FEN `{fen}` does not read: {e}\n{given}"));
    assert_eq!(
        again.fen(),
        fen,
        "the start FEN differs once read:\n{given}"
    );
    check_moves(&mut pos);
    let _ = pos.outcome();
    for m in pos.legal_moves().into_iter().take(PERFT_ROOTS) {
        pos.make(m);
        let _ = pos.count_legal();
        pos.unmake();
    }
    assert_eq!(
        pos.fen(),
        fen,
        "make/unmake of the root moves changed the start"
    );
}

/// Target `betza`: the bytes are read as a Betza string (a piece's moves).
/// Nothing more holds than no panic and no hang.
pub fn betza(data: &[u8]) {
    let given = text(data, MAX_INPUT);
    if known_betza_hang(&given) {
        return;
    }
    let _ = kamil_rules::betza::parse(&given);
}

/// Checks the legal moves of `pos`: their count is [`Position::count_legal`]
/// and perft 1; and for each of the first [`MOVES_CHECKED`], its text
/// reads back to it ([`round_trip`]), its XBoard text to a move leaving the
/// same position, and make then unmake restores the FEN and the hash.
fn check_moves(pos: &mut Position) {
    let moves = pos.legal_moves();
    let fen = pos.fen();
    assert_eq!(
        pos.count_legal(),
        moves.len() as u64,
        "count_legal and legal_moves differ in {fen}"
    );
    assert_eq!(
        kamil_rules::perft::perft(pos, 1),
        moves.len() as u64,
        "perft 1 and legal_moves differ in {fen}"
    );
    let _ = pos.outcome();
    let hash = pos.hash();
    for &m in moves.iter().take(MOVES_CHECKED) {
        round_trip(pos, m);
        xboard_round_trip(pos, m);
        pos.make(m);
        assert_eq!(
            pos.hash(),
            pos.hash_from_scratch(),
            "{fen}: after {m:?}, incremental and from-scratch hash differ"
        );
        pos.unmake();
        assert_eq!(pos.fen(), fen, "make/unmake of {m:?} changed the FEN");
        assert_eq!(
            pos.hash(),
            hash,
            "make/unmake of {m:?} changed the hash in {fen}"
        );
    }
}

/// The legal move `m`'s text (kamil's notation) reads back to `m`.
fn round_trip(pos: &mut Position, m: Move) {
    let v = pos.variant().clone();
    let t = text_of(&v, m);
    match parse_move(pos, &t) {
        Ok(back) => assert_eq!(
            back,
            m,
            "{}: `{t}` reads as another move in {}",
            v.name,
            pos.fen()
        ),
        Err(e) => panic!(
            "{}: the text `{t}` of a legal move does not read in {}: {e}",
            v.name,
            pos.fen()
        ),
    }
}

/// The legal move `m`'s XBoard text reads back to a move that leaves the
/// same position (passes of one piece are interchangeable).
fn xboard_round_trip(pos: &mut Position, m: Move) {
    let v = pos.variant().clone();
    let t = xboard_move_text(&v, m);
    let back = parse_xboard_move(pos, &t).unwrap_or_else(|e| {
        panic!(
            "{}: the XBoard text `{t}` of a legal move does not read in {}: {e}",
            v.name,
            pos.fen()
        )
    });
    if back != m {
        pos.make(m);
        let want = pos.hash();
        pos.unmake();
        pos.make(back);
        let got = pos.hash();
        pos.unmake();
        assert_eq!(
            got,
            want,
            "{}: XBoard `{t}` reads as another move in {}",
            v.name,
            pos.fen()
        );
    }
}

/// A Betza string of five legs or more, which the loader of this version
/// takes seconds to expand, and for ever from six (`KaKaKaKaKaK`; five
/// legs, `KaKaKaKaK`, give 32768 paths in 2 s, four 4096 in 0.06 s): the
/// bound on legs being added to the rules crate (the robustness issue's
/// "limits for Betza legs") will refuse them. Until then such inputs are
/// skipped here, crudely: any word with four `a` (leg) modifiers or more.
fn known_betza_hang(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric() && !"()[]-+'".contains(c))
        .any(|word| word.matches('a').count() >= 4)
}

/// Target `rules_text`: the bytes are read as a rules text (Markdown with
/// the structure of `kamil_rules::rules_text`).
///
/// If it reads: every line it reports (of a heading or a diagram marker)
/// lies in the text, and checking it against each built-in variant (with
/// its defaults) answers without a panic; an error it reports names the
/// file and, if it has one, a line of the text.
pub fn rules_text(data: &[u8]) {
    use kamil_rules::rules_text::{Part, RulesText};
    let given = text(data, MAX_VARIANT_FILE);
    let lines = given.lines().count().max(1);
    let parsed = match RulesText::parse("fuzz.rules.md", &given) {
        Ok(p) => p,
        Err(e) => {
            assert_eq!(e.file, "fuzz.rules.md");
            assert!(e.line.is_none_or(|l| (1..=lines).contains(&l)), "{e}");
            return;
        }
    };
    for s in &parsed.sections {
        assert!((1..=lines).contains(&s.line), "heading line {}", s.line);
        for p in &s.parts {
            if let Part::Diagram { line, .. } = p {
                assert!((1..=lines).contains(line), "marker line {line}");
            }
        }
    }
    // Compiled once: a Chu Shogi takes far longer to build than to check.
    static CHECKED: std::sync::OnceLock<Vec<Variant>> = std::sync::OnceLock::new();
    let checked = CHECKED.get_or_init(|| {
        ["courier", "chu-shogi", "tamerlane-greenwood-3"]
            .iter()
            .filter_map(|name| Variant::builtin(name, &[]).ok())
            .collect()
    });
    for v in checked {
        let _ = parsed.for_variant(v);
    }
}
