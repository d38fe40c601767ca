//! Where a protocol session writes its lines, for `kamil uci` and
//! `kamil xboard` alike: behind a lock, since the search thread writes too.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where protocol lines go (stdout, or a buffer in tests).
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Standard output as an [`Out`].
pub fn stdout() -> Out {
    Arc::new(Mutex::new(Box::new(std::io::stdout())))
}

/// Writes `line` to `out` and flushes it, so the GUI sees it at once.
pub fn send(out: &Out, line: &str) {
    // A closed stdout only means the GUI went away: nothing to report to.
    if let Ok(mut o) = out.lock() {
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }
}
