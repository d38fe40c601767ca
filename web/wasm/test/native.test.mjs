// The WebAssembly module against the native binary (issue 79): over
// positions of nine games, reached by seeded random moves from each start,
// the module's legal moves equal `kamil moves`, and its search at a fixed
// depth finds the same best move with the same node count as `kamil uci`
// (one thread, a fresh table each time: the same search).
//
// KAMIL_BIN: the native binary (default ../../../target/release/kamil).
// Needs web/wasm/pkg (scripts/build-wasm).
//
//   node --test web/wasm/test/native.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { initSync, Game, Engine, variants } from '../pkg/kamil_wasm.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const KAMIL = process.env.KAMIL_BIN ?? path.resolve(here, '../../../target/release/kamil');
initSync({ module: fs.readFileSync(path.resolve(here, '../pkg/kamil_wasm_bg.wasm')) });

const GAMES = ['courier', 'sho-shogi', 'chu-shogi', 'dai-shogi', 'tamerlane', 'hiashatar',
  'alfonso-great-chess', 'ordinary-variant', 'frolov-10x10'];
const PER_GAME = 17; // 153 positions
const DEPTH = { 'dai-shogi': 2, 'chu-shogi': 3 };

// A small seeded generator (xorshift32), so the positions are the same on
// every run.
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

/** FENs of `name`: the start, then one every few random plies. */
function positions(name, seed) {
  const random = rng(seed);
  const game = new Game(name, '', undefined);
  const out = [game.fen()];
  while (out.length < PER_GAME) {
    const moves = game.legalMoves('kamil');
    if (moves.length === 0 || game.outcome() !== undefined) {
      // Over: from the start again, on another path.
      while (game.pop()) { /* back to the start */ }
      continue;
    }
    game.push(moves[Math.floor(random() * moves.length)]);
    if (random() < 0.3) out.push(game.fen());
  }
  return out;
}

/** A `kamil uci` process: send lines, read until a line starts with a word. */
function uci() {
  const child = spawn(KAMIL, ['uci'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  const waiting = [];
  readline.createInterface({ input: child.stdout }).on('line', (l) => {
    lines.push(l);
    while (waiting.length && lines.some((x) => x.startsWith(waiting[0].word))) {
      const w = waiting.shift();
      const i = lines.findIndex((x) => x.startsWith(w.word));
      w.resolve(lines.splice(0, i + 1));
    }
  });
  return {
    send: (l) => child.stdin.write(`${l}\n`),
    until: (word) => new Promise((resolve) => {
      const i = lines.findIndex((x) => x.startsWith(word));
      if (i >= 0) resolve(lines.splice(0, i + 1));
      else waiting.push({ word, resolve });
    }),
    quit: () => { child.stdin.write('quit\n'); child.stdin.end(); },
  };
}

test('legal moves and fixed-depth searches equal the native binary\'s', { timeout: 900000 }, async () => {
  assert.ok(fs.existsSync(KAMIL), `no kamil binary at ${KAMIL}`);
  const builtIn = JSON.parse(variants()).map((v) => v.name);
  for (const g of GAMES) assert.ok(builtIn.includes(g), `${g} is not built in`);
  const native = uci();
  native.send('uci');
  await native.until('uciok');
  const engine = new Engine(16);
  let checked = 0;
  const differ = [];
  for (const [i, name] of GAMES.entries()) {
    native.send(`setoption name UCI_Variant value ${name}`);
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
      checked += 1;
    }
  }
  native.quit();
  assert.ok(checked >= 140, `only ${checked} positions searched`);
  assert.deepEqual(differ, [], `${differ.length} of ${checked} searches differ`);
  console.log(`# ${checked} searches, each equal to the native one`);
});
