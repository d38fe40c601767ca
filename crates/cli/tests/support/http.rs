//! A small HTTP/1.1 client and a `kamil serve` launcher for the server's
//! tests and its load test (`examples/load_serve.rs`): plain `std` sockets,
//! one connection per request, JSON bodies.

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `kamil serve` process on a free loopback port; killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `bin serve --port 0` with `extra` arguments and reads the
    /// address it prints.
    pub fn start(bin: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(bin)
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start kamil serve");
        let mut line = String::new();
        let out = child.stdout.take().expect("piped stdout");
        BufReader::new(out)
            .read_line(&mut line)
            .expect("read the address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .expect("an address");
        Server { child, addr }
    }

    /// Is the process still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status code and body text.
#[derive(Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (de-chunked).
    pub body: String,
}

impl Response {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Sends a request with a raw body and content type; reads the whole response.
pub fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
    content_type: &str,
) -> std::io::Result<Response> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(120)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!(
            "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes)?;
    parse(&bytes)
}

/// Sends `bytes` on a new connection (a request cut short, say) and keeps
/// it open, reading until the server answers and closes, or until `wait`
/// has passed. Returns the answer, if the server gave one, and when the
/// reading ended.
pub fn stalled(
    addr: SocketAddr,
    bytes: &[u8],
    wait: Duration,
) -> std::io::Result<(Option<Response>, Duration)> {
    let started = std::time::Instant::now();
    let mut s = TcpStream::connect(addr)?;
    s.write_all(bytes)?;
    s.flush()?;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while started.elapsed() < wait {
        s.set_read_timeout(Some(Duration::from_millis(200)))?;
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                // A whole answer is enough: the server need not close.
                if let Ok(r) = parse(&got)
                    && complete(&r)
                {
                    break;
                }
            }
            // Reset by the server: it closed the connection.
            Err(_) => break,
        }
    }
    let elapsed = started.elapsed();
    Ok((parse(&got).ok(), elapsed))
}

/// Has the response all the body its `content-length` announces?
fn complete(r: &Response) -> bool {
    r.headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .is_some_and(|n| r.body.len() >= n)
}

fn parse(bytes: &[u8]) -> std::io::Result<Response> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers"))?;
    let head = String::from_utf8_lossy(&bytes[..end]);
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = bytes[end + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        while let Some(nl) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..nl]).trim(), 16)
                .map_err(|_| bad("bad chunk size"))?;
            if size == 0 || rest.len() < nl + 2 + size {
                break;
            }
            out.extend_from_slice(&rest[nl + 2..nl + 2 + size]);
            rest = &rest[(nl + 4 + size).min(rest.len())..];
        }
        body = out;
    }
    Ok(Response {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// A request with an optional JSON body.
pub fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Response {
    let text = body.map(|b| b.to_string()).unwrap_or_default();
    raw(addr, method, path, text.as_bytes(), "application/json")
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    call(addr, "GET", path, None)
}

/// `POST path` with a JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &Value) -> Response {
    call(addr, "POST", path, Some(body))
}
