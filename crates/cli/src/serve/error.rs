//! Why a request failed: every handler's error, a 4xx (or 5xx) status
//! with `{"error": "..."}` naming what was wrong.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A request that failed: the status and a message for the client.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (4xx, or 5xx when the server is at fault or at a bound).
    pub(super) status: StatusCode,
    /// What was wrong, sent as `{"error": message}`.
    pub(super) message: String,
}

impl ApiError {
    /// 400: the request asks for something impossible.
    pub fn bad(message: String) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message,
        }
    }

    /// 404: no such thing.
    pub fn not_found(message: String) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message,
        }
    }

    /// 409: not now (a search runs, the game is over).
    pub fn conflict(message: String) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message,
        }
    }

    /// 503: the server is at one of its bounds.
    pub fn unavailable(message: String) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message,
        }
    }

    /// 408: the request did not arrive in time.
    pub fn timeout(message: String) -> ApiError {
        ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message,
        }
    }

    /// 413: the request is larger than the server takes.
    pub fn too_large(message: String) -> ApiError {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message,
        }
    }

    /// 405: the path exists, the method does not.
    pub fn method() -> ApiError {
        ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: "method not allowed on this path".into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<kamil_page::PageError> for ApiError {
    fn from(e: kamil_page::PageError) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            message: e.message,
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError {
            status: r.status(),
            message: bounded(r.body_text()),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError {
            status: r.status(),
            message: bounded(r.body_text()),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> ApiError {
        ApiError {
            status: r.status(),
            message: bounded(r.body_text()),
        }
    }
}

/// Longest message of a rejection, in characters.
const MAX_REJECTION: usize = 400;

/// A rejection's message, cut after [`MAX_REJECTION`] characters: serde
/// quotes what it could not read (an unknown field, a string where a
/// number belongs) whole, and that may be most of a 1 MB body.
fn bounded(message: String) -> String {
    let n = message.chars().count();
    if n <= MAX_REJECTION {
        return message;
    }
    let head: String = message.chars().take(MAX_REJECTION - 100).collect();
    format!("{head}… ({n} characters)")
}
