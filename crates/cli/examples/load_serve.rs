//! Load test of `kamil serve`, run by hand (`scripts/load-serve`): N
//! clients in this process play N games at once against a server in
//! another process for S seconds, each checking after every request that
//! its game holds exactly its own moves; every K-th move is the engine's
//! (a small node budget). Prints requests per second and latencies.
//!
//! ```sh
//! cargo run --release --example load_serve -- 127.0.0.1:8080 --games 20 --seconds 60
//! ```

#[path = "../tests/support/http.rs"]
mod http;

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const VARIANTS: [&str; 6] = [
    "courier",
    "courier-modern",
    "courier-albers",
    "sho-shogi",
    "chu-shogi",
    "dai-shogi",
];

struct Opts {
    addr: SocketAddr,
    games: usize,
    seconds: u64,
    engine_every: usize,
}

fn opts() -> Result<Opts, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Opts {
        addr: "127.0.0.1:8080".parse().expect("an address"),
        games: 20,
        seconds: 60,
        engine_every: 10,
    };
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number"))
        };
        match a.as_str() {
            "--games" => o.games = num("--games")? as usize,
            "--seconds" => o.seconds = num("--seconds")?,
            "--engine-every" => o.engine_every = num("--engine-every")? as usize,
            s if !s.starts_with('-') => {
                o.addr = s.parse().map_err(|_| format!("`{s}` is not HOST:PORT"))?;
            }
            s => return Err(format!("unknown argument `{s}`")),
        }
    }
    Ok(o)
}

/// What one client saw.
#[derive(Default)]
struct Tally {
    requests: u64,
    errors: Vec<String>,
    latencies_us: Vec<u64>,
    moves: u64,
    engine_moves: u64,
    games: u64,
}

fn texts(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["text"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn client(o: &Opts, n: usize, stop: &AtomicBool) -> Tally {
    let mut t = Tally::default();
    let mut seed = n as u64 * 0x9E37_79B9 + 1;
    let mut rand = |k: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % k.max(1) as u64) as usize
    };
    let variant = VARIANTS[n % VARIANTS.len()];
    let timed = |t: &mut Tally, method: &str, path: &str, body: Option<&Value>| {
        let start = Instant::now();
        let text = body.map(|b| b.to_string()).unwrap_or_default();
        let r = http::raw(o.addr, method, path, text.as_bytes(), "application/json");
        t.latencies_us.push(start.elapsed().as_micros() as u64);
        t.requests += 1;
        match r {
            Ok(r) if r.status < 300 => Some(r.json()),
            Ok(r) => {
                t.errors
                    .push(format!("{method} {path}: {} {}", r.status, r.body));
                None
            }
            Err(e) => {
                t.errors.push(format!("{method} {path}: {e}"));
                None
            }
        }
    };
    'games: while !stop.load(Ordering::Relaxed) {
        let Some(mut g) = timed(
            &mut t,
            "POST",
            "/api/games",
            Some(&json!({"variant": variant})),
        ) else {
            break;
        };
        t.games += 1;
        let id = g["id"].as_str().unwrap_or_default().to_string();
        let mut mine: Vec<String> = Vec::new();
        while !stop.load(Ordering::Relaxed) && mine.len() < 80 {
            let legal = g["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                break;
            }
            let engine = o.engine_every > 0 && (mine.len() + 1).is_multiple_of(o.engine_every);
            let next = if engine {
                let r = timed(
                    &mut t,
                    "POST",
                    &format!("/api/games/{id}/engine"),
                    Some(&json!({"nodes": 3000})),
                );
                r.map(|r| {
                    t.engine_moves += 1;
                    mine.push(r["best"].as_str().unwrap_or_default().to_string());
                    r["game"].clone()
                })
            } else {
                let m = legal[rand(legal.len())]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                mine.push(m.clone());
                timed(
                    &mut t,
                    "POST",
                    &format!("/api/games/{id}/moves"),
                    Some(&json!({"move": m})),
                )
            };
            let Some(next) = next else { break 'games };
            t.moves += 1;
            if next["id"] != g["id"] || next["variant"] != variant || texts(&next) != mine {
                t.errors
                    .push(format!("game {id} ({variant}) does not hold its own moves"));
                break 'games;
            }
            g = next;
        }
        timed(&mut t, "DELETE", &format!("/api/games/{id}"), None);
    }
    t
}

fn main() {
    let o = match opts() {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "load_serve: {e}\nusage: load_serve HOST:PORT [--games N] [--seconds S] [--engine-every K]"
            );
            std::process::exit(2);
        }
    };
    let o = Arc::new(o);
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let workers: Vec<_> = (0..o.games)
        .map(|n| {
            let (o, stop) = (o.clone(), stop.clone());
            std::thread::spawn(move || client(&o, n, &stop))
        })
        .collect();
    std::thread::sleep(Duration::from_secs(o.seconds));
    stop.store(true, Ordering::Relaxed);
    let tallies: Vec<Tally> = workers
        .into_iter()
        .map(|w| w.join().unwrap_or_default())
        .collect();
    let secs = start.elapsed().as_secs_f64();
    let requests: u64 = tallies.iter().map(|t| t.requests).sum();
    let mut lat: Vec<u64> = tallies
        .iter()
        .flat_map(|t| t.latencies_us.iter().copied())
        .collect();
    lat.sort_unstable();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    let errors: Vec<&String> = tallies.iter().flat_map(|t| t.errors.iter()).collect();
    println!(
        "clients {} time {:.1} s games {} moves {} (engine {}) requests {} errors {}",
        o.games,
        secs,
        tallies.iter().map(|t| t.games).sum::<u64>(),
        tallies.iter().map(|t| t.moves).sum::<u64>(),
        tallies.iter().map(|t| t.engine_moves).sum::<u64>(),
        requests,
        errors.len()
    );
    println!(
        "requests/s {:.0} latency ms p50 {:.1} p90 {:.1} p99 {:.1} max {:.1}",
        requests as f64 / secs,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    for e in errors.iter().take(10) {
        eprintln!("error: {e}");
    }
    if !errors.is_empty() {
        std::process::exit(1);
    }
}
