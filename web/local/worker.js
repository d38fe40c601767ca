// The engine of the page without a server: a Web Worker running kamil in
// WebAssembly (PageEngine), so that searches and reviews never freeze the
// page. Messages in: {type: 'init', module, hashMb} first, then
// {type: 'think' | 'review', job}; out: {type: 'info' | 'review', data}
// (the server's event data, JSON text) as it goes, then {type: 'result',
// data} or {type: 'error', message}. See backend.js.

import init, { PageEngine } from '../wasm/pkg/kamil_wasm.js';

let ready = null;
let engine = null;

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === 'init') {
    ready = init({ module_or_path: m.module }).then(() => {
      engine = new PageEngine(m.hashMb);
    });
    return;
  }
  try {
    await ready;
    const job = JSON.stringify(m.job);
    if (m.type === 'think') {
      const r = engine.think(job, (data) => self.postMessage({ type: 'info', data }));
      self.postMessage({ type: 'result', data: r });
    } else if (m.type === 'review') {
      const r = engine.review(job, (data) => self.postMessage({ type: 'review', data }));
      self.postMessage({ type: 'result', data: r });
    }
  } catch (err) {
    self.postMessage({ type: 'error', message: String(err?.message ?? err) });
  }
};
