//! A game's rules in words: Markdown beside its variant file
//! (`variants/NAME.rules.md`; a user's `foo.toml` may carry `foo.rules.md`),
//! read into sections, with a marker where each piece's diagram goes.
//!
//! The structure (checked by [`RulesText::parse`]):
//!
//! - one `# Title` heading first;
//! - `## ` sections, among them these seven, each once:
//!   [`REQUIRED_SECTIONS`] (`Board and setup`, `Pieces`, `Promotion`,
//!   `Special rules`, `End of the game`, `Options`, `Sources`);
//! - a `## Only in NAME[, NAME...][: words]` section (and the `### `
//!   sections under it) applies only to the variants it names: variants of
//!   one game share a file and keep their differences there;
//! - `### ` sub-sections, under a `## ` section;
//! - a paragraph that is exactly `[diagram: KEY]` is the place of the
//!   diagram of the piece whose variant-file key is `KEY` (drawn by the
//!   front end from [`crate::diagram::reach`]); markers stand under
//!   `## Pieces` or an `Only in` section.
//!
//! [`RulesText::for_variant`] keeps the sections that apply to a variant
//! and checks that they cover it: every piece type has exactly one diagram
//! marker, and every option is named as inline code (`` `name` ``), with
//! each of its values (`` `value` `` or `` `name=value` ``) unless they are
//! only `true` and `false`.

use crate::Variant;
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use std::fmt;

/// The `## ` sections every rules text has, in the order a reader expects.
pub const REQUIRED_SECTIONS: [&str; 7] = [
    "Board and setup",
    "Pieces",
    "Promotion",
    "Special rules",
    "End of the game",
    "Options",
    "Sources",
];

/// (rules file name, Markdown) of the built-in games' rules texts, from
/// `variants/` (written by the build script).
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/rules_files.rs"));

/// (built-in variant name, its rules file name), in listing order: a
/// variant without a file of its own shares that of the game it
/// `extends` (written by the build script).
pub const BUILTIN_RULES: &[(&str, &str)] =
    include!(concat!(env!("OUT_DIR"), "/rules_of_variant.rs"));

/// The rules file of a built-in variant: takes its name; returns
/// (file name, Markdown).
///
/// Errors: a [`RulesTextError`] naming the variant when it has no rules
/// file (an unknown name, or a built-in without one).
pub fn builtin_file(variant: &str) -> Result<(&'static str, &'static str), RulesTextError> {
    BUILTIN_RULES
        .iter()
        .find(|(n, _)| *n == variant)
        .and_then(|(_, f)| FILES.iter().find(|(name, _)| name == f))
        .copied()
        .ok_or_else(|| RulesTextError {
            file: format!("{variant}.rules.md"),
            line: None,
            what: format!("no built-in rules text for variant `{variant}`"),
        })
}

/// The rules of a built-in variant, as [`RulesText::for_variant`] gives
/// them: takes the compiled variant (options in force).
///
/// Errors: no rules file for it, or its file is malformed or does not
/// cover the variant (the message names the file and line).
pub fn builtin(v: &Variant) -> Result<VariantRules, RulesTextError> {
    let (file, text) = builtin_file(&v.name)?;
    RulesText::parse(file, text)?.for_variant(v)
}

/// A rules text that cannot be used: the file, the line when known, what
/// is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RulesTextError {
    /// The rules file's name.
    pub file: String,
    /// 1-based line, when the problem has one.
    pub line: Option<usize>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for RulesTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// One part of a section's body, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Markdown source (one or more blocks).
    Text(String),
    /// The diagram of the piece with this variant-file key.
    Diagram {
        /// The piece's key (`drunk-elephant`).
        key: String,
        /// 1-based line of the marker.
        line: usize,
    },
}

/// A heading and what follows it up to the next heading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// 1 (the title), 2 (`## `) or 3 (`### `).
    pub level: u8,
    /// The heading's text.
    pub title: String,
    /// 1-based line of the heading.
    pub line: usize,
    /// The variants it applies to (its own or its `## ` parent's `Only in`
    /// heading); `None`: every variant of the file.
    pub only: Option<Vec<String>>,
    /// Its body.
    pub parts: Vec<Part>,
    /// The inline code spans of its body (option names and values).
    pub codes: Vec<String>,
}

/// A parsed rules file: its title and sections, for every variant it
/// serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesText {
    /// File name, for errors.
    pub file: String,
    /// The `# ` heading.
    pub title: String,
    /// Every section, the title's own (level 1, its introduction) first.
    pub sections: Vec<Section>,
}

/// A rules text as it applies to one variant, checked to cover it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantRules {
    /// The rules file's name.
    pub file: String,
    /// The variant's name.
    pub variant: String,
    /// The file's title.
    pub title: String,
    /// The sections that apply to the variant, in order.
    pub sections: Vec<Section>,
}

/// The key of a diagram marker paragraph (`[diagram: KEY]`), if it is one.
fn marker(source: &str) -> Option<&str> {
    let key = source
        .trim()
        .strip_prefix("[diagram:")?
        .strip_suffix(']')?
        .trim();
    let ok = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then_some(key)
}

/// The variants an `Only in A, B: words` heading names, if it is one.
fn only_in(title: &str) -> Option<Vec<String>> {
    let rest = title.strip_prefix("Only in ")?;
    let names = rest.split(':').next().unwrap_or("");
    let v: Vec<String> = names
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    (!v.is_empty()).then_some(v)
}

/// The checks of a whole file's sections: a title, each required section
/// once, diagram markers only where they may stand. Returns the title.
fn check_structure(file: &str, sections: &[Section]) -> Result<String, RulesTextError> {
    let err = |line: Option<usize>, what: String| RulesTextError {
        file: file.to_string(),
        line,
        what,
    };
    let Some(first) = sections.first() else {
        return Err(err(None, "no `#` title".into()));
    };
    let title = first.title.clone();
    for want in REQUIRED_SECTIONS {
        let found: Vec<&Section> = sections
            .iter()
            .filter(|s| s.level == 2 && s.title == want)
            .collect();
        match found.as_slice() {
            [] => return Err(err(None, format!("no `## {want}` section"))),
            [_] => {}
            [_, again, ..] => {
                return Err(err(
                    Some(again.line),
                    format!("a second `## {want}` section"),
                ));
            }
        }
    }
    // Markers stand under `## Pieces` or an `Only in` section.
    let mut h2 = "";
    for s in sections {
        if s.level <= 2 {
            h2 = &s.title;
        }
        let allowed = h2 == "Pieces" || s.only.is_some();
        for p in &s.parts {
            if let Part::Diagram { key, line } = p
                && !allowed
            {
                return Err(err(
                    Some(*line),
                    format!(
                        "the diagram of `{key}` stands outside `## Pieces` and `Only in` sections"
                    ),
                ));
            }
        }
    }
    Ok(title)
}

impl RulesText {
    /// Reads a rules file: takes its name (for errors) and its Markdown;
    /// returns its sections (see the module comment for the structure).
    ///
    /// Errors: text before the title, a second title, a heading deeper
    /// than `### ` or a `### ` before any `## `, a required section
    /// missing or repeated, a diagram marker outside `## Pieces` and
    /// `Only in` sections; each names the file and, where there is one,
    /// the line.
    pub fn parse(file: &str, text: &str) -> Result<RulesText, RulesTextError> {
        let err = |line: Option<usize>, what: String| RulesTextError {
            file: file.to_string(),
            line,
            what,
        };
        let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
        let mut sections: Vec<Section> = Vec::new();
        let mut depth = 0usize;
        // The heading being read: (level, line, text).
        let mut heading: Option<(u8, usize, String)> = None;
        let mut parent_only: Option<Vec<String>> = None;
        for (event, range) in
            Parser::new_ext(text, pulldown_cmark::Options::ENABLE_TABLES).into_offset_iter()
        {
            match event {
                Event::Start(Tag::Heading { level, .. }) if depth == 0 => {
                    let level = match level {
                        HeadingLevel::H1 => 1,
                        HeadingLevel::H2 => 2,
                        HeadingLevel::H3 => 3,
                        _ => {
                            return Err(err(
                                Some(line_of(range.start)),
                                "headings go down to `###` only".into(),
                            ));
                        }
                    };
                    heading = Some((level, line_of(range.start), String::new()));
                    depth += 1;
                    continue;
                }
                Event::End(TagEnd::Heading(_)) if depth == 1 => {
                    depth = 0;
                    let Some((level, line, title)) = heading.take() else {
                        continue;
                    };
                    let title = title.trim().to_string();
                    match (level, sections.is_empty()) {
                        (1, false) => {
                            return Err(err(Some(line), "a second `#` title".into()));
                        }
                        (2 | 3, true) => {
                            return Err(err(
                                Some(line),
                                "the file must begin with a `#` title".into(),
                            ));
                        }
                        (3, false) if sections.iter().all(|s| s.level != 2) => {
                            return Err(err(Some(line), "a `###` section before any `##`".into()));
                        }
                        _ => {}
                    }
                    let only = match level {
                        2 => {
                            parent_only = only_in(&title);
                            parent_only.clone()
                        }
                        3 => parent_only.clone(),
                        _ => None,
                    };
                    sections.push(Section {
                        level,
                        title,
                        line,
                        only,
                        parts: Vec::new(),
                        codes: Vec::new(),
                    });
                    continue;
                }
                _ => {}
            }
            if let Some((_, _, title)) = heading.as_mut() {
                if let Event::Text(t) | Event::Code(t) = &event {
                    title.push_str(t);
                }
                continue;
            }
            let top = depth == 0;
            match &event {
                Event::Start(_) => depth += 1,
                Event::End(_) => depth = depth.saturating_sub(1),
                _ => {}
            }
            let Some(section) = sections.last_mut() else {
                let blank = matches!(&event, Event::Text(t) if t.trim().is_empty());
                if !blank {
                    return Err(err(
                        Some(line_of(range.start)),
                        "text before the `#` title".into(),
                    ));
                }
                continue;
            };
            if let Event::Code(c) = &event {
                section.codes.push(c.to_string());
            }
            if !top {
                continue;
            }
            // A whole block at the top level.
            let source = &text[range.clone()];
            let is_paragraph = matches!(event, Event::Start(Tag::Paragraph));
            match (is_paragraph, marker(source)) {
                (true, Some(key)) => section.parts.push(Part::Diagram {
                    key: key.to_string(),
                    line: line_of(range.start),
                }),
                _ => {
                    let source = source.trim_end();
                    if source.is_empty() {
                        continue;
                    }
                    match section.parts.last_mut() {
                        Some(Part::Text(t)) => {
                            t.push_str("\n\n");
                            t.push_str(source);
                        }
                        _ => section.parts.push(Part::Text(source.to_string())),
                    }
                }
            }
        }
        let title = check_structure(file, &sections)?;
        Ok(RulesText {
            file: file.to_string(),
            title,
            sections,
        })
    }

    /// The rules as they apply to variant `v`: takes the compiled variant;
    /// returns the sections for it (its `Only in` sections kept, other
    /// variants' dropped).
    ///
    /// Errors (naming the file, and the line where there is one): a piece
    /// type of `v` without a diagram marker or with two, a marker naming
    /// no piece of `v`, an option of `v` or one of its values not named.
    pub fn for_variant(&self, v: &Variant) -> Result<VariantRules, RulesTextError> {
        let err = |line: Option<usize>, what: String| RulesTextError {
            file: self.file.clone(),
            line,
            what,
        };
        let sections: Vec<Section> = self
            .sections
            .iter()
            .filter(|s| s.only.as_ref().is_none_or(|o| o.contains(&v.name)))
            .cloned()
            .collect();
        let markers: Vec<(&str, usize)> = sections
            .iter()
            .flat_map(|s| &s.parts)
            .filter_map(|p| match p {
                Part::Diagram { key, line } => Some((key.as_str(), *line)),
                Part::Text(_) => None,
            })
            .collect();
        for (i, &(key, line)) in markers.iter().enumerate() {
            if v.piece_by_key(key).is_none() {
                return Err(err(
                    Some(line),
                    format!("`{key}` is no piece of variant `{}`", v.name),
                ));
            }
            if markers[..i].iter().any(|&(k, _)| k == key) {
                return Err(err(
                    Some(line),
                    format!("a second diagram of `{key}` for variant `{}`", v.name),
                ));
            }
        }
        for p in &v.pieces {
            if !markers.iter().any(|&(k, _)| k == p.key) {
                return Err(err(
                    None,
                    format!(
                        "no `[diagram: {}]` for the {} of variant `{}`",
                        p.key, p.name, v.name
                    ),
                ));
            }
        }
        let named = |word: &str| {
            sections
                .iter()
                .flat_map(|s| &s.codes)
                .any(|c| c.trim() == word)
        };
        for o in &v.options {
            if !named(&o.name) {
                return Err(err(
                    None,
                    format!(
                        "option `{}` of variant `{}` is not named (as inline code)",
                        o.name, v.name
                    ),
                ));
            }
            let boolean = o.values.iter().all(|x| x == "true" || x == "false");
            if boolean {
                continue;
            }
            for val in &o.values {
                if !named(val) && !named(&format!("{}={val}", o.name)) {
                    return Err(err(
                        None,
                        format!(
                            "value `{val}` of option `{}` (variant `{}`) is not named (as inline code)",
                            o.name, v.name
                        ),
                    ));
                }
            }
        }
        Ok(VariantRules {
            file: self.file.clone(),
            variant: v.name.clone(),
            title: self.title.clone(),
            sections,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_only_in_headings_are_read() {
        assert_eq!(
            marker("[diagram: drunk-elephant]\n"),
            Some("drunk-elephant")
        );
        assert_eq!(marker("[diagram: ]"), None);
        assert_eq!(marker("see [diagram: king] here"), None);
        assert_eq!(
            only_in("Only in courier-modern, courier-albers: what differs"),
            Some(vec!["courier-modern".into(), "courier-albers".into()])
        );
        assert_eq!(only_in("Options"), None);
    }
}
