//! The conversation with its searches inline (issue 79: WebAssembly in a
//! Web Worker has no threads): the same lines as with the search in a
//! thread, `stop` seen through the poll, and the `bestmove` of an infinite
//! or ponder search held until `stop`.

use kamil_protocol::bounds::SessionBounds;
use kamil_protocol::out::Out;
use kamil_protocol::uci::{Dialect, Session};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Output kept in memory, read back as lines.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    fn out(&self) -> Out {
        Arc::new(Mutex::new(Box::new(self.clone())))
    }
    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// The `bestmove` line and the node count of the last `info` line with one.
fn outcome(lines: &[String]) -> (String, String) {
    let best = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .cloned()
        .unwrap_or_default();
    let nodes = lines
        .iter()
        .rev()
        .filter_map(|l| l.split_once(" nodes ").map(|(_, r)| r.to_string()))
        .next()
        .map(|r| r.split_whitespace().next().unwrap_or("").to_string())
        .unwrap_or_default();
    (best, nodes)
}

/// A fixed-depth search gives the same `info` and `bestmove` lines inline
/// as in a thread, in both dialects.
#[test]
fn inline_searches_are_the_threaded_ones() {
    let cases = [
        (
            Dialect::Uci,
            "courier",
            "position startpos moves d2d3 d7d6",
            "go depth 4",
        ),
        (
            Dialect::Usi,
            "chu-shogi",
            "position startpos moves 6i6h",
            "go depth 3",
        ),
    ];
    for (dialect, game, position, go) in cases {
        let script = |s: &mut Session| {
            let option = match dialect {
                Dialect::Uci => "UCI_Variant",
                Dialect::Usi => "USI_Variant",
            };
            s.handle(&format!("setoption name {option} value {game}"));
            s.handle(position);
            s.handle(go);
        };
        let threaded_lines = Lines::default();
        let mut threaded = Session::speaking(threaded_lines.out(), dialect);
        script(&mut threaded);
        let start = Instant::now();
        while !threaded_lines
            .0
            .lock()
            .unwrap()
            .windows(8)
            .any(|w| w == b"bestmove")
        {
            assert!(start.elapsed() < Duration::from_secs(60), "no bestmove");
            std::thread::sleep(Duration::from_millis(5));
        }
        threaded.finish();
        let inline_lines = Lines::default();
        let mut inline =
            Session::inline(inline_lines.out(), dialect, SessionBounds::default(), None);
        script(&mut inline);
        // Inline, `go` has returned with the search done.
        let (got, want) = (inline_lines.take(), threaded_lines.take());
        assert!(got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
        assert_eq!(outcome(&got), outcome(&want), "{game}");
        let infos = |ls: &[String]| ls.iter().filter(|l| l.starts_with("info depth")).count();
        assert_eq!(infos(&got), infos(&want), "{game}");
    }
}

static ASKED: AtomicU64 = AtomicU64::new(0);
static STOP_AFTER: AtomicU64 = AtomicU64::new(u64::MAX);

/// The host's stop request as the poll sees it: after `STOP_AFTER` asks.
fn poll() -> bool {
    ASKED.fetch_add(1, Ordering::SeqCst) >= STOP_AFTER.load(Ordering::SeqCst)
}

/// `go infinite` ends by the poll; its `bestmove` waits for `stop`, and
/// meanwhile other commands are refused by name. `go ponder` then
/// `ponderhit`: the ponder search's `bestmove` is dropped, the search on
/// the clock gives the one `bestmove`.
#[test]
fn infinite_and_ponder_searches_wait_for_the_gui() {
    let lines = Lines::default();
    let mut s = Session::inline(
        lines.out(),
        Dialect::Uci,
        SessionBounds::default(),
        Some(poll),
    );
    s.handle("setoption name UCI_Variant value courier");
    s.handle("position startpos");
    ASKED.store(0, Ordering::SeqCst);
    STOP_AFTER.store(30, Ordering::SeqCst);
    s.handle("go infinite");
    assert!(ASKED.load(Ordering::SeqCst) > 30, "the poll stopped it");
    let got = lines.take();
    assert!(got.iter().any(|l| l.starts_with("info depth")), "{got:?}");
    assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    s.handle("position startpos moves d2d3");
    let got = lines.take();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].contains("`position` ignored: a search is running"),
        "{got:?}"
    );
    s.handle("isready");
    assert_eq!(lines.take(), ["readyok"]);
    s.handle("stop");
    let got = lines.take();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("bestmove "), "{got:?}");

    ASKED.store(0, Ordering::SeqCst);
    STOP_AFTER.store(20, Ordering::SeqCst);
    s.handle("go ponder wtime 1000 btime 1000");
    assert!(!lines.take().iter().any(|l| l.starts_with("bestmove")));
    STOP_AFTER.store(u64::MAX, Ordering::SeqCst);
    s.handle("ponderhit");
    let got = lines.take();
    assert_eq!(
        got.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{got:?}"
    );
    s.handle("stop");
    assert_eq!(lines.take(), Vec::<String>::new(), "nothing held");
}

/// USI's `gameover` drops a held `bestmove`; `quit` says a held one.
#[test]
fn gameover_drops_and_quit_says_a_held_bestmove() {
    let lines = Lines::default();
    // A node budget ends the infinite search without a poll.
    let bounds = SessionBounds {
        max_nodes: Some(5_000),
        ..SessionBounds::default()
    };
    let mut s = Session::inline(lines.out(), Dialect::Usi, bounds, None);
    s.handle("position startpos");
    s.handle("go infinite");
    assert!(!lines.take().iter().any(|l| l.starts_with("bestmove")));
    s.handle("gameover win");
    s.handle("stop");
    assert!(!lines.take().iter().any(|l| l.starts_with("bestmove")));
    s.handle("go infinite");
    lines.take();
    assert!(!s.handle("quit"));
    let got = lines.take();
    assert!(got.len() == 1 && got[0].starts_with("bestmove "), "{got:?}");
}
