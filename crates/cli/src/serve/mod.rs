//! `kamil serve`: the browser front end. An HTTP server (axum on tokio)
//! serving the page embedded from `web/` and a JSON API over the rules
//! library and the engine:
//!
//! ```text
//! GET    /api/variants                  built-in games and their options
//! GET    /api/variants/{name}           one game drawn: board, pieces, help
//! GET    /api/variants/{name}/rules     its rules in words [?KEY=VALUE options]: sections, diagrams
//! POST   /api/games                     new game {variant, options, fen (or SFEN), moves, pgn}
//! GET    /api/games/{id}[?ply=N]        the game (at ply N): board, FEN, SFEN, moves, legal moves, result
//! DELETE /api/games/{id}
//! GET    /api/games/{id}/variant        the game's variant drawn
//! GET    /api/games/{id}/moves          legal moves
//! POST   /api/games/{id}/moves          play {move, ply}
//! POST   /api/games/{id}/undo           take back {plies}
//! POST   /api/games/{id}/engine         search {movetime_ms, depth, nodes, play}
//! POST   /api/games/{id}/stop           stop the search (it plays its best so far) or review
//! POST   /api/games/{id}/review         review every ply {movetime_ms}: evaluations, judged moves
//! GET    /api/games/{id}/events         server-sent events: state, info, bestmove, review
//! GET    /api/games/{id}/pgn            the game as PGN
//! GET    /api/status                    games held, searches running, bounds
//! ```
//!
//! Games are isolated (each behind its own lock); searches run on
//! blocking threads with engines borrowed from a bounded pool, each bounded
//! in time; the number of games is bounded too (the least recently used
//! idle game makes room). A request is bounded in size and in the time it
//! may take to arrive (see `limits`): a slow or oversized one is refused
//! (413, 408) or its connection closed, and holds nothing.

mod api;
// The front-end tests (tests/front_ends.rs) drive the server's settings as
// its searches make them.
pub use api::engine_core;
mod assets;
mod conn;
mod error;
mod extract;
mod game;
mod games;
mod limits;
mod review;
mod rules;
mod sse;
mod state;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use error::ApiError;
use games::{Engines, Store, Variants};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use limits::MAX_BODY;
use state::AppState;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `kamil serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (the loopback by default: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Open the page in the default web browser.
    #[arg(long)]
    open: bool,
    /// Most games held at once; the least recently used idle one makes room.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_games: u64,
    /// Engine searches that may run at once (each uses one core).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    engines: u64,
    /// Longest engine search, ms: no request can ask for more.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_movetime: u64,
    /// Hash table of each engine, MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Seconds a request's headers, then its body, may take to arrive;
    /// a slower request gets 408 or its connection is closed.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    read_timeout: u64,
}

/// What bounds a server: the games it holds, the searches at once and
/// their length, the engines' tables, how long a request may take to
/// arrive. The default is `kamil serve`'s without options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Most games held at once (at least 1); the least recently used idle
    /// one makes room.
    pub max_games: usize,
    /// Engine searches that may run at once (at least 1).
    pub engines: usize,
    /// Longest engine search, ms: no request can ask for more.
    pub max_movetime_ms: u64,
    /// Hash table of each engine, MB (at least 1).
    pub hash_mb: usize,
    /// How long a request's headers, then its body, may take to arrive.
    pub read_timeout: Duration,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_games: 200,
            engines: 2,
            max_movetime_ms: 30_000,
            hash_mb: 64,
            read_timeout: Duration::from_secs(30),
        }
    }
}

impl From<&Args> for Bounds {
    fn from(args: &Args) -> Bounds {
        Bounds {
            max_games: args.max_games as usize,
            engines: args.engines as usize,
            max_movetime_ms: args.max_movetime,
            hash_mb: args.hash as usize,
            read_timeout: Duration::from_secs(args.read_timeout),
        }
    }
}

/// The whole application, API and page, with no game yet, bounded by
/// `bounds`: what `kamil serve` serves, and what tests and fuzz targets
/// drive in-process (a `tower::Service` of HTTP requests, e.g. through
/// `tower::ServiceExt::oneshot`, on a tokio runtime with timers). Body
/// size and read time are bounded inside it; the header read timeout is
/// the connection's (see `kamil serve`).
pub fn app(bounds: &Bounds) -> Router {
    let engines = bounds.engines.max(1);
    router(Arc::new(AppState {
        games: Store::new(bounds.max_games),
        engines: Engines::new(engines, bounds.hash_mb, Duration::from_secs(60)),
        engine_count: engines,
        variants: Variants::new(),
        max_movetime_ms: bounds.max_movetime_ms.max(1),
        read_timeout: bounds.read_timeout,
    }))
}

/// The router: the API under `/api`, the page's files elsewhere.
fn router(state: Arc<AppState>) -> Router {
    let bounded = axum::middleware::from_fn_with_state(state.clone(), limits::read_body);
    let api = Router::new()
        .route("/variants", get(api::list_variants))
        .route("/variants/{name}", get(api::get_variant))
        .route("/variants/{name}/rules", get(rules::get_rules))
        .route("/games", post(api::create_game))
        .route("/games/{id}", get(api::get_game).delete(api::delete_game))
        .route("/games/{id}/variant", get(api::game_variant))
        .route("/games/{id}/moves", get(api::legal).post(api::play))
        .route("/games/{id}/undo", post(api::undo))
        .route("/games/{id}/engine", post(api::think))
        .route("/games/{id}/stop", post(api::stop))
        .route("/games/{id}/review", post(review::review_game))
        .route("/games/{id}/events", get(sse::events))
        .route("/games/{id}/pgn", get(api::export_pgn))
        .route("/status", get(api::status))
        .fallback(api::no_such_api)
        .method_not_allowed_fallback(|| async { ApiError::method() });
    Router::new()
        .nest("/api", api)
        .fallback(assets::asset)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(bounded)
        .with_state(state)
}

/// Serves until interrupted (Ctrl-C). Prints the page's address first.
///
/// Errors: the address cannot be bound (port in use), or the runtime
/// cannot start.
pub fn run(args: Args) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(serve(args))
}

async fn serve(args: Args) -> Result<()> {
    // A table too big for this machine is said now, not at the first search.
    kamil_engine::Engine::try_new(kamil_engine::EngineConfig {
        hash_mb: args.hash as usize,
        ..Default::default()
    })
    .context("--hash")?;
    let bounds = Bounds::from(&args);
    let read_timeout = bounds.read_timeout;
    let addr = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on {addr}"))?;
    let local = listener.local_addr()?;
    let url = format!("http://{local}/");
    println!("kamil serve: {url}  (Ctrl-C to stop)");
    if args.open {
        open_browser(&url);
    }
    // Ctrl-C ends at once: an open page's event stream never finishes, so
    // waiting for connections to close would wait for the browser.
    tokio::select! {
        r = accept(listener, app(&bounds), read_timeout) => r?,
        _ = tokio::signal::ctrl_c() => println!("kamil serve: stopped"),
    }
    Ok(())
}

/// Serves each connection on its own task, as HTTP/1.1 with a header read
/// timeout (axum::serve has none: a client that never finished its headers
/// held its connection for ever), hyper's own error answers in JSON.
async fn accept(
    listener: tokio::net::TcpListener,
    app: Router,
    read_timeout: Duration,
) -> Result<()> {
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            // Out of file descriptors and the like: wait, then go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            // A connection that fails (timeout, reset) concerns that client only.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .serve_connection(TokioIo::new(conn::JsonErrors::new(stream)), service)
                .await;
        });
    }
}

/// Opens `url` in the desktop's browser; says so if it cannot.
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(cmd)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("kamil serve: could not open a browser ({cmd}: {e}); open {url} yourself");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn the_default_bounds_are_those_of_kamil_serve_without_options() {
        let cli = Cli::try_parse_from(["serve"]).unwrap();
        assert_eq!(Bounds::from(&cli.args), Bounds::default());
        let cli = Cli::try_parse_from(["serve", "--engines", "3", "--hash", "8"]).unwrap();
        let b = Bounds::from(&cli.args);
        assert_eq!((b.engines, b.hash_mb), (3, 8));
    }
}
