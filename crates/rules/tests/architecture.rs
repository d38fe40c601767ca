//! The workspace's layering, checked from the source text (issue 14,
//! shared/design/ARCHITECTURE.md; docs/ARCHITECTURE.md, "The layering rule
//! and the architecture test"): files import downward only (no import
//! circle between files in any crate), the special-rule families reach
//! neither the generator nor the position, nothing outside `special/`
//! reads a family's data, no function of the rules, engine, training or
//! command line crates is longer than 150 lines; and (issue 76) the crates
//! depend downward only, the rules embed no nets and the engine holds no
//! training code, and in the rules crate and the engine no file imports a
//! layer above its own (an arrow back up), but for the exceptions named.
//!
//! An import is a `use crate::…`/`use super::…` item or an inline
//! `crate::…`/`super::…` path, and in a `mod.rs`, `lib.rs` or `main.rs` a
//! path through one of its child modules; it points to the deepest module
//! file the path names. Declaring a child module (`mod x;`) is ownership,
//! not an import.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The special-rule families (files under `crates/rules/src/special/`).
const FAMILIES: &[&str] = &[
    "bodyguard",
    "capture_promotion",
    "checker",
    "citadel",
    "citadel_win",
    "dynamic_scoring",
    "hostile_promotion",
    "king_swap",
    "lion",
    "material_points",
    "pawn_of_pawns",
];

/// The fields of `special::Specials` that hold a family's data.
const FAMILY_FIELDS: &[&str] = &[
    "compulsory_opening",
    "lion_trading",
    "bodyguard",
    "checker",
    "dynamic_scoring",
    "citadels",
    "pawn_of_pawns",
    "king_swap",
    "capture_promotion",
    "hostile_promotion",
    "citadel_win",
    "material_points",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, as (module path, file path).
fn modules(dir: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("source folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(dir).expect("under dir").with_extension("");
                let mut parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(
                    parts.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    parts.pop();
                }
                out.insert(parts, p);
            }
        }
    }
    out
}

/// The source without comments and without its `#[cfg(test)]` tail.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("source file");
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths (as segment lists) that start at `root` (`crate` or `super`)
/// in `src`, with `use` groups `a::{b, c::d}` expanded one level.
fn paths_from(src: &str, root: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes: Vec<char> = src.chars().collect();
    let pat: Vec<char> = format!("{root}::").chars().collect();
    let mut i = 0;
    while i + pat.len() <= bytes.len() {
        let boundary = i == 0 || !(is_ident(bytes[i - 1]) || bytes[i - 1] == ':');
        if !(boundary && bytes[i..i + pat.len()] == pat[..]) {
            i += 1;
            continue;
        }
        let mut j = i + pat.len();
        let mut segs = Vec::new();
        let mut cur = String::new();
        while j < bytes.len() {
            let c = bytes[j];
            if is_ident(c) {
                cur.push(c);
                j += 1;
            } else if c == ':' && j + 1 < bytes.len() && bytes[j + 1] == ':' {
                segs.push(std::mem::take(&mut cur));
                j += 2;
            } else {
                break;
            }
        }
        if !cur.is_empty() {
            segs.push(cur);
        }
        if j < bytes.len() && bytes[j] == '{' {
            // A group: each member extends the prefix.
            let end = bytes[j..]
                .iter()
                .position(|&c| c == '}')
                .map_or(bytes.len(), |k| j + k);
            let group: String = bytes[j + 1..end].iter().collect();
            for member in group.split(',') {
                let member = member.split(" as ").next().unwrap_or("").trim();
                let mut p = segs.clone();
                p.extend(
                    member
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(|s| s.trim_matches(|c: char| !is_ident(c)).to_string()),
                );
                out.push(p);
            }
            i = end;
        } else {
            out.push(segs);
            i = j;
        }
    }
    out
}

/// The import edges between the files of one crate's `src`.
fn import_graph(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mods = modules(src);
    let deepest = |path: &[String]| -> Option<Vec<String>> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| mods.contains_key(p))
    };
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, file) in &mods {
        let src_text = code(file);
        let owner = file
            .file_stem()
            .is_some_and(|s| s == "mod" || s == "lib" || s == "main");
        let mut targets: Vec<Vec<String>> = paths_from(&src_text, "crate");
        let parent: Vec<String> = m[..m.len().saturating_sub(1)].to_vec();
        for p in paths_from(&src_text, "super") {
            let mut full = parent.clone();
            full.extend(p);
            targets.push(full);
        }
        if owner {
            // Paths through a child module (`child::item`, `self::child`).
            let children: Vec<String> = mods
                .keys()
                .filter(|k| k.len() == m.len() + 1 && k[..m.len()] == m[..])
                .map(|k| k[m.len()].clone())
                .collect();
            for c in &children {
                let needle = format!("{c}::");
                let mut from = 0;
                while let Some(k) = src_text[from..].find(&needle) {
                    let at = from + k;
                    let before = src_text[..at].chars().next_back();
                    let path_start = before.is_none_or(|b| !(is_ident(b) || b == ':'))
                        || src_text[..at].ends_with("self::");
                    if path_start {
                        let mut t = m.clone();
                        t.push(c.clone());
                        targets.push(t);
                    }
                    from = at + needle.len();
                }
            }
        }
        let set = edges.entry(m.clone()).or_default();
        for t in targets {
            if let Some(d) = deepest(&t)
                && d != *m
            {
                set.insert(d);
            }
        }
    }
    edges
}

/// The strongly connected components with more than one file (Tarjan).
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Vec<String>) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        let edges = t.edges;
        for w in edges.get(v).into_iter().flatten() {
            let Some((w, _)) = edges.get_key_value(w) else {
                continue;
            };
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low[v];
                t.low.insert(v, lv.min(lw));
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low[v];
                t.low.insert(v, lv.min(iw));
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(if w.is_empty() {
                    "lib".into()
                } else {
                    w.join("/")
                });
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_crate_has_an_import_circle_between_files() {
    for krate in [
        "rules", "engine", "train", "protocol", "page", "cli", "wasm",
    ] {
        let src = workspace().join("crates").join(krate).join("src");
        let found = circles(&import_graph(&src));
        assert!(
            found.is_empty(),
            "crates/{krate}/src: import circles {found:?}"
        );
    }
}

#[test]
fn the_circle_finder_finds_a_circle() {
    // The check above could pass by finding nothing; a made-up circle must show.
    let mut g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let (a, b, c) = (
        vec!["a".to_string()],
        vec!["b".to_string()],
        vec!["c".to_string()],
    );
    g.entry(a.clone()).or_default().insert(b.clone());
    g.entry(b.clone()).or_default().insert(a.clone());
    g.entry(c.clone()).or_default().insert(a.clone());
    assert_eq!(circles(&g), vec![vec!["a".to_string(), "b".to_string()]]);
    let paths = paths_from("use crate::x::{y, z::w};\nlet q = super::k::f();", "crate");
    assert_eq!(paths, vec![vec!["x", "y"], vec!["x", "z", "w"]]);
}

#[test]
fn no_family_imports_the_generator_or_the_position() {
    // Families see positions through `board::Board` and the variant through
    // its low parts; the layers that call them are above them.
    let dir = workspace().join("crates/rules/src/special");
    for family in FAMILIES {
        let text = code(&dir.join(format!("{family}.rs")));
        for p in paths_from(&text, "crate") {
            let first = p.first().map(String::as_str).unwrap_or("");
            let second = p.get(1).map(String::as_str).unwrap_or("");
            let upward = match first {
                "movegen" | "position" | "notation" | "perft" | "pgn" => true,
                "outcome" => second != "kinds",
                "variant" => !matches!(second, "core" | "tables" | "schema" | "context" | "error"),
                _ => false,
            };
            assert!(
                !upward,
                "special/{family}.rs imports crate::{}",
                p.join("::")
            );
        }
    }
}

#[test]
fn only_special_reads_a_family() {
    let mut offenders = Vec::new();
    for krate in [
        "rules", "engine", "train", "protocol", "page", "cli", "wasm",
    ] {
        let src = workspace().join("crates").join(krate).join("src");
        for (m, file) in modules(&src) {
            if krate == "rules" && m.first().is_some_and(|s| s == "special") {
                continue;
            }
            let text = code(&file);
            for f in FAMILIES {
                if text.contains(&format!("special::{f}")) {
                    offenders.push(format!("{}: special::{f}", file.display()));
                }
            }
            let squeezed: String = text.split_whitespace().collect();
            for f in FAMILY_FIELDS {
                if squeezed.contains(&format!("specials.{f}"))
                    && !squeezed.contains(&format!("specials.{f}("))
                {
                    offenders.push(format!("{}: specials.{f}", file.display()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "family data read outside special/: {offenders:#?}"
    );
}

/// Longest function allowed, lines from its `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 150;

/// The functions of the files under `src` longer than
/// [`MAX_FUNCTION_LINES`], as `file:line n lines: signature`.
fn long_functions(src: &Path) -> Vec<String> {
    let mut long = Vec::new();
    for file in modules(src).values() {
        let text = fs::read_to_string(file).expect("source file");
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let n = function_length(&lines, i);
            if n > MAX_FUNCTION_LINES {
                let t = l.trim_start();
                long.push(format!("{}:{} {} lines: {}", file.display(), i + 1, n, t));
            }
        }
    }
    long
}

/// The length in lines of the function whose `fn` line is `lines[i]` (0
/// if that line starts no function with a body).
fn function_length(lines: &[&str], i: usize) -> usize {
    let t = lines[i].trim_start();
    let t = t.strip_prefix("pub ").unwrap_or(t);
    let t = ["pub(crate) ", "pub(super) "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    let t = ["const ", "async "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    if !t.starts_with("fn ") {
        return 0;
    }
    // The body: from the first `{` to its match.
    let mut depth = 0i32;
    let mut opened = false;
    for (j, line) in lines.iter().enumerate().skip(i) {
        let body = line.split("//").next().unwrap_or("");
        if !opened && body.trim_end().ends_with(';') {
            return 0;
        }
        let mut in_str = false;
        let mut prev = ' ';
        for c in body.chars() {
            match c {
                '"' if prev != '\\' => in_str = !in_str,
                '{' if !in_str => {
                    depth += 1;
                    opened = true;
                }
                '}' if !in_str => depth -= 1,
                _ => {}
            }
            prev = c;
        }
        if opened && depth <= 0 {
            return j + 1 - i;
        }
    }
    0
}

#[test]
fn no_function_is_longer_than_150_lines() {
    let mut long = Vec::new();
    for krate in [
        "rules", "engine", "train", "protocol", "page", "cli", "wasm",
    ] {
        long.extend(long_functions(
            &workspace().join("crates").join(krate).join("src"),
        ));
    }
    assert!(long.is_empty(), "functions over 150 lines: {long:#?}");
}

#[test]
fn the_length_check_measures_a_long_function() {
    // The check above could pass by measuring nothing.
    let mut text = vec!["pub(super) fn f() {"];
    text.extend(std::iter::repeat_n("    let x = \"}\";", 150));
    text.push("}");
    assert_eq!(function_length(&text, 0), 152);
    assert_eq!(function_length(&["fn g();"], 0), 0);
    assert_eq!(function_length(&["pub async fn h() {", "}"], 0), 2);
}

/// The `kamil-*` crates that `krate`'s manifest lists under
/// `[dependencies]` (development dependencies left out).
fn kamil_dependencies(krate: &str) -> BTreeSet<String> {
    let text = fs::read_to_string(workspace().join(format!("crates/{krate}/Cargo.toml")))
        .unwrap_or_else(|e| panic!("crates/{krate}/Cargo.toml: {e}"));
    let mut section = String::new();
    let mut out = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if section == "[dependencies]"
            && let Some(name) = line.split(['.', ' ', '=']).next()
            && name.starts_with("kamil")
        {
            out.insert(name.to_string());
        }
    }
    out
}

/// Issue 76: the crates depend downward only, rules ← engine ← train ←
/// command line: the rules know nothing of the engine, the engine
/// (inference only) nothing of training, and the Python package and the
/// WebAssembly module use the rules and the engine. Issue 79: the
/// sessions without a transport (protocol) and the page's back end (page)
/// sit between the engine and their two callers, the command line and
/// the WebAssembly module; neither knows of training.
#[test]
fn crates_depend_downward_only() {
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(kamil_dependencies("rules"), set(&[]));
    assert_eq!(kamil_dependencies("engine"), set(&["kamil-rules"]));
    assert_eq!(
        kamil_dependencies("train"),
        set(&["kamil-rules", "kamil-engine"])
    );
    assert_eq!(
        kamil_dependencies("protocol"),
        set(&["kamil-rules", "kamil-engine"])
    );
    assert_eq!(
        kamil_dependencies("page"),
        set(&["kamil-rules", "kamil-engine", "kamil-protocol"])
    );
    assert_eq!(
        kamil_dependencies("cli"),
        set(&[
            "kamil-rules",
            "kamil-engine",
            "kamil-train",
            "kamil-protocol",
            "kamil-page"
        ])
    );
    assert_eq!(
        kamil_dependencies("python"),
        set(&["kamil-rules", "kamil-engine"])
    );
    // Issue 79: the WebAssembly module, as the Python package, with the
    // protocol's session and the page's back end.
    assert_eq!(
        kamil_dependencies("wasm"),
        set(&[
            "kamil-rules",
            "kamil-engine",
            "kamil-protocol",
            "kamil-page"
        ])
    );
}

/// Issue 76: the rules crate embeds the variants and their rules texts,
/// nothing for the engine (its nets and weights are the engine's to
/// embed), and the engine holds no training code (the trainer, the data
/// formats and the optimiser are in `crates/train`).
#[test]
fn the_rules_embed_no_nets_and_the_engine_trains_nothing() {
    let root = workspace();
    let mut rules = vec![root.join("crates/rules/build.rs")];
    rules.extend(modules(&root.join("crates/rules/src")).into_values());
    for path in rules {
        let text = code(&path);
        for word in ["include_bytes!", "BUILTIN_NETS", "BUILTIN_WEIGHTS"] {
            assert!(!text.contains(word), "{}: `{word}`", path.display());
        }
    }
    for path in modules(&root.join("crates/engine/src")).into_values() {
        let text = code(&path);
        for word in ["Adam", "fn backward", "learning rate", "KAMILDAT"] {
            assert!(!text.contains(word), "{}: `{word}`", path.display());
        }
    }
}

/// The layers of the rules crate, lowest first: a file may import its own
/// layer and those below, never one above (an arrow back up). A module
/// path names a file or a folder (`variant/core`, `special`); a file takes
/// the layer of the longest path that names it.
const RULES_LAYERS: &[&[&str]] = &[
    &["excerpt", "splitmix"],
    &["geometry", "betza"],
    &["piece", "moves", "zobrist", "outcome/kinds", "fen"],
    &[
        "variant/core",
        "variant/tables",
        "variant/error",
        "variant/context",
        "variant/schema",
    ],
    &["board"],
    &["push", "rays", "leaps"],
    &["special"],
    &["variant"],
    &["setup", "effects"],
    &["position"],
    &["movegen", "outcome", "checks", "legal"],
    &["attackers"],
    &["notation", "sfen", "usi", "pgn", "perft", "move_reader"],
    &["rules_text", "diagram", "scan_tests", "board_text"],
];

/// The engine's layers, lowest first (as [`RULES_LAYERS`]).
const ENGINE_LAYERS: &[&[&str]] = &[
    &[
        "score",
        "limits",
        "time",
        "fingerprint",
        "builtin",
        "files",
        "clock",
    ],
    &["values", "material"],
    &["see", "ordering"],
    &[
        "eval",
        "nnue/features",
        "nnue/simd",
        "nnue/network",
        "nnue/file",
    ],
    &["nnue", "evaluation", "eval_choice"],
    &["tt", "skill"],
    &["search"],
];

/// Arrows back up that the layering keeps on purpose: (from, to, why).
const UPWARD_EXCEPTIONS: &[(&str, &str, &str)] = &[(
    "variant/compile",
    "position",
    "a variant is checked as it is compiled: its start position must read",
)];

/// The arrows back up of a crate's `src` under `layers`, and the files in
/// no layer, as messages.
fn upward_arrows(src: &Path, layers: &[&[&str]]) -> Vec<String> {
    let rank = |m: &[String]| -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (r, layer) in layers.iter().enumerate() {
            for path in *layer {
                let p: Vec<&str> = path.split('/').collect();
                if p.len() <= m.len()
                    && p.iter().zip(m).all(|(a, b)| *a == b)
                    && best.is_none_or(|(len, _)| p.len() > len)
                {
                    best = Some((p.len(), r));
                }
            }
        }
        best.map(|(_, r)| r)
    };
    let mut out = Vec::new();
    for (from, targets) in import_graph(src) {
        if from.is_empty() {
            continue; // lib.rs: the crate's face, above every layer.
        }
        let Some(rf) = rank(&from) else {
            out.push(format!("{} is in no layer", from.join("/")));
            continue;
        };
        for to in targets {
            let (f, t) = (from.join("/"), to.join("/"));
            let excused = UPWARD_EXCEPTIONS.iter().any(|(a, b, _)| *a == f && *b == t);
            if rank(&to).is_some_and(|rt| rt > rf) && !excused {
                out.push(format!("{f} imports {t}, a layer above it"));
            }
        }
    }
    out
}

/// Issue 76: no file imports a layer above its own, in the rules crate and
/// in the engine, but for the exceptions named with their reason.
#[test]
fn no_arrow_points_back_up() {
    let root = workspace();
    for (krate, layers) in [("rules", RULES_LAYERS), ("engine", ENGINE_LAYERS)] {
        let found = upward_arrows(&root.join(format!("crates/{krate}/src")), layers);
        assert!(found.is_empty(), "crates/{krate}/src: {found:#?}");
    }
}

/// The check finds an arrow back up, and a file in no layer.
#[test]
fn the_layer_check_finds_an_arrow_back_up() {
    let dir = std::env::temp_dir().join(format!("kamil-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("low.rs"), "use crate::high::X;\n").unwrap();
    fs::write(dir.join("high.rs"), "pub struct X;\n").unwrap();
    fs::write(dir.join("stray.rs"), "\n").unwrap();
    let found = upward_arrows(&dir, &[&["low"], &["high"]]);
    fs::remove_dir_all(&dir).unwrap();
    assert!(
        found.contains(&"low imports high, a layer above it".to_string()),
        "{found:?}"
    );
    assert!(
        found.contains(&"stray is in no layer".to_string()),
        "{found:?}"
    );
}
