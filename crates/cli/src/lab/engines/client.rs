//! What kamil asks of an outside engine, whatever its protocol: start a
//! game, find a move on a clock, hear the result; and the FEN such a program
//! is given. The UCI and CECP clients implement [`Client`] with the helpers
//! here; `seat.rs` starts them.

use super::config::Limits;
use super::process::{Process, Recv};
use kamil_rules::variant::aliases::names_of;
use kamil_rules::{Position, Side};
use std::time::{Duration, Instant};

/// How long an engine may take to start, answer `isready` or `ping`.
pub const INIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Why an engine could not go on; the game is lost by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its output.
    Crash(String),
    /// No answer before the deadline.
    Timeout(String),
    /// It said something the protocol does not allow here.
    Protocol(String),
    /// It refused a move the referee found legal (CECP `Illegal move`).
    Rejected(String),
    /// It refused the game's set-up (its words: `tellusererror Unknown
    /// piece ...`, `Error (...): setboard`, `Illegal move` in the opening).
    Refused(String),
    /// The referee cannot give it this game's set-up in the way its
    /// `setup` field asks (`setup=board` with the second player to move).
    Unsupported(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crash(s) => write!(f, "crashed ({s})"),
            Failure::Timeout(s) => write!(f, "timed out ({s})"),
            Failure::Protocol(s) => write!(f, "protocol error: {s}"),
            Failure::Rejected(s) => write!(f, "rejected a legal move: {s}"),
            Failure::Refused(s) => write!(f, "refused the set-up: it said `{s}`"),
            Failure::Unsupported(s) => write!(f, "cannot be given the set-up: {s}"),
        }
    }
}

/// An engine's answer when asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, as the engine wrote it.
    Move(String),
    /// It resigned.
    Resign,
    /// It claimed a result instead of moving (CECP `1-0 {...}`).
    Claim(String),
    /// It said it has no move (UCI `bestmove (none)` or `0000`).
    NoMove,
}

/// The start of a game, as an engine needs it.
pub struct GameStart<'a> {
    /// The position the game starts from.
    pub start: &'a Position,
    /// Its FEN for other programs ([`peer_fen`]).
    pub fen: &'a str,
    /// True when it is the variant's own start position.
    pub is_variant_start: bool,
    /// The side this engine plays.
    pub side: Side,
    /// Both engines' limits, by side (first player first).
    pub limits: [&'a Limits; 2],
}

/// One request to move.
pub struct Turn<'a> {
    /// The FEN the game started from (for other programs).
    pub fen: &'a str,
    /// Every move of the game so far, as sent to engines.
    pub moves: &'a [String],
    /// Time left on each side's clock (first player first), where there is a clock.
    pub clocks: [Option<Duration>; 2],
    /// Each side's limits (first player first).
    pub limits: [&'a Limits; 2],
    /// The side to move (this engine's).
    pub side: Side,
    /// When the engine must have answered.
    pub deadline: Instant,
}

/// A running engine speaking one protocol.
pub trait Client: Send {
    /// The engine's name for reports.
    fn name(&self) -> &str;
    /// Prepares a new game; the engine does not move yet.
    fn new_game(&mut self, g: &GameStart) -> Result<(), Failure> {
        self.start_game(g, None)
    }
    /// Prepares a new game whose start is reached from the variant's start
    /// by `line` (our move texts) when that is known: an engine set up with
    /// `setup=startpos` gets those moves instead of the start's FEN, so an
    /// engine without set-up still plays random openings.
    ///
    /// Errors: the engine crashed, did not answer, or refused the set-up.
    fn start_game(&mut self, g: &GameStart, line: Option<&[String]>) -> Result<(), Failure>;
    /// Asks for a move.
    fn think(&mut self, t: &Turn) -> Result<Reply, Failure>;
    /// Tells the engine how the game ended (it may ignore it).
    fn end_game(&mut self, result: &str, why: &str);
    /// False when the engine asked to be restarted for each game.
    fn reusable(&self) -> bool {
        true
    }
    /// The score the engine last reported with its move, centipawns from
    /// its own side's view (a mate as ±[`MATE_CP`]), if it reported one.
    fn last_score(&self) -> Option<i32> {
        None
    }
    /// What the engine said against the game's set-up since the game
    /// began, before its first move (an `Error` line, a UCI `info string`
    /// about a bad position), if anything.
    fn complaint(&self) -> Option<&str> {
        None
    }
}

/// Centipawns a reported mate counts as in score adjudication.
pub const MATE_CP: i32 = 100_000;

/// The score of a UCI `info` line (`score cp X`, `score mate N`), in
/// centipawns for the engine's side (mates as ±[`MATE_CP`]); `None` for
/// other lines and for bounds (`lowerbound`, `upperbound`).
pub fn info_score(line: &str) -> Option<i32> {
    let mut w = line.split_whitespace();
    if w.next() != Some("info") {
        return None;
    }
    let rest: Vec<&str> = w.collect();
    let i = rest.iter().position(|&x| x == "score")?;
    // `string` makes the rest of the line free text.
    if rest[..i].contains(&"string") {
        return None;
    }
    if rest
        .get(i + 3)
        .is_some_and(|&b| b == "lowerbound" || b == "upperbound")
    {
        return None;
    }
    let n: i64 = rest.get(i + 2)?.parse().ok()?;
    match *rest.get(i + 1)? {
        "cp" => Some(n.clamp(-i64::from(MATE_CP), i64::from(MATE_CP)) as i32),
        "mate" if n > 0 => Some(MATE_CP),
        "mate" => Some(-MATE_CP),
        _ => None,
    }
}

/// Sends a line, turning a closed pipe into a crash.
pub fn send(p: &mut Process, line: &str) -> Result<(), Failure> {
    p.send(line).map_err(|e| crash(p, &e.to_string()))
}

/// A crash, with how the process ended when known.
pub fn crash(p: &mut Process, what: &str) -> Failure {
    match p.exit_status() {
        Some(s) => Failure::Crash(s),
        None => Failure::Crash(what.to_string()),
    }
}

/// Reads lines until `done` accepts one (returns its value) or the
/// deadline passes; `what` names the awaited answer in errors.
pub fn wait_for<T>(
    p: &mut Process,
    deadline: Instant,
    what: &str,
    mut done: impl FnMut(&str) -> Option<T>,
) -> Result<T, Failure> {
    loop {
        match p.recv(deadline) {
            Recv::Line(l) => {
                if let Some(v) = done(&l) {
                    return Ok(v);
                }
            }
            Recv::Timeout => return Err(Failure::Timeout(format!("no {what}"))),
            Recv::Closed => return Err(crash(p, "output closed")),
        }
    }
}

/// Our name for a variant and other programs' names for it, in the order
/// they are tried: ours, the alias table's (Fairy-Stockfish's `shoshogi`),
/// XBoard's and HaChu's (`sho`), ours without hyphens.
fn aliases(ours: &str) -> Vec<String> {
    let mut v = vec![ours.to_string()];
    v.extend(names_of(ours).map(str::to_string));
    let xboard = kamil_rules::variant::aliases::xboard_name(ours).to_string();
    if !v.contains(&xboard) {
        v.push(xboard);
    }
    let squeezed = ours.replace('-', "");
    if !v.contains(&squeezed) {
        v.push(squeezed);
    }
    v
}

/// The engine's name for our variant: `variant=` when given (trusted: an
/// engine may learn variants after starting), else the first of our name
/// and its aliases that the engine offers, else our name when it offers
/// no list.
///
/// Errors: the engine lists its variants and ours is not among them.
pub fn pick_variant(
    engine: &str,
    ours: &str,
    configured: Option<&str>,
    offered: Option<&[String]>,
) -> Result<String, String> {
    if let Some(c) = configured {
        return Ok(c.to_string());
    }
    let names = aliases(ours);
    match offered {
        None => Ok(ours.to_string()),
        Some(list) => names
            .iter()
            .find(|n| list.iter().any(|o| o == *n))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "{engine} does not offer variant `{ours}` (it offers: {}); name its variant with variant=NAME",
                    list.join(" ")
                )
            }),
    }
}

/// The game to play, as engines are told it.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    /// kamil's name of the variant.
    pub name: String,
    /// Its options in force, `KEY=VALUE`, for engines that take them as
    /// kamil does (the UCI option `VariantOptions`).
    pub options: Vec<String>,
}

impl VariantSpec {
    /// The spec of a loaded variant: its name and the options chosen.
    pub fn of(variant: &kamil_rules::Variant) -> VariantSpec {
        VariantSpec {
            name: variant.name.clone(),
            options: variant
                .chosen
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
        }
    }
}

/// The FEN for other programs (XBoard, Fairy-Stockfish): the variant's own
/// FEN, except that a variant with an XBoard side convention (the shogi
/// games, where kamil writes `b` for the first player) gets XBoard's side
/// letter and the castling, en passant and move-count fields, so that the
/// side letter is read in their convention: `... w - - 0 1`.
pub fn peer_fen(pos: &Position) -> String {
    let v = pos.variant();
    let Some(letters) = &v.fen.xboard_side_letters else {
        return pos.fen();
    };
    let ours = pos.fen();
    let board = ours.split_whitespace().next().unwrap_or_default();
    format!(
        "{board} {} - - {} {}",
        letters[pos.side().index()],
        pos.halfmove(),
        pos.fullmove()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamil_rules::Variant;
    use std::sync::Arc;

    fn variant(name: &str) -> Arc<Variant> {
        Arc::new(Variant::builtin(name, &[]).unwrap())
    }

    #[test]
    fn scores_of_info_lines() {
        assert_eq!(
            info_score("info depth 9 score cp -35 nodes 10 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            info_score("info depth 9 score mate 3 pv e2e4"),
            Some(MATE_CP)
        );
        assert_eq!(info_score("info depth 9 score mate -2"), Some(-MATE_CP));
        assert_eq!(info_score("info depth 9 score cp 20 lowerbound"), None);
        assert_eq!(info_score("info string score cp 5 x"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
        assert_eq!(info_score("info depth 3 nodes 100"), None);
    }

    #[test]
    fn variant_names_for_other_programs() {
        let fsf: Vec<String> = ["chess", "courier", "shoshogi"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            pick_variant("e", "courier", None, Some(&fsf)).unwrap(),
            "courier"
        );
        assert_eq!(
            pick_variant("e", "sho-shogi", None, Some(&fsf)).unwrap(),
            "shoshogi"
        );
        let ours: Vec<String> = vec!["courier".into(), "sho-shogi".into()];
        assert_eq!(
            pick_variant("e", "sho-shogi", None, Some(&ours)).unwrap(),
            "sho-shogi"
        );
        let hachu: Vec<String> = vec!["chu".into(), "sho".into()];
        assert_eq!(
            pick_variant("e", "sho-shogi", None, Some(&hachu)).unwrap(),
            "sho"
        );
        let e = pick_variant("fsf", "courier-modern", None, Some(&fsf)).unwrap_err();
        assert!(e.contains("does not offer variant `courier-modern`"), "{e}");
        assert_eq!(
            pick_variant("e", "courier-modern", Some("courier"), Some(&fsf)).unwrap(),
            "courier"
        );
        assert_eq!(pick_variant("e", "x", None, None).unwrap(), "x");
    }

    #[test]
    fn peer_fen_uses_xboard_side_letters_for_shogi() {
        let v = variant("sho-shogi");
        let start = Position::start(v.clone());
        let fen = peer_fen(&start);
        assert!(fen.starts_with("lnsgkgsnl/1r2e2b1/"), "{fen}");
        assert!(fen.contains(" w - - "), "{fen}");
        // kamil reads it back as the same position.
        let back = Position::from_fen(v, &fen).unwrap();
        assert_eq!(back.hash(), start.hash());
        let mut after = start.clone();
        let first = after.legal_moves()[0];
        after.make(first);
        assert!(peer_fen(&after).contains(" b - - "));
        let courier = Position::start(variant("courier"));
        assert_eq!(peer_fen(&courier), courier.fen());
    }
}
