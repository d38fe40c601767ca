//! `kamil serve`'s JSON API against a real server on a free loopback port:
//! games played, the engine's moves and analysis stream, stop, the bounds
//! on games and search time, and bad input (each a 4xx with a message,
//! after which the server keeps serving). A short load test plays 20 games
//! at once and checks that none is mixed with another.

#[path = "support/http.rs"]
mod http;

use http::{Server, call, get, post, raw, stalled};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn server(extra: &[&str]) -> Server {
    Server::start(env!("CARGO_BIN_EXE_kamil"), extra)
}

fn new_game(addr: SocketAddr, body: Value) -> Value {
    let r = post(addr, "/api/games", &body);
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

fn texts(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().expect("text").to_string())
        .collect()
}

/// Expects a 4xx with a JSON `error` message; returns the message.
fn client_error(r: &http::Response, status: u16) -> String {
    assert_eq!(r.status, status, "{}", r.body);
    let msg = r.json()["error"].as_str().unwrap_or_default().to_string();
    assert!(!msg.is_empty(), "no message in {:?}", r.body);
    msg
}

#[test]
fn variants_are_listed_with_their_options_and_pieces() {
    let s = server(&[]);
    let list = get(s.addr, "/api/variants").json();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for n in ["courier", "sho-shogi", "chu-shogi", "dai-shogi"] {
        assert!(names.contains(&n), "{names:?}");
    }
    let chu = list
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "chu-shogi")
        .unwrap();
    assert!(
        chu["options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["name"] == "lion-trading")
    );
    assert_eq!(chu["side_names"][0], "Black (Sente)");
    // Issue 48: each level below full strength with its Elo, level 0 at
    // the scale's floor, rising with the level.
    let elo: Vec<i64> = chu["level_elo"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_i64().unwrap())
        .collect();
    assert_eq!(elo.len(), 20, "{elo:?}");
    assert_eq!(elo[0], 1000);
    assert!(elo.windows(2).all(|w| w[0] <= w[1]), "{elo:?}");

    let v = get(s.addr, "/api/variants/chu-shogi").json();
    assert_eq!(
        (v["files"].as_u64(), v["ranks"].as_u64()),
        (Some(12), Some(12))
    );
    assert_eq!(v["squares"].as_array().unwrap().len(), 144);
    assert_eq!(v["style"], "shogi");
    let piece = |key: &str| {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["key"] == key)
            .unwrap_or_else(|| panic!("no {key}"))
            .clone()
    };
    let lion = piece("lion");
    assert_eq!(lion["kanji"], "獅子");
    assert_eq!(lion["id"], "Ln");
    // From the middle of an empty board the Lion reaches every square
    // within two steps (rules/chu-shogi.md 6.1): 5 x 5 less its own.
    assert_eq!(lion["help"][0]["moves"].as_array().unwrap().len(), 24);
    // A Pawn steps straight ahead: up for Black, down for White.
    let pawn = piece("pawn");
    assert_eq!(pawn["help"][0]["from"], "f6");
    assert_eq!(pawn["help"][0]["moves"], json!(["f7"]));
    assert_eq!(pawn["help"][1]["moves"], json!(["f5"]));
    assert!(piece("tokin")["promoted"].as_bool().unwrap());
    assert_eq!(piece("tokin")["kanji"], "と金");
    // Chess games have no kanji; the ID is the letter.
    let courier = get(s.addr, "/api/variants/courier").json();
    assert_eq!(courier["style"], "chess");
    assert!(
        courier["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["kanji"] == "")
    );
}

#[test]
fn a_game_is_played_taken_back_and_exported() {
    let s = server(&[]);
    let g = new_game(s.addr, json!({"variant": "chu-shogi"}));
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["plies"], 0);
    assert_eq!(g["board"].as_array().unwrap().len(), 92);
    assert_eq!(g["variant_info"]["name"], "chu-shogi");
    let legal = get(s.addr, &format!("/api/games/{id}/moves")).json();
    assert!(
        legal
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"] == "f3f5")
    );

    let g = post(
        s.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"move": "f3f5"}),
    )
    .json();
    assert_eq!(texts(&g), ["f3f5"]);
    assert_eq!(g["side_to_move"], 1);
    assert_eq!(g["last_move"]["squares"], json!(["f3", "f5"]));
    let g = post(
        s.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"move": "a9a8"}),
    )
    .json();
    // The Lion may pass through any empty neighbour: the page offers each.
    let pass = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["from"] == "f5" && m["to"] == "f5")
        .expect("a pass")
        .clone();
    let vias: Vec<&str> = pass["vias"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for sq in ["e5", "g5", "e6", "f6", "g6"] {
        assert!(vias.contains(&sq), "{vias:?}");
    }
    assert!(!vias.contains(&"f4"), "own Pawn on f4: {vias:?}");
    let g = post(
        s.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"move": "f5f6f5"}),
    )
    .json();
    assert_eq!(texts(&g).len(), 3);

    // An earlier ply, then a different move from it: the rest is dropped.
    let at1 = get(s.addr, &format!("/api/games/{id}?ply=1")).json();
    assert_eq!(at1["ply"], 1);
    assert_eq!(at1["plies"], 3);
    assert_eq!(
        at1["legal"],
        json!([]),
        "moves are listed at the latest ply only"
    );
    let g = post(
        s.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"move": "l9l8", "ply": 1}),
    )
    .json();
    assert_eq!(texts(&g), ["f3f5", "l9l8"]);
    let g = post(s.addr, &format!("/api/games/{id}/undo"), &json!({})).json();
    assert_eq!(texts(&g), ["f3f5"]);

    let pgn = get(s.addr, &format!("/api/games/{id}/pgn")).json()["pgn"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(pgn.contains("[Variant \"chu-shogi\"]"), "{pgn}");
    let again = new_game(s.addr, json!({"pgn": pgn}));
    assert_eq!(texts(&again), ["f3f5"]);
    assert_eq!(again["fen"], g["fen"]);

    // From a FEN, with options.
    let fen = g["fen"].as_str().unwrap();
    let h = new_game(
        s.addr,
        json!({"variant": "chu-shogi", "fen": fen, "options": {"lion-trading": "seed"}}),
    );
    assert_eq!(h["fen"], fen);
    assert_eq!(h["variant_info"]["chosen"]["lion-trading"], "seed");
    let r = call(s.addr, "DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(r.status, 204);
    client_error(&get(s.addr, &format!("/api/games/{id}")), 404);
}

#[test]
fn the_result_is_given_with_its_reason() {
    let s = server(&[]);
    // Chu: capturing the last royal wins (rules/chu-shogi.md 2).
    let fen = "12/12/12/12/12/12/5k6/5G6/12/12/12/5K6 b";
    let g = new_game(s.addr, json!({"variant": "chu-shogi", "fen": fen}));
    let id = g["id"].as_str().unwrap();
    let g = post(
        s.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"move": "f5f6"}),
    )
    .json();
    assert_eq!(g["outcome"]["result"], "1-0", "{g}");
    assert_eq!(g["outcome"]["winner"], 0);
    assert!(!g["outcome"]["reason"].as_str().unwrap().is_empty());
    assert_eq!(g["legal"], json!([]));
    let msg = client_error(
        &post(
            s.addr,
            &format!("/api/games/{id}/moves"),
            &json!({"move": "f1f2"}),
        ),
        409,
    );
    assert!(msg.contains("over"), "{msg}");
    client_error(
        &post(s.addr, &format!("/api/games/{id}/engine"), &json!({})),
        409,
    );
}

/// Reads server-sent events from `path` until `until` (an event name) or
/// the deadline; returns the event names seen.
fn watch(
    addr: SocketAddr,
    path: &str,
    until: &str,
) -> std::thread::JoinHandle<Vec<(String, String)>> {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let until = until.to_string();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut name = String::new();
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { break };
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                seen.push((name.clone(), d.to_string()));
                if name == until {
                    break;
                }
            }
        }
        seen
    })
}

#[test]
fn the_engine_plays_and_its_analysis_streams() {
    let s = server(&["--engines", "1"]);
    let g = new_game(s.addr, json!({"variant": "courier"}));
    let id = g["id"].as_str().unwrap();
    let events = watch(s.addr, &format!("/api/games/{id}/events"), "bestmove");
    std::thread::sleep(Duration::from_millis(200));
    let r = post(
        s.addr,
        &format!("/api/games/{id}/engine"),
        &json!({"depth": 4}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(r["played"], true);
    assert_eq!(r["depth"], 4);
    let best = r["best"].as_str().unwrap();
    assert_eq!(texts(&r["game"]), [best]);
    assert_eq!(r["pv"][0], best);
    let seen = events.join().unwrap();
    let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names[0], "state", "{names:?}");
    let infos: Vec<Value> = seen
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, d)| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(infos.len(), 4, "one info per iteration: {names:?}");
    assert!(
        infos
            .iter()
            .all(|i| i["pv"].as_array().is_some_and(|pv| !pv.is_empty()))
    );
    assert_eq!(infos[3]["depth"], 4);
    assert!(names.contains(&"bestmove"), "{names:?}");

    // Analysis only: the game does not change.
    let r = post(
        s.addr,
        &format!("/api/games/{id}/engine"),
        &json!({"nodes": 2000, "play": false}),
    )
    .json();
    assert_eq!(r["played"], false);
    assert_eq!(texts(&r["game"]).len(), 1);
}

/// Issue 48: a level below 20 searches one ply at level 0 and plays a
/// legal move; the shared engine is back at full strength for the next
/// request; a level over 20 is a 400 naming it.
#[test]
fn the_engine_plays_at_a_level_and_a_bad_level_is_refused() {
    let s = server(&["--engines", "1"]);
    let g = new_game(s.addr, json!({"variant": "courier"}));
    let id = g["id"].as_str().unwrap();
    let path = format!("/api/games/{id}/engine");
    let r = post(s.addr, &path, &json!({"depth": 5, "skill": 0}));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(r["played"], true);
    assert_eq!(r["depth"], 1);
    let r = post(s.addr, &path, &json!({"depth": 3})).json();
    assert_eq!(r["depth"], 3, "the level stayed on the shared engine");
    let m = client_error(&post(s.addr, &path, &json!({"skill": 21})), 400);
    assert!(m.contains("skill 21"), "{m}");
}

#[test]
fn stop_ends_a_search_and_search_time_is_bounded() {
    let s = server(&["--max-movetime", "60000"]);
    let g = new_game(s.addr, json!({"variant": "chu-shogi"}));
    let id = g["id"].as_str().unwrap().to_string();
    let addr = s.addr;
    let path = format!("/api/games/{id}/engine");
    let search = std::thread::spawn(move || post(addr, &path, &json!({"movetime_ms": 50_000})));
    // Once it runs, a second search of the same game and a move are refused.
    let started = Instant::now();
    while get(s.addr, &format!("/api/games/{id}")).json()["searching"] != true {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the search never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    client_error(
        &post(s.addr, &format!("/api/games/{id}/engine"), &json!({})),
        409,
    );
    client_error(
        &post(
            s.addr,
            &format!("/api/games/{id}/moves"),
            &json!({"move": "f3f5"}),
        ),
        409,
    );
    std::thread::sleep(Duration::from_millis(300));
    let r = post(s.addr, &format!("/api/games/{id}/stop"), &json!({})).json();
    assert_eq!(r["stopped"], true);
    let r = search.join().unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(
        r["played"], true,
        "stopped, the engine plays its best so far"
    );
    assert!(r["time_ms"].as_u64().unwrap() < 50_000, "{r}");
    drop(s);

    // The server's bound wins over what a request asks.
    let s = server(&["--max-movetime", "200"]);
    let g = new_game(s.addr, json!({"variant": "chu-shogi"}));
    let id = g["id"].as_str().unwrap();
    let r = post(
        s.addr,
        &format!("/api/games/{id}/engine"),
        &json!({"movetime_ms": 600_000, "play": false}),
    )
    .json();
    assert!(r["time_ms"].as_u64().unwrap() < 60_000, "{r}");
    let r = post(
        s.addr,
        &format!("/api/games/{id}/engine"),
        &json!({"depth": 60, "play": false}),
    )
    .json();
    assert!(r["depth"].as_u64().unwrap() < 60, "{r}");
}

#[test]
fn the_number_of_games_is_bounded() {
    let s = server(&["--max-games", "3"]);
    let ids: Vec<String> = (0..5)
        .map(|_| {
            new_game(s.addr, json!({"variant": "courier"}))["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let st = get(s.addr, "/api/status").json();
    assert_eq!(st["games"], 3);
    assert_eq!(st["max_games"], 3);
    // The least recently used made room.
    client_error(&get(s.addr, &format!("/api/games/{}", ids[0])), 404);
    client_error(&get(s.addr, &format!("/api/games/{}", ids[1])), 404);
    for id in &ids[2..] {
        assert_eq!(get(s.addr, &format!("/api/games/{id}")).status, 200);
    }
}

#[test]
fn bad_requests_get_a_4xx_with_a_message_and_the_server_keeps_serving() {
    let mut s = server(&[]);
    let a = s.addr;
    let g = new_game(a, json!({"variant": "courier"}));
    let id = g["id"].as_str().unwrap().to_string();
    let games = |p: &str| format!("/api/games/{id}{p}");

    let m = client_error(
        &post(a, "/api/games", &json!({"variant": "no-such-game"})),
        400,
    );
    assert!(
        m.contains("no such variant") && m.contains("chu-shogi"),
        "{m}"
    );
    let m = client_error(
        &post(
            a,
            "/api/games",
            &json!({"variant": "courier", "fen": "rnb/zz w"}),
        ),
        400,
    );
    assert!(m.contains("FEN"), "{m}");
    client_error(
        &post(
            a,
            "/api/games",
            &json!({"variant": "courier", "options": {"no-such": "x"}}),
        ),
        400,
    );
    client_error(
        &post(
            a,
            "/api/games",
            &json!({"variant": "courier", "options": {"courier-opening": [1]}}),
        ),
        400,
    );
    client_error(
        &post(
            a,
            "/api/games",
            &json!({"variant": "courier", "moves": ["a1a8"]}),
        ),
        400,
    );
    client_error(
        &post(a, "/api/games", &json!({"pgn": "1. e2e4 {never closed"})),
        400,
    );
    // Issue 47: this was "`` is not a square".
    let m = client_error(
        &post(
            a,
            "/api/games",
            &json!({"variant": "chu-shogi", "moves": ["@@@@"]}),
        ),
        400,
    );
    assert!(
        m.contains("move 1 (@@@@)") && m.contains("null move") && m.contains("no pass"),
        "{m}"
    );
    client_error(&post(a, "/api/games", &json!({})), 400);
    client_error(&get(a, "/api/variants/no-such-game"), 404);

    let m = client_error(&post(a, &games("/moves"), &json!({"move": "a1a8"})), 400);
    assert!(m.contains("a1a8"), "{m}");
    client_error(&post(a, &games("/moves"), &json!({"move": ""})), 400);
    client_error(&post(a, &games("/moves"), &json!({"move": "ñ1ü2"})), 400);
    client_error(
        &post(a, &games("/moves"), &json!({"move": "b2b3", "ply": 99})),
        400,
    );
    client_error(&post(a, &games("/moves"), &json!({"mvoe": "b2b3"})), 422);
    client_error(&post(a, &games("/moves"), &json!({"move": 7})), 422);
    client_error(&post(a, &games("/undo"), &json!({"plies": 5})), 400);
    client_error(&post(a, &games("/engine"), &json!({"depth": 0})), 400);
    client_error(
        &post(a, &games("/engine"), &json!({"movetime_ms": -5})),
        422,
    );
    client_error(&get(a, &games("?ply=7")), 400);
    client_error(&get(a, &games("?ply=-1")), 400);

    // Malformed JSON, no JSON, too much JSON.
    let r = raw(
        a,
        "POST",
        &games("/moves"),
        b"{\"move\": ",
        "application/json",
    )
    .unwrap();
    client_error(&r, 400);
    let r = raw(a, "POST", &games("/moves"), b"move=b2b3", "text/plain").unwrap();
    client_error(&r, 415);
    let big = format!("{{\"move\": \"{}\"}}", "a".repeat(2 << 20));
    let r = raw(
        a,
        "POST",
        &games("/moves"),
        big.as_bytes(),
        "application/json",
    )
    .unwrap();
    client_error(&r, 413);

    for p in [
        "/api/games/nope",
        "/api/games/nope/moves",
        "/api/games/nope/pgn",
        "/api/games/nope/events",
    ] {
        let m = client_error(&get(a, p), 404);
        assert!(m.contains("nope"), "{m}");
    }
    client_error(
        &post(a, "/api/games/nope/moves", &json!({"move": "b2b3"})),
        404,
    );
    client_error(&post(a, "/api/games/nope/stop", &json!({})), 404);
    client_error(&call(a, "DELETE", "/api/games/nope", None), 404);
    client_error(&get(a, "/api/nothing-here"), 404);
    // Found by the fuzz target `http`: this one path had a text 404.
    client_error(&get(a, "/api/"), 404);
    client_error(&call(a, "PUT", "/api/games", None), 405);

    // Still serving, and the game is as it was.
    assert!(s.alive());
    assert_eq!(get(a, "/api/status").status, 200);
    let g = get(a, &games("")).json();
    assert_eq!(g["plies"], 0);
    let g = post(a, &games("/moves"), &json!({"move": "b2b3"})).json();
    assert_eq!(texts(&g), ["b2b3"]);
    assert_eq!(get(a, "/").status, 200);
    assert!(get(a, "/app.js").body.contains("import"));
}

/// Issue 47: what was taken, or refused in plain text or with no body.
#[test]
fn arrays_repeated_keys_long_and_undecodable_paths_get_json_errors() {
    let s = server(&[]);
    let a = s.addr;
    let g = new_game(a, json!({"variant": "courier"}));
    let review = format!("/api/games/{}/review", g["id"].as_str().unwrap());
    // serde reads a struct from an array by position: `[]` was a default
    // review, `[5]` its time per position past the unknown-field check.
    for body in [json!([]), json!([5]), json!(5), json!(null), json!("x")] {
        let m = client_error(&post(a, &review, &body), 422);
        assert!(m.contains("expected an object"), "{body}: {m}");
    }
    let m = client_error(&post(a, "/api/games", &json!(["courier"])), 422);
    assert!(m.contains("expected an object"), "{m}");
    let m = client_error(
        &get(
            a,
            "/api/variants/chu-shogi/rules?bare-king=true&bare-king=false",
        ),
        400,
    );
    assert!(m.contains("`bare-king`"), "{m}");
    let m = client_error(&get(a, &format!("/api/games/{}", "x".repeat(100_000))), 414);
    assert!(m.contains("too long"), "{m}");
    let m = client_error(&post(a, "/api/games/%FF%FE/review", &json!({})), 400);
    assert!(m.contains("UTF-8"), "{m}");
    // The same options once each, and an object, are still taken.
    let r = get(a, "/api/variants/chu-shogi/rules?bare-king=true");
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(a, &review, &json!({"movetime_ms": 10}));
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn a_body_declared_too_large_is_refused_before_it_is_read() {
    let s = server(&[]);
    // 5 MB announced, 1 KB sent, the rest never: 413 at once, not after
    // the read timeout (30 s by default).
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        s.addr,
        5 << 20
    );
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&[b' '; 1024]);
    let (r, took) = stalled(s.addr, &bytes, Duration::from_secs(20)).unwrap();
    let r = r.expect("an answer");
    let msg = client_error(&r, 413);
    assert!(msg.contains("5242880") && msg.contains("limit"), "{msg}");
    assert!(took < Duration::from_secs(10), "answered after {took:?}");
    // A body sent without its length is cut at the limit too.
    let mut chunked = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        s.addr
    )
    .into_bytes();
    for _ in 0..20 {
        chunked.extend_from_slice(format!("{:x}\r\n", 100_000).as_bytes());
        chunked.extend_from_slice(&[b' '; 100_000]);
        chunked.extend_from_slice(b"\r\n");
    }
    let (r, _) = stalled(s.addr, &chunked, Duration::from_secs(20)).unwrap();
    client_error(&r.expect("an answer"), 413);
    assert_eq!(get(s.addr, "/api/status").status, 200);
}

#[test]
fn a_request_that_stalls_is_ended_after_the_read_timeout() {
    let s = server(&["--read-timeout", "1"]);
    let margin = Duration::from_secs(6);
    // Part of the body, then nothing: 408 after the timeout.
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"variant\": ",
        s.addr
    );
    let (r, took) = stalled(s.addr, head.as_bytes(), Duration::from_secs(30)).unwrap();
    let r = r.expect("an answer");
    let msg = client_error(&r, 408);
    assert!(msg.contains("1 s"), "{msg}");
    assert!(
        took < Duration::from_secs(1) + margin,
        "answered after {took:?}"
    );
    // Headers never finished: the connection is closed.
    let part = format!("GET /api/status HTTP/1.1\r\nHost: {}\r\n", s.addr);
    let (_, took) = stalled(s.addr, part.as_bytes(), Duration::from_secs(30)).unwrap();
    assert!(
        took < Duration::from_secs(1) + margin,
        "closed after {took:?}"
    );
    // Nothing sent at all: closed too.
    let (_, took) = stalled(s.addr, b"", Duration::from_secs(30)).unwrap();
    assert!(
        took < Duration::from_secs(1) + margin,
        "closed after {took:?}"
    );
    // The server still answers whole requests, at once.
    assert_eq!(get(s.addr, "/api/status").status, 200);
    let g = new_game(s.addr, json!({"variant": "courier"}));
    assert_eq!(g["plies"], 0);
}

#[test]
fn long_input_is_cut_in_error_messages() {
    let s = server(&[]);
    let a = s.addr;
    let huge = "x".repeat(100_000);
    let cut = format!("{}… (100000 characters)", "x".repeat(60));
    let g = new_game(a, json!({"variant": "courier"}));
    let id = g["id"].as_str().unwrap();
    let short = |r: &http::Response, status: u16| {
        let m = client_error(r, status);
        assert!(
            m.len() < 1000,
            "{} bytes: {}",
            m.len(),
            m.chars().take(1000).collect::<String>()
        );
        m
    };
    for body in [
        json!({"variant": "courier", "fen": format!("12/12/12/12/12/12/12/5K1k4 {huge}")}),
        json!({"variant": "courier", "moves": [huge]}),
        json!({"variant": huge}),
        json!({"variant": "courier", "options": {huge.clone(): "1"}}),
        json!({"variant": "courier", "options": {"courier-opening": huge}}),
        json!({"variant": "courier", "options": {huge.clone(): [1]}}),
    ] {
        let m = short(&post(a, "/api/games", &body), 400);
        assert!(m.contains(&cut), "{m}");
    }
    let m = short(
        &post(a, &format!("/api/games/{id}/moves"), &json!({"move": huge})),
        400,
    );
    assert!(m.contains(&cut), "{m}");
    // serde quotes what it cannot read: cut too.
    short(
        &post(
            a,
            &format!("/api/games/{id}/moves"),
            &json!({ huge.clone(): 1 }),
        ),
        422,
    );
    short(
        &post(
            a,
            &format!("/api/games/{id}/moves"),
            &json!({"move": 1, "ply": huge}),
        ),
        422,
    );
    let long_id = "y".repeat(10_000);
    short(&get(a, &format!("/api/games/{long_id}")), 404);
    short(&get(a, &format!("/api/variants/{long_id}")), 404);
    let m = short(
        &post(
            a,
            "/api/games",
            &json!({"variant": "courier", "fen": "12 w"}),
        ),
        400,
    );
    assert!(m.contains("1 rank given"), "{m}");
}

/// A small deterministic generator for the load test's random moves.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn twenty_games_at_once_stay_apart() {
    let s = server(&["--max-games", "100"]);
    let addr = s.addr;
    let variants = [
        "courier",
        "sho-shogi",
        "chu-shogi",
        "dai-shogi",
        "courier-modern",
    ];
    let until = Instant::now() + Duration::from_secs(5);
    let threads: Vec<_> = (0..20)
        .map(|t| {
            std::thread::spawn(move || {
                let mut rng = Lcg(t as u64 + 1);
                let variant = variants[t % variants.len()];
                let mut g = new_game(addr, json!({"variant": variant}));
                let mut mine: Vec<String> = Vec::new();
                let mut requests = 1;
                while Instant::now() < until {
                    let id = g["id"].as_str().unwrap().to_string();
                    let legal = g["legal"].as_array().unwrap();
                    if legal.is_empty() || mine.len() >= 60 {
                        g = new_game(addr, json!({"variant": variant}));
                        mine.clear();
                    } else {
                        let m = legal[rng.below(legal.len())]["text"]
                            .as_str()
                            .unwrap()
                            .to_string();
                        let r = post(addr, &format!("/api/games/{id}/moves"), &json!({"move": m}));
                        assert_eq!(r.status, 200, "{variant} {m}: {}", r.body);
                        g = r.json();
                        mine.push(m);
                        assert_eq!(g["variant"], variant);
                        assert_eq!(texts(&g), mine, "game {id} holds only its own moves");
                    }
                    requests += 1;
                }
                requests
            })
        })
        .collect();
    let total: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(total > 20, "{total} requests");
    eprintln!("twenty_games_at_once_stay_apart: {total} requests in 5 s");
}

/// The library's view of a position: its FEN, its legal moves as sorted
/// texts, and its outcome as the API writes it (`null` while it goes on).
fn library_view(pos: &mut kamil_rules::Position) -> (String, Vec<String>, Value) {
    use kamil_rules::notation::move_text;
    let v = pos.variant().clone();
    let mut texts: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| move_text(&v, m))
        .collect();
    texts.sort();
    let outcome = match pos.outcome() {
        Some(o) => json!({
            "result": o.score(),
            "winner": o.winner().map(|s| s.index()),
            "reason": o.reason().to_string(),
            "points": o.points().map(|p| p.to_string()),
        }),
        None => Value::Null,
    };
    (pos.fen(), texts, outcome)
}

/// The texts of a list of move views.
fn view_texts(list: &Value) -> Vec<String> {
    let mut t: Vec<String> = list
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|m| m["text"].as_str().expect("text").to_string())
        .collect();
    t.sort();
    t
}

/// Plays `plies` random moves (seeded) from `fen` through the HTTP API and
/// through the library side by side; at every ply the API's legal moves
/// (in the game and from `GET .../moves`), FEN and outcome must be the
/// library's. Returns the plies played.
fn replay_side_by_side(
    addr: SocketAddr,
    variant: &str,
    fen: &str,
    seed: u64,
    plies: usize,
) -> usize {
    let v = std::sync::Arc::new(
        kamil_rules::Variant::builtin(variant, &[]).unwrap_or_else(|e| panic!("{variant}: {e}")),
    );
    let mut pos = kamil_rules::Position::from_fen(v.clone(), fen)
        .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
    let mut g = new_game(addr, json!({"variant": variant, "fen": fen}));
    let id = g["id"].as_str().unwrap().to_string();
    let mut rng = Lcg(seed);
    for ply in 0..=plies {
        let at = format!("{variant} seed {seed} ply {ply} at {}", pos.fen());
        let (lib_fen, lib_moves, lib_outcome) = library_view(&mut pos);
        assert_eq!(g["fen"], lib_fen, "{at}");
        let api_outcome = match &g["outcome"] {
            Value::Null => Value::Null,
            o => json!({
                "result": o["result"], "winner": o["winner"],
                "reason": o["reason"], "points": o["points"],
            }),
        };
        assert_eq!(api_outcome, lib_outcome, "{at}");
        // A front end asks the outcome first: once the game is over it
        // offers no move.
        let expected = if lib_outcome.is_null() {
            lib_moves.clone()
        } else {
            Vec::new()
        };
        assert_eq!(
            view_texts(&g["legal"]),
            expected,
            "{at}: the game's legal moves"
        );
        let listed = get(addr, &format!("/api/games/{id}/moves"));
        assert_eq!(listed.status, 200, "{at}: {}", listed.body);
        assert_eq!(view_texts(&listed.json()), expected, "{at}: GET moves");
        if expected.is_empty() || ply == plies {
            return ply;
        }
        let mut moves = pos.legal_moves();
        moves.sort_by_key(|&m| kamil_rules::notation::move_text(&v, m));
        let m = moves[rng.below(moves.len())];
        let text = kamil_rules::notation::move_text(&v, m);
        let r = post(
            addr,
            &format!("/api/games/{id}/moves"),
            &json!({"move": text}),
        );
        assert_eq!(r.status, 200, "{at}: {text}: {}", r.body);
        pos.make(m);
        g = r.json();
    }
    plies
}

#[test]
fn the_api_and_the_library_agree_move_by_move() {
    let s = server(&["--max-games", "1000"]);
    let cases = [
        // Two Kings on one side, the King-swap rights of both sides.
        (
            "tamerlane",
            "*11*/6k3Kr*/*11*/*11*/*11*/*11*/*11*/*11*/*5K6/*10E* w Kk 0 1",
        ),
        // Kings everywhere, castling rights on, a pawn ready to promote.
        (
            "alfonso-great-chess",
            "r1k2k2k2r/1P3k6/12/2K3K5/12/12/12/5k6/12/12/2K2K3p2/R4K5R w KQkq - 0 1",
        ),
        // King and Crown Prince, a Lion and promotable pieces.
        ("sho-shogi", "4k4/9/2+E6/9/4N4/9/2e6/9/4K4 b"),
        ("chu-shogi", "5k6/12/3+E8/12/5N6/12/12/6n5/12/3e8/12/6K5 b"),
        // Three Kings against two, a bare-king rule in force.
        ("courier", "12/5k1m4/2r9/3K8/4e7/8k3/1P6w3/2K2B6 w - - 0 1"),
        // En passant possible at once, two Kings each.
        (
            "courier-modern",
            "4k7/12/4k7/3pP7/12/12/2K6K2/12 w - d6 40 1",
        ),
        ("hiashatar", "4k5/10/2h7/10/10/10/7H2/10/10/5K4 w - - 0 1"),
        // Checkers, two Kings each.
        (
            "ordinary-variant",
            "12/5k6/2t9/12/2K6K2/3c8/12/12/1P5C4/4k2Q4 w - - 0 1",
        ),
        // Frolov without pawns: every special piece free to move.
        (
            "frolov-10x10",
            "jcvewgdwevcj/*rnbmk1abnr*/*10*/*10*/*4q5*/*10*/*10*/*10*/*RNBAQKMBNR*/JCVEWDGWEVCJ w KQkq - - 0 1",
        ),
    ];
    let mut total = 0;
    for (variant, fen) in cases {
        for seed in 1..=3 {
            let n = replay_side_by_side(s.addr, variant, fen, seed, 40);
            eprintln!("{variant} seed {seed}: {n} plies");
            total += n;
        }
    }
    assert!(total > 100, "only {total} plies played");
}

#[test]
fn a_shogi_game_starts_from_an_sfen_and_takes_usi_moves() {
    let s = server(&[]);
    let a = s.addr;
    // The page's FEN box sends what is pasted as `fen`: an SFEN works.
    let board = "6k5/12/12/12/12/6n5/6G5/5+o6/5G6/12/12/6K5";
    let sfen = format!("{board} b 7h 11");
    let g = new_game(a, json!({"variant": "chu-shogi", "fen": sfen}));
    assert_eq!(g["sfen"], sfen.as_str());
    assert_eq!(g["fen"], format!("{board} b"));
    let id = g["id"].as_str().unwrap().to_string();
    let legal = get(a, &format!("/api/games/{id}/moves")).json();
    let has = |t: &str| legal.as_array().unwrap().iter().any(|m| m["text"] == t);
    assert!(
        !has("g6g7"),
        "counter-strike: the Gold may not take the Lion"
    );
    assert!(has("f4f5"), "but may on the square of the capture");
    // A USI move (kamil's f4f5), answered in kamil's notation.
    let g = post(
        a,
        &format!("/api/games/{id}/moves"),
        &json!({"move": "7i7h"}),
    )
    .json();
    assert_eq!(texts(&g), ["f4f5"]);
    // The Gold took White's Lion: now White is under the rule, on 7h.
    assert_eq!(
        g["sfen"],
        "6k5/12/12/12/12/6n5/6G5/5G6/12/12/12/6K5 w 7h 12"
    );
    // Other games have no SFEN; a bad SFEN is named.
    let c = new_game(a, json!({"variant": "courier"}));
    assert!(c["sfen"].is_null());
    let bad = json!({"variant": "sho-shogi", "fen": "9/9/9/9/9/9/9/9/9 b P 1"});
    let m = client_error(&post(a, "/api/games", &bad), 400);
    assert!(m.contains("bad SFEN") && m.contains("SFEN hands"), "{m}");
}
