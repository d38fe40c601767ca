// kamil's worker (worker.js, through engine.js's KamilEngine) in a Node
// worker thread, with the same interface as common.mjs's native process:
// send lines, wait for a line that starts with a word.

import { Worker } from 'node:worker_threads';
// Through the package's own name and exports (package.json), as a user
// of the package imports them.
import { KamilEngine } from 'kamil-wasm/engine';
import { lineQueue } from './common.mjs';

const WORKER = new URL(import.meta.resolve('kamil-wasm/worker'));

/**
 * A worker engine. `shared: false` leaves out the shared stop count, as in
 * a page that is not cross-origin isolated (stop restarts the worker).
 */
export function workerEngine({ shared = true } = {}) {
  const engine = new KamilEngine({ worker: () => new Worker(WORKER), shared });
  const q = lineQueue();
  engine.onLine = (l) => q.push(l);
  return {
    engine,
    send: (l) => engine.send(l),
    until: q.until,
    /** Lines said so far and not yet taken. */
    take: q.take,
    quit: () => engine.terminate(),
  };
}
