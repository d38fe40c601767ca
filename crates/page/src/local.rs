//! The server's JSON API without a server: [`Local`] holds games and
//! answers the page's calls by method and path as `kamil serve` does, with
//! the same JSON. Searches and reviews run elsewhere (a Web Worker, which
//! must not block the page): their requests answer a [`Job`] to run with
//! [`crate::think::run`] or [`crate::review_json::run`], and their results
//! come back through `POST .../engine/done` and `.../review/done`.
//!
//! ```text
//! POST /games/{id}/engine         {job} (the game is busy until done)
//! POST /games/{id}/engine/done    {result: bestmove data | null} or {error}: the engine's answer
//! POST /games/{id}/review         {job}
//! POST /games/{id}/review/done    {evals: [review data]} or {error}: the review's answer
//! GET  /games/{id}/state          the `state` event's data
//! ```

use crate::error::PageError;
use crate::game::Game;
use crate::json::{game_view, legal_views};
use crate::new_game::{NewGame, new_position};
use crate::play::{PlayMove, Undo, check_ply, pgn_json, play, undo};
use crate::review_json::{ReviewRequest, read_back, review_answer, review_ms, shared_ms};
use crate::rules::rules_json;
use crate::think::{self, Job, Think, read_best};
use crate::variants::Variants;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::HashMap;

/// What runs on a game: a search (playing its move or not) or a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Work {
    Search { play: bool },
    Review { per_ply: u64 },
}

/// A game held, with the work running on it and when it was last used.
struct Held {
    game: Game,
    work: Option<(Work, u64)>,
    used: u64,
}

/// An answer: the status, the JSON body and the events the game's
/// watchers get (`(name, data)`, as server-sent events).
#[derive(Debug)]
pub struct Answer {
    /// As HTTP's: 200, 201, 204, 4xx, 5xx.
    pub status: u16,
    /// The body (`{"error": ...}` for a failure; null for 204).
    pub body: Value,
    /// Events for the game's watchers: `state` and `bestmove`.
    pub events: Vec<(String, String)>,
}

impl Answer {
    /// The answer as JSON: `{status, body, events: [[name, data]]}`.
    pub fn to_json(&self) -> Value {
        json!({ "status": self.status, "body": self.body, "events": self.events })
    }
}

/// The games of one page and its variants, answering the API's calls.
pub struct Local {
    variants: Variants,
    games: HashMap<String, Held>,
    counter: u64,
    max_games: usize,
    max_movetime_ms: u64,
}

type Reply = Result<(u16, Value), PageError>;

/// Reads a body as `T`; empty is `{}`. 422 when it does not read.
fn body<T: DeserializeOwned>(text: &str) -> Result<T, PageError> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    let v: Value = serde_json::from_str(text)
        .map_err(|e| PageError::bad(format!("the body is not JSON: {e}")))?;
    if !v.is_object() {
        return Err(PageError {
            status: 422,
            message: "expected an object as the request body ({\"name\": value, ...})".into(),
        });
    }
    serde_json::from_value(v).map_err(|e| PageError {
        status: 422,
        message: format!("Failed to deserialize the JSON body into the target type: {e}"),
    })
}

/// `%XX` and `+` decoded (a `%` without two hex digits stays).
fn decode(s: &str) -> String {
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A query string's pairs, decoded.
///
/// Errors: 400 for a key given twice.
fn query(q: &str) -> Result<Vec<(String, String)>, PageError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for pair in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k), decode(v));
        if out.iter().any(|(x, _)| *x == k) {
            return Err(PageError::bad(format!(
                "the query key `{}` is given more than once; give it once",
                kamil_rules::excerpt(&k)
            )));
        }
        out.push((k, v));
    }
    Ok(out)
}

/// `.../done` bodies.
#[derive(Deserialize, Default)]
struct Done {
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    evals: Option<Vec<Value>>,
    #[serde(default)]
    error: Option<String>,
}

impl Local {
    /// No games yet; at most `max_games` held (the least recently used
    /// idle one makes room), searches of at most `max_movetime_ms`.
    pub fn new(max_games: usize, max_movetime_ms: u64) -> Local {
        Local {
            variants: Variants::new(),
            games: HashMap::new(),
            counter: 0,
            max_games: max_games.max(1),
            max_movetime_ms: max_movetime_ms.max(1),
        }
    }

    /// The variants (compiled once).
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// Answers `method` on `path` (under `/api`, with its query string)
    /// with the JSON `body` (or empty).
    pub fn call(&mut self, method: &str, path: &str, body: &str) -> Answer {
        let mut events = Vec::new();
        match self.route(method, path, body, &mut events) {
            Ok((status, body)) => Answer {
                status,
                body,
                events,
            },
            Err(e) => Answer {
                status: e.status,
                body: json!({ "error": e.message }),
                events,
            },
        }
    }

    fn held(&mut self, id: &str) -> Result<&mut Held, PageError> {
        self.counter += 1;
        let now = self.counter;
        let h = self.games.get_mut(id).ok_or_else(|| {
            PageError::not_found(format!(
                "no game `{}` (it may have ended or been evicted)",
                kamil_rules::excerpt(id)
            ))
        })?;
        h.used = now;
        Ok(h)
    }

    fn route(
        &mut self,
        method: &str,
        path: &str,
        text: &str,
        events: &mut Vec<(String, String)>,
    ) -> Reply {
        let (path, q) = path.split_once('?').unwrap_or((path, ""));
        let parts: Vec<String> = path
            .trim_start_matches('/')
            .split('/')
            .map(decode)
            .collect();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        match (method, parts.as_slice()) {
            ("GET", ["variants"]) => Ok((200, self.variants.list()?)),
            ("GET", ["variants", name]) => Ok((200, self.variants.drawn(name)?)),
            ("GET", ["variants", name, "rules"]) => {
                Ok((200, rules_json(&self.variants, name, &query(q)?)?))
            }
            ("POST", ["games"]) => self.create(body(text)?),
            ("GET", ["status"]) => Ok((
                200,
                json!({
                    "games": self.games.len(),
                    "max_games": self.max_games,
                    "searches": self.games.values().filter(|h| h.work.is_some()).count(),
                    "engines": 1,
                    "max_movetime_ms": self.max_movetime_ms,
                    "local": true,
                }),
            )),
            ("GET", ["games", id]) => {
                let ply = match query(q)?.iter().find(|(k, _)| k == "ply") {
                    Some((_, v)) => Some(v.parse::<usize>().map_err(|_| {
                        PageError::bad(format!("ply `{}`: not a number", kamil_rules::excerpt(v)))
                    })?),
                    None => None,
                };
                let h = self.held(id)?;
                let ply = check_ply(&h.game, ply)?;
                Ok((200, game_view(&h.game, ply, h.work.is_some())))
            }
            ("DELETE", ["games", id]) => {
                self.held(id)?;
                self.games.remove(*id);
                Ok((204, Value::Null))
            }
            ("GET", ["games", id, "state"]) => {
                let h = self.held(id)?;
                Ok((
                    200,
                    serde_json::from_str(&h.game.state_data()).unwrap_or_default(),
                ))
            }
            ("GET", ["games", id, "variant"]) => {
                let v = self.held(id)?.game.pos.variant().clone();
                Ok((200, self.variants.view(&v)))
            }
            ("GET", ["games", id, "moves"]) => {
                let h = self.held(id)?;
                let moves = legal_views(&mut h.game.pos);
                Ok((200, serde_json::to_value(moves).unwrap_or_default()))
            }
            ("POST", ["games", id, "moves"]) => {
                let req: PlayMove = body(text)?;
                let h = self.held(id)?;
                check_ply(&h.game, req.ply)?;
                if h.work.is_some() {
                    return Err(PageError::conflict(
                        "the engine is thinking; stop it first".into(),
                    ));
                }
                play(&mut h.game, &req)?;
                Ok((200, changed(h, events)))
            }
            ("POST", ["games", id, "undo"]) => {
                let req: Undo = body(text)?;
                let h = self.held(id)?;
                undo(&mut h.game, &req)?;
                Ok((200, changed(h, events)))
            }
            ("GET", ["games", id, "pgn"]) => Ok((200, pgn_json(&self.held(id)?.game, "kamil"))),
            ("POST", ["games", id, "stop"]) => {
                let running = self.held(id)?.work.is_some();
                Ok((200, json!({ "stopped": running })))
            }
            ("POST", ["games", id, "engine"]) => self.engine_job(id, text),
            ("POST", ["games", id, "review"]) => self.review_job(id, text),
            ("POST", ["games", id, work @ ("engine" | "review"), "done"]) => {
                self.done(id, work, text, events)
            }
            (_, ["variants", ..] | ["games", ..] | ["status"]) => Err(PageError {
                status: 405,
                message: "method not allowed on this path".into(),
            }),
            _ => Err(PageError::not_found(
                "no such API path; see /api/variants and /api/games".into(),
            )),
        }
    }

    /// `POST /games/{id}/engine`: the search job for the worker.
    fn engine_job(&mut self, id: &str, text: &str) -> Reply {
        let req: Think = body(text)?;
        let plan = think::plan(&req, self.max_movetime_ms)?;
        let h = self.held(id)?;
        if h.work.is_some() {
            return Err(PageError::conflict(
                "the engine is already thinking on this game".into(),
            ));
        }
        think::check_not_over(&h.game.pos)?;
        let mut job = Job::of(&h.game, plan.limits.movetime.unwrap_or(1));
        job.depth = plan.limits.depth;
        job.nodes = plan.limits.nodes;
        job.level = plan.level;
        job.play = plan.play;
        h.work = Some((Work::Search { play: plan.play }, h.game.generation));
        Ok((200, json!({ "job": job })))
    }

    /// `POST /games/{id}/review`: the review job for the worker.
    fn review_job(&mut self, id: &str, text: &str) -> Reply {
        let req: ReviewRequest = body(text)?;
        let per_ply = review_ms(&req, self.max_movetime_ms)?;
        let h = self.held(id)?;
        if h.work.is_some() {
            return Err(PageError::conflict(
                "the engine is already busy with this game (a search or a review); stop it first"
                    .into(),
            ));
        }
        let per_ply = shared_ms(per_ply, h.game.pos.depth() as u64 + 1);
        let job = Job::of(&h.game, per_ply);
        h.work = Some((Work::Review { per_ply }, h.game.generation));
        Ok((200, json!({ "job": job })))
    }

    /// `POST /games/{id}/{engine|review}/done`: a job's result taken back.
    fn done(
        &mut self,
        id: &str,
        work: &str,
        text: &str,
        events: &mut Vec<(String, String)>,
    ) -> Reply {
        let done: Done = body(text)?;
        let h = self.held(id)?;
        let Some((w, generation)) = h.work.take() else {
            return Err(PageError::conflict(format!("no {work} runs on this game")));
        };
        if let Some(e) = done.error {
            return Err(PageError::unavailable(e));
        }
        match w {
            Work::Search { play } => {
                let result = done.result.unwrap_or(Value::Null);
                events.push(("bestmove".into(), result.to_string()));
                let best = match result["best"].as_str() {
                    Some(t) if h.game.generation == generation => Some(read_best(&h.game, t)?),
                    _ => None,
                };
                let (out, moved) = think::finish(&mut h.game, generation, best, play, result)?;
                if moved {
                    events.push(("state".into(), h.game.state_data()));
                }
                Ok((200, out))
            }
            Work::Review { per_ply } => {
                if h.game.generation != generation {
                    return Err(PageError::conflict(
                        "the game changed during the review".into(),
                    ));
                }
                let moves = h.game.moves();
                let r = read_back(&h.game.start, &moves, &done.evals.unwrap_or_default());
                let v = h.game.pos.variant().clone();
                let plies = moves.len();
                let view = game_view(&h.game, plies, false);
                Ok((200, review_answer(&v, &r, plies, per_ply, view)))
            }
        }
    }

    fn create(&mut self, req: NewGame) -> Reply {
        let pos = new_position(&self.variants, req)?;
        let variant = self.variants.view(pos.variant());
        if self.games.len() >= self.max_games {
            let oldest = self
                .games
                .iter()
                .filter(|(_, h)| h.work.is_none())
                .min_by_key(|(_, h)| h.used)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    self.games.remove(&k);
                }
                None => {
                    return Err(PageError::unavailable(format!(
                        "{} games held, all busy; try again later",
                        self.max_games
                    )));
                }
            }
        }
        self.counter += 1;
        let id = format!("local{:x}", self.counter);
        let game = Game::new(id.clone(), pos);
        let mut view = game_view(&game, game.pos.depth(), false);
        view["variant_info"] = variant;
        self.games.insert(
            id,
            Held {
                game,
                work: None,
                used: self.counter,
            },
        );
        Ok((201, view))
    }
}

/// Records a change to a held game: its generation bumped, a `state`
/// event; returns the game's view. A search running on it then finds the
/// game changed when it is done.
fn changed(h: &mut Held, events: &mut Vec<(String, String)>) -> Value {
    h.game.generation += 1;
    events.push(("state".into(), h.game.state_data()));
    let plies = h.game.pos.depth();
    game_view(&h.game, plies, h.work.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_are_decoded_and_a_repeated_key_refused() {
        assert_eq!(decode("a%20b+c%zz%4"), "a b c%zz%4");
        assert_eq!(decode("%C3%A9"), "é");
        assert_eq!(
            query("ply=3&x=%2F").unwrap(),
            vec![("ply".into(), "3".into()), ("x".into(), "/".into())]
        );
        assert_eq!(query("a=1&a=2").unwrap_err().status, 400);
    }

    #[test]
    fn a_game_is_played_searched_elsewhere_and_reviewed() {
        let mut local = Local::new(4, 5000);
        let a = local.call("POST", "/games", r#"{"variant": "courier"}"#);
        assert_eq!(a.status, 201, "{:?}", a.body);
        let id = a.body["id"].as_str().unwrap().to_string();
        let a = local.call("POST", &format!("/games/{id}/moves"), r#"{"move": "nope"}"#);
        assert_eq!(a.status, 400);
        assert!(a.body["error"].is_string());
        let first = a_legal(&mut local, &id);
        let a = local.call(
            "POST",
            &format!("/games/{id}/moves"),
            &json!({"move": first}).to_string(),
        );
        assert_eq!((a.status, a.body["plies"].as_u64()), (200, Some(1)));
        assert_eq!(a.events[0].0, "state");
        // The engine's request gives a job; the job runs (here, natively).
        let a = local.call(
            "POST",
            &format!("/games/{id}/engine"),
            r#"{"depth": 2, "skill": 0}"#,
        );
        assert_eq!(a.status, 200, "{:?}", a.body);
        let job: Job = serde_json::from_value(a.body["job"].clone()).unwrap();
        assert_eq!((job.level, job.moves.len()), (0, 1));
        let busy = local.call(
            "POST",
            &format!("/games/{id}/moves"),
            &json!({"move": first}).to_string(),
        );
        assert_eq!(busy.status, 409);
        let mut engine = kamil_engine::Engine::new(kamil_engine::EngineConfig {
            hash_mb: 1,
            ..Default::default()
        });
        let mut infos = 0;
        let result = think::run(&mut engine, local.variants(), &job, &mut |_| infos += 1).unwrap();
        assert!(infos > 0);
        let a = local.call(
            "POST",
            &format!("/games/{id}/engine/done"),
            &json!({ "result": result }).to_string(),
        );
        assert_eq!(a.status, 200, "{:?}", a.body);
        assert_eq!(
            (a.body["played"].as_bool(), a.body["game"]["plies"].as_u64()),
            (Some(true), Some(2))
        );
        // The review.
        let a = local.call(
            "POST",
            &format!("/games/{id}/review"),
            r#"{"movetime_ms": 5}"#,
        );
        let job: Job = serde_json::from_value(a.body["job"].clone()).unwrap();
        let evals =
            crate::review_json::run(&mut engine, local.variants(), &job, &mut |_| {}).unwrap();
        assert_eq!(evals.as_array().unwrap().len(), 3);
        let a = local.call(
            "POST",
            &format!("/games/{id}/review/done"),
            &json!({ "evals": evals }).to_string(),
        );
        assert_eq!(a.status, 200, "{:?}", a.body);
        assert_eq!(a.body["complete"], json!(true));
        assert_eq!(a.body["moves"].as_array().unwrap().len(), 2);
        // A stopped review: what was evaluated.
        local.call("POST", &format!("/games/{id}/review"), "{}");
        let part = json!({ "evals": [evals[0].clone()] }).to_string();
        let a = local.call("POST", &format!("/games/{id}/review/done"), &part);
        assert_eq!(
            (
                a.body["complete"].as_bool(),
                a.body["moves"].as_array().map(Vec::len)
            ),
            (Some(false), Some(0))
        );
        let a = local.call("GET", &format!("/games/{id}?ply=1"), "");
        assert_eq!(a.body["ply"], json!(1));
        let a = local.call("GET", &format!("/games/{id}/pgn"), "");
        assert!(
            a.body["pgn"].as_str().unwrap().contains("[Variant "),
            "{:?}",
            a.body
        );
        assert_eq!(
            local.call("DELETE", &format!("/games/{id}"), "").status,
            204
        );
        assert_eq!(local.call("GET", &format!("/games/{id}"), "").status, 404);
        assert_eq!(local.call("GET", "/nothing", "").status, 404);
    }

    fn a_legal(local: &mut Local, id: &str) -> String {
        let a = local.call("GET", &format!("/games/{id}/moves"), "");
        a.body[0]["text"].as_str().unwrap().to_string()
    }

    #[test]
    fn the_rules_and_variants_answer() {
        let mut local = Local::new(1, 1000);
        let a = local.call("GET", "/variants/chu-shogi/rules", "");
        assert_eq!(a.status, 200);
        assert!(a.body["sections"].as_array().is_some_and(|s| !s.is_empty()));
        assert_eq!(local.call("GET", "/variants/nope/rules", "").status, 404);
        assert_eq!(local.call("GET", "/variants/nope", "").status, 404);
        assert!(
            local
                .call("GET", "/variants", "")
                .body
                .as_array()
                .unwrap()
                .len()
                > 5
        );
        let bad = local.call("POST", "/games", r#"{"variant": "courier", "fen": "x"}"#);
        assert_eq!(bad.status, 400);
        assert!(bad.body["error"].as_str().unwrap().contains("bad FEN"));
    }
}
