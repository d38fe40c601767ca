//! The UCI client: `uci` / `uciok`, `UCI_Variant` and other options,
//! `isready`, then for each move `position fen ... moves ...` and `go` with
//! the clocks, waiting for `bestmove`.

use super::client::{
    Client, Failure, GameStart, INIT_TIMEOUT, Reply, Turn, VariantSpec, info_score, pick_variant,
    send, wait_for,
};
use super::config::{EngineConfig, Setup};
use super::process::Process;
use std::time::Instant;

/// A UCI engine.
pub struct Uci {
    p: Process,
    name: String,
    /// The score of the last `info` line of the last search.
    last_score: Option<i32>,
    setup: Setup,
    /// The moves from the variant's start to the game's start, when the
    /// game goes as `position startpos moves ...` (`setup=startpos`).
    line: Option<Vec<String>>,
    /// An `info string` against the position heard before the engine's
    /// first move of the game ([`Client::complaint`]).
    complaint: Option<String>,
    /// The engine has moved in this game.
    moved: bool,
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

impl Uci {
    /// Completes the handshake: `uci` until `uciok`, the variant (and its
    /// options, when the engine has kamil's `VariantOptions`) and the user's
    /// options set, `isready` until `readyok`.
    ///
    /// Errors: no `uciok` or `readyok` in time, the engine exited, or it
    /// lists its variants and ours is not among them.
    pub fn start(
        mut p: Process,
        cfg: &EngineConfig,
        variant: &VariantSpec,
        fallback_name: &str,
    ) -> Result<Uci, Failure> {
        send(&mut p, "uci")?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        let mut id_name = None;
        let mut variant_option: Option<Vec<String>> = None;
        let mut variant_options = false;
        wait_for(&mut p, deadline, "uciok", |l| {
            let l = l.trim();
            if let Some(n) = l.strip_prefix("id name ") {
                id_name = Some(n.trim().to_string());
            } else if let Some((name, vars)) = option_line(l) {
                match name.as_str() {
                    "UCI_Variant" => variant_option = Some(vars),
                    "VariantOptions" => variant_options = true,
                    _ => {}
                }
            }
            (l == "uciok").then_some(())
        })?;
        let name = cfg
            .name
            .clone()
            .or(id_name)
            .unwrap_or_else(|| fallback_name.to_string());
        let user_sets_variant = cfg.options.iter().any(|(k, _)| k == "UCI_Variant");
        if !user_sets_variant && (variant_option.is_some() || cfg.variant.is_some()) {
            let offered = variant_option.as_ref().filter(|v| !v.is_empty());
            let v = pick_variant(
                &name,
                &variant.name,
                cfg.variant.as_deref(),
                offered.map(|v| &v[..]),
            )
            .map_err(Failure::Protocol)?;
            send(&mut p, &format!("setoption name UCI_Variant value {v}"))?;
        }
        let user_sets_options = cfg.options.iter().any(|(k, _)| k == "VariantOptions");
        if variant_options && !user_sets_options && !variant.options.is_empty() {
            let o = variant.options.join(",");
            send(&mut p, &format!("setoption name VariantOptions value {o}"))?;
        }
        for (k, v) in &cfg.options {
            send(&mut p, &format!("setoption name {k} value {v}"))?;
        }
        let mut uci = Uci {
            p,
            name,
            last_score: None,
            setup: cfg.setup,
            line: None,
            complaint: None,
            moved: false,
        };
        uci.sync()?;
        Ok(uci)
    }

    /// `isready` until `readyok`.
    fn sync(&mut self) -> Result<(), Failure> {
        send(&mut self.p, "isready")?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        wait_for(&mut self.p, deadline, "readyok", |l| {
            (l.trim() == "readyok").then_some(())
        })
    }
}

impl Client for Uci {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, g: &GameStart, line: Option<&[String]>) -> Result<(), Failure> {
        self.line = match (self.setup, line) {
            (Setup::Startpos, Some(l)) => Some(l.to_vec()),
            (Setup::Startpos, None) if g.is_variant_start => Some(Vec::new()),
            _ => None,
        };
        self.complaint = None;
        self.moved = false;
        send(&mut self.p, "ucinewgame")?;
        self.sync()
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
        send(&mut self.p, &pos)?;
        let own = t.limits[t.side.index()];
        let mut go = String::from("go");
        if own.tc.is_some() {
            let mine = t.clocks[t.side.index()].unwrap_or_default();
            for (i, key) in [(0, "wtime"), (1, "btime")] {
                let ms = t.clocks[i].unwrap_or(mine).as_millis();
                go.push_str(&format!(" {key} {ms}"));
            }
            for (i, key) in [(0, "winc"), (1, "binc")] {
                let inc = t.limits[i]
                    .tc
                    .or(own.tc)
                    .map(|tc| tc.inc)
                    .unwrap_or_default();
                go.push_str(&format!(" {key} {}", inc.as_millis()));
            }
        }
        if let Some(m) = own.movetime {
            go.push_str(&format!(" movetime {}", m.as_millis().max(1)));
        }
        if let Some(d) = own.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = own.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        send(&mut self.p, &go)?;
        let mut score = None;
        let first = !self.moved;
        let mut complaint = None;
        let best = wait_for(&mut self.p, t.deadline, "bestmove", |l| {
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
            Some(m) => Reply::Move(m.to_string()),
        })
    }

    fn end_game(&mut self, _result: &str, _why: &str) {}

    fn last_score(&self) -> Option<i32> {
        self.last_score
    }

    fn complaint(&self) -> Option<&str> {
        self.complaint.as_deref()
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.p.send("quit");
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
