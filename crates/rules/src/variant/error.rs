//! Errors of variant loading, with the file, line and key they concern.

use serde_path_to_error::Segment;
use std::fmt;

/// A variant file that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct VariantError {
    /// File name or built-in name.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// Dotted key, when known.
    pub key: Option<String>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(k) = &self.key {
            write!(f, ": key `{k}`")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// A [`VariantError`] for `file` whose TOML `text` holds the dotted `key`
/// (its line found when it can be).
pub(crate) fn err(
    file: &str,
    key: Option<&str>,
    text: &str,
    what: impl Into<String>,
) -> VariantError {
    VariantError {
        file: file.to_string(),
        line: key.and_then(|k| find_line(text, k)),
        key: key.map(str::to_string),
        what: what.into(),
    }
}

/// Best-effort line of a dotted key: the `[table]` header, then the key.
pub(crate) fn find_line(text: &str, key: &str) -> Option<usize> {
    let parts: Vec<&str> = key.split('.').collect();
    let lines: Vec<&str> = text.lines().collect();
    // From the longest header: a key may name a table (`[special.checker]`).
    for split in (0..=parts.len()).rev() {
        let header = format!("[{}]", parts[..split].join("."));
        let start = if split == 0 {
            Some(0)
        } else {
            lines.iter().position(|l| l.trim() == header)
        };
        let Some(start) = start else { continue };
        let rest = &parts[split..];
        if rest.is_empty() {
            return Some(start + 1);
        }
        let dotted = rest.join(".");
        for (i, l) in lines.iter().enumerate().skip(start) {
            if i > start && split > 0 && l.trim_start().starts_with('[') {
                break;
            }
            let t = l.trim_start();
            if t.starts_with(&format!("{dotted} ")) || t.starts_with(&format!("{dotted}=")) {
                return Some(i + 1);
            }
        }
        if split > 0 {
            return Some(start + 1);
        }
    }
    None
}

/// A [`VariantError`] for a TOML syntax error in `file`, whose text is
/// `text`.
pub(crate) fn toml_error(file: &str, text: &str, e: &toml::de::Error) -> VariantError {
    VariantError {
        file: file.to_string(),
        line: e.span().map(|s| line_at(text, s.start)),
        key: None,
        what: e.message().trim().to_string(),
    }
}

/// Reads a `T` of the variant file's schema from `de` (the TOML `text` of
/// `file`, or a table merged from it).
///
/// Errors: what serde found wrong (an unknown key, a missing one, a value
/// of the wrong type, a choice not offered), with the dotted key where it
/// was found and its line: where the error lies in `text` when `de` read
/// `text`, else the key's line in `text`, if it is there.
pub(crate) fn from_schema<'de, T, D>(file: &str, text: &str, de: D) -> Result<T, VariantError>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de, Error = toml::de::Error>,
{
    serde_path_to_error::deserialize(de).map_err(|e| {
        // Array elements are named by their array's key, as in `find_line`.
        let key: Vec<&str> = e
            .path()
            .iter()
            .filter_map(|seg| match seg {
                Segment::Map { key } => Some(key.as_str()),
                Segment::Enum { variant } => Some(variant.as_str()),
                Segment::Seq { .. } | Segment::Unknown => None,
            })
            .collect();
        let key = (!key.is_empty()).then(|| key.join("."));
        let inner = e.inner();
        let line = match inner.span() {
            Some(s) => Some(line_at(text, s.start)),
            None => key.as_deref().and_then(|k| find_line(text, k)),
        };
        VariantError {
            file: file.to_string(),
            line,
            key,
            what: inner.message().trim().to_string(),
        }
    })
}

/// The 1-based line of byte `offset` of `text`.
fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}
