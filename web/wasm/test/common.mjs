// What the WebAssembly tests share: the module loaded in Node, the games
// and their positions (seeded random plies from each start), and a native
// `kamil uci` or `kamil usi` process to compare with.
//
// KAMIL_BIN: the native binary (default ../../../target/release/kamil).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { initSync, Game } from '../pkg/kamil_wasm.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const KAMIL = process.env.KAMIL_BIN ?? path.resolve(here, '../../../target/release/kamil');
export const WASM = path.resolve(here, '../pkg/kamil_wasm_bg.wasm');
initSync({ module: fs.readFileSync(WASM) });

export const GAMES = ['courier', 'sho-shogi', 'chu-shogi', 'dai-shogi', 'tamerlane', 'hiashatar',
  'alfonso-great-chess', 'ordinary-variant', 'frolov-10x10'];
export const PER_GAME = 17; // 153 positions
export const DEPTH = { 'dai-shogi': 2, 'chu-shogi': 3 };

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
export function positions(name, seed) {
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

/**
 * Lines as they come (`push`), waited for by their first word: `until(word)`
 * resolves with every line up to the first that starts with `word`;
 * `take()` gives what came and was not yet taken.
 */
export function lineQueue() {
  const lines = [];
  const waiting = [];
  return {
    push(l) {
      lines.push(l);
      while (waiting.length && lines.some((x) => x.startsWith(waiting[0].word))) {
        const w = waiting.shift();
        const i = lines.findIndex((x) => x.startsWith(w.word));
        w.resolve(lines.splice(0, i + 1));
      }
    },
    until: (word) => new Promise((resolve) => {
      const i = lines.findIndex((x) => x.startsWith(word));
      if (i >= 0) resolve(lines.splice(0, i + 1));
      else waiting.push({ word, resolve });
    }),
    take: () => lines.splice(0),
  };
}

/** A `kamil uci` process: send lines, read until a line starts with a word. */
export function uci(protocol = 'uci') {
  const child = spawn(KAMIL, [protocol], { stdio: ['pipe', 'pipe', 'inherit'] });
  const q = lineQueue();
  readline.createInterface({ input: child.stdout }).on('line', (l) => q.push(l));
  return {
    send: (l) => child.stdin.write(`${l}\n`),
    until: q.until,
    quit: () => { child.stdin.write('quit\n'); child.stdin.end(); },
  };
}
