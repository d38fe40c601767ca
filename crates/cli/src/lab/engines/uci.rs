//! The UCI client: `uci` / `uciok`, `UCI_Variant` and other options,
//! `isready`, then for each move `position fen ... moves ...` and `go` with
//! the clocks, waiting for `bestmove`. The conversation itself ([`Link`])
//! is shared with the USI client (`usi.rs`), which differs in its words
//! ([`Words`]), positions and moves.

use super::client::{
    Client, Failure, GameStart, INIT_TIMEOUT, Reply, Turn, VariantSpec, info_score, pick_variant,
    send, wait_for,
};
use super::config::{EngineConfig, Setup};
use super::process::Process;
use std::time::Instant;

/// A UCI engine.
pub struct Uci {
    link: Link,
    setup: Setup,
    /// The moves from the variant's start to the game's start, when the
    /// game goes as `position startpos moves ...` (`setup=startpos`).
    line: Option<Vec<String>>,
}

/// Does the `info string` line `l` read as a complaint about the position
/// or a move (UCI has no error reply; engines say it in free text: kamil's
/// `position not changed: bad FEN`, `... is not legal here`)?
fn complains(l: &str) -> bool {
    let Some(text) = l.trim().strip_prefix("info string ") else {
        return false;
    };
    let t = text.to_ascii_lowercase();
    [
        "illegal",
        "invalid",
        "not legal",
        "error",
        "bad fen",
        "not changed",
        "unknown",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// The name of an `option name NAME type ...` line and its combo values.
fn option_line(l: &str) -> Option<(String, Vec<String>)> {
    let rest = l.strip_prefix("option name ")?;
    let (name, rest) = match rest.find(" type ") {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let mut vars = Vec::new();
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        if w == "var"
            && let Some(v) = words.next()
        {
            vars.push(v.to_string());
        }
    }
    Some((name.trim().to_string(), vars))
}

/// What a UCI and a USI client share: the engine's process, its name, and
/// what it said in the game so far.
pub(super) struct Link {
    pub(super) p: Process,
    pub(super) name: String,
    /// The score of the last `info` line of the last search.
    pub(super) last_score: Option<i32>,
    /// An `info string` against the position heard before the engine's
    /// first move of the game ([`Client::complaint`]).
    pub(super) complaint: Option<String>,
    /// The engine has moved in this game.
    moved: bool,
}

/// The protocol words that differ between UCI and USI.
pub(super) struct Words {
    /// The handshake command (`uci`, `usi`); the answer is it with `ok`, a
    /// new game it with `newgame`.
    pub(super) hello: &'static str,
    /// Names of the option that chooses the game, the protocol's own
    /// first (an engine may list another: Fairy-Stockfish's USI mode has
    /// `UCI_Variant`).
    pub(super) variant_options: &'static [&'static str],
    /// The clock words of `go` by side, first player first (`wtime`,
    /// `btime` in UCI; `btime`, `wtime` in USI, where Black moves first),
    /// then the increments'.
    pub(super) time: [&'static str; 2],
    pub(super) inc: [&'static str; 2],
    /// How a time per move is asked: `movetime` (UCI) or `byoyomi` with no
    /// main time (USI).
    pub(super) movetime: &'static str,
}

/// UCI's words.
const UCI: Words = Words {
    hello: "uci",
    variant_options: &["UCI_Variant"],
    time: ["wtime", "btime"],
    inc: ["winc", "binc"],
    movetime: "movetime",
};

impl Link {
    /// Completes the handshake: `uci` (or `usi`) until `uciok`, the
    /// variant (and its options, when the engine has kamil's
    /// `VariantOptions`) and the user's options set, `isready` until
    /// `readyok`.
    ///
    /// Errors: no `uciok` or `readyok` in time, the engine exited, or it
    /// lists its variants and ours is not among them.
    pub(super) fn open(
        mut p: Process,
        cfg: &EngineConfig,
        variant: &VariantSpec,
        fallback_name: &str,
        words: &Words,
    ) -> Result<Link, Failure> {
        send(&mut p, words.hello)?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        let mut id_name = None;
        // The variant option the engine lists, and its choices.
        let mut variant_option: Option<(String, Vec<String>)> = None;
        let mut variant_options = false;
        let ok = format!("{}ok", words.hello);
        wait_for(&mut p, deadline, &ok, |l| {
            let l = l.trim();
            if let Some(n) = l.strip_prefix("id name ") {
                id_name = Some(n.trim().to_string());
            } else if let Some((name, vars)) = option_line(l) {
                if name == "VariantOptions" {
                    variant_options = true;
                } else if words.variant_options.contains(&name.as_str()) && variant_option.is_none()
                {
                    variant_option = Some((name, vars));
                }
            }
            (l == ok).then_some(())
        })?;
        let name = cfg
            .name
            .clone()
            .or(id_name)
            .unwrap_or_else(|| fallback_name.to_string());
        let user_sets = |o: &str| cfg.options.iter().any(|(k, _)| k == o);
        let user_sets_variant = words.variant_options.iter().any(|o| user_sets(o));
        if !user_sets_variant && (variant_option.is_some() || cfg.variant.is_some()) {
            let (option, vars) = variant_option.unwrap_or_default();
            let offered = Some(vars).filter(|v| !v.is_empty());
            let v = pick_variant(
                &name,
                &variant.name,
                cfg.variant.as_deref(),
                offered.as_deref(),
            )
            .map_err(Failure::Protocol)?;
            let option = if option.is_empty() {
                words.variant_options[0]
            } else {
                &option
            };
            send(&mut p, &format!("setoption name {option} value {v}"))?;
        }
        if variant_options && !user_sets("VariantOptions") && !variant.options.is_empty() {
            let o = variant.options.join(",");
            send(&mut p, &format!("setoption name VariantOptions value {o}"))?;
        }
        for (k, v) in &cfg.options {
            send(&mut p, &format!("setoption name {k} value {v}"))?;
        }
        let mut link = Link {
            p,
            name,
            last_score: None,
            complaint: None,
            moved: false,
        };
        link.sync()?;
        Ok(link)
    }

    /// `isready` until `readyok`.
    fn sync(&mut self) -> Result<(), Failure> {
        send(&mut self.p, "isready")?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        wait_for(&mut self.p, deadline, "readyok", |l| {
            (l.trim() == "readyok").then_some(())
        })
    }

    /// A new game: `ucinewgame` (or `usinewgame`), then `isready`.
    ///
    /// Errors: the engine crashed or did not answer.
    pub(super) fn new_game(&mut self, words: &Words) -> Result<(), Failure> {
        self.complaint = None;
        self.moved = false;
        send(&mut self.p, &format!("{}newgame", words.hello))?;
        self.sync()
    }

    /// Sends `position` and `go`, then waits for `bestmove` by `deadline`,
    /// keeping the last score and a complaint heard before the first move.
    ///
    /// Errors: the engine crashed or did not answer in time.
    pub(super) fn search(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<Reply, Failure> {
        send(&mut self.p, position)?;
        send(&mut self.p, go)?;
        let mut score = None;
        let first = !self.moved;
        let mut complaint = None;
        let best = wait_for(&mut self.p, deadline, "bestmove", |l| {
            if let Some(s) = info_score(l) {
                score = Some(s);
            }
            if first && complains(l) {
                complaint = Some(l.trim().to_string());
            }
            let mut w = l.split_whitespace();
            (w.next() == Some("bestmove")).then(|| w.next().map(str::to_string))
        });
        if complaint.is_some() {
            self.complaint = complaint;
        }
        let best = best?;
        self.moved = true;
        self.last_score = score;
        Ok(match best.as_deref() {
            None | Some("(none)") | Some("0000") | Some("none") => Reply::NoMove,
            Some("resign") => Reply::Resign,
            // USI's declaration of a win by entering King, which these
            // games do not have: a claim the referee judges.
            Some("win") => Reply::Claim("win".to_string()),
            Some(m) => Reply::Move(m.to_string()),
        })
    }
}

/// The `go` command of turn `t` in `words`: both clocks and increments
/// when this engine has a time control, else its move time (in USI a
/// byoyomi with no main time), depth and nodes.
pub(super) fn go_line(t: &Turn, words: &Words) -> String {
    let own = t.limits[t.side.index()];
    let mut go = String::from("go");
    if own.tc.is_some() {
        let mine = t.clocks[t.side.index()].unwrap_or_default();
        for (i, key) in words.time.iter().enumerate() {
            let ms = t.clocks[i].unwrap_or(mine).as_millis();
            go.push_str(&format!(" {key} {ms}"));
        }
        for (i, key) in words.inc.iter().enumerate() {
            let inc = t.limits[i]
                .tc
                .or(own.tc)
                .map(|tc| tc.inc)
                .unwrap_or_default();
            go.push_str(&format!(" {key} {}", inc.as_millis()));
        }
    }
    if let Some(m) = own.movetime {
        if words.movetime == "byoyomi" && own.tc.is_none() {
            for key in words.time {
                go.push_str(&format!(" {key} 0"));
            }
        }
        go.push_str(&format!(" {} {}", words.movetime, m.as_millis().max(1)));
    }
    if let Some(d) = own.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = own.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

impl Drop for Link {
    fn drop(&mut self) {
        let _ = self.p.send("quit");
    }
}

impl Uci {
    /// Starts a UCI engine: the handshake of [`Link::open`].
    ///
    /// Errors: see [`Link::open`].
    pub fn start(
        p: Process,
        cfg: &EngineConfig,
        variant: &VariantSpec,
        fallback_name: &str,
    ) -> Result<Uci, Failure> {
        Ok(Uci {
            link: Link::open(p, cfg, variant, fallback_name, &UCI)?,
            setup: cfg.setup,
            line: None,
        })
    }
}

impl Client for Uci {
    fn name(&self) -> &str {
        &self.link.name
    }

    fn start_game(&mut self, g: &GameStart, line: Option<&[String]>) -> Result<(), Failure> {
        self.line = match (self.setup, line) {
            (Setup::Startpos, Some(l)) => Some(l.to_vec()),
            (Setup::Startpos, None) if g.is_variant_start => Some(Vec::new()),
            _ => None,
        };
        self.link.new_game(&UCI)
    }

    fn think(&mut self, t: &Turn) -> Result<Reply, Failure> {
        let (mut pos, mut moves) = match &self.line {
            Some(l) => ("position startpos".to_string(), l.clone()),
            None => (format!("position fen {}", t.fen), Vec::new()),
        };
        moves.extend(t.moves.iter().cloned());
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        self.link.search(&pos, &go_line(t, &UCI), t.deadline)
    }

    fn end_game(&mut self, _result: &str, _why: &str) {}

    fn last_score(&self) -> Option<i32> {
        self.link.last_score
    }

    fn complaint(&self) -> Option<&str> {
        self.link.complaint.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines() {
        let (n, v) = option_line(
            "option name UCI_Variant type combo default chess var chess var courier var shogi",
        )
        .unwrap();
        assert_eq!(n, "UCI_Variant");
        assert_eq!(v, ["chess", "courier", "shogi"]);
        let (n, v) = option_line("option name Clear Hash type button").unwrap();
        assert_eq!(n, "Clear Hash");
        assert!(v.is_empty());
        assert!(option_line("id name x").is_none());
    }

    #[test]
    fn complaints_in_info_strings() {
        assert!(complains(
            "info string position not changed: bad FEN: rank 3"
        ));
        assert!(complains(
            "info string position: move 1 `a1a1` is not legal here (no piece); position left at the start (no move made)"
        ));
        assert!(complains("info string Invalid move a1a1"));
        assert!(!complains(
            "info string NNUE evaluation using nn.nnue enabled"
        ));
        assert!(!complains("info depth 3 score cp 5 pv e2e4"));
    }
}
