//! `kamil xboard` driven as XBoard drives an engine (CECP v2): scripted
//! sessions covering every command kamil implements, Lion double moves in
//! XBoard's comma form both ways, `lift` answered by `highlight`, the
//! `setup` / `piece` lines of games XBoard does not know, game ends
//! reported with `RESULT`, and bad lines answered with `Error`.

mod common;
use common::{Session, variant};

use kamil_rules::notation::parse_xboard_move;
use kamil_rules::{Position, Variant};
use std::sync::Arc;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

/// `kamil` in an XBoard session, counting its pings.
struct Engine {
    io: Session,
    ping: u32,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        Engine {
            io: Session::start(args),
            ping: 0,
        }
    }

    /// `kamil xboard` after the handshake, features read.
    fn xboard() -> Engine {
        let mut e = Engine::start(&["xboard"]);
        e.send("xboard");
        e.send("protover 2");
        e.until("feature done=1");
        e
    }

    fn send(&mut self, s: &str) {
        self.io.send(s);
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.io.until(prefix, WAIT)
    }

    /// Sends `cmd`, then a ping; returns what came before the pong.
    fn ask(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        self.sync()
    }

    /// Pings and returns the lines before the pong.
    fn sync(&mut self) -> Vec<String> {
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"));
        let mut l = self.until(&format!("pong {n}"));
        l.pop();
        l
    }

    /// The engine's next move, legs joined as XBoard joins them
    /// (`move f6f7,` + `move f7f8` -> `f6f7,f7f8`), and the lines read.
    fn next_move(&mut self) -> (String, Vec<String>) {
        let mut all = Vec::new();
        let mut legs = String::new();
        loop {
            let l = self.until("move ");
            let leg = l.last().unwrap()["move ".len()..].to_string();
            all.extend(l);
            legs.push_str(&leg);
            if !leg.ends_with(',') {
                return (legs, all);
            }
        }
    }
}

fn is_thinking(l: &str) -> bool {
    let w: Vec<&str> = l.split_whitespace().collect();
    w.len() >= 4 && w[..4].iter().all(|x| x.parse::<i64>().is_ok())
}

/// Chu position: the first player's (XBoard's White) Lion on f6 with the
/// second player's Dragon King on f7 and Free King on f8 in front of it.
const LION_FEN: &str = "6k5/12/12/12/5q6/5d6/5N6/12/12/12/12/6K5 w - - 0 1";

#[test]
fn handshake_offers_every_game_and_the_features_xboard_needs() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until("feature done=1");
    assert_eq!(lines[0], "feature done=0", "{lines:?}");
    let all = lines.join("\n");
    let variants = all
        .split("variants=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a variants feature");
    let names: Vec<&str> = variants.split(',').collect();
    for want in ["chu", "dai", "sho", "courier", "courier-modern"] {
        assert!(names.contains(&want), "{want} not in {names:?}");
    }
    assert!(
        !names.contains(&"chu-shogi"),
        "XBoard's name, not ours: {names:?}"
    );
    for f in [
        "setboard=1",
        "ping=1",
        "playother=1",
        "usermove=1",
        "analyze=1",
        "highlight=1",
        "memory=1",
        "smp=1",
        "colors=0",
    ] {
        assert!(all.contains(f), "{f} missing: {all}");
    }
    // Variant options as combos, the default starred.
    assert!(
        all.contains("feature option=\"chu-shogi lion-trading -combo *modern /// off /// seed\""),
        "{all}"
    );
    e.send("quit");
    assert!(e.io.child.wait().unwrap().success());
}

#[test]
fn uci_and_a_bare_kamil_switch_to_xboard_on_its_first_line() {
    for args in [&["uci"][..], &[][..]] {
        let mut e = Engine::start(args);
        e.send("xboard");
        e.send("protover 2");
        e.until("feature done=1");
        let l = e.ask("variant chu");
        assert!(l.is_empty(), "{l:?}");
    }
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
}

#[test]
fn the_engine_plays_a_lion_double_capture_in_comma_form() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send(&format!("setboard {LION_FEN}"));
    e.send("sd 3");
    e.send("post");
    e.send("go");
    let (m, lines) = e.next_move();
    assert_eq!(m, "f6f7,f7f8", "{lines:?}");
    // Each leg on its own line, the first ending in a comma.
    let n = lines.len();
    assert_eq!(lines[n - 2..], ["move f6f7,", "move f7f8"], "{lines:?}");
    // Thinking output in XBoard's format, PV legs in comma form too.
    let think: Vec<&String> = lines.iter().filter(|l| is_thinking(l)).collect();
    assert!(!think.is_empty(), "{lines:?}");
    assert!(think.iter().any(|l| l.contains(" f6f7,f7f8")), "{think:?}");
}

#[test]
fn a_user_lion_double_capture_in_comma_form_is_made() {
    let mut e = Engine::xboard();
    e.send("variant chu");
    e.send("force");
    e.send(&format!("setboard {LION_FEN}"));
    let l = e.ask("usermove f6f7,f7f8");
    assert!(l.is_empty(), "{l:?}");
    // The Lion now stands on f8 and both pieces are gone: the second
    // player's only piece is its King.
    let l = e.ask("usermove f8f9");
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(l[0].starts_with("Illegal move ("), "{l:?}");
    assert!(l[0].ends_with("): f8f9"), "{l:?}");
    let l = e.ask("usermove f7f6");
    assert!(l[0].contains("no piece on f7"), "{l:?}");
    let l = e.ask("usermove g12g11");
    assert!(l.is_empty(), "{l:?}");
    // Back two plies, then the igui (capture on f7 and return): legal.
    e.send("undo");
    e.send("undo");
    let l = e.ask("usermove f6f7,f7f6");
    assert!(l.is_empty(), "{l:?}");
    let l = e.ask("undo");
    assert!(l.is_empty(), "{l:?}");
    let l = e.ask("undo");
    assert!(
        l[0].starts_with("Error (command not legal now): undo"),
        "{l:?}"
    );
}

#[test]
fn lift_is_answered_with_highlights_for_both_legs_of_a_lion_move() {
    let mut e = Engine::xboard();
    e.send("variant chu");
    e.send("force");
    e.send(&format!("setboard {LION_FEN}"));
    let l = e.ask("lift f6");
    // Cyan on f7 (capture, then a second leg) and g6 (the pass), yellow
    // elsewhere within two, red on the Free King two away.
    assert_eq!(
        l,
        ["highlight 12/12/12/12/3YYRYY4/3YYCYY4/3YY1CY4/3YYYYY4/3YYYYY4/12/12/12"]
    );
    e.send("put f7");
    let l = e.ask("lift f7");
    // From f7: back to f6 (igui), on to f8 (double capture, red), or a
    // step to an empty square around f7.
    assert_eq!(
        l,
        ["highlight 12/12/12/12/4YRY5/4Y1Y5/4YYY5/12/12/12/12/12"]
    );
    // An empty square or the opponent's piece: nothing to mark.
    assert!(e.ask("lift a1").is_empty());
    assert!(e.ask("lift f8").is_empty());
    let l = e.ask("lift z99");
    assert!(l[0].starts_with("Error (not a square): lift z99"), "{l:?}");
}

#[test]
fn a_chess_style_promotion_square_is_blue_and_put_there_offers_the_choice() {
    let mut e = Engine::xboard();
    e.send("variant courier");
    e.send("force");
    e.send("setboard 5k5r/P11/12/12/12/12/12/6K5 w - - 0 1");
    let l = e.ask("lift a7");
    assert_eq!(l, ["highlight B11/12/12/12/12/12/12/12"]);
    let l = e.ask("put a8");
    assert_eq!(l, ["choice F"]);
    let l = e.ask("usermove a7a8f");
    assert!(l.is_empty(), "{l:?}");
}

#[test]
fn games_xboard_does_not_know_come_with_setup_and_piece_lines() {
    let mut e = Engine::xboard();
    let l = e.ask("variant sho");
    assert!(
        l[0].starts_with("setup (PNBRLSE..G.") && l[0].contains(") 9x9+0_shogi "),
        "{l:?}"
    );
    assert!(
        l[0].ends_with(" lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1"),
        "{l:?}"
    );
    // One piece line per type, with its Betza movement; promoted forms `+`.
    assert!(l.contains(&"piece E& FfsW".to_string()), "{l:?}");
    assert!(l.contains(&"piece +E& K".to_string()), "{l:?}");
    assert!(l[1..].iter().all(|x| x.starts_with("piece ")), "{l:?}");
    // Dai Shogi: a 15x15 board, dressed letters, the Lion's double move.
    let l = e.ask("variant dai");
    assert!(l[0].contains(") 15x15+0_chu "), "{l:?}");
    assert!(l[0].contains("L!") && l[0].contains("C'"), "{l:?}");
    assert!(l.contains(&"piece L!& KNADcaKmabK".to_string()), "{l:?}");
    // XBoard knows Chu and Courier: nothing to say.
    assert!(e.ask("variant chu").is_empty());
    assert!(e.ask("variant courier").is_empty());
    // Unless an option changes the start: then the position is sent.
    assert!(e.ask("option chu-shogi chu-old-setup=true").is_empty());
    let l = e.ask("variant chu");
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(
        l[0].starts_with("setup ") && l[0].contains("/mvrhdnqdhrvm/"),
        "{l:?}"
    );
    let l = e.ask("variant normal");
    assert_eq!(l, ["Error (unknown variant): variant normal"]);
}

#[test]
fn bad_lines_get_error_and_the_session_goes_on() {
    let mut e = Engine::xboard();
    e.send("variant courier");
    for (bad, reason) in [
        ("frobnicate", "unknown command"),
        ("level 40 x 0", "base time `x`"),
        ("level 40 5", "level needs MPS BASE INC"),
        ("st soon", "`soon` is not a number"),
        ("sd", "sd needs a depth"),
        ("sd 0", "sd needs a depth"),
        ("time lots", "`lots` is not a number"),
        ("memory", "memory needs a size"),
        ("cores 0", "cores needs a number"),
        ("option Eval=fast", "Eval is full or material"),
        (
            "option chu-shogi lion-trading=maybe",
            "lion-trading is one of",
        ),
        ("option nonsense=1", "unknown option"),
        ("exit", "command not legal now"),
        ("remove", "command not legal now"),
    ] {
        let l = e.ask(bad);
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
        assert!(
            l[0].starts_with("Error (")
                && l[0].contains(reason)
                && l[0].ends_with(&format!("): {bad}")),
            "{bad}: {l:?}"
        );
    }
    let l = e.ask("usermove z1z2");
    assert!(
        l[0].starts_with("Illegal move (") && l[0].ends_with("): z1z2"),
        "{l:?}"
    );
    let l = e.ask("usermove a2a3q");
    assert!(l[0].starts_with("Illegal move ("), "{l:?}");
    // Still playing: the engine answers a move.
    e.send("sd 2");
    e.send("usermove b2b3");
    let (m, _) = e.next_move();
    let v = variant("courier", &[]);
    let mut pos = Position::start(v);
    let b2b3 = parse_xboard_move(&mut pos, "b2b3").unwrap();
    pos.make(b2b3);
    parse_xboard_move(&mut pos, &m).expect("a legal reply");
}

#[test]
fn setboard_errors_are_reported_and_moves_refused_until_a_position_is_set() {
    let mut e = Engine::xboard();
    e.send("variant chu");
    e.send("force");
    for (fen, what) in [
        ("", "empty FEN"),
        ("12/12/12 w - - 0 1", "3 ranks given, the board has 12"),
        ("6k5/12/12/12/5q6/5d6/5Z6/12/12/12/12/6K5 w - - 0 1", "Z"),
        ("6k5/12/12/12/5q6/5d6/5N7/12/12/12/12/6K5 w - - 0 1", "rank"),
        ("6k5/12/12/12/5q6/5d6/5N6/12/12/12/12/6K5 x - - 0 1", "`x`"),
    ] {
        let line = format!("setboard {fen}");
        let l = e.ask(&line);
        assert_eq!(l.len(), 1, "{line}: {l:?}");
        assert!(
            l[0].starts_with("Error (bad FEN: ") && l[0].contains(what),
            "{line}: {l:?}"
        );
        assert!(l[0].ends_with(&format!("): {}", line.trim())), "{l:?}");
        let l = e.ask("usermove f6f7");
        assert!(l[0].starts_with("Illegal move (no position"), "{l:?}");
    }
    let l = e.ask(&format!("setboard {LION_FEN}"));
    assert!(l.is_empty(), "{l:?}");
    assert!(e.ask("usermove f6f7").is_empty());
}

#[test]
fn go_playother_force_remove_and_clocks() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant courier");
    e.send("level 0 1 0");
    e.send("memory 16");
    e.send("cores 2");
    e.send("hard");
    e.send("easy");
    e.send("nopost");
    e.send("force");
    e.send("usermove b2b3");
    // The engine takes the side not on move (the first player) and waits.
    e.send("playother");
    assert!(e.sync().is_empty());
    e.send("time 6000");
    e.send("otim 6000");
    e.send("usermove b7b6");
    let (m1, lines) = e.next_move();
    assert!(!lines.iter().any(|l| is_thinking(l)), "nopost: {lines:?}");
    // force: the engine keeps still while both sides' moves come in.
    e.send("force");
    e.send("usermove h7h6");
    assert!(e.sync().is_empty());
    // remove: back one move of each side; h7h6 is the second player's again.
    e.send("remove");
    let l = e.ask("usermove h7h6");
    assert!(
        l[0].starts_with("Illegal move"),
        "the first player is on move: {l:?}"
    );
    // go: the engine plays the side on move, again the first player.
    e.send("st 1");
    e.send("go");
    let (m2, _) = e.next_move();
    let v = variant("courier", &[]);
    let mut pos = Position::start(v);
    for m in ["b2b3", "b7b6"] {
        let mv = parse_xboard_move(&mut pos, m).unwrap();
        pos.make(mv);
    }
    let mut first = pos.clone();
    parse_xboard_move(&mut first, &m1).expect("a legal first reply");
    parse_xboard_move(&mut pos, &m2).expect("legal after remove");
}

/// Issue 17: `memory` beyond what a 4 GB address-space limit allows keeps
/// the old table, tells the user, and the engine plays on.
#[test]
fn memory_beyond_the_limit_is_refused_and_play_goes_on() {
    let mut e = Engine {
        io: Session::start_limited(4_000_000, &["xboard"]),
        ping: 0,
    };
    e.send("xboard");
    e.send("protover 2");
    e.until("feature done=1");
    e.send("new");
    e.send("variant courier");
    for mb in ["65536", "100000", "4000"] {
        let l = e.ask(&format!("memory {mb}"));
        assert!(
            l.len() == 1 && l[0].starts_with("telluser memory not changed"),
            "{l:?}"
        );
        assert!(l[0].contains("keeping 64 MB"), "{l:?}");
    }
    e.send("sd 1");
    e.send("go");
    let (m, _) = e.next_move();
    let mut pos = Position::start(variant("courier", &[]));
    parse_xboard_move(&mut pos, &m).expect("a legal move");
}

#[test]
fn move_now_answers_at_once() {
    let mut e = Engine::xboard();
    e.send("variant chu");
    e.send("level 0 60 0");
    e.send("time 360000");
    e.send("otim 360000");
    e.send("st 600");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    e.send("?");
    let start = Instant::now();
    e.next_move();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn analyze_thinks_until_exit_and_follows_moves_and_undo() {
    let mut e = Engine::xboard();
    e.send("variant courier");
    e.send("force");
    e.send("post");
    e.send("analyze");
    let l = e.until("4 ");
    assert!(is_thinking(l.last().unwrap()), "{l:?}");
    e.send("usermove b2b3");
    e.send(".");
    e.send("undo");
    e.send("exit");
    let l = e.sync();
    let after: Vec<&String> = l.iter().filter(|x| !is_thinking(x)).collect();
    assert!(after.is_empty(), "{after:?}");
    // After exit nothing more comes.
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.sync().is_empty());
}

#[test]
fn the_game_end_is_reported_with_result() {
    let mut e = Engine::xboard();
    e.send("variant chu");
    // The engine (first player) captures the last enemy royal.
    e.send("setboard 12/12/12/12/12/5k6/5R6/12/12/12/12/6K5 w - - 0 1");
    e.send("sd 2");
    e.send("go");
    let (m, _) = e.next_move();
    assert_eq!(m, "f6f7");
    let l = e.until("1-0");
    assert_eq!(l.last().unwrap(), "1-0 {White wins by royals captured}");
    // The user's move ends the game: reported when the engine is to play.
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send("setboard 12/12/12/12/12/5k6/5R6/12/12/12/12/6K5 w - - 0 1");
    e.send("playother");
    e.send("usermove f6f7");
    let l = e.until("1-0");
    assert_eq!(l.last().unwrap(), "1-0 {White wins by royals captured}");
    // `go` in an ended game answers with the result, not a move.
    e.send("result 1-0 {White wins}");
    e.send("go");
    assert!(e.sync().iter().all(|l| !l.starts_with("move")));
}

#[test]
fn edit_mode_sets_up_a_position() {
    let mut e = Engine::xboard();
    e.send("variant courier");
    e.send("force");
    for l in ["edit", "#", "Kg1", "Pa2", "c", "Kf8", "Ph7", ".", "sd 1"] {
        e.send(l);
    }
    assert!(e.sync().is_empty());
    let l = e.ask("usermove a2a3");
    assert!(l.is_empty(), "{l:?}");
    let l = e.ask("usermove b7b6");
    assert!(l[0].contains("no piece on b7"), "{l:?}");
}

/// Can XBoard write this piece ID? A letter, maybe dressed with `'` or
/// `!`, maybe promoted (`+`).
fn xboard_writable(id: &str) -> bool {
    let b = id.strip_prefix('+').unwrap_or(id).as_bytes();
    match b {
        [c] => c.is_ascii_alphabetic(),
        [c, d] => c.is_ascii_alphabetic() && (*d == b'\'' || *d == b'!'),
        _ => false,
    }
}

/// The piece IDs of a FEN board field or a `setup` table: letters with
/// their `'` / `!` and `+`; `None` for any other character.
fn ids_of(text: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || matches!(c, b'*' | b'/' | b'.') {
            i += 1;
            continue;
        }
        let start = i;
        if c == b'+' || c == b'^' {
            i += 1;
        }
        if !b.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
            out.push(None);
            i += 1;
            continue;
        }
        i += 1;
        if matches!(b.get(i), Some(b'\'') | Some(b'!')) {
            i += 1;
        }
        out.push(Some(text[start..i].trim_start_matches('^').to_string()));
    }
    out
}

#[test]
fn tamerlane_pieces_go_to_xboard_by_ids_it_can_write() {
    let mut e = Engine::xboard();
    let l = e.ask("variant tamerlane");
    let setup = &l[0];
    let (table, rest) = setup
        .strip_prefix("setup (")
        .and_then(|s| s.split_once(") "))
        .unwrap_or_else(|| panic!("{l:?}"));
    let (geometry, fen) = rest.split_once(' ').unwrap();
    assert_eq!(geometry, "13x10+0_fairy", "{setup}");
    let board = fen.split_whitespace().next().unwrap();
    let table_ids = ids_of(table);
    let board_ids = ids_of(board);
    for id in table_ids.iter().chain(&board_ids) {
        let id = id
            .as_deref()
            .unwrap_or_else(|| panic!("not an ID in {setup}"));
        assert!(xboard_writable(id), "{id} in {setup}");
    }
    // XBoard's six fields; the swap rights stand in the castling field.
    assert!(fen.ends_with(" w Kk - 0 1"), "{fen}");
    // The pawns' rank holds 11 pieces between the holes.
    let ranks: Vec<&str> = board.split('/').collect();
    assert_eq!(ids_of(ranks[2]).len(), 11, "{board}");
    assert_eq!(ids_of(ranks[7]).len(), 11, "{board}");
    // Every piece type: one `piece` line, its ID in the table, each ID once.
    let v = Variant::builtin("tamerlane", &[]).unwrap();
    let pieces: Vec<&String> = l[1..].iter().filter(|x| x.starts_with("piece ")).collect();
    assert_eq!(pieces.len(), v.pieces.len(), "{l:?}");
    let white: Vec<String> = table_ids[..table_ids.len() / 2]
        .iter()
        .flatten()
        .cloned()
        .collect();
    for line in &pieces {
        let id = line["piece ".len()..].split('&').next().unwrap();
        assert!(xboard_writable(id), "{line}");
        assert_eq!(
            white.iter().filter(|w| *w == id).count(),
            1,
            "{id} in {table}"
        );
    }
    // The Rook's pawn under the Rook's letter, dressed.
    assert!(l.contains(&"piece R'& mfWcfF".to_string()), "{l:?}");
    // XBoard's FEN back: accepted, and the engine finds a legal move in it.
    e.send("force");
    let l = e.ask(&format!("setboard {fen}"));
    assert!(l.is_empty(), "{l:?}");
    e.send("sd 2");
    e.send("go");
    let (m, lines) = e.next_move();
    let mut pos = Position::start(Arc::new(v));
    parse_xboard_move(&mut pos, &m).unwrap_or_else(|err| panic!("{m}: {err:?} {lines:?}"));
}

#[test]
fn tamerlane_setboard_in_xboard_ids_with_a_pawn_of_pawns_stage() {
    let mut e = Engine::xboard();
    assert!(e.ask("variant tamerlane")[0].starts_with("setup "));
    e.send("force");
    // kamil's FEN: the first player's pawn of pawns parked on b10 (`PX`,
    // XBoard's `X`), its own swap right used; XBoard sends `KQkq`-style
    // castling letters, read as swap rights (here the second player's).
    let xboard = "*eXc1d1d1c1e*/1rntgwkfgtnr*/*r'n't'g'w'k'f'e'c'd'p*/*11*/*11*/*11*/*11*/\
                  *1D'C'E'F'K'W'G'T'N'R'*/*RNTGFKWGTNR1/*E1C1D1D1C1E* b kq - 0 9";
    let l = e.ask(&format!("setboard {xboard}"));
    assert!(l.is_empty(), "{l:?}");
    e.send("sd 2");
    e.send("go");
    let (m, lines) = e.next_move();
    let v = variant("tamerlane", &[]);
    let kamil = "*ePXc1d1d1c1e*/1rntgwkfgtnr*/*prpnptpgpwpkpfpepcpdpp*/*11*/*11*/*11*/*11*/\
                 *1PDPCPEPFPKPWPGPTPNPR*/*RNTGFKWGTNR1/*E1C1D1D1C1E* b k 0 9";
    let mut pos = Position::from_fen(v, kamil).unwrap();
    parse_xboard_move(&mut pos, &m).unwrap_or_else(|err| panic!("{m}: {err:?} {lines:?}"));
    // A piece XBoard does not have is still an error.
    let bad = xboard.replace("*eX", "*eQ'");
    let l = e.ask(&format!("setboard {bad}"));
    assert!(l[0].starts_with("Error (bad FEN: "), "{l:?}");
}

/// Issue 17: a line without end is read in bounded memory; an over-long one
/// is skipped with an error and the conversation goes on.
#[test]
fn an_overlong_line_is_skipped_and_said() {
    let mut e = Engine::xboard();
    let long = format!("usermove {}", "a1".repeat(100_000));
    let said = e.ask(&long);
    assert!(
        said.iter()
            .any(|l| l.starts_with("Error (line longer than 64 KB)")),
        "{said:?}"
    );
    e.ask("new");
    e.send("go");
    let (m, _) = e.next_move();
    assert!(!m.is_empty());
}

/// The `(score, nodes)` of the last depth-3 thinking line of a `go` at
/// `sd 3` from the Courier start after `setup`, and every line read.
fn courier_depth_three(e: &mut Engine, setup: &[String]) -> (Vec<String>, Vec<String>) {
    e.send("new");
    e.send("variant courier");
    e.send("force");
    e.send("post");
    e.send("sd 3");
    let mut said = Vec::new();
    for l in setup {
        said.extend(e.ask(l));
    }
    e.send("go");
    let (_, lines) = e.next_move();
    let last = lines
        .iter()
        .rev()
        .find(|l| is_thinking(l) && l.starts_with("3 "))
        .unwrap_or_else(|| panic!("no depth-3 line: {lines:?}"));
    let w: Vec<String> = last.split_whitespace().map(str::to_string).collect();
    said.extend(lines);
    (vec![w[1].clone(), w[3].clone()], said)
}

/// Issue 46: the `EvalFile` and `Use NNUE` option features; Courier's
/// built-in network evaluates by default (`Use NNUE=0` searches otherwise,
/// with the hand-written evaluation); a network file for the game
/// evaluates (the search goes otherwise again), `Use NNUE=0` sets it aside
/// too, and a damaged file, or a net for another game than the one
/// selected, is said with `tellusererror` naming the file and what
/// differs; the evaluation that was playing plays on (issue 78).
#[test]
fn eval_file_option_plays_with_a_network_and_a_bad_one_is_said() {
    use kamil_engine::nnue::Nnue;
    use kamil_engine::nnue::features::Features;
    use kamil_engine::nnue::network::{Buckets, Network};
    let v = variant("courier", &[]);
    let features = Features::new(&v);
    let net = Network::seeded(&features, 32, Buckets::ONE, 21);
    let bytes = Nnue::new(&v, features, net).to_bytes();
    let path = common::scratch_path("kamil-xboard-tests", "courier-test.nnue");
    std::fs::write(&path, &bytes).expect("write the net");
    let set = |p: &std::path::Path| format!("option EvalFile={}", p.display());

    let mut e = Engine::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1");
    for f in [
        "feature option=\"EvalFile -file \"",
        "feature option=\"Use NNUE -check 1\"",
    ] {
        assert!(features.iter().any(|l| l == f), "{f}: {features:?}");
    }
    let (default, _) = courier_depth_three(&mut e, &[]);
    let (hand, _) = courier_depth_three(&mut e, &["option Use NNUE=0".to_string()]);
    assert_ne!(
        default, hand,
        "the built-in network did not change the search"
    );
    e.send("option Use NNUE=1");
    let (net, said) = courier_depth_three(&mut e, &[set(&path)]);
    assert!(
        said.iter()
            .any(|l| l.starts_with("# EvalFile") && l.contains("in use")),
        "{said:?}"
    );
    assert_ne!(hand, net, "the network did not change the search");
    assert_ne!(default, net, "the network did not change the search");
    // The network stays through `new`; `Use NNUE=0` turns it off.
    let (again, _) = courier_depth_three(&mut e, &[]);
    assert_eq!(again, net);
    let (off, _) = courier_depth_three(&mut e, &["option Use NNUE=0".to_string()]);
    assert_eq!(off, hand);
    let l = e.ask("option Use NNUE=yes");
    assert!(l[0].starts_with("Error (Use NNUE is 1 or 0)"), "{l:?}");
    e.send("option Use NNUE=1");

    // Another game selected: its net is missing, said as the variant comes.
    let l = e.ask("variant sho");
    let msg = l
        .iter()
        .find(|l| l.starts_with("tellusererror EvalFile not used"))
        .unwrap_or_else(|| panic!("{l:?}"));
    assert!(
        msg.contains(&path.display().to_string())
            && msg.contains("made for variant courier, the variant has sho-shogi"),
        "{msg}"
    );

    // Issue 78: a damaged file is refused and said, and the network that
    // was playing plays on (it was the default evaluation before).
    let mut damaged = bytes.clone();
    let at = damaged.len() - 7;
    damaged[at] ^= 0x40;
    let bad = path.with_file_name("courier-damaged.nnue");
    std::fs::write(&bad, &damaged).expect("write the damaged net");
    let (played, said) = courier_depth_three(&mut e, &[set(&bad)]);
    let msg = said
        .iter()
        .find(|l| l.starts_with("tellusererror EvalFile not used"))
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!(
        msg.contains(&bad.display().to_string())
            && msg.contains("damaged")
            && msg.contains("the evaluation that was playing plays on"),
        "{msg}"
    );
    assert_eq!(played, net);
    e.send("quit");
    assert!(e.io.child.wait().unwrap().success());
}

/// Issue 48: the `Skill Level` option feature; level 0 thinks one ply
/// whatever `sd` says and plays a legal move; a level out of range is an
/// error naming the line.
#[test]
fn skill_level_option_weakens_play_and_a_bad_level_is_an_error() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1");
    let f = "feature option=\"Skill Level -spin 20 0 20\"";
    assert!(features.iter().any(|l| l == f), "{features:?}");
    let said = e.ask("option Skill Level=21");
    assert!(
        said.iter()
            .any(|l| l == "Error (Skill Level is 0 to 20): option Skill Level=21"),
        "{said:?}"
    );
    e.send("option Skill Level=0");
    e.send("new");
    e.send("variant courier");
    e.send("force");
    e.send("post");
    e.send("sd 5");
    e.send("go");
    let (m, lines) = e.next_move();
    assert!(!m.is_empty());
    let thinking: Vec<&String> = lines.iter().filter(|l| is_thinking(l)).collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    assert!(
        thinking.iter().all(|l| l.starts_with("1 ")),
        "level 0 thought deeper than 1 ply: {thinking:?}"
    );
}

/// Issue 48: `UCI_LimitStrength` and `UCI_Elo` as option features; the
/// Elo at the floor of the scale plays level 0 (one ply), the top of the
/// range thinks deeper; an Elo out of range is an error naming the line.
#[test]
fn limit_strength_plays_the_level_of_the_elo() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1");
    let spin = features
        .iter()
        .find(|l| l.starts_with("feature option=\"UCI_Elo -spin "))
        .unwrap_or_else(|| panic!("{features:?}"));
    let numbers: Vec<i32> = spin
        .trim_end_matches('"')
        .split(' ')
        .filter_map(|w| w.parse().ok())
        .collect();
    let [default, lo, hi] = numbers[..] else {
        panic!("{spin}")
    };
    assert!(lo < hi && default == hi, "{spin}");
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"UCI_LimitStrength -check 0\""),
        "{features:?}"
    );
    let said = e.ask(&format!("option UCI_Elo={}", lo - 1));
    let want = format!("Error (UCI_Elo is {lo} to {hi}): option UCI_Elo={}", lo - 1);
    assert!(said.contains(&want), "{said:?}");
    let depths = |e: &mut Engine, elo: i32| {
        e.send(&format!("option UCI_Elo={elo}"));
        e.send("new");
        e.send("variant courier");
        e.send("force");
        e.send("post");
        e.send("sd 3");
        e.send("go");
        let (m, lines) = e.next_move();
        assert!(!m.is_empty());
        let firsts: Vec<String> = lines
            .iter()
            .filter(|l| is_thinking(l))
            .filter_map(|l| l.split(' ').next().map(String::from))
            .collect();
        firsts
    };
    // Without UCI_LimitStrength the Elo does not matter: full strength.
    assert!(depths(&mut e, lo).iter().any(|d| d == "3"));
    e.send("option UCI_LimitStrength=1");
    let weak = depths(&mut e, lo);
    assert!(
        !weak.is_empty() && weak.iter().all(|d| d == "1"),
        "{weak:?}"
    );
    let strong = depths(&mut e, hi);
    assert!(strong.iter().any(|d| d == "3"), "{strong:?}");
}

/// Issue 80: XBoard's `UCI_Elo` range is the selected game's ladder, as in
/// UCI and USI: a change of game sends the option feature again with the
/// new range, and an Elo set above the new game's top is clamped and said.
#[test]
fn uci_elo_range_follows_the_game() {
    let ladder = |name: &str| kamil_engine::skill::elo::ladder(&variant(name, &[])).range();
    let (lo, courier_top) = ladder("courier");
    let (_, chu_top) = ladder("chu-shogi");
    assert!(
        chu_top < courier_top,
        "the test needs Chu's top below Courier's"
    );
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1");
    let first = format!("feature option=\"UCI_Elo -spin {courier_top} {lo} {courier_top}\"");
    assert!(features.contains(&first), "{features:?}");
    e.send("option UCI_LimitStrength=1");
    assert!(e.ask(&format!("option UCI_Elo={courier_top}")).is_empty());
    let said = e.ask("variant chu");
    let again = format!("feature option=\"UCI_Elo -spin {chu_top} {lo} {chu_top}\"");
    assert!(said.contains(&again), "{said:?}");
    let told = format!(
        "telluser UCI_Elo {courier_top} is outside chu-shogi's range: playing at {chu_top}"
    );
    assert!(said.contains(&told), "{said:?}");
    // Within Chu's range now: one above it is refused with that range.
    let said = e.ask(&format!("option UCI_Elo={}", chu_top + 1));
    let want = format!(
        "Error (UCI_Elo is {lo} to {chu_top}): option UCI_Elo={}",
        chu_top + 1
    );
    assert!(said.contains(&want), "{said:?}");
    // Back to Courier: its range again; the Elo stays where it was clamped.
    let said = e.ask("variant courier");
    let back = format!("feature option=\"UCI_Elo -spin {chu_top} {lo} {courier_top}\"");
    assert!(said.contains(&back), "{said:?}");
}
