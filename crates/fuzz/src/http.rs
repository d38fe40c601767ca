//! The target of `kamil serve`'s JSON API, driven in-process (no socket):
//! a game created from a fuzzed body, then fuzzed requests on it.

use crate::{MAX_INPUT, MAX_REQUESTS};
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use kamil_cli::serve::{Bounds, app};
use kamil_rules::variant::BUILTIN;
use serde_json::Value;
use std::time::Duration;
use tower::ServiceExt;

/// The server's bounds: few games, one engine with a 1 MB table, and every
/// search ended after 5 ms (whatever the request asks), so that no input
/// takes long.
fn bounds() -> Bounds {
    Bounds {
        max_games: 4,
        engines: 1,
        max_movetime_ms: 5,
        hash_mb: 1,
        read_timeout: Duration::from_secs(5),
    }
}

/// Most bytes of a response body read.
const MAX_RESPONSE: usize = 16 << 20;

/// Target `http`: the bytes are parts separated by zero bytes (at most
/// [`MAX_REQUESTS`] of the first [`MAX_INPUT`] bytes). The first part is
/// the body of `POST /api/games`; when it creates no game, a game of the
/// built-in variant chosen by its first byte is created from a valid body.
/// Each later part's first byte chooses a request on that game (play a
/// move, undo, engine search, read the game at a ply, legal moves, PGN,
/// stop, delete, another game, a fuzzed API path, a review, Chu Shogi's
/// rules with a fuzzed query, or a path with its own percent escapes) and
/// the rest is its body, query or path.
///
/// Holds for every response: no panic, no 5xx status (the server is never
/// at fault, and with one request at a time no bound is reached), a body
/// that is JSON (but for 204), with a non-empty `error` string for a 4xx;
/// a created game has an `id`.
pub fn http(data: &[u8]) {
    let data = &data[..data.len().min(MAX_INPUT)];
    let mut parts = data.split(|&b| b == 0).take(MAX_REQUESTS);
    let first = parts.next().unwrap_or_default();
    let rest: Vec<&[u8]> = parts.collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime starts");
    runtime.block_on(async {
        let app = app(&bounds());
        let created = call(&app, Method::POST, "/api/games", first).await;
        let id = match created.get("id").and_then(Value::as_str) {
            Some(id) => id.to_string(),
            None => {
                let name = BUILTIN[first.first().copied().unwrap_or(0) as usize % BUILTIN.len()].0;
                let body = serde_json::json!({ "variant": name }).to_string();
                let game = call(&app, Method::POST, "/api/games", body.as_bytes()).await;
                game.get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| panic!("a valid new game of {name} was refused: {game}"))
                    .to_string()
            }
        };
        for part in rest {
            let Some((&which, body)) = part.split_first() else {
                continue;
            };
            let game = format!("/api/games/{id}");
            // Another game may evict this one, and delete ends it: the
            // requests after that get 404.
            let (method, path, body) = match which % 13 {
                0..=2 => (Method::POST, format!("{game}/moves"), body),
                3 => (Method::POST, format!("{game}/undo"), body),
                4 | 5 => (Method::POST, format!("{game}/engine"), body),
                6 => (Method::GET, format!("{game}?{}", encode(body)), &[][..]),
                7 => (Method::GET, format!("{game}/moves"), &[][..]),
                8 => (Method::GET, format!("{game}/pgn"), &[][..]),
                9 => (Method::POST, format!("{game}/stop"), &[][..]),
                10 => (Method::POST, "/api/games".to_string(), body),
                11 => (Method::DELETE, game, &[][..]),
                // 12 was the only path case; its later bytes add three.
                _ => match which / 13 % 4 {
                    1 => (Method::POST, format!("{game}/review"), body),
                    2 => (
                        Method::GET,
                        format!("/api/variants/chu-shogi/rules?{}", encode(body)),
                        &[][..],
                    ),
                    3 => (Method::POST, format!("/api/{}", escaped(body)), &[][..]),
                    _ => (Method::GET, format!("/api/{}", encode(body)), &[][..]),
                },
            };
            call(&app, method, &path, body).await;
        }
        let _ = call(&app, Method::DELETE, &format!("/api/games/{id}"), &[]).await;
    });
}

/// `bytes` as a path with its own percent escapes (`games/%FF%FE/review`)
/// where they make a URI, else [`encode`]d.
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~=&%/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if format!("/api/{out}").parse::<axum::http::Uri>().is_ok() {
        out
    } else {
        encode(bytes)
    }
}

/// Sends one request to `app` and checks its response (see [`http`]);
/// returns its JSON body (`null` for none).
async fn call(app: &Router, method: Method, path: &str, body: &[u8]) -> Value {
    let request = Request::builder()
        .method(method.clone())
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_vec()))
        .unwrap_or_else(|e| panic!("the harness built a bad request {method} {path}: {e}"));
    let response = app
        .clone()
        .oneshot(request)
        .await
        .unwrap_or_else(|e| match e {});
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), MAX_RESPONSE)
        .await
        .unwrap_or_else(|e| panic!("{method} {path}: the response body does not read: {e}"));
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(500)]).into_owned();
    assert!(
        !status.is_server_error(),
        "{method} {path} with body {:?}: status {status}: {shown}",
        String::from_utf8_lossy(body)
    );
    if status == StatusCode::NO_CONTENT {
        assert!(
            bytes.is_empty(),
            "{method} {path}: 204 with a body: {shown}"
        );
        return Value::Null;
    }
    let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!("{method} {path}: status {status}, a body that is not JSON ({e}): {shown}")
    });
    if status.is_client_error() {
        assert!(
            v.get("error")
                .and_then(Value::as_str)
                .is_some_and(|m| !m.is_empty()),
            "{method} {path}: status {status} without an error message: {shown}"
        );
    }
    if status == StatusCode::CREATED {
        assert!(
            v.get("id").and_then(Value::as_str).is_some(),
            "{method} {path}: a created game without an id: {shown}"
        );
    }
    v
}

/// `bytes` percent-encoded for a URI's path or query (unreserved bytes,
/// `=` and `&` kept).
fn encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~=&".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
