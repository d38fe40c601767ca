//! The web page's back end in WebAssembly (issue 79): what `kamil serve`
//! answers, without a server. [`PageBackend`] holds the page's games on
//! the page's thread and answers its API calls by method and path with
//! the server's JSON ([`kamil_page::local::Local`]); [`PageEngine`] runs
//! the searches and reviews those calls hand out, in a Web Worker, so
//! that the page never waits on the engine (`web/local/`).

use kamil_engine::{Engine, EngineConfig};
use kamil_page::Variants;
use kamil_page::local::Local;
use kamil_page::think::Job;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A JavaScript function called with one string.
    #[wasm_bindgen(js_name = Function)]
    pub type Callback;

    #[wasm_bindgen(method, js_name = call)]
    fn call1(this: &Callback, this_arg: &JsValue, data: &str);
}

/// The page's games, answering the API's calls as the server does.
#[wasm_bindgen]
pub struct PageBackend {
    local: Local,
}

#[wasm_bindgen]
impl PageBackend {
    /// No games yet; searches of at most `max_movetime_ms`.
    #[wasm_bindgen(constructor)]
    pub fn new(max_movetime_ms: f64) -> PageBackend {
        PageBackend {
            local: Local::new(200, max_movetime_ms.max(1.0) as u64),
        }
    }

    /// Answers `method` on `path` (under `/api`, with its query string)
    /// with the JSON `body` (or empty): JSON `{status, body, events}`.
    pub fn call(&mut self, method: &str, path: &str, body: &str) -> String {
        self.local.call(method, path, body).to_json().to_string()
    }
}

/// The engine of a Web Worker: runs the jobs the back end hands out.
#[wasm_bindgen]
pub struct PageEngine {
    engine: Engine,
    variants: Variants,
}

fn job(text: &str) -> Result<Job, JsError> {
    serde_json::from_str(text).map_err(|e| JsError::new(&format!("job: {e}")))
}

#[wasm_bindgen]
impl PageEngine {
    /// An engine with a table of `hash_mb` MB and one thread.
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mb: usize) -> Result<PageEngine, JsError> {
        let engine = Engine::try_new(EngineConfig {
            hash_mb: hash_mb.max(1),
            threads: 1,
            ..EngineConfig::default()
        })
        .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(PageEngine {
            engine,
            variants: Variants::new(),
        })
    }

    /// Runs a search job (JSON), calling `on_info` with each iteration's
    /// `info` data; returns the `bestmove` data (JSON).
    pub fn think(&mut self, job_json: &str, on_info: &Callback) -> Result<String, JsError> {
        let job = job(job_json)?;
        let r = kamil_page::think::run(&mut self.engine, &self.variants, &job, &mut |v| {
            on_info.call1(&JsValue::NULL, &v.to_string())
        })
        .map_err(|e| JsError::new(&e.message))?;
        Ok(r.to_string())
    }

    /// Runs a review job (JSON), calling `on_ply` with each position's
    /// `review` data; returns them all (a JSON array).
    pub fn review(&mut self, job_json: &str, on_ply: &Callback) -> Result<String, JsError> {
        let job = job(job_json)?;
        let r = kamil_page::review_json::run(&mut self.engine, &self.variants, &job, &mut |v| {
            on_ply.call1(&JsValue::NULL, &v.to_string())
        })
        .map_err(|e| JsError::new(&e.message))?;
        Ok(r.to_string())
    }
}
