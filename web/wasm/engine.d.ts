// Types of engine.js: kamil's engine worker seen from the page.

/** Options of a {@link KamilEngine}. */
export interface KamilEngineOptions {
  /**
   * Makes the worker. Default: a module Web Worker of worker.js beside
   * engine.js. In Node: `() => new Worker(new URL('kamil-wasm/worker', import.meta.url))`
   * from `node:worker_threads`.
   */
  worker?: () => Worker | import('node:worker_threads').Worker;
  /**
   * Use a shared stop count, so that `stop` ends a search at once.
   * Default: where `SharedArrayBuffer` is available and the page is
   * cross-origin isolated. Without it `stop` during a search ends the
   * worker and starts another in its state (the hash table is lost).
   */
  shared?: boolean;
}

/** A UCI or USI conversation with kamil in a worker. */
export class KamilEngine {
  constructor(options?: KamilEngineOptions);
  /** Called with each line the engine says (`info ...`, `bestmove ...`). */
  onLine: ((line: string) => void) | null;
  /**
   * Sends one line of UCI or USI. The first line chooses the protocol:
   * `usi` speaks USI, anything else UCI.
   */
  send(line: string): void;
  /** Ends the worker. */
  terminate(): void;
}
