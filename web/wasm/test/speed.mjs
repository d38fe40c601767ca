// Nodes per second of the engine worker (WebAssembly in a Node worker
// thread) against the native binary, one thread each, on the same
// searches: each game's start position and two positions of seeded random
// plies, searched to a fixed node count (the same search both ways: the
// node counts are checked equal). A benchmark run by hand, not a test:
//
//   node web/wasm/test/speed.mjs [NODES]     (KAMIL_BIN: the native binary)

import { GAMES, positions, uci } from './common.mjs';
import { workerEngine } from './worker.mjs';

const NODES = Number(process.argv[2] ?? 300000);

/** Total nodes and ms of `go nodes NODES` on each FEN, from the last info line. */
async function run(side, game, fens) {
  let nodes = 0;
  let ms = 0;
  const counts = [];
  side.send(`setoption name UCI_Variant value ${game}`);
  for (const fen of fens) {
    side.send('ucinewgame');
    side.send(`position fen ${fen}`);
    side.send(`go nodes ${NODES}`);
    const said = await side.until('bestmove');
    const last = said.filter((l) => / nodes \d+/.test(l)).at(-1);
    const n = Number(/ nodes (\d+)/.exec(last)[1]);
    nodes += n;
    ms += Number(/ time (\d+)/.exec(last)[1]);
    counts.push(n);
  }
  return { nodes, ms, counts };
}

const native = uci();
const worker = workerEngine({ shared: process.env.SHARED !== '0' });
for (const s of [native, worker]) {
  s.send('uci');
  await s.until('uciok');
}
console.log(`go nodes ${NODES}, 3 positions a game, one thread; k nodes/s`);
console.log('game                   native   worker  ratio');
let sum = { n: 0, w: 0 };
for (const [i, game] of GAMES.entries()) {
  if (process.env.GAMES && !process.env.GAMES.split(',').includes(game)) continue;
  const fens = positions(game, 2000 + i).filter((_, k) => k % 8 === 0).slice(0, 3);
  const n = await run(native, game, fens);
  const w = await run(worker, game, fens);
  const same = n.counts.join() === w.counts.join() ? '' : '  (node counts differ!)';
  const knps = (r) => r.nodes / Math.max(r.ms, 1);
  sum = { n: sum.n + n.ms, w: sum.w + w.ms };
  console.log(`${game.padEnd(20)} ${knps(n).toFixed(0).padStart(8)} ${knps(w).toFixed(0).padStart(8)}  ${(knps(w) / knps(n)).toFixed(2)}${same}`);
}
console.log(`all: the worker took ${(sum.w / sum.n).toFixed(2)} times the native time for the same nodes`);
native.quit();
worker.quit();
