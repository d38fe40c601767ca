//! The search in the XBoard dialect: thinking on the engine's move, the
//! analysis mode, `?` (move now), in its own thread, reporting its end as
//! an event.

use super::*;

impl Session {
    /// `?`: play the move now (stops a search for the engine's move).
    pub(super) fn move_now(&self) {
        if self.searching(Purpose::Move) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// `exit`: leaves analyze mode; an error outside it.
    pub(super) fn exit_analysis(&mut self, line: &str) {
        if self.analyzing {
            self.abort_search();
            self.analyzing = false;
        } else {
            self.error("command not legal now", line);
        }
    }

    pub(super) fn searching(&self, purpose: Purpose) -> bool {
        self.search.as_ref().is_some_and(|r| r.purpose == purpose)
    }

    /// Starts the search for the engine's move, unless the game is over.
    pub(super) fn think(&mut self) {
        if self.no_position || self.report_end() {
            return;
        }
        let moves_done = (self.pos.fullmove().saturating_sub(1)) + self.pos.depth() as u32 / 2;
        let limits = self.tc.limits(self.pos.side(), moves_done);
        self.start_search(Purpose::Move, limits);
    }

    /// Restarts the analysis after the position changed, in analyze mode.
    pub(super) fn resume_analysis(&mut self) {
        if self.analyzing && self.search.is_none() && !self.no_position {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start_search(Purpose::Analyze, limits);
        }
    }

    pub(super) fn start_search(&mut self, purpose: Purpose, limits: Limits) {
        self.abort_search();
        let limits = self.bounds.limit(limits);
        self.next_id += 1;
        let id = self.next_id;
        self.stop.store(false, Ordering::SeqCst);
        let engine = self.engine.clone();
        let out = self.out.clone();
        let post = self.post.clone();
        let pos = self.pos.clone();
        let events = self.events.clone();
        let ids = self.ids.clone();
        let handle = std::thread::spawn(move || {
            let v = pos.variant().clone();
            let result = engine.lock().ok().map(|mut e| {
                e.search(&pos, &limits, &mut |info| {
                    if post.load(Ordering::SeqCst) {
                        send(&out, &thinking_line(&v, &ids, info));
                    }
                })
            });
            let _ = events.send(Event::SearchDone(id));
            result
        });
        self.search = Some(Running {
            id,
            purpose,
            handle,
        });
    }

    /// Stops a running search and forgets its result.
    pub(super) fn abort_search(&mut self) {
        if let Some(r) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            let _ = r.handle.join();
        }
    }

    /// Waits for the running search and acts on its result: the engine's
    /// move is made and sent (one `move` line per leg), then the game end
    /// is reported if the move ended it.
    pub(super) fn finish_search(&mut self) {
        let Some(r) = self.search.take() else { return };
        let result = r.handle.join().ok().flatten();
        if r.purpose == Purpose::Analyze {
            return;
        }
        let Some(result) = result else {
            return self.say("tellusererror the search failed");
        };
        self.hint = result.ponder;
        match result.best {
            Some(m) if self.engine_side == Some(self.pos.side()) => {
                let text = self.ids.move_text(self.core.variant(), m);
                self.pos.make(m);
                let legs: Vec<&str> = text.split(',').collect();
                for (i, leg) in legs.iter().enumerate() {
                    let comma = if i + 1 < legs.len() { "," } else { "" };
                    self.say(&format!("move {leg}{comma}"));
                }
                self.report_end();
            }
            Some(_) => {}
            None => {
                if !self.report_end() {
                    self.say("resign");
                }
            }
        }
    }
}
