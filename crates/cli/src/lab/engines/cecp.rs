//! The CECP (XBoard protocol version 2) client, behaving as a GUI does:
//! `xboard`, `protover 2`, every feature answered with `accepted` or
//! `rejected`; for each game `new`, `variant`, `force`, `memory` (HaChu
//! crashes when it searches without it), `cores`, `level` / `st` / `sd`,
//! `easy`, the position by `setboard` or, for engines without it (Fairy-Max),
//! by `edit` mode, then `ping` until `pong`; for each move `time` and `otim`
//! in centiseconds and the opponent's move (`usermove` when asked for).

use super::client::{
    Client, Failure, GameStart, INIT_TIMEOUT, Reply, Turn, crash, pick_variant, send,
};
use super::config::{EngineConfig, Setup, trim_float};
use super::process::{Process, Recv};
use kamil_rules::notation::{
    from_xboard, is_pass, legal_pass, move_text, parse_move, parse_xboard_move, to_xboard,
    xboard_square,
};
use kamil_rules::{Position, Side};
use std::time::{Duration, Instant};

/// What the engine announced with `feature`.
#[derive(Debug, Clone)]
struct Features {
    setboard: bool,
    usermove: bool,
    ping: bool,
    memory: bool,
    smp: bool,
    time: bool,
    reuse: bool,
    myname: Option<String>,
    variants: Option<Vec<String>>,
    options: Vec<String>,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            setboard: false,
            usermove: false,
            ping: false,
            memory: false,
            smp: false,
            time: true,
            reuse: true,
            myname: None,
            variants: None,
            options: Vec::new(),
        }
    }
}

/// Features this client understands; any other is rejected.
const ACCEPTED: &[&str] = &[
    "ping",
    "setboard",
    "playother",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "done",
    "memory",
    "smp",
    "option",
    "debug",
];

/// Splits `a=1 b="x y" c=0` into pairs.
pub fn feature_pairs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq].trim().to_string();
        rest = &rest[eq + 1..];
        let value;
        if let Some(q) = rest.strip_prefix('"') {
            let end = q.find('"').unwrap_or(q.len());
            value = q[..end].to_string();
            rest = q.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            value = rest[..end].to_string();
            rest = &rest[end..];
        }
        out.push((key, value));
        rest = rest.trim_start();
    }
    out
}

/// Keeps the engine's last complaint (`Error ...`, `tellusererror ...`).
fn note_error(line: &str, said: &mut Option<String>) {
    let l = line.trim();
    if l.starts_with("Error") || l.starts_with("tellusererror") {
        *said = Some(l.to_string());
    }
}

/// Commands whose `Error (unknown command): X` leaves the game's set-up
/// whole: the engine only lacks a courtesy (a limit, a hint) or answers
/// late to the handshake or the last game's end.
const OPTIONAL_COMMANDS: &[&str] = &[
    "easy", "hard", "post", "nopost", "cores", "memory", "level", "st", "sd", "computer", "random",
    "time", "otim", "result", "accepted", "rejected", "option", "xboard", "protover",
];

/// Does `line` refuse the game's set-up? `tellusererror` (HaChu: `Unknown
/// piece ' ' in setup`), `Illegal ...` (a position or an opening move),
/// and `Error ...`, except an unknown optional command
/// ([`OPTIONAL_COMMANDS`]).
fn refuses_setup(line: &str) -> bool {
    let l = line.trim();
    if l.starts_with("tellusererror") || l.starts_with("Illegal") {
        return true;
    }
    let Some(rest) = l.strip_prefix("Error") else {
        return false;
    };
    let command = rest
        .rsplit(':')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next();
    !(rest.contains("unknown command") && command.is_some_and(|c| OPTIONAL_COMMANDS.contains(&c)))
}

/// The `setboard` line of [`Setup::Board`]: the board field of the game's
/// FEN alone. Errors: [`Failure::Unsupported`] where the game starts with
/// the second player to move, which such an engine cannot be told.
fn board_setboard(g: &GameStart) -> Result<String, Failure> {
    if g.start.side() != Side::First {
        return Err(Failure::Unsupported(format!(
            "`setup=board` sends the board alone, which leaves the move to the first player, \
             and `{}` has the second player to move",
            g.fen
        )));
    }
    let board = g.fen.split_whitespace().next().unwrap_or_default();
    Ok(format!("setboard {board}"))
}

/// Adds the engine's last complaint to a failure's description.
fn with_said(f: Failure, said: &Option<String>) -> Failure {
    let Some(s) = said else { return f };
    match f {
        Failure::Crash(d) => Failure::Crash(format!("{d}; it said `{s}`")),
        Failure::Timeout(d) => Failure::Timeout(format!("{d}; it said `{s}`")),
        other => other,
    }
}

/// A CECP engine.
pub struct Cecp {
    p: Process,
    name: String,
    f: Features,
    variant: Option<String>,
    memory: u32,
    setup: Setup,
    /// Moves of the current game the engine has been told or has played.
    known: usize,
    /// The engine has left force mode and plays a side.
    playing: bool,
    ping_n: u32,
    /// The game's position after the moves the engine knows: for
    /// XBoard's move text, and its passes (`@@@@`).
    board: Option<Position>,
    /// A complaint heard since the game began, before the engine's first
    /// move ([`Client::complaint`]).
    complaint: Option<String>,
    /// The engine has moved in this game.
    moved: bool,
}

impl Cecp {
    /// Completes the handshake and sends the user's options.
    ///
    /// Errors: the engine exited, never finished its features, or lists
    /// its variants and ours is not among them.
    pub fn start(
        mut p: Process,
        cfg: &EngineConfig,
        variant: &str,
        fallback_name: &str,
    ) -> Result<Cecp, Failure> {
        send(&mut p, "xboard")?;
        send(&mut p, "protover 2")?;
        let mut f = Features::default();
        // Protocol 1 engines send no features: wait two seconds for them,
        // longer once the engine has said `done=0`.
        let mut deadline = Instant::now() + Duration::from_secs(2);
        'read: loop {
            match p.recv(deadline) {
                Recv::Line(l) => {
                    let Some(rest) = l.trim().strip_prefix("feature ") else {
                        continue;
                    };
                    for (k, v) in feature_pairs(rest) {
                        let ok = ACCEPTED.contains(&k.as_str());
                        let on = v == "1";
                        match k.as_str() {
                            "setboard" => f.setboard = on,
                            "usermove" => f.usermove = on,
                            "ping" => f.ping = on,
                            "memory" => f.memory = on,
                            "smp" => f.smp = on,
                            "time" => f.time = on,
                            "reuse" => f.reuse = on,
                            "myname" => f.myname = Some(v.clone()),
                            "variants" => {
                                f.variants = Some(
                                    v.split(',')
                                        .map(|s| s.trim().to_string())
                                        .filter(|s| !s.is_empty())
                                        .collect(),
                                )
                            }
                            "option" => {
                                let name = v.split(" -").next().unwrap_or("").trim();
                                f.options.push(name.to_string());
                            }
                            _ => {}
                        }
                        let answer = if ok { "accepted" } else { "rejected" };
                        send(&mut p, &format!("{answer} {k}"))?;
                        if k == "done" {
                            if on {
                                break 'read;
                            }
                            deadline = Instant::now() + INIT_TIMEOUT;
                        }
                    }
                }
                Recv::Timeout => break,
                Recv::Closed => return Err(crash(&mut p, "output closed during features")),
            }
        }
        let name = cfg
            .name
            .clone()
            .or(f.myname.clone())
            .unwrap_or_else(|| fallback_name.to_string());
        let v = pick_variant(
            &name,
            variant,
            cfg.variant.as_deref(),
            f.variants.as_deref(),
        )
        .map_err(Failure::Protocol)?;
        // An engine with no variant list plays its default game: say nothing.
        let v = (f.variants.is_some() || cfg.variant.is_some()).then_some(v);
        for (k, val) in &cfg.options {
            send(&mut p, &format!("option {k}={val}"))?;
        }
        let mut c = Cecp {
            p,
            name,
            f,
            variant: v,
            memory: cfg.memory,
            setup: cfg.setup,
            known: 0,
            playing: false,
            ping_n: 0,
            board: None,
            complaint: None,
            moved: false,
        };
        c.sync()?;
        Ok(c)
    }

    /// `ping N` until `pong N`, when the engine has `ping`; stale output
    /// of the previous game is read and dropped on the way.
    fn sync(&mut self) -> Result<(), Failure> {
        self.sync_noting(false)
    }

    /// [`Self::sync`]; with `setting_up`, a complaint that refuses the
    /// game's set-up ([`refuses_setup`]) fails it, and any other is kept
    /// as the game's [`Client::complaint`].
    ///
    /// Errors: no `pong` in time, the engine exited, or (setting up) it
    /// refused the set-up.
    fn sync_noting(&mut self, setting_up: bool) -> Result<(), Failure> {
        if !self.f.ping {
            return Ok(());
        }
        self.ping_n += 1;
        let n = self.ping_n;
        send(&mut self.p, &format!("ping {n}"))?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        let want = format!("pong {n}");
        let mut said = None;
        loop {
            match self.p.recv(deadline) {
                Recv::Line(l) if l.trim() == want => return Ok(()),
                Recv::Line(l) if setting_up && refuses_setup(&l) => {
                    return Err(Failure::Refused(l.trim().to_string()));
                }
                Recv::Line(l) => {
                    note_error(&l, &mut said);
                    if setting_up && said.is_some() {
                        self.complaint = said.clone();
                    }
                }
                Recv::Timeout => {
                    return Err(with_said(Failure::Timeout(format!("no `{want}`")), &said));
                }
                Recv::Closed => {
                    let f = crash(&mut self.p, "output closed");
                    return Err(with_said(f, &said));
                }
            }
        }
    }

    /// The line telling the engine our move `m`, which is made on the board.
    /// A pass goes as XBoard's null move `@@@@`: HaChu takes a Lion pass in
    /// no other form.
    fn move_line(&mut self, m: &str) -> String {
        let m = match &mut self.board {
            Some(pos) => {
                let text = to_xboard(pos.variant(), m);
                match parse_move(pos, m) {
                    Ok(mv) => {
                        pos.make(mv);
                        if is_pass(&mv) {
                            "@@@@".to_string()
                        } else {
                            text
                        }
                    }
                    Err(_) => text,
                }
            }
            None => m.to_string(),
        };
        if self.f.usermove {
            format!("usermove {m}")
        } else {
            m
        }
    }

    /// Sets up the start position piece by piece (`edit` mode), for engines
    /// without `setboard`. A position with the second player to move is
    /// preceded by `black` (protocol 1), as `edit` keeps the side to move.
    fn edit(&mut self, g: &GameStart) -> Result<(), Failure> {
        let pos = g.start;
        let v = pos.variant().clone();
        if pos.side() == Side::Second {
            send(&mut self.p, "black")?;
        }
        send(&mut self.p, "force")?;
        send(&mut self.p, "edit")?;
        send(&mut self.p, "#")?;
        for side in Side::BOTH {
            if side == Side::Second {
                send(&mut self.p, "c")?;
            }
            let mut squares: Vec<_> = pos.pieces(side).to_vec();
            squares.sort();
            for sq in squares {
                let p = pos.at(sq);
                let line = format!(
                    "{}{}",
                    v.token(p).to_uppercase(),
                    xboard_square(&v.geometry, sq)
                );
                send(&mut self.p, &line)?;
            }
        }
        send(&mut self.p, ".")
    }

    /// The engine's move `m`, in XBoard's text (ranks counted from 0 on
    /// boards of ten ranks, files by grid letter; `@@@@` a pass, see
    /// [`parse_xboard_move`]), as ours; made on the board when legal. Text
    /// that is no legal move is left for the referee to reject.
    fn ours(&mut self, m: String) -> String {
        match &mut self.board {
            Some(pos) => match parse_xboard_move(pos, &m) {
                Ok(mv) => {
                    let text = move_text(pos.variant(), mv);
                    pos.make(mv);
                    text
                }
                Err(_) => from_xboard(pos.variant(), &m).unwrap_or(m),
            },
            None => m,
        }
    }

    /// `time` and `otim` in centiseconds, when there is a clock.
    fn clocks(&mut self, t: &Turn) -> Result<(), Failure> {
        let me = t.side.index();
        if t.limits[me].tc.is_none() || !self.f.time {
            return Ok(());
        }
        let mine = t.clocks[me].unwrap_or_default();
        let theirs = t.clocks[1 - me].unwrap_or(mine);
        send(&mut self.p, &format!("time {}", mine.as_millis() / 10))?;
        send(&mut self.p, &format!("otim {}", theirs.as_millis() / 10))
    }
}

impl Client for Cecp {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, g: &GameStart, line: Option<&[String]>) -> Result<(), Failure> {
        // With `setup=startpos`, a game reached from the variant's start by
        // known moves is given as those moves after `new`.
        let line = match (self.setup, line) {
            (Setup::Startpos, Some(l)) => Some(l),
            (Setup::Startpos, None) if g.is_variant_start => Some(&[][..]),
            _ => None,
        };
        self.board = Some(match line {
            Some(_) => Position::start(g.start.variant().clone()),
            None => g.start.clone(),
        });
        self.complaint = None;
        self.moved = false;
        send(&mut self.p, "new")?;
        if let Some(v) = self.variant.clone()
            && v != "normal"
        {
            send(&mut self.p, &format!("variant {v}"))?;
        }
        send(&mut self.p, "force")?;
        if self.f.memory {
            send(&mut self.p, &format!("memory {}", self.memory))?;
        }
        if self.f.smp {
            send(&mut self.p, "cores 1")?;
        }
        let own = g.limits[g.side.index()];
        if let Some(tc) = own.tc {
            let secs = tc.base.as_secs_f64().round().max(1.0) as u64;
            send(
                &mut self.p,
                &format!(
                    "level 0 {}:{:02} {}",
                    secs / 60,
                    secs % 60,
                    trim_float(tc.inc.as_secs_f64())
                ),
            )?;
        }
        if let Some(m) = own.movetime {
            send(
                &mut self.p,
                &format!("st {}", m.as_secs_f64().ceil().max(1.0)),
            )?;
        }
        if let Some(d) = own.depth {
            send(&mut self.p, &format!("sd {d}"))?;
        }
        send(&mut self.p, "easy")?;
        let setboard = || format!("setboard {}", g.fen);
        match self.setup {
            _ if line.is_some() => {}
            Setup::Board => send(&mut self.p, &board_setboard(g)?)?,
            Setup::Setboard => send(&mut self.p, &setboard())?,
            Setup::Startpos | Setup::Auto if self.f.setboard => send(&mut self.p, &setboard())?,
            Setup::Startpos | Setup::Auto | Setup::Edit => self.edit(g)?,
        }
        for m in line.unwrap_or_default() {
            let l = self.move_line(m);
            send(&mut self.p, &l)?;
        }
        send(&mut self.p, "force")?;
        self.known = 0;
        self.playing = false;
        self.sync_noting(true)
    }

    fn think(&mut self, t: &Turn) -> Result<Reply, Failure> {
        let pending: Vec<String> = t.moves[self.known.min(t.moves.len())..].to_vec();
        if self.playing && pending.len() == 1 {
            // The engine plays its side: the opponent's move starts its search.
            self.clocks(t)?;
            let line = self.move_line(&pending[0]);
            send(&mut self.p, &line)?;
        } else {
            if self.playing {
                send(&mut self.p, "force")?;
            }
            for m in &pending {
                let line = self.move_line(m);
                send(&mut self.p, &line)?;
            }
            self.clocks(t)?;
            send(&mut self.p, "go")?;
            self.playing = true;
        }
        self.known = t.moves.len();
        let mut said = None;
        // A multi-leg move may come one leg a line, each but the last ending
        // in a comma (HaChu: `move e7d8,` then `move d8d7`).
        let mut legs = String::new();
        loop {
            match self.p.recv(t.deadline) {
                Recv::Line(l) => {
                    let l = l.trim();
                    let mut w = l.split_whitespace();
                    let first = w.next().unwrap_or("");
                    if first == "move" {
                        let Some(m) = w.next() else {
                            return Err(Failure::Protocol("`move` without a move".into()));
                        };
                        if m == "@@@@"
                            && legs.is_empty()
                            && self
                                .board
                                .as_mut()
                                .is_none_or(|p| legal_pass(p, None).is_none())
                        {
                            // XBoard's null move where no pass is legal: the
                            // engine has no move it would make; it gives up.
                            return Ok(Reply::Resign);
                        }
                        legs.push_str(m);
                        if m.ends_with(',') {
                            continue;
                        }
                        self.known += 1;
                        self.moved = true;
                        return Ok(Reply::Move(self.ours(legs)));
                    }
                    if let Some(m) = l.strip_prefix("My move is") {
                        let m = m.trim_start_matches([' ', ':']).trim();
                        if !m.is_empty() {
                            self.known += 1;
                            self.moved = true;
                            return Ok(Reply::Move(self.ours(m.to_string())));
                        }
                    }
                    if l.starts_with("Illegal move") {
                        return Err(Failure::Rejected(l.to_string()));
                    }
                    if !self.moved && refuses_setup(l) {
                        return Err(Failure::Refused(l.to_string()));
                    }
                    if first == "resign" || l == "tellics resign" {
                        return Ok(Reply::Resign);
                    }
                    if ["1-0", "0-1", "1/2-1/2"].contains(&first) {
                        return Ok(Reply::Claim(l.to_string()));
                    }
                    note_error(l, &mut said);
                    if !self.moved && said.is_some() {
                        self.complaint = said.clone();
                    }
                }
                Recv::Timeout => {
                    return Err(with_said(Failure::Timeout("no move".into()), &said));
                }
                Recv::Closed => {
                    let f = crash(&mut self.p, "output closed");
                    return Err(with_said(f, &said));
                }
            }
        }
    }

    fn end_game(&mut self, result: &str, why: &str) {
        let why = why.replace(['{', '}'], "");
        let _ = self.p.send(&format!("result {result} {{{why}}}"));
        let _ = self.p.send("force");
        self.playing = false;
    }

    fn reusable(&self) -> bool {
        self.f.reuse
    }

    fn complaint(&self) -> Option<&str> {
        self.complaint.as_deref()
    }
}

impl Drop for Cecp {
    fn drop(&mut self) {
        let _ = self.p.send("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let f = feature_pairs(r#"myname="Fairy-Max 5.0b" setboard=0 xedit=1 ping=1 done=0"#);
        assert_eq!(
            f,
            [
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".into(), "0".into()),
                ("xedit".into(), "1".into()),
                ("ping".into(), "1".into()),
                ("done".into(), "0".into()),
            ]
        );
        let f = feature_pairs(r#"option="Resign -check 0" variants="normal,courier""#);
        assert_eq!(f[0].1, "Resign -check 0");
        assert_eq!(f[1].1, "normal,courier");
        assert!(feature_pairs("").is_empty());
        assert_eq!(feature_pairs(r#"myname="unclosed"#)[0].1, "unclosed");
    }

    #[test]
    fn a_board_set_up_sends_the_board_field_alone_with_the_first_player_to_move() {
        let v = kamil_rules::Variant::builtin("chu-shogi", &[]).unwrap();
        let start = Position::start(std::sync::Arc::new(v));
        let limits = super::super::config::Limits::default();
        let game = |pos: &Position, fen: &str| -> Result<String, Failure> {
            board_setboard(&GameStart {
                start: pos,
                fen,
                is_variant_start: false,
                side: Side::Second,
                limits: [&limits, &limits],
            })
        };
        let fen = super::super::client::peer_fen(&start);
        let line = game(&start, &fen).unwrap();
        let board = fen.split_whitespace().next().unwrap();
        assert_eq!(line, format!("setboard {board}"));
        let mut after = start.clone();
        let first = after.legal_moves()[0];
        after.make(first);
        let fen = super::super::client::peer_fen(&after);
        match game(&after, &fen) {
            Err(Failure::Unsupported(why)) => assert!(why.contains("second player"), "{why}"),
            other => panic!("expected Unsupported, got {other:?}"),
        }
    }

    #[test]
    fn what_refuses_a_set_up() {
        assert!(refuses_setup(
            "tellusererror Unknown piece ' ' in setup (32)"
        ));
        assert!(refuses_setup("Illegal position"));
        assert!(refuses_setup("Illegal move: e2e4"));
        assert!(refuses_setup("Error (unknown command): setboard"));
        assert!(refuses_setup("Error (unsupported variant): chu"));
        assert!(!refuses_setup("Error (unknown command): easy"));
        assert!(!refuses_setup("Error (unknown command): cores"));
        assert!(!refuses_setup("# Error would be a comment"));
        assert!(!refuses_setup("pong 3"));
    }

    #[test]
    fn failures_carry_the_last_complaint() {
        let mut said = None;
        note_error("# thinking", &mut said);
        assert_eq!(said, None);
        note_error("tellusererror Unknown piece 'LN' in setup (78)", &mut said);
        let f = with_said(Failure::Crash("exit status 255".into()), &said);
        assert_eq!(
            f.to_string(),
            "crashed (exit status 255; it said `tellusererror Unknown piece 'LN' in setup (78)`)"
        );
        let f = with_said(Failure::Timeout("no move".into()), &None);
        assert_eq!(f.to_string(), "timed out (no move)");
    }
}
