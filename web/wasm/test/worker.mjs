// kamil's worker (worker.js, through engine.js's KamilEngine) in a Node
// worker thread, with the same interface as common.mjs's native process:
// send lines, wait for a line that starts with a word.

import { Worker } from 'node:worker_threads';
// Through the package's own name and exports (package.json), as a user
// of the package imports them.
import { KamilEngine } from 'kamil-wasm/engine';

const WORKER = new URL(import.meta.resolve('kamil-wasm/worker'));

/**
 * A worker engine. `shared: false` leaves out the shared stop count, as in
 * a page that is not cross-origin isolated (stop restarts the worker).
 */
export function workerEngine({ shared = true } = {}) {
  const engine = new KamilEngine({ worker: () => new Worker(WORKER), shared });
  const lines = [];
  const waiting = [];
  engine.onLine = (l) => {
    lines.push(l);
    while (waiting.length && lines.some((x) => x.startsWith(waiting[0].word))) {
      const w = waiting.shift();
      const i = lines.findIndex((x) => x.startsWith(w.word));
      w.resolve(lines.splice(0, i + 1));
    }
  };
  return {
    engine,
    send: (l) => engine.send(l),
    until: (word) => new Promise((resolve) => {
      const i = lines.findIndex((x) => x.startsWith(word));
      if (i >= 0) resolve(lines.splice(0, i + 1));
      else waiting.push({ word, resolve });
    }),
    /** Lines said so far and not yet taken. */
    take: () => lines.splice(0),
    quit: () => engine.terminate(),
  };
}
