//! The rules in words: `kamil rules` in the terminal (every built-in game,
//! options, a variant file with its rules file beside it or without one,
//! clear errors) and
//! `GET /api/variants/{name}/rules` (sections, a diagram per piece, the
//! options named, 4xx for bad input).

mod common;
#[path = "support/http.rs"]
mod http;

use common::kamil;
use kamil_rules::variant::BUILTIN;
use serde_json::Value;

fn stdout_of(args: &[&str]) -> String {
    let out = kamil(args);
    assert!(
        out.status.success(),
        "kamil {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn stderr_of_failure(args: &[&str]) -> String {
    let out = kamil(args);
    assert!(!out.status.success(), "kamil {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn kamil_rules_prints_every_builtin_game_with_a_diagram_per_piece() {
    for (name, _) in BUILTIN {
        let v = common::variant(name, &[]);
        let text = stdout_of(&["rules", name]);
        assert!(text.starts_with("# "), "{name}: {}", &text[..80]);
        for want in [
            "## Board and setup",
            "## Pieces",
            "## Promotion",
            "## End of the game",
            "## Options",
            "## Sources",
        ] {
            assert!(text.contains(want), "{name}: no {want}");
        }
        assert!(!text.contains("[diagram:"), "{name}: a marker was left");
        for p in &v.pieces {
            let head = format!("    {} ({}) · Betza {}", p.name, p.id, p.betza);
            assert_eq!(text.matches(&head).count(), 1, "{name}: {head}");
        }
        for o in &v.options {
            assert!(
                text.contains(&format!("`{}`", o.name)),
                "{name}: {}",
                o.name
            );
        }
    }
}

#[test]
fn options_change_the_diagrams_and_bad_input_is_a_clear_error() {
    let plain = stdout_of(&["rules", "courier-modern"]);
    assert!(plain.contains("    Fers (F) · Betza F\n"));
    let queen = stdout_of(&["rules", "courier-modern", "--option", "albers-queen=true"]);
    assert!(queen.contains("    Queen (Q) · Betza Q\n"));
    assert!(
        queen.contains("Options changed: Queen instead of Fers: yes (albers-queen=true)."),
        "{queen}"
    );
    assert!(plain.contains("Every option at its default."), "{plain}");
    // The Options section says each option in a player's words first.
    assert!(
        queen.contains(
            "- Queen instead of Fers: The Fers moves as a modern Queen, and pawns promote \
             to a Queen. Now: yes (`--option albers-queen=true`; default no)."
        ),
        "{queen}"
    );
    let e = stderr_of_failure(&["rules", "no-such-game"]);
    assert!(e.contains("no-such-game") && e.contains("courier"), "{e}");
    let e = stderr_of_failure(&["rules", "courier", "--option", "nope=1"]);
    assert!(e.contains("nope"), "{e}");
}

#[test]
fn a_variant_file_takes_the_rules_file_beside_it() {
    let dir = common::scratch_path("kamil-rules-tests", "x")
        .parent()
        .unwrap()
        .to_path_buf();
    let toml = dir.join("mine.toml");
    std::fs::write(&toml, include_str!("../../../variants/courier.toml")).unwrap();
    let name = toml.to_str().unwrap();
    let rules = dir.join("mine.rules.md");
    let _ = std::fs::remove_file(&rules);
    // Issue 47: no rules file was an error; now the rules drawn from the
    // variant file alone, saying there is no prose.
    let text = stdout_of(&["rules", name]);
    assert!(
        text.contains("no prose") && text.contains("mine.rules.md"),
        "{text}"
    );
    assert!(text.contains("12 files, 8 ranks"), "{text}");
    assert!(text.contains("    Courier (B) · Betza B\n"), "{text}");
    assert!(
        text.contains("## Options\n") && text.contains("- `courier-opening` ("),
        "{text}"
    );
    std::fs::write(&rules, include_str!("../../../variants/courier.rules.md")).unwrap();
    let text = stdout_of(&["rules", name]);
    assert!(text.contains("    Courier (B) · Betza B\n"), "{text}");
    // Malformed: the error names the file and the line.
    let good = include_str!("../../../variants/courier.rules.md");
    std::fs::write(&rules, format!("{good}\n## Pieces\n")).unwrap();
    let line = good.lines().count() + 2;
    let e = stderr_of_failure(&["rules", name]);
    let want = format!("mine.rules.md:{line}: a second `## Pieces` section");
    assert!(e.contains(&want), "{e}");
    // A piece without its diagram.
    let text = include_str!("../../../variants/courier.rules.md").replace("[diagram: sneak]", "");
    std::fs::write(&rules, text).unwrap();
    let e = stderr_of_failure(&["rules", name]);
    assert!(
        e.contains("mine.rules.md: no `[diagram: sneak]` for the Sneak"),
        "{e}"
    );
}

#[test]
fn the_api_serves_the_rules_with_sections_and_diagrams() {
    let s = http::Server::start(env!("CARGO_BIN_EXE_kamil"), &[]);
    for (name, _) in BUILTIN {
        let v = common::variant(name, &[]);
        let r = http::get(s.addr, &format!("/api/variants/{name}/rules"));
        assert_eq!(r.status, 200, "{name}: {}", r.body);
        let j = r.json();
        assert_eq!(j["variant"], *name);
        let sections = j["sections"].as_array().unwrap();
        assert_eq!(sections[0]["level"], 1);
        let diagrams: Vec<&str> = sections
            .iter()
            .flat_map(|s| s["parts"].as_array().unwrap())
            .filter_map(|p| p["diagram"].as_str())
            .collect();
        assert_eq!(diagrams.len(), v.pieces.len(), "{name}");
        let pieces = j["view"]["pieces"].as_array().unwrap();
        for p in &v.pieces {
            assert!(diagrams.contains(&p.key.as_str()), "{name}: {}", p.key);
            let view = pieces.iter().find(|x| x["key"] == *p.key).unwrap();
            assert!(view["help"][0]["from"].is_string(), "{name}: {}", p.key);
        }
        let html: String = sections
            .iter()
            .flat_map(|s| s["parts"].as_array().unwrap())
            .filter_map(|p| p["html"].as_str())
            .collect();
        for o in &v.options {
            assert!(
                html.contains(&format!("<code>{}</code>", o.name)),
                "{name}: {}",
                o.name
            );
        }
    }
    let r = http::get(
        s.addr,
        "/api/variants/courier-modern/rules?albers-queen=true",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let j: Value = r.json();
    assert_eq!(j["chosen"]["albers-queen"], "true");
    let fers = j["view"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["key"] == "fers")
        .unwrap()
        .clone();
    assert_eq!(fers["betza"], "Q");
    assert_eq!(http::get(s.addr, "/api/variants/nope/rules").status, 404);
    let r = http::get(s.addr, "/api/variants/courier/rules?nope=1");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("nope"));
    let r = http::get(
        s.addr,
        "/api/variants/courier/rules?courier-opening=sideways",
    );
    assert_eq!(r.status, 400, "{}", r.body);
}
