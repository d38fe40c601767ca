//! The docs as a front door and a shelf (issue 76): the README stays short,
//! and every link in it and in `docs/` points to something in the
//! repository, so a page or a source file that moves cannot leave a link
//! behind.

use pulldown_cmark::{Event, Options, Parser, Tag};
use std::fs;
use std::path::{Path, PathBuf};

/// The most lines the README may have: it is the front door, the rest is
/// on the shelf under `docs/`.
const README_MAX_LINES: usize = 300;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `README.md` and every `.md` file under `docs/`, in a stable order.
fn markdown_files() -> Vec<PathBuf> {
    let root = workspace();
    let mut out = vec![root.join("README.md")];
    let mut stack = vec![root.join("docs")];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    out.extend(found);
    out
}

/// The destinations of the links and images of a Markdown text, as
/// written.
fn link_targets(text: &str) -> Vec<String> {
    Parser::new_ext(text, Options::ENABLE_TABLES)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

/// The path a link names in the repository, relative to the file `from`
/// that holds it; `None` for a link outside it (a web address, mail) or to
/// a place in the same page (a pure `#anchor`).
fn local_path(from: &Path, target: &str) -> Option<PathBuf> {
    let lower = target.to_ascii_lowercase();
    if ["http://", "https://", "mailto:"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return None;
    }
    let path = target.split(['#', '?']).next().unwrap_or("");
    if path.is_empty() {
        return None;
    }
    Some(match path.strip_prefix('/') {
        Some(rooted) => workspace().join(rooted),
        None => from.parent().expect("a file's folder").join(path),
    })
}

/// Each link of the Markdown file `file` (whose text is `text`) that names
/// a path the repository does not have, as `FILE: TARGET`.
fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let shown = file.strip_prefix(workspace()).unwrap_or(file);
    link_targets(text)
        .into_iter()
        .filter(|target| local_path(file, target).is_some_and(|p| !p.exists()))
        .map(|target| format!("{}: {target}", shown.display()))
        .collect()
}

/// A link that resolves nowhere is a reader sent to nothing: the README and
/// every page under `docs/` (the experiment log included) link only to
/// files and folders that exist, source files under `crates/`, `variants/`
/// and `scripts/` among them.
#[test]
fn every_link_in_the_docs_resolves_inside_the_repository() {
    let files = markdown_files();
    assert!(files.len() > 10, "too few Markdown files found: {files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        broken.extend(broken_links(file, &text));
    }
    assert!(
        broken.is_empty(),
        "{} broken links (file: target):\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// The check above could pass by reading no links: the docs do link into
/// the source and the games, and a made-up broken link is found.
#[test]
fn the_link_check_sees_links_and_finds_a_broken_one() {
    let root = workspace();
    let mut targets = Vec::new();
    for file in markdown_files() {
        let text = fs::read_to_string(&file).expect("a Markdown file");
        targets.extend(
            link_targets(&text)
                .into_iter()
                .filter_map(|t| local_path(&file, &t)),
        );
    }
    for folder in ["crates", "variants", "scripts", "docs/log"] {
        let under = root.join(folder);
        assert!(
            targets
                .iter()
                .any(|p| normalise(p).starts_with(normalise(&under))),
            "no link into {folder}/"
        );
    }
    let readme = root.join("README.md");
    let text = "See [a page](docs/no-such-page.md#top), [a picture](docs/none.png),\n\
                [the web](https://example.org/x.md), [here](#the-games) and\n\
                [the licence](LICENSE-MIT).\n\n| a | b |\n|---|---|\n| [cell](nowhere/) | x |\n";
    assert_eq!(
        broken_links(&readme, text),
        vec![
            "README.md: docs/no-such-page.md#top",
            "README.md: docs/none.png",
            "README.md: nowhere/",
        ]
    );
}

/// The path with `.` and `..` folded away, for comparing two paths that
/// name the same place by different ways.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The README is the front door: what kamil is, the two commands, the
/// games, the front ends, the strength in one table and where to read on;
/// everything else belongs on the shelf.
#[test]
fn the_readme_has_at_most_300_lines() {
    let text = fs::read_to_string(workspace().join("README.md")).expect("README.md");
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move sections to docs/"
    );
}

/// The text files of the repository that may cite the rule book: sources,
/// docs, variant files and scripts (not `target/`, not `node_modules/`, not
/// the books themselves).
fn citing_files() -> Vec<PathBuf> {
    let root = workspace();
    let mut out = vec![root.join("README.md")];
    let mut stack: Vec<PathBuf> = ["crates", "docs", "variants", "web", "scripts"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !["target", "node_modules", "out"].contains(&name) {
                    stack.push(path);
                }
            } else if name == "docs_links.rs" {
                // This file's own examples are not citations.
            } else if ["rs", "md", "toml", "js", "mjs", "py", "pyi", "txt"]
                .iter()
                .any(|x| name.ends_with(&format!(".{x}")))
                || !name.contains('.')
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every citation `rules/BOOK.md` in `text`, with the section that follows
/// it if any (`6.4`, `section 5`, `A5`): (book, section).
fn citations(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("rules/") {
        let after = &rest[at + "rules/".len()..];
        rest = after;
        let name_len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(after.len());
        let Some(tail) = after[name_len..].strip_prefix(".md") else {
            continue;
        };
        if name_len == 0 {
            continue;
        }
        let mut t = tail
            .trim_start_matches(['`', ',', ':'])
            .trim_start_matches(' ');
        t = t
            .strip_prefix("sections ")
            .or_else(|| t.strip_prefix("section "))
            .unwrap_or(t);
        let token: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
            .collect();
        let token = token.trim_end_matches('.');
        let section = (token.chars().next().is_some_and(|c| c.is_ascii_digit())
            || (token.len() > 1
                && token.starts_with(|c: char| c.is_ascii_uppercase())
                && token[1..].chars().all(|c| c.is_ascii_digit())))
        .then(|| token.to_string());
        out.push((after[..name_len].to_string(), section));
    }
    out
}

/// Whether the book `text` has the section `section`: a heading numbered
/// so (`## 5.` or `### 6.4 `) for a number, the word itself for an item
/// such as `A5` or `B15`.
fn has_section(text: &str, section: &str) -> bool {
    if section.starts_with(|c: char| c.is_ascii_digit()) {
        text.lines().any(|l| {
            let Some(l) = l.strip_prefix('#') else {
                return false;
            };
            let l = l.trim_start_matches('#');
            l.starts_with(' ')
                && l.trim_start().strip_prefix(section).is_some_and(|r| {
                    r.starts_with(' ')
                        || r.strip_prefix('.')
                            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_digit()))
                })
        })
    } else {
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == section)
    }
}

/// A citation of the rule book sends the reader to `rules/` in this
/// repository (issue 80): every `rules/BOOK.md` named in the sources, docs
/// and variant files is there, and the section it names is a heading (or,
/// for an item such as `A5`, a word) of that book.
#[test]
fn every_rule_book_citation_names_a_book_and_section_here() {
    let root = workspace();
    let mut bad = Vec::new();
    let mut seen = 0;
    let mut sections = 0;
    for file in citing_files() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (book, section) in citations(&text) {
            seen += 1;
            let path = root.join("rules").join(format!("{book}.md"));
            let Ok(book_text) = fs::read_to_string(&path) else {
                bad.push(format!("{shown}: rules/{book}.md is not in the repository"));
                continue;
            };
            if let Some(s) = section {
                sections += 1;
                if !has_section(&book_text, &s) {
                    bad.push(format!("{shown}: rules/{book}.md has no section {s}"));
                }
            }
        }
    }
    assert!(
        seen > 100,
        "only {seen} citations found: is the scan reading the sources?"
    );
    assert!(sections > 50, "only {sections} sections cited");
    assert!(
        bad.is_empty(),
        "{} bad citations:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The citation reader finds a book and its section, and the section check
/// tells a heading that exists from one that does not.
#[test]
fn the_citation_check_reads_books_and_sections() {
    let text = "see rules/chu-shogi.md 6.4. Also `rules/tamerlane.md`, section 5; \
                rules/courier.md: A5 and crates/rules/src/lib.rs and rules/x.md.";
    assert_eq!(
        citations(text),
        vec![
            ("chu-shogi".to_string(), Some("6.4".to_string())),
            ("tamerlane".to_string(), Some("5".to_string())),
            ("courier".to_string(), Some("A5".to_string())),
            ("x".to_string(), None),
        ]
    );
    let book = "# Book\n\n## 5. Promotion\n\n### 6.4 Lion trading\n\nA5: an item.\n";
    assert!(has_section(book, "5"));
    assert!(has_section(book, "6.4"));
    assert!(has_section(book, "A5"));
    assert!(!has_section(book, "6"));
    assert!(!has_section(book, "6.5"));
    assert!(!has_section(book, "A6"));
}
