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
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `GET /api/variants/{name}/rules`: the rules of built-in game `name`
/// with the options of the query string (`?albers-queen=true`), as
/// [`kamil_page::rules::rules_json`] reads them.
///
/// Errors: 404 for an unknown game, 400 for an unknown option or value,
/// 500 if a built-in rules text fails its checks (the tests forbid it).
pub async fn get_rules(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    Query(options): Query<BTreeMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let options: Vec<(String, String)> = options.into_iter().collect();
    Ok(Json(kamil_page::rules::rules_json(
        &app.variants,
        &name,
        &options,
    )?))
}
