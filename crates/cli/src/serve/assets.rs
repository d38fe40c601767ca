//! The page's static files, embedded in the binary from the workspace's
//! `web/` folder (plain ES modules, SVG and CSS: no build step).

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// (path, content type, text) of every file the page needs.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("../../../../web/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../../../web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/app.js"),
    ),
    (
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/api.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/board.js"),
    ),
    (
        "/pieces.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/pieces.js"),
    ),
    (
        "/help.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/help.js"),
    ),
    (
        "/rules.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/rules.js"),
    ),
    (
        "/link.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/link.js"),
    ),
    (
        "/review.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/review.js"),
    ),
    (
        "/graph.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../../web/graph.js"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("../../../../web/favicon.svg"),
    ),
];

/// Serves an embedded file (`/` is `index.html`), or 404. A path under
/// `/api/` that reaches here (`/api/` itself: the API's router does not
/// take it) gets the API's JSON 404, as every other API path does.
pub async fn asset(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return super::api::no_such_api().await.into_response();
    }
    let path = match uri.path() {
        "/" => "/index.html",
        "/favicon.ico" => "/favicon.svg",
        p => p,
    };
    match ASSETS.iter().find(|(p, _, _)| *p == path) {
        Some((_, kind, text)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *text,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
