// kamil's engine worker (web/wasm/worker.js and engine.js, issue 79):
// `stop` ends a search at once, with the shared stop count and without it
// (a new worker), and bad input is answered, never a trap that ends the
// worker.
//
//   node --test web/wasm/test/worker.test.mjs   (after scripts/build-wasm)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { workerEngine } from './worker.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The time `stop` takes to bring a `go infinite` search's bestmove. */
async function stopTime(w, game) {
  w.send('uci');
  await w.until('uciok');
  w.send(`setoption name UCI_Variant value ${game}`);
  w.send('position startpos');
  w.send('go infinite');
  const before = await w.until('info depth 3 ');
  await sleep(300);
  before.push(...w.take());
  assert.equal(before.filter((l) => l.startsWith('bestmove')).length, 0, 'no bestmove before stop');
  const asked = Date.now();
  w.send('stop');
  const said = [...before, ...(await w.until('bestmove'))];
  return { ms: Date.now() - asked, best: said.at(-1), said };
}

test('stop ends an infinite search at once through the shared stop count', { timeout: 120000 }, async (t) => {
  const w = workerEngine();
  t.after(() => w.quit());
  const { ms, best, said } = await stopTime(w, 'chu-shogi');
  assert.ok(ms < 1000, `bestmove ${ms} ms after stop`);
  const pv = said.filter((l) => / pv /.test(l)).at(-1);
  assert.ok(best.startsWith('bestmove '), best);
  assert.ok(pv, 'info lines with a pv before it');
  // The worker goes on: a fixed-depth search after it.
  w.send('position startpos moves f3f5');
  w.send('go depth 2');
  const next = await w.until('bestmove');
  assert.match(next.at(-1), /^bestmove \S+/);
});

test('without a shared buffer stop starts a new worker in the old one\'s state', { timeout: 120000 }, async (t) => {
  const w = workerEngine({ shared: false });
  t.after(() => w.quit());
  const { ms, best, said } = await stopTime(w, 'courier');
  assert.ok(ms < 1000, `bestmove ${ms} ms after stop`);
  const pv = said.filter((l) => / pv /.test(l)).at(-1);
  assert.equal(best, `bestmove ${/ pv (\S+)/.exec(pv)[1]}`, 'the last pv\'s move');
  // The game chosen before the restart is still the one played.
  w.send('d');
  const fen = await w.until('info string fen');
  assert.match(fen.at(-1), /^info string fen rnebmk1wbenr/, 'Courier\'s start');
  w.send('go depth 2');
  assert.match((await w.until('bestmove')).at(-1), /^bestmove \S+/);
});

test('bad input through the worker is a message and the worker plays on', { timeout: 120000 }, async (t) => {
  const w = workerEngine();
  t.after(() => w.quit());
  w.send('usi');
  await w.until('usiok');
  const bad = [
    ['position sfen not/an/sfen b - 1', 'position not changed'],
    ['position startpos moves 6i6h 9z9z', '9z9z'],
    ['setoption name USI_Hash value lots', 'USI_Hash'],
    ['setoption name USI_Variant value no-such-game', 'no-such-game'],
    ['setoption name EvalFile value /etc/passwd', 'EvalFile'],
    ['go depth x', 'depth'],
    ['frobnicate', 'unknown command'],
    ['\u0000\u00ff'.repeat(100), 'unknown command'],
  ];
  for (const [line, word] of bad) {
    w.send(line);
    w.send('isready');
    const said = await w.until('readyok');
    const info = said.filter((l) => l.startsWith('info string'));
    assert.ok(info.some((l) => l.includes(word)), `${JSON.stringify(line)}: ${JSON.stringify(said)}`);
  }
  w.send('position startpos moves 6i6h');
  w.send('d');
  assert.match((await w.until('info string')).at(-1), /^info string sfen /, 'the move was made');
  w.send('go depth 3');
  assert.match((await w.until('bestmove')).at(-1), /^bestmove \S+/);
});

test('the package lists files that are there and exports what it says', async () => {
  const dir = new URL('../', import.meta.url);
  const pkg = JSON.parse(fs.readFileSync(new URL('package.json', dir), 'utf8'));
  for (const f of pkg.files) assert.ok(fs.existsSync(new URL(f, dir)), `${f} is missing`);
  const rules = await import('kamil-wasm');
  for (const name of ['Game', 'Engine', 'Protocol', 'variants', 'initSync']) {
    assert.ok(name in rules, `kamil-wasm exports ${name}`);
  }
  const { KamilEngine } = await import('kamil-wasm/engine');
  assert.equal(typeof KamilEngine, 'function');
  // The README's example of the rules.
  rules.initSync({ module: fs.readFileSync(new URL('pkg/kamil_wasm_bg.wasm', dir)) });
  const game = new rules.Game('chu-shogi', '{"bare-king": true}', undefined);
  assert.ok(game.legalMoves('usi').includes('6i6h'));
  const sfen = game.sfen();
  assert.equal(typeof game.push('6i6h'), 'string');
  assert.notEqual(game.sfen(), sfen);
  assert.equal(game.outcome(), undefined);
  assert.ok(game.pop());
  assert.equal(game.sfen(), sfen);
  assert.throws(() => game.push('6i6z'), /6i6z/);
});

test('ponderhit ends the ponder search and the search on the clock answers, with and without a shared buffer', { timeout: 120000 }, async (t) => {
  for (const shared of [true, false]) {
    const w = workerEngine({ shared });
    t.after(() => w.quit());
    w.send('uci');
    await w.until('uciok');
    w.send('setoption name UCI_Variant value courier');
    w.send('position startpos moves d2d3');
    w.send('go ponder wtime 2000 btime 2000');
    await w.until('info depth 3 ');
    await sleep(200);
    assert.equal(w.take().filter((l) => l.startsWith('bestmove')).length, 0, 'no bestmove while pondering');
    const asked = Date.now();
    w.send('ponderhit');
    const said = await w.until('bestmove');
    const ms = Date.now() - asked;
    assert.ok(ms < 5000, `shared ${shared}: bestmove ${ms} ms after ponderhit`);
    assert.match(said.at(-1), /^bestmove \S+/);
    await sleep(300);
    assert.equal(w.take().filter((l) => l.startsWith('bestmove')).length, 0, `shared ${shared}: one bestmove`);
  }
});
