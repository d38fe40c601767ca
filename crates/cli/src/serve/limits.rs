//! How much a request may send and how long it may take to arrive: the
//! body limit ([`MAX_BODY`]) and the read timeout (`--read-timeout`).
//! The headers must arrive within the timeout (hyper's header read
//! timeout, see `serve`), then the whole body within it again; a body
//! that declares more than the limit is refused before any of it is read.

use super::error::ApiError;
use super::state::AppState;
use axum::body::{Body, BodyDataStream, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{CONNECTION, CONTENT_LENGTH};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;
use tokio_stream::StreamExt;

/// Largest request body, bytes (a long PGN is a few tens of KB).
pub const MAX_BODY: usize = 1 << 20;

/// Most bytes of a refused body read and dropped after the 413, so that a
/// client that sends its body anyway (as most do) reads the answer rather
/// than a reset connection.
const DRAIN_MAX: u64 = 16 << 20;

/// Reads the whole body of every request before its handler runs, so that
/// no handler waits on a slow client: 413 at once for a declared length
/// above [`MAX_BODY`] (or as soon as a body without one exceeds it), 408
/// when the body has not arrived within the read timeout.
pub async fn read_body(State(app): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let (parts, body) = req.into_parts();
    let mut stream = body.into_data_stream();
    if let Some(n) = declared
        && n > MAX_BODY as u64
    {
        return refuse(stream, app.read_timeout, too_large(Some(n)));
    }
    let mut buf = Vec::new();
    match tokio::time::timeout(app.read_timeout, collect(&mut stream, &mut buf)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.status == StatusCode::PAYLOAD_TOO_LARGE => {
            return refuse(stream, app.read_timeout, e);
        }
        Ok(Err(e)) => return e.into_response(),
        Err(_) => {
            return ApiError::timeout(format!(
                "the request body did not arrive within {} s",
                app.read_timeout.as_secs_f64()
            ))
            .into_response();
        }
    }
    next.run(Request::from_parts(parts, Body::from(Bytes::from(buf))))
        .await
}

/// Appends the body's bytes to `buf`, at most [`MAX_BODY`] of them.
async fn collect(stream: &mut BodyDataStream, buf: &mut Vec<u8>) -> Result<(), ApiError> {
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad(format!("reading the request body: {e}")))?;
        if buf.len() + chunk.len() > MAX_BODY {
            return Err(too_large(None));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(())
}

/// Answers `error` now and closes the connection after it; meanwhile the
/// rest of the body is read and dropped for at most `timeout` and
/// [`DRAIN_MAX`] bytes.
fn refuse(mut stream: BodyDataStream, timeout: Duration, error: ApiError) -> Response {
    tokio::spawn(async move {
        let drain = async {
            let mut read = 0u64;
            while let Some(Ok(chunk)) = stream.next().await {
                read += chunk.len() as u64;
                if read > DRAIN_MAX {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(timeout, drain).await;
    });
    let mut r = error.into_response();
    r.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    r
}

/// 413 for a body that declares `declared` bytes, or that sent more than
/// the limit without declaring its length.
fn too_large(declared: Option<u64>) -> ApiError {
    ApiError::too_large(match declared {
        Some(n) => format!("the request body declares {n} bytes; the limit is {MAX_BODY}"),
        None => format!("the request body is longer than the limit of {MAX_BODY} bytes"),
    })
}
