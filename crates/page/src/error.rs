//! Why a request failed: a status (as HTTP's) and a message for the user.

use std::fmt;

/// A request that failed: the HTTP status the server answers and what
/// was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageError {
    /// 400, 404, 409, 500 or 503.
    pub status: u16,
    /// What was wrong, sent as `{"error": message}`.
    pub message: String,
}

impl PageError {
    /// 400: the request asks for something impossible.
    pub fn bad(message: String) -> PageError {
        PageError {
            status: 400,
            message,
        }
    }

    /// 404: no such thing.
    pub fn not_found(message: String) -> PageError {
        PageError {
            status: 404,
            message,
        }
    }

    /// 409: not now (a search runs, the game is over).
    pub fn conflict(message: String) -> PageError {
        PageError {
            status: 409,
            message,
        }
    }

    /// 500: the back end itself went wrong (not the request).
    pub fn internal(message: String) -> PageError {
        PageError {
            status: 500,
            message,
        }
    }

    /// 503: at one of the back end's bounds.
    pub fn unavailable(message: String) -> PageError {
        PageError {
            status: 503,
            message,
        }
    }
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PageError {}
