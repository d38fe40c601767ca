//! A connection whose answers hyper writes itself get the API's JSON
//! `error` body too. hyper answers a request it cannot parse (a URI over
//! 64 KB: 414; headers too large: 431; not HTTP/1.1: 400) before the
//! router sees it, with a head and an empty body; this adapter, under
//! hyper, gives such a head a body.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A stream (a TCP connection) whose hyper-written error answers get a
/// JSON body; everything else passes as it is.
pub struct JsonErrors<S> {
    inner: S,
    /// A rewritten answer not yet all written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
}

impl<S> JsonErrors<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> JsonErrors<S> {
        JsonErrors {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// The message of an error answer hyper writes, by status.
fn message(status: &[u8]) -> Option<&'static str> {
    Some(match status {
        b"400" => "the request could not be read as HTTP/1.1",
        b"414" => "the request's path and query are too long (the limit is 65534 bytes)",
        b"431" => "the request's headers are too large",
        _ => return None,
    })
}

/// `head` with a JSON body, if it is one of hyper's own error answers: a
/// whole head of status 400, 414 or 431 with `content-length: 0` and no
/// content type (each of the router's answers has one).
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let rest = head.strip_prefix(b"HTTP/1.1 ")?;
    let msg = message(rest.get(..3)?)?;
    if !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let lower = head.to_ascii_lowercase();
    let has = |h: &[u8]| lower.windows(h.len()).any(|w| w == h);
    if !has(b"\r\ncontent-length: 0\r\n") || has(b"\r\ncontent-type:") {
        return None;
    }
    let body = serde_json::json!({ "error": msg }).to_string();
    let end = head.len() - 2;
    let mut out = Vec::with_capacity(head.len() + body.len() + 64);
    for line in head[..end].split(|&b| b == b'\n') {
        if line.to_ascii_lowercase().starts_with(b"content-length:") || line.is_empty() {
            continue;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.extend_from_slice(b"content-type: application/json\r\n");
    out.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body.as_bytes());
    Some(out)
}

impl<S: AsyncWrite + Unpin> JsonErrors<S> {
    /// Writes what is pending of a rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(answer) = rewrite(buf) {
            this.pending = answer;
            // Taken whole; poll_flush writes what this does not.
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_own_error_heads_get_a_body() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(rewrite(head).unwrap()).unwrap();
        let (h, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(h.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{out}");
        assert!(h.contains("\r\ndate: x") && h.contains("content-type: application/json"));
        assert!(
            h.contains(&format!("content-length: {}", body.len())),
            "{out}"
        );
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("too long"));
        // The router's answers have a type; 404s and 200s are not hyper's.
        let json = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert!(rewrite(json).is_none());
        assert!(rewrite(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n").is_none());
    }
}
