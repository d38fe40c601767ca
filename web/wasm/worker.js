// kamil's engine in a Web Worker (or a Node worker thread): UCI or USI
// lines in, lines out, as stockfish.js and fairy-stockfish.wasm are used.
//
//   const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
//   w.onmessage = (e) => console.log(e.data);     // one line per message
//   w.postMessage('uci');                         // or 'usi': the first line chooses
//
// The first line chooses the protocol (`usi` speaks USI, anything else
// UCI). `stop` during a search is seen at once only through a shared stop
// count: post `{ stop: Int32Array }` (over a SharedArrayBuffer) before any
// line, and raise its element 0 by one before posting each `stop`,
// `ponderhit`, `gameover` or `quit` (engine.js does this). Without it a
// line waits until the search in progress ends by its limits.

import init, { initSync, Protocol } from './pkg/kamil_wasm.js';

const node = typeof process !== 'undefined' && !!process.versions?.node && typeof WorkerGlobalScope === 'undefined';
let post;
let listen;
if (node) {
  const { parentPort } = await import('node:worker_threads');
  post = (m) => parentPort.postMessage(m);
  listen = (f) => parentPort.on('message', f);
} else {
  post = (m) => self.postMessage(m);
  listen = (f) => self.addEventListener('message', (e) => f(e.data));
}

let stop;
let protocol = null;
const waiting = [];
let ready = false;

function handle(message) {
  if (message && typeof message === 'object') {
    if (message.stop instanceof Int32Array) stop = message.stop;
    return;
  }
  for (const line of String(message).split('\n')) {
    if (!line.trim()) continue;
    if (!protocol) {
      const word = line.trim().split(/\s+/)[0];
      protocol = new Protocol(word === 'usi' ? 'usi' : 'uci', post, stop);
    }
    try {
      protocol.handle(line);
    } catch (e) {
      // The session answers bad input itself; this is kamil's own failure.
      post(`info string error: ${e?.message ?? e}`);
    }
  }
}

listen((m) => (ready ? handle(m) : waiting.push(m)));

if (node) {
  const fs = await import('node:fs');
  initSync({ module: fs.readFileSync(new URL('./pkg/kamil_wasm_bg.wasm', import.meta.url)) });
} else {
  await init();
}
ready = true;
for (const m of waiting.splice(0)) handle(m);
