//! An engine process: its standard input for commands, a reader thread per
//! output stream feeding a channel (so a read can time out), an optional
//! shared log of everything said, and a kill when dropped.

use crate::input::{self, ProtocolLine};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A log of engine communication shared by every engine of a match.
#[derive(Clone)]
pub struct Log {
    file: Arc<Mutex<BufWriter<File>>>,
    start: Instant,
}

impl Log {
    /// Creates (truncates) the log file.
    pub fn create(path: &std::path::Path) -> std::io::Result<Log> {
        Ok(Log {
            file: Arc::new(Mutex::new(BufWriter::new(File::create(path)?))),
            start: Instant::now(),
        })
    }

    /// Writes one line: time since the match began, engine, direction, text.
    pub fn line(&self, who: &str, dir: &str, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut f) = self.file.lock() {
            // A log that cannot be written must not stop the match.
            let _ = writeln!(f, "{t:10.3} {who} {dir} {text}");
            let _ = f.flush();
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Working directory, if not ours.
    pub dir: Option<PathBuf>,
}

/// What a read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    /// One line of output, without its line end.
    Line(String),
    /// Nothing before the deadline.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
}

/// A running engine.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    who: String,
    log: Option<Log>,
}

/// Reads `reader` line by line into `send` (and the log), until end of file.
fn pump(
    reader: impl std::io::Read,
    send: Option<std::sync::mpsc::Sender<String>>,
    who: String,
    dir: &'static str,
    log: Option<Log>,
) {
    let mut r = BufReader::new(reader);
    // An engine that writes without end costs bounded memory: its over-long
    // lines are skipped.
    while let Ok(Some(line)) = input::read_protocol_line(&mut r) {
        let text = match line {
            ProtocolLine::Line(l) => l,
            ProtocolLine::TooLong => {
                if let Some(l) = &log {
                    let limit = input::size(input::MAX_LINE);
                    l.line(&who, dir, &format!("(a line longer than {limit} skipped)"));
                }
                continue;
            }
        };
        if let Some(l) = &log {
            l.line(&who, dir, &text);
        }
        if let Some(s) = &send
            && s.send(text).is_err()
        {
            break;
        }
    }
}

/// The program to run: `prog` itself, or, for a bare name found nowhere on
/// `PATH`, Debian's `/usr/games/prog` when that exists (where the packaged
/// engines live, a directory often missing from `PATH`).
fn resolve(prog: &str) -> PathBuf {
    let bare = PathBuf::from(prog);
    if prog.contains('/') || prog.contains('\\') {
        return bare;
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(prog).is_file()));
    let games = PathBuf::from("/usr/games").join(prog);
    if !on_path && games.is_file() {
        games
    } else {
        bare
    }
}

impl Process {
    /// Starts the engine with piped standard input and output. Its standard
    /// error goes to the log when there is one, and is discarded otherwise.
    pub fn spawn(launch: &Launch, who: &str, log: Option<Log>) -> std::io::Result<Process> {
        let Some((prog, args)) = launch.argv.split_first() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "empty engine command",
            ));
        };
        let mut cmd = Command::new(resolve(prog));
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(d) = &launch.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn()?;
        // The process id tells apart engines of the same name in the log.
        let who = format!("{who}[{}]", child.id());
        let who = who.as_str();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        if let Some(out) = child.stdout.take() {
            let (w, l) = (who.to_string(), log.clone());
            std::thread::spawn(move || pump(out, Some(tx), w, ">", l));
        }
        if let Some(err) = child.stderr.take() {
            let (w, l) = (who.to_string(), log.clone());
            std::thread::spawn(move || pump(err, None, w, "!", l));
        }
        Ok(Process {
            child,
            stdin,
            lines: rx,
            who: who.to_string(),
            log,
        })
    }

    /// Sends one line. Errors: the engine's input is closed (it has exited).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        if let Some(l) = &self.log {
            l.line(&self.who, "<", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Recv::Line(l),
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => Recv::Closed,
        }
    }

    /// How the process ended, if it has: `exit status 3`, `signal 11`.
    pub fn exit_status(&mut self) -> Option<String> {
        // The output closes a moment before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(describe_status(s));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

fn describe_status(s: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match s.code() {
        Some(c) => format!("exit status {c}"),
        None => "exited".to_string(),
    }
}

impl Drop for Process {
    /// Closes the engine's input, gives it a moment to exit, then kills it.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
