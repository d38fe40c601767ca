// The host side of kamil's engine worker (worker.js): send lines, get
// lines, and `stop` that ends a search at once.
//
//   import { KamilEngine } from './engine.js';
//   const engine = new KamilEngine();               // starts worker.js beside this file
//   engine.onLine = (line) => console.log(line);
//   engine.send('usi');                             // the first line chooses USI or UCI
//   engine.send('position startpos');
//   engine.send('go infinite');
//   setTimeout(() => engine.send('stop'), 1000);    // bestmove follows at once
//
// Where SharedArrayBuffer is available (a cross-origin isolated page, or
// Node) the worker's search reads a shared stop count. Where it is not,
// `stop` during a search ends the worker and starts another, replays the
// handshake, options and position, and answers the `bestmove` of the last
// `info ... pv` line: the hash table is lost, nothing else.

const ENDS_SEARCH = new Set(['stop', 'ponderhit', 'gameover', 'quit']);

/** A conversation with kamil in a worker. */
export class KamilEngine {
  /**
   * @param {object} [o]
   * @param {() => any} [o.worker] makes the worker (default: a module
   *   Web Worker of worker.js beside this file). In Node, pass
   *   `() => new (require('node:worker_threads').Worker)(url)`.
   * @param {boolean} [o.shared] use a shared stop count (default: where
   *   SharedArrayBuffer is available and the page cross-origin isolated).
   */
  constructor(o = {}) {
    this.onLine = null;
    this.makeWorker = o.worker ?? (() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
    this.shared = o.shared ?? (typeof SharedArrayBuffer !== 'undefined' && (globalThis.crossOriginIsolated ?? true));
    this.stopCount = this.shared ? new Int32Array(new SharedArrayBuffer(4)) : null;
    this.hello = null; // the handshake's line, `uci` or `usi`
    this.options = new Map(); // each option's last setoption line: replayed on a restart
    this.position = null;
    this.searching = false;
    this.lastPv = null;
    this.lastGo = null;
    this.dialect = 'uci';
    this.start();
  }

  start() {
    this.worker = this.makeWorker();
    this.muted = false;
    const onMessage = (data) => this.receive(String(data));
    if (this.worker.addEventListener) this.worker.addEventListener('message', (e) => onMessage(e.data));
    else this.worker.on('message', onMessage);
    if (this.stopCount) this.worker.postMessage({ stop: this.stopCount });
  }

  receive(line) {
    if (line.startsWith('bestmove')) this.searching = false;
    const pv = line.match(/ pv (\S+)/);
    // The best line's move (MultiPV's first line), for a stop by restart.
    if (line.startsWith('info') && pv && !/ multipv (?!1 )\d+/.test(line)) this.lastPv = pv[1];
    if (this.muted) {
      if (line === 'readyok') this.muted = false;
      return;
    }
    this.onLine?.(line);
  }

  /** Sends one line (a command of UCI or USI). */
  send(line) {
    const word = line.trim().split(/\s+/)[0] ?? '';
    if (this.hello === null && (word === 'usi' || word === 'uci')) {
      this.hello = word;
      this.dialect = word;
    }
    if (word === 'stop' && this.searching && !this.stopCount) return this.restart(true);
    if (word === 'ponderhit' && this.searching && !this.stopCount && this.lastGo) {
      // The ponder search gives way to the search on the clock, in a new
      // worker: `go` again without `ponder`.
      const go = this.lastGo.replace(/\s+ponder\b/, '');
      this.restart(false);
      return this.send(go);
    }
    if (ENDS_SEARCH.has(word) && this.stopCount) Atomics.add(this.stopCount, 0, 1);
    if (word === 'go') {
      this.searching = true;
      this.lastPv = null;
      this.lastGo = line;
    } else if (word === 'position') this.position = line;
    else if (word === 'setoption') this.options.set(line.split(/\s+value\s/)[0].trim(), line);
    this.worker.postMessage(line);
  }

  /**
   * Without a shared stop count: a new worker in the old one's state;
   * with `answer`, the stopped search's bestmove (its last PV's move).
   */
  restart(answer) {
    this.worker.terminate();
    const best = this.lastPv ?? (this.dialect === 'usi' ? 'resign' : '(none)');
    this.searching = false;
    this.start();
    this.muted = true;
    this.worker.postMessage(this.hello ?? this.dialect);
    for (const l of this.options.values()) this.worker.postMessage(l);
    if (this.position) this.worker.postMessage(this.position);
    this.worker.postMessage('isready');
    if (answer) this.onLine?.(`bestmove ${best}`);
  }

  /** Ends the worker. */
  terminate() {
    this.worker.terminate();
  }
}
