//! A built-in game's rules in words, for the page's rules panel
//! (`GET /api/variants/{name}/rules`): its sections, Markdown rendered as
//! HTML (raw HTML in the text is escaped, not passed on), the places of
//! the piece diagrams, and the variant drawn with the options given.

use crate::error::PageError;
use crate::variants::Variants;
use kamil_rules::rules_text::{self, Part};
use kamil_rules::variant::BUILTIN;
use pulldown_cmark::{Event, Options, Parser, html};
use serde_json::{Value, json};

/// Markdown as HTML; raw HTML in it is shown as text.
pub fn markdown_html(text: &str) -> String {
    let events = Parser::new_ext(text, Options::ENABLE_TABLES).map(|e| match e {
        Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
        e => e,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

/// The rules of built-in game `name` with `options`: `{variant, title,
/// file, chosen, sections: [{level, title, only, parts: [{html} |
/// {diagram: key, kind}]}], view}` where `view` is the variant drawn.
///
/// Errors: 404 for an unknown game, 400 for an unknown option or value,
/// 500 if a built-in rules text fails its checks (the tests forbid it).
pub fn rules_json(
    variants: &Variants,
    name: &str,
    options: &[(String, String)],
) -> Result<Value, PageError> {
    if !BUILTIN.iter().any(|(n, _)| *n == name) {
        return Err(PageError::not_found(format!(
            "no built-in game `{}`; see /api/variants",
            kamil_rules::excerpt(name)
        )));
    }
    let v = variants.get(name, options)?;
    let rules = rules_text::builtin(&v).map_err(|e| PageError::internal(e.to_string()))?;
    let sections: Vec<Value> = rules
        .sections
        .iter()
        .map(|s| {
            let parts: Vec<Value> = s
                .parts
                .iter()
                .map(|p| match p {
                    Part::Text(t) => json!({ "html": markdown_html(t) }),
                    Part::Diagram { key, .. } => {
                        json!({ "diagram": key, "kind": v.piece_by_key(key) })
                    }
                })
                .collect();
            json!({ "level": s.level, "title": s.title, "only": s.only, "parts": parts })
        })
        .collect();
    Ok(json!({
        "variant": v.name,
        "title": rules.title,
        "file": rules.file,
        "chosen": v.chosen.iter().map(|(k, x)| (k.clone(), Value::String(x.clone()))).collect::<serde_json::Map<_, _>>(),
        "sections": sections,
        "view": variants.view(&v),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_in_the_text_is_escaped() {
        let h = markdown_html("A *b* <script>x()</script>\n\n- `c`\n");
        assert!(h.contains("<em>b</em>"), "{h}");
        assert!(h.contains("&lt;script&gt;"), "{h}");
        assert!(!h.contains("<script>"), "{h}");
        assert!(h.contains("<li><code>c</code></li>"), "{h}");
    }
}
