//! The JSON API's handlers. Every failure is an [`ApiError`]: a 4xx (or
//! 503) status with `{"error": "..."}` naming what was wrong; nothing a
//! client sends panics the server or touches another game.

use super::error::ApiError;
use super::extract::{Body, Path, Query};
use super::game::{SearchSlot, SharedGame};
use super::games::{Lent, lock};
use super::json::{game_view, legal_views, options_view};
use super::state::AppState;
use crate::input::cut_echoes;
use crate::session::Core;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use kamil_engine::skill::elo;
use kamil_engine::{Info, Limits, Score, Skill};
use kamil_rules::board_text::side_name;
use kamil_rules::excerpt;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::move_text;
use kamil_rules::pgn::{self, GameRecord, PgnErrorKind};
use kamil_rules::sfen::{self, PositionTextError};
use kamil_rules::variant::BUILTIN;
use kamil_rules::variant::aliases::from_xboard_name;
use kamil_rules::{Move, Position, Side, Variant};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

type Reply = Result<Json<Value>, ApiError>;
type AppS = State<Arc<AppState>>;

/// `GET /api/variants`: the built-in games, their titles and options.
pub async fn list_variants(State(app): AppS) -> Reply {
    let mut out = Vec::new();
    for (name, _) in BUILTIN {
        let v = app.variants.get(name, &[])?;
        out.push(json!({
            "name": v.name,
            "title": if v.title.is_empty() { &v.name } else { &v.title },
            "description": v.description,
            "side_names": [side_name(&v, Side::First), side_name(&v, Side::Second)],
            "options": options_view(&v),
            "level_elo": level_elo(&v),
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// The Elo of each strength level below full strength in `v` (index:
/// level), on `UCI_Elo`'s scale (`kamil_engine::skill::elo`).
fn level_elo(v: &Variant) -> Vec<i32> {
    let ladder = elo::ladder(v);
    (0..Skill::FULL).map(|l| ladder.elo(l)).collect()
}

/// `GET /api/variants/{name}`: one game with its default options, drawn.
pub async fn get_variant(State(app): AppS, Path(name): Path<String>) -> Reply {
    let v = app.variants.get(&name, &[]).map_err(|e| ApiError {
        status: StatusCode::NOT_FOUND,
        ..e
    })?;
    Ok(Json(app.variants.view(&v)))
}

/// Options as `{"name": "value"}`; values may be strings, numbers or booleans.
fn options_of(map: &BTreeMap<String, Value>) -> Result<Vec<(String, String)>, ApiError> {
    map.iter()
        .map(|(k, v)| {
            let s = match v {
                Value::String(s) => s.clone(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => {
                    return Err(ApiError::bad(format!(
                        "option `{}`: give a string, number or boolean",
                        excerpt(k)
                    )));
                }
            };
            Ok((k.clone(), s))
        })
        .collect()
}

/// `POST /api/games` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A built-in variant name; with `pgn`, taken from its `Variant` tag if absent.
    #[serde(default)]
    variant: Option<String>,
    /// Option choices.
    #[serde(default)]
    options: BTreeMap<String, Value>,
    /// Start here instead of the variant's start.
    #[serde(default)]
    fen: Option<String>,
    /// Moves to play first.
    #[serde(default)]
    moves: Vec<String>,
    /// A whole game record to load (tags give variant, options, FEN).
    #[serde(default)]
    pgn: Option<String>,
}

/// Most moves a created game may start with.
const MAX_MOVES: usize = 5000;

/// The position a [`NewGame`] asks for.
fn new_position(app: &AppState, req: NewGame) -> Result<Position, ApiError> {
    let mut options = options_of(&req.options)?;
    let mut variant = req.variant;
    let mut fen = req.fen;
    let mut moves = req.moves;
    if let Some(text) = &req.pgn {
        let game = pgn::read(text).map_err(|e| {
            let tag = match &e.kind {
                PgnErrorKind::UnquotedValue { tag } => Some(tag.as_str()),
                _ => None,
            };
            ApiError::bad(cut_echoes(&e.to_string(), tag))
        })?;
        if variant.is_none() {
            // XBoard's and HaChu's names too (`chu` for `chu-shogi`).
            variant = game
                .tag("Variant")
                .map(|t| from_xboard_name(t).unwrap_or(t).to_string());
        }
        if options.is_empty()
            && let Some(o) = game.tag("VariantOptions")
        {
            for pair in o.split_whitespace() {
                let (k, v) = pair.split_once('=').unwrap_or((pair, "true"));
                options.push((k.to_string(), v.to_string()));
            }
        }
        if fen.is_none() {
            fen = game.tag("FEN").map(str::to_string);
        }
        moves.extend(game.moves);
    }
    let Some(variant) = variant else {
        return Err(ApiError::bad(
            "no variant: give `variant` (or a PGN with a Variant tag)".into(),
        ));
    };
    if moves.len() > MAX_MOVES {
        return Err(ApiError::bad(format!("more than {MAX_MOVES} moves")));
    }
    let v: Arc<Variant> = app.variants.get(&variant, &options)?;
    let mut pos = match &fen {
        // In the shogi games an SFEN too (the page's FEN box takes either).
        Some(f) => sfen::read_position(v, f).map_err(|e| match e {
            PositionTextError::Fen(e) => ApiError::bad(format!("bad FEN: {e}")),
            PositionTextError::Sfen(e) => ApiError::bad(format!("bad SFEN: {e}")),
        })?,
        None => Position::start(v),
    };
    for (i, m) in moves.iter().enumerate() {
        // Kamil's notation first, then XBoard's and HaChu's (comma legs,
        // `@@@@` for a pass) and the SAN of XBoard's game files.
        let (mv, _) = read_move(&mut pos, m, Accept::First(Notation::Kamil))
            .map_err(|e| ApiError::bad(format!("move {} ({}): {e}", i + 1, excerpt(m))))?;
        pos.make(mv);
    }
    Ok(pos)
}

/// `POST /api/games`: a new game; returns it and its variant.
pub async fn create_game(
    State(app): AppS,
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let pos = new_position(&app, req)?;
    let variant = app.variants.view(pos.variant());
    let game = app.games.insert(pos)?;
    let g = lock(&game);
    let mut view = game_view(&g, g.pos.depth());
    view["variant_info"] = variant;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `?ply=N` of a game view.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyQuery {
    #[serde(default)]
    ply: Option<usize>,
}

/// `GET /api/games/{id}[?ply=N]`: the game, at ply N (default: the latest).
pub async fn get_game(
    State(app): AppS,
    Path(id): Path<String>,
    Query(q): Query<PlyQuery>,
) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    let plies = g.pos.depth();
    let ply = q.ply.unwrap_or(plies);
    if ply > plies {
        return Err(ApiError::bad(format!(
            "ply {ply}: the game has {plies} plies"
        )));
    }
    Ok(Json(game_view(&g, ply)))
}

/// `DELETE /api/games/{id}`.
pub async fn delete_game(State(app): AppS, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    app.games.remove(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/games/{id}/variant`: the game's variant, drawn.
pub async fn game_variant(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let v = lock(&game).pos.variant().clone();
    Ok(Json(app.variants.view(&v)))
}

/// `GET /api/games/{id}/moves`: the legal moves now.
pub async fn legal(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    let moves = legal_views(&mut g.pos);
    Ok(Json(serde_json::to_value(moves).unwrap_or_default()))
}

/// `POST /api/games/{id}/moves` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move, in any spelling `kamil moves` accepts.
    #[serde(rename = "move")]
    text: String,
    /// Play it after this many plies, dropping the later ones (default:
    /// after all of them).
    #[serde(default)]
    ply: Option<usize>,
}

/// `POST /api/games/{id}/moves`: plays a move; returns the game.
pub async fn play(State(app): AppS, Path(id): Path<String>, Body(req): Body<PlayMove>) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    let plies = g.pos.depth();
    let ply = req.ply.unwrap_or(plies);
    if ply > plies {
        return Err(ApiError::bad(format!(
            "ply {ply}: the game has {plies} plies"
        )));
    }
    if g.search.is_some() {
        return Err(ApiError::conflict(
            "the engine is thinking; stop it first".into(),
        ));
    }
    let mut pos = g.position_at(ply);
    if let Some(o) = pos.outcome() {
        return Err(ApiError::conflict(format!("the game is over ({o})")));
    }
    let (m, _) = read_move(&mut pos, &req.text, Accept::First(Notation::Kamil))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    pos.make(m);
    g.pos = pos;
    g.changed();
    let n = g.pos.depth();
    Ok(Json(game_view(&g, n)))
}

/// `POST /api/games/{id}/undo` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    /// Plies to take back (default 1).
    #[serde(default)]
    plies: Option<usize>,
}

/// `POST /api/games/{id}/undo`: takes moves back; returns the game.
pub async fn undo(State(app): AppS, Path(id): Path<String>, Body(req): Body<Undo>) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    let n = req.plies.unwrap_or(1);
    if n == 0 || n > g.pos.depth() {
        return Err(ApiError::bad(format!(
            "cannot take back {n} plies: the game has {}",
            g.pos.depth()
        )));
    }
    for _ in 0..n {
        g.pos.unmake();
    }
    g.changed();
    let plies = g.pos.depth();
    Ok(Json(game_view(&g, plies)))
}

/// `POST /api/games/{id}/engine` body: what bounds the search (the
/// server's own bound on time always applies) and whether to play its move.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Think {
    /// Time for the move, ms.
    #[serde(default)]
    movetime_ms: Option<u64>,
    /// Deepest iteration, plies.
    #[serde(default)]
    depth: Option<u32>,
    /// Node budget.
    #[serde(default)]
    nodes: Option<u64>,
    /// Play the move found (default true); false only analyses.
    #[serde(default)]
    play: Option<bool>,
    /// Strength level, 0 to 20 (default 20, full strength).
    #[serde(default)]
    skill: Option<u8>,
}

/// Engine time per move when the request sets no bound, ms.
const DEFAULT_MOVETIME_MS: u64 = 2000;

/// A score as JSON: `{"cp": n}` or `{"mate": n}`, for the side to move.
pub(super) fn score_json(s: Score) -> Value {
    match s {
        Score::Cp(c) => json!({ "cp": c }),
        Score::Mate(m) => json!({ "mate": m }),
    }
}

fn pv_texts(v: &Variant, pv: &[Move]) -> Vec<String> {
    pv.iter().map(|&m| move_text(v, m)).collect()
}

/// Ends a game's search when the request ends, however it ends (a client
/// that goes away mid-search stops it): stops the engine and frees the
/// game's search slot if it is still this search's.
pub(super) struct SlotGuard {
    /// The game searched.
    pub(super) game: SharedGame,
    /// The search's own cancel flag (which tells it from a later search).
    pub(super) cancel: Arc<AtomicBool>,
}

impl Drop for SlotGuard {
    fn drop(&mut self) {
        let mut g = lock(&self.game);
        if g.search
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(&s.cancel, &self.cancel))
        {
            if let Some(s) = &g.search {
                s.stop();
            }
            g.search = None;
        }
    }
}

/// Lends a free engine to the work that holds `game`'s search slot (its
/// cancel flag `cancel`, taken at the game's `generation`), and gives the
/// slot the engine's stop flag, so that `stop` reaches it. `what` names the
/// work in the error.
///
/// Errors: 503 when no engine is free; 409 when the work was stopped or
/// the game changed before the engine came (the engine goes back).
pub(super) async fn lend_engine(
    app: &AppState,
    id: &str,
    game: &SharedGame,
    cancel: &Arc<AtomicBool>,
    generation: u64,
    what: &str,
) -> Result<Lent, ApiError> {
    let mut lent = app.engines.take(id).await?;
    let stop = lent.engine.stop_handle();
    stop.store(false, Ordering::SeqCst);
    let mut g = lock(game);
    // Engines are shared between games and works: the game's settings at
    // full strength unless the work sets a level itself.
    Core::builtin(g.pos.variant().clone()).apply(&mut lent.engine);
    if cancel.load(Ordering::SeqCst) || g.generation != generation {
        drop(g);
        app.engines.put(lent, id);
        return Err(ApiError::conflict(format!(
            "the {what} was stopped before it began"
        )));
    }
    if let Some(slot) = g.search.as_mut() {
        slot.engine_stop = Some(stop);
    }
    Ok(lent)
}

/// What a search of the server's game of `variant` at strength `level`
/// (0 to 20) sets in an engine ([`Core`]: the game's default evaluation,
/// the level).
pub fn engine_core(variant: &Arc<Variant>, level: u8) -> Core {
    let mut core = Core::builtin(variant.clone());
    core.set_level(level);
    core
}

/// `POST /api/games/{id}/engine`: the engine searches the latest position
/// (analysis streams to the game's events) and, unless `play` is false,
/// plays its move. Returns the move, score, depth, PV and the game.
pub async fn think(State(app): AppS, Path(id): Path<String>, Body(req): Body<Think>) -> Reply {
    if req.depth == Some(0) || req.nodes == Some(0) || req.movetime_ms == Some(0) {
        return Err(ApiError::bad(
            "depth, nodes and movetime_ms must be positive".into(),
        ));
    }
    let level = match req.skill {
        None => Skill::FULL,
        Some(n) if n <= Skill::FULL => n,
        Some(n) => {
            return Err(ApiError::bad(format!(
                "skill {n}: must be 0 to {}",
                Skill::FULL
            )));
        }
    };
    let max = app.max_movetime_ms;
    let limits = Limits {
        depth: req.depth.map(|d| d.min(64)),
        nodes: req.nodes,
        movetime: Some(match (req.movetime_ms, req.depth, req.nodes) {
            (Some(ms), _, _) => ms.min(max),
            (None, None, None) => DEFAULT_MOVETIME_MS.min(max),
            _ => max,
        }),
        ..Limits::default()
    };
    let game = app.games.get(&id)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let (pos, generation) = {
        let mut g = lock(&game);
        g.last_used = Instant::now();
        if g.search.is_some() {
            return Err(ApiError::conflict(
                "the engine is already thinking on this game".into(),
            ));
        }
        let mut pos = g.pos.clone();
        if let Some(o) = pos.outcome() {
            return Err(ApiError::conflict(format!("the game is over ({o})")));
        }
        g.search = Some(SearchSlot {
            cancel: cancel.clone(),
            engine_stop: None,
        });
        (pos, g.generation)
    };
    let _slot = SlotGuard {
        game: game.clone(),
        cancel: cancel.clone(),
    };
    let mut lent = lend_engine(&app, &id, &game, &cancel, generation, "search").await?;
    engine_core(pos.variant(), level).apply(&mut lent.engine);
    let events = lock(&game).events.clone();
    let v = pos.variant().clone();
    let side = pos.side().index();
    let task = tokio::task::spawn_blocking(move || {
        let mut on_info = |info: &Info| {
            let data = json!({
                "depth": info.depth,
                "seldepth": info.seldepth,
                "score": score_json(info.score),
                "side": side,
                "nodes": info.nodes,
                "nps": info.nps,
                "time_ms": info.time_ms,
                "pv": pv_texts(&v, &info.pv),
            });
            let _ = events.send(("info", data.to_string()));
        };
        let r = lent.engine.search(&pos, &limits, &mut on_info);
        (lent, r)
    });
    let (lent, r) = task
        .await
        .map_err(|_| ApiError::unavailable("the search failed".into()))?;
    app.engines.put(lent, &id);
    let mut g = lock(&game);
    g.search = None;
    let v = g.pos.variant().clone();
    let stale = g.generation != generation;
    let play = req.play.unwrap_or(true);
    let best = r.best.map(|m| move_text(&v, m));
    let result = json!({
        "best": best,
        "score": score_json(r.score),
        "side": side,
        "depth": r.depth,
        "nodes": r.nodes,
        "time_ms": r.time_ms,
        "pv": pv_texts(&v, &r.pv),
    });
    let _ = g.events.send(("bestmove", result.to_string()));
    if stale {
        return Err(ApiError::conflict(
            "the game changed while the engine was thinking".into(),
        ));
    }
    if play && let Some(m) = r.best {
        // The game takes only what the rules allow, whoever proposes it.
        if !g.pos.is_legal(m) {
            return Err(ApiError::internal(format!(
                "the engine's move {} is not legal here",
                move_text(&v, m)
            )));
        }
        g.pos.make(m);
        g.changed();
    }
    let plies = g.pos.depth();
    let mut out = result;
    out["played"] = json!(play && r.best.is_some());
    out["game"] = game_view(&g, plies);
    Ok(Json(out))
}

/// `POST /api/games/{id}/stop`: stops the game's search; the engine plays
/// (or reports) the best move found so far.
pub async fn stop(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let g = lock(&game);
    let running = g.search.is_some();
    if let Some(s) = &g.search {
        s.stop();
    }
    Ok(Json(json!({ "stopped": running })))
}

/// `GET /api/games/{id}/pgn`: the game as PGN.
pub async fn export_pgn(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let g = lock(&game);
    let mut pos = g.pos.clone();
    let ended = pos.outcome();
    let moves = g.moves();
    let reason = ended.map(|o| o.reason().to_string());
    let tags = vec![
        ("Event".to_string(), "kamil serve".to_string()),
        ("Site".to_string(), "kamil".to_string()),
    ];
    let text = pgn::write(&GameRecord {
        start: &g.start,
        moves: &moves,
        tags: &tags,
        result: ended.map(|o| o.score()).unwrap_or("*"),
        termination: reason.as_deref(),
    });
    Ok(Json(json!({ "pgn": text })))
}

/// `GET /api/status`: games held, searches running, the server's bounds.
pub async fn status(State(app): AppS) -> Reply {
    Ok(Json(json!({
        "games": app.games.len(),
        "max_games": app.games.max(),
        "searches": app.engines.busy(app.engine_count),
        "engines": app.engine_count,
        "max_movetime_ms": app.max_movetime_ms,
    })))
}

/// Any other `/api/...` path.
pub async fn no_such_api() -> ApiError {
    ApiError::not_found("no such API path; see /api/variants and /api/games".into())
}
