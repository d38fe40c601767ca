//! The compiled variants, shared between games, with their JSON views, and
//! the list of the built-in games.

use crate::error::PageError;
use crate::json::{options_view, variant_view};
use kamil_engine::Skill;
use kamil_engine::skill::elo;
use kamil_protocol::input::cut_echoes;
use kamil_rules::board_text::side_name;
use kamil_rules::variant::BUILTIN;
use kamil_rules::{Side, Variant};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Locks a mutex; a panic elsewhere while it was held (which the release
/// build turns into an abort anyway) does not make it unusable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A variant's name and options in force, as a cache key.
type VariantKey = (String, Vec<(String, String)>);

/// Compiled variants by (name, options), shared between games, and their
/// JSON views (which take some work: the help of every piece).
pub struct Variants {
    cache: Mutex<HashMap<VariantKey, Arc<Variant>>>,
    views: Mutex<HashMap<VariantKey, Value>>,
}

/// Most (variant, options) pairs kept compiled.
const VARIANT_CACHE: usize = 64;

impl Default for Variants {
    fn default() -> Variants {
        Variants::new()
    }
}

impl Variants {
    /// An empty cache.
    pub fn new() -> Variants {
        Variants {
            cache: Mutex::new(HashMap::new()),
            views: Mutex::new(HashMap::new()),
        }
    }

    /// The built-in variant `name` with `options`, compiled once.
    ///
    /// Errors: 400 for an unknown variant, option or value.
    pub fn get(&self, name: &str, options: &[(String, String)]) -> Result<Arc<Variant>, PageError> {
        let mut opts = options.to_vec();
        opts.sort();
        let key = (name.to_string(), opts);
        if let Some(v) = lock(&self.cache).get(&key) {
            return Ok(v.clone());
        }
        // The loader names the variant and options as given: cut long ones.
        let v = Variant::builtin(name, options).map_err(|e| {
            let echoed = std::iter::once(name)
                .chain(options.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]));
            PageError::bad(cut_echoes(&e.to_string(), echoed))
        })?;
        let v = Arc::new(v);
        let mut cache = lock(&self.cache);
        if cache.len() < VARIANT_CACHE {
            cache.insert(key, v.clone());
        }
        Ok(v)
    }

    /// The JSON view of `v` ([`variant_view`]), built once per variant and
    /// options in force.
    pub fn view(&self, v: &Arc<Variant>) -> Value {
        let key = (v.name.clone(), v.chosen.clone());
        if let Some(view) = lock(&self.views).get(&key) {
            return view.clone();
        }
        let view = variant_view(v);
        let mut views = lock(&self.views);
        if views.len() < VARIANT_CACHE {
            views.insert(key, view.clone());
        }
        view
    }

    /// `GET /api/variants`: the built-in games, their titles, options and
    /// the Elo of each strength level.
    ///
    /// Errors: a built-in game that does not load (the tests forbid it).
    pub fn list(&self) -> Result<Value, PageError> {
        let mut out = Vec::new();
        for (name, _) in BUILTIN {
            let v = self.get(name, &[])?;
            out.push(json!({
                "name": v.name,
                "title": if v.title.is_empty() { &v.name } else { &v.title },
                "description": v.description,
                "side_names": [side_name(&v, Side::First), side_name(&v, Side::Second)],
                "options": options_view(&v),
                "level_elo": level_elo(&v),
            }));
        }
        Ok(Value::Array(out))
    }

    /// `GET /api/variants/{name}`: one game with its default options, drawn.
    ///
    /// Errors: 404 for an unknown game.
    pub fn drawn(&self, name: &str) -> Result<Value, PageError> {
        let v = self
            .get(name, &[])
            .map_err(|e| PageError::not_found(e.message))?;
        Ok(self.view(&v))
    }
}

/// The Elo of each strength level below full strength in `v` (index:
/// level), on `UCI_Elo`'s scale (`kamil_engine::skill::elo`).
fn level_elo(v: &Variant) -> Vec<i32> {
    let ladder = elo::ladder(v);
    (0..Skill::FULL).map(|l| ladder.elo(l)).collect()
}
