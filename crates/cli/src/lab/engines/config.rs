//! What the command line says about an engine and its limits: `--engine
//! cmd=...,proto=...` (of `kamil match` and `gen-data --label`), `--tc 10+0.1`.

use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// Universal Chess Interface.
    Uci,
    /// Universal Shogi Interface (shogi engines, `kamil usi`).
    Usi,
    /// XBoard / Chess Engine Communication Protocol, version 2.
    Cecp,
}

/// A time control: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time for the whole game.
    pub base: Duration,
    /// Added after each move.
    pub inc: Duration,
}

impl TimeControl {
    /// Reads `BASE[+INC]`, BASE in seconds (`10`, `0.5`) or minutes and
    /// seconds (`1:30`), INC in seconds (`0.1`).
    pub fn parse(text: &str) -> Result<TimeControl> {
        let t = text.trim();
        if t.contains('/') {
            bail!("time control `{t}`: moves per period are not supported; use BASE+INC");
        }
        let (base, inc) = match t.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (t, None),
        };
        let base_s = match base.split_once(':') {
            Some((m, s)) => {
                let m: f64 = m
                    .parse()
                    .with_context(|| format!("time control `{t}`: bad minutes `{m}`"))?;
                let s: f64 = s
                    .parse()
                    .with_context(|| format!("time control `{t}`: bad seconds `{s}`"))?;
                m * 60.0 + s
            }
            None => base
                .parse()
                .with_context(|| format!("time control `{t}`: bad base time `{base}`"))?,
        };
        let inc_s: f64 = match inc {
            Some(i) => i
                .parse()
                .with_context(|| format!("time control `{t}`: bad increment `{i}`"))?,
            None => 0.0,
        };
        let ok = |x: f64| x.is_finite() && (0.0..1e7).contains(&x);
        if !ok(base_s) || !ok(inc_s) || base_s + inc_s <= 0.0 {
            bail!("time control `{t}`: times must be positive seconds");
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base_s),
            inc: Duration::from_secs_f64(inc_s),
        })
    }

    /// The PGN `TimeControl` tag value: `10+0.1`.
    pub fn pgn(&self) -> String {
        let b = self.base.as_secs_f64();
        let i = self.inc.as_secs_f64();
        if i > 0.0 {
            format!("{}+{}", trim_float(b), trim_float(i))
        } else {
            trim_float(b)
        }
    }
}

/// `10`, `0.1`, `2.5`: no trailing zeros.
pub fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// How long an engine may think: any of these, together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Game clock.
    pub tc: Option<TimeControl>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// Nodes per move (UCI and USI only).
    pub nodes: Option<u64>,
}

impl Limits {
    /// True when nothing limits the search.
    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }

    /// A short description for the PGN `TimeControl` tag and messages.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = &self.tc {
            parts.push(tc.pgn());
        }
        if let Some(m) = self.movetime {
            parts.push(format!("movetime {}", trim_float(m.as_secs_f64())));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        parts.join(" ")
    }
}

/// One `--engine` argument.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Protocol.
    pub proto: Proto,
    /// Name given with `name=`.
    pub name: Option<String>,
    /// The engine's name for the variant, given with `variant=`.
    pub variant: Option<String>,
    /// Working directory (`dir=`).
    pub dir: Option<PathBuf>,
    /// Engine options (`option.NAME=VALUE`), in order.
    pub options: Vec<(String, String)>,
    /// Hash memory in MB sent to CECP engines that ask for it (`memory=`).
    pub memory: u32,
    /// How a CECP engine gets the start position (`setup=`).
    pub setup: Setup,
    /// Limits for this engine; unset parts come from the match's.
    pub limits: Limits,
}

/// How a CECP engine is given the position a game starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    /// `setboard` when the engine offers it, `edit` otherwise.
    Auto,
    /// Always `setboard FEN`.
    Setboard,
    /// Always `edit` mode (piece by piece).
    Edit,
    /// Nothing when the game starts from the variant's start position:
    /// the engine's own start position is trusted.
    Startpos,
    /// CECP: `setboard` with the FEN's board field alone, for engines that
    /// read nothing after it and give the move to the first player
    /// (HaChu 0.21 stops at the side-to-move field with `Unknown piece ' '`).
    /// A game whose start has the second player to move cannot be set up
    /// this way ([`crate::lab::engines::client::Failure::Unsupported`]). UCI and
    /// USI engines get the whole FEN, as with `auto`.
    Board,
}

/// Splits `a=1,b="x,y",c` on commas outside double quotes (also
/// `--sprt`'s fields): the fields that are not blank.
pub fn split_fields(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

impl EngineConfig {
    /// Reads `cmd=COMMAND,proto=uci|usi|xboard[,name=N][,variant=V][,dir=D]
    /// [,option.NAME=VALUE]...[,memory=MB][,setup=auto|setboard|edit|startpos]
    /// [,tc=10+0.1][,depth=N][,nodes=N][,movetime=SECONDS]`.
    pub fn parse(text: &str) -> Result<EngineConfig> {
        let mut cfg = EngineConfig {
            argv: Vec::new(),
            proto: Proto::Uci,
            name: None,
            variant: None,
            dir: None,
            options: Vec::new(),
            memory: 64,
            setup: Setup::Auto,
            limits: Limits::default(),
        };
        let mut have_cmd = false;
        for field in split_fields(text) {
            let (k, v) = field
                .split_once('=')
                .with_context(|| format!("engine field `{field}`: expected KEY=VALUE"))?;
            let (k, v) = (k.trim(), v.trim());
            let num = |what: &str| -> Result<u64> {
                v.parse::<u64>()
                    .with_context(|| format!("engine field `{k}`: `{v}` is not {what}"))
            };
            match k {
                "cmd" => {
                    cfg.argv = shlex::split(v)
                        .with_context(|| format!("engine command `{v}`: unbalanced quotes"))?;
                    if cfg.argv.is_empty() {
                        bail!("engine command is empty");
                    }
                    have_cmd = true;
                }
                "proto" => {
                    cfg.proto = match v.to_lowercase().as_str() {
                        "uci" => Proto::Uci,
                        "usi" => Proto::Usi,
                        "xboard" | "cecp" | "winboard" => Proto::Cecp,
                        _ => bail!("engine protocol `{v}`: expected uci, usi or xboard"),
                    }
                }
                "name" => cfg.name = Some(v.to_string()),
                "variant" => cfg.variant = Some(v.to_string()),
                "dir" => cfg.dir = Some(PathBuf::from(v)),
                "memory" => {
                    cfg.memory = u32::try_from(num("a number of MB")?)
                        .context("engine field `memory`: too large")?
                }
                "setup" => {
                    cfg.setup = match v {
                        "auto" => Setup::Auto,
                        "setboard" => Setup::Setboard,
                        "edit" => Setup::Edit,
                        "startpos" => Setup::Startpos,
                        "board" => Setup::Board,
                        _ => bail!(
                            "engine field `setup`: `{v}`: expected auto, setboard, edit, startpos or board"
                        ),
                    }
                }
                "tc" => cfg.limits.tc = Some(TimeControl::parse(v)?),
                "depth" => {
                    cfg.limits.depth = Some(
                        u32::try_from(num("a depth")?)
                            .context("engine field `depth`: too large")?,
                    )
                }
                "nodes" => cfg.limits.nodes = Some(num("a node count")?),
                "movetime" => {
                    cfg.limits.movetime = Some(seconds(v).context("engine field `movetime`")?)
                }
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        cfg.options.push((name.to_string(), v.to_string()))
                    }
                    _ => bail!(
                        "engine field `{k}`: expected cmd, proto, name, variant, dir, option.NAME, memory, setup, tc, depth, nodes or movetime"
                    ),
                },
            }
        }
        if !have_cmd {
            bail!("engine `{text}`: no cmd=COMMAND");
        }
        Ok(cfg)
    }

    /// The name to show: `name=`, else the program's file name.
    pub fn default_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        // The first argument that is not an interpreter names the engine
        // (`python3 fake.py` -> `fake`).
        let base = |s: &str| {
            std::path::Path::new(s)
                .file_stem()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| s.to_string())
        };
        let prog = base(&self.argv[0]);
        if (prog.starts_with("python") || prog == "sh" || prog == "bash")
            && let Some(script) = self.argv.get(1)
        {
            return base(script);
        }
        prog
    }
}

/// Seconds as a duration: `0.5`, `2`.
pub fn seconds(text: &str) -> Result<Duration> {
    let s: f64 = text
        .trim()
        .parse()
        .with_context(|| format!("`{text}` is not a number of seconds"))?;
    if !s.is_finite() || !(0.0..1e7).contains(&s) {
        bail!("`{text}`: seconds must be between 0 and 10^7");
    }
    Ok(Duration::from_secs_f64(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.inc, Duration::from_millis(100));
        assert_eq!(tc.pgn(), "10+0.1");
        let tc = TimeControl::parse("1:30").unwrap();
        assert_eq!(tc.base, Duration::from_secs(90));
        assert_eq!(tc.pgn(), "90");
        assert!(TimeControl::parse("40/60").is_err());
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("-5").is_err());
        assert!(TimeControl::parse("0").is_err());
    }

    #[test]
    fn engine_fields() {
        let e = EngineConfig::parse(
            r#"cmd="fairy-stockfish --x",proto=uci,name=FSF,option.Hash=16,option.UCI_Variant=courier,depth=3"#,
        )
        .unwrap();
        assert_eq!(e.argv, ["fairy-stockfish", "--x"]);
        assert_eq!(e.proto, Proto::Uci);
        assert_eq!(e.name.as_deref(), Some("FSF"));
        assert_eq!(e.options.len(), 2);
        assert_eq!(e.options[0], ("Hash".into(), "16".into()));
        assert_eq!(e.limits.depth, Some(3));
        // The shell removed the quotes: a command with spaces still reads.
        let e = EngineConfig::parse("cmd=kamil uci,proto=xboard").unwrap();
        assert_eq!(e.argv, ["kamil", "uci"]);
        assert_eq!(e.proto, Proto::Cecp);
        assert_eq!(e.default_name(), "kamil");
        let e = EngineConfig::parse("cmd=python3 /x/fake_uci.py --a").unwrap();
        assert_eq!(e.default_name(), "fake_uci");
        assert!(EngineConfig::parse("proto=uci").is_err());
        assert!(EngineConfig::parse("cmd=x,proto=ucci").is_err());
        assert!(EngineConfig::parse("cmd=x,colour=red").is_err());
        assert!(EngineConfig::parse("cmd=x,depth=deep").is_err());
    }
}
