// The WebAssembly module against the native binary (issue 79): over
// positions of nine games, reached by seeded random moves from each start,
// the module's legal moves equal `kamil moves`, and its search at a fixed
// depth finds the same best move with the same node count as `kamil uci`
// (one thread, a fresh table each time: the same search), both through
// the Engine binding and through the worker's UCI (every line the same
// but time and nps).
//
// KAMIL_BIN: the native binary (default ../../../target/release/kamil).
// Needs web/wasm/pkg (scripts/build-wasm).
//
//   node --test web/wasm/test/native.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { Game, Engine, variants } from '../pkg/kamil_wasm.js';
import { KAMIL, GAMES, DEPTH, positions, uci } from './common.mjs';
import { workerEngine } from './worker.mjs';

test('legal moves and fixed-depth searches equal the native binary\'s', { timeout: 900000 }, async () => {
  assert.ok(fs.existsSync(KAMIL), `no kamil binary at ${KAMIL}`);
  const builtIn = JSON.parse(variants()).map((v) => v.name);
  for (const g of GAMES) assert.ok(builtIn.includes(g), `${g} is not built in`);
  const native = uci();
  native.send('uci');
  await native.until('uciok');
  // One table size for all three: it decides which entries share a slot,
  // and so the tree (16 MB and 64 MB differ by a node in some positions).
  const HASH_MB = 16;
  const engine = new Engine(HASH_MB);
  native.send(`setoption name Hash value ${HASH_MB}`);
  const worker = workerEngine();
  worker.send('uci');
  await worker.until('uciok');
  worker.send(`setoption name Hash value ${HASH_MB}`);
  let checked = 0;
  const differ = [];
  for (const [i, name] of GAMES.entries()) {
    native.send(`setoption name UCI_Variant value ${name}`);
    worker.send(`setoption name UCI_Variant value ${name}`);
    const depth = DEPTH[name] ?? 4;
    for (const fen of positions(name, 1000 + i)) {
      // Generating the legal moves makes and takes back moves, which may
      // reorder the position's piece lists (the board stays the same) and
      // so the order later moves are generated in: the search gets a Game
      // of its own, as `position fen` gives kamil uci one.
      const ours = new Game(name, '', fen).legalMoves('kamil').sort();
      const game = new Game(name, '', fen);
      const theirs = execFileSync(KAMIL, ['moves', name, '--fen', fen], { encoding: 'utf8' })
        .split('\n').filter(Boolean).sort();
      assert.deepEqual(ours, theirs, `${name} ${fen}: legal moves`);
      if (ours.length === 0) continue;
      engine.newGame();
      const r = JSON.parse(engine.search(game, depth, undefined, undefined, 'kamil'));
      native.send('ucinewgame');
      native.send(`position fen ${fen}`);
      native.send(`go depth ${depth}`);
      const said = await native.until('bestmove');
      const best = said.at(-1).split(' ')[1];
      const infos = said.filter((l) => / nodes \d+/.test(l));
      const nodes = Number(/ nodes (\d+)/.exec(infos.at(-1))[1]);
      if (r.best !== best || r.nodes !== nodes) {
        differ.push(`${name} ${fen}: depth ${depth}: ${r.best} ${r.nodes} nodes here, ${best} ${nodes} natively`);
      }
      // The worker's UCI, line for line as kamil uci's.
      for (const l of ['ucinewgame', `position fen ${fen}`, `go depth ${depth}`]) worker.send(l);
      const spoken = await worker.until('bestmove');
      if (spoken.join('\n').replace(/ (time|nps) \d+/g, '') !== said.join('\n').replace(/ (time|nps) \d+/g, '')) {
        differ.push(`${name} ${fen}: the worker said ${spoken.at(-1)}, kamil uci ${said.at(-1)}`);
      }
      checked += 1;
    }
  }
  native.quit();
  worker.quit();
  assert.ok(checked >= 140, `only ${checked} positions searched`);
  assert.deepEqual(differ, [], `${differ.length} of ${checked} searches differ`);
  console.log(`# ${checked} searches, each equal to the native one`);
});
