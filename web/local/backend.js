// The page's back end without a server (issue 79): kamil in WebAssembly
// answers the calls of api.js with the JSON of `kamil serve`. The games
// live here, on the page's thread (PageBackend: quick calls); searches and
// reviews run in a Web Worker (worker.js, PageEngine), so that the page
// never waits on the engine. Their progress arrives as the server's events
// (`info`, `review`; `state` and `bestmove` from the back end) on an object
// with EventSource's interface.
//
// Stop: a worker cannot be interrupted mid-search without shared memory
// (which static hosts do not allow), so `stop` terminates it and starts a
// fresh one for the next search (its table is lost). A stopped search
// answers with its deepest iteration so far, as the server's answers with
// its best move so far; a stopped review with the positions evaluated.

import init, { PageBackend } from '../wasm/pkg/kamil_wasm.js';

const WASM = new URL('../wasm/pkg/kamil_wasm_bg.wasm', import.meta.url);
/** Longest search the page may ask for, ms (the server's default bound). */
const MAX_MOVETIME_MS = 30000;
/** Each worker's hash table, MB. */
const HASH_MB = 64;

/** The module compiled once, for the page and every worker. */
async function compile() {
  const res = await fetch(WASM);
  if (!res.ok) throw new Error(`${WASM.pathname}: ${res.status} ${res.statusText}`);
  // Not compileStreaming: a static host may not say application/wasm.
  return WebAssembly.compile(await res.arrayBuffer());
}

/** A game's events: EventSource's interface (addEventListener, close). */
class LocalEvents extends EventTarget {
  constructor(hub, id, hello) {
    super();
    this.hub = hub;
    this.id = id;
    this.onerror = null;
    this.readyState = 1;
    hub.add(this);
    // As the server's stream does, a `state` event first.
    setTimeout(() => this.dispatch('state', hello), 0);
  }

  dispatch(name, data) {
    if (this.readyState === 2) return;
    this.dispatchEvent(new MessageEvent(name, { data }));
  }

  close() {
    this.readyState = 2;
    this.hub.delete(this);
  }
}

/** The game id of an API path `/games/{id}...`, else null. */
function gameOf(path) {
  const m = /^\/games\/([^/?]+)/.exec(path);
  return m ? decodeURIComponent(m[1]) : null;
}

export async function start() {
  const module = await compile();
  await init({ module_or_path: module });
  const backend = new PageBackend(MAX_MOVETIME_MS);
  const watchers = new Set();
  const emit = (id, name, data) => {
    for (const es of [...watchers]) if (es.id === id) es.dispatch(name, data);
  };

  /** One synchronous call of the back end: { status, data }. */
  const raw = (method, path, body) => {
    const a = JSON.parse(backend.call(method, path, body === undefined ? '' : JSON.stringify(body)));
    const id = gameOf(path) ?? a.body?.id;
    for (const [name, data] of a.events) emit(id, name, data);
    return { status: a.status, data: a.body };
  };

  let worker = null;
  /** The job running: { id, kind, last info, evals, finish }. */
  let running = null;

  const spawn = () => {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.postMessage({ type: 'init', module, hashMb: HASH_MB });
    w.onmessage = (e) => {
      const r = running;
      if (!r || w !== worker) return;
      const m = e.data;
      if (m.type === 'info') {
        r.info = JSON.parse(m.data);
        emit(r.id, 'info', m.data);
      } else if (m.type === 'review') {
        const ev = JSON.parse(m.data);
        r.evals[ev.ply] = ev;
        emit(r.id, 'review', m.data);
      } else if (m.type === 'result') {
        r.finish(r.kind === 'think' ? { result: JSON.parse(m.data) } : { evals: JSON.parse(m.data) });
      } else if (m.type === 'error') {
        r.finish({ error: m.message });
      }
    };
    w.onerror = (e) => {
      e.preventDefault?.();
      if (w !== worker) return;
      worker = null;
      w.terminate();
      running?.finish({ error: `the engine's worker failed: ${e.message ?? 'unknown error'}` });
    };
    return w;
  };

  /** Runs a job in the worker; resolves to the body of its `done` call. */
  const runJob = (id, kind, job) => new Promise((resolve) => {
    const r = { id, kind, info: null, evals: [], finish: null };
    r.finish = (payload) => {
      if (running === r) running = null;
      resolve(payload);
    };
    running = r;
    worker ??= spawn();
    worker.postMessage({ type: kind, job });
  });

  /** Stops the job running on game `id`: the worker goes, what it found stays. */
  const abort = (id) => {
    const r = running;
    if (!r || r.id !== id) return false;
    worker?.terminate();
    worker = null;
    if (r.kind === 'think') {
      const i = r.info;
      const result = i && {
        best: i.pv?.[0] ?? null, score: i.score, side: i.side, depth: i.depth, nodes: i.nodes, time_ms: i.time_ms, pv: i.pv ?? [],
      };
      r.finish({ result });
    } else {
      const evals = [];
      for (let k = 0; r.evals[k]; k += 1) evals.push(r.evals[k]);
      r.finish({ evals });
    }
    return true;
  };

  const request = async (method, path, body) => {
    const id = gameOf(path);
    const job = /^\/games\/[^/]+\/(engine|review)$/.exec(path);
    if (method === 'POST' && job) {
      const asked = raw(method, path, body);
      if (asked.status !== 200) return asked;
      const kind = job[1] === 'engine' ? 'think' : 'review';
      const done = await runJob(id, kind, asked.data.job);
      return raw('POST', `${path}/done`, done);
    }
    const answer = raw(method, path, body);
    // A change, a removal or a stop ends the game's search, as the server's do.
    if (id && method !== 'GET' && answer.status < 400 && !/\/moves$/.test(path)) abort(id);
    return answer;
  };

  const hub = { add: (es) => watchers.add(es), delete: (es) => watchers.delete(es) };
  const events = (id) => {
    const s = raw('GET', `/games/${encodeURIComponent(id)}/state`);
    return new LocalEvents(hub, id, JSON.stringify(s.data ?? {}));
  };

  return { request, events };
}
