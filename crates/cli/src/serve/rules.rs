//! `GET /api/variants/{name}/rules[?KEY=VALUE...]`: a built-in game's rules
//! in words, for the page's rules panel: its sections, Markdown rendered as
//! HTML (raw HTML in the text is escaped, not passed on), the places of the
//! piece diagrams, and the variant drawn (pieces with their help, the data
//! of each diagram) with the options given.

use super::error::ApiError;
use super::extract::{Path, Query};
use super::state::AppState;
use axum::Json;
use axum::extract::State;
use kamil_rules::rules_text::{self, Part};
use kamil_rules::variant::BUILTIN;
use pulldown_cmark::{Event, Options, Parser, html};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

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

/// `GET /api/variants/{name}/rules`: the rules of built-in game `name`
/// with the options of the query string (`?albers-queen=true`).
/// Returns `{variant, title, file, chosen, sections: [{level, title,
/// only, parts: [{html} | {diagram: key, kind}]}], view}` where `view` is
/// the variant as `GET /api/variants/{name}` draws it.
///
/// Errors: 404 for an unknown game, 400 for an unknown option or value,
/// 500 if a built-in rules text fails its checks (the tests forbid it).
pub async fn get_rules(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    Query(options): Query<BTreeMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    if !BUILTIN.iter().any(|(n, _)| *n == name) {
        return Err(ApiError::not_found(format!(
            "no built-in game `{}`; see /api/variants",
            kamil_rules::excerpt(&name)
        )));
    }
    let options: Vec<(String, String)> = options.into_iter().collect();
    let v = app.variants.get(&name, &options)?;
    let rules = rules_text::builtin(&v).map_err(|e| ApiError::internal(e.to_string()))?;
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
    Ok(Json(json!({
        "variant": v.name,
        "title": rules.title,
        "file": rules.file,
        "chosen": v.chosen.iter().map(|(k, x)| (k.clone(), Value::String(x.clone()))).collect::<serde_json::Map<_, _>>(),
        "sections": sections,
        "view": app.variants.view(&v),
    })))
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
