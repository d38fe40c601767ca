//! The games a target's first byte chooses from: every built-in variant
//! with its default options, then with each other value of each of its
//! options, compiled once per process.

use kamil_rules::Variant;
use kamil_rules::variant::BUILTIN;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A built-in variant's name and option choices.
type Choice = (&'static str, Vec<(String, String)>);

/// Every built-in variant with its defaults, then with one option changed
/// (its other values; `true`/`false` options flipped), in a fixed order.
fn choices() -> &'static [Choice] {
    static CHOICES: OnceLock<Vec<Choice>> = OnceLock::new();
    CHOICES.get_or_init(|| {
        let mut out = Vec::new();
        for (name, _) in BUILTIN {
            out.push((*name, Vec::new()));
        }
        for (name, _) in BUILTIN {
            let v = Variant::builtin(name, &[]).expect("built-in variants load");
            for o in &v.options {
                for value in &o.values {
                    if *value != o.default {
                        out.push((*name, vec![(o.name.clone(), value.clone())]));
                    }
                }
            }
        }
        out
    })
}

/// The variant chosen by `byte` (modulo the number of choices), compiled
/// once.
pub fn by_byte(byte: u8) -> Arc<Variant> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<Variant>>>> = OnceLock::new();
    let all = choices();
    let i = byte as usize % all.len();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(i)
        .or_insert_with(|| {
            let (name, opts) = &all[i];
            Arc::new(
                Variant::builtin(name, opts)
                    .unwrap_or_else(|e| panic!("{name} with {opts:?} should load: {e}")),
            )
        })
        .clone()
}

/// The built-in variant `name` with `options`, compiled once; `None` if it
/// does not load.
pub fn named(name: &str, options: &[(String, String)]) -> Option<Arc<Variant>> {
    type Key = (String, Vec<(String, String)>);
    static CACHE: OnceLock<Mutex<HashMap<Key, Option<Arc<Variant>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (name.to_string(), options.to_vec());
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(v) = cache.get(&key) {
        return v.clone();
    }
    let v = Variant::builtin(name, options).ok().map(Arc::new);
    // Fuzzed names and options are many (numeric options take any
    // number): keep only some of the ones that load.
    if v.is_some() && cache.len() < 256 {
        cache.insert(key, v.clone());
    }
    v
}
