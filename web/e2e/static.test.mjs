// The page without a server (issue 79): serves dist/ (scripts/build-wasm)
// with a small static file server of its own, no `kamil serve` running,
// opens it in headless Chromium and plays: Chu Shogi against the engine
// with a Lion double capture, then the game's review; Courier against
// level 0 to a mate; a bad FEN and a bad move give messages and the
// engine's worker keeps working.
//
// DIST: the folder served (default ../../dist); CHROMIUM as for e2e.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, OUT } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.resolve(process.env.DIST ?? path.join(here, '../../dist'));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.ts': 'text/plain',
};

/** Serves `root`'s files (GET only; no listing); resolves to { server, url }. */
function serveStatic(root) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (req.method !== 'GET' || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

let server;
let browser;
let page;
let base;
const errors = [];

before(async () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `no page at ${DIST} (scripts/build-wasm)`);
  ({ server, url: base } = await serveStatic(DIST));
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => {
    errors.push(e.message);
    console.error(`page error: ${e.message}`);
  });
  page.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
  fs.mkdirSync(OUT, { recursive: true });
  await page.goto(base);
  await page.waitForSelector('svg.board .piece', { timeout: 60000 });
});

after(async () => {
  await browser?.close();
  server?.close();
});

const square = (name) => `svg.board rect.square[data-sq="${name}"]`;
const moveTexts = () => page.$$eval('#moves .move', (ms) => ms.map((m) => m.textContent.replace(/[?!]+$/, '')));

async function waitPlies(n, timeout = 60000) {
  await page.waitForFunction((k) => window.kamil.game?.plies === k && !window.kamil.thinking && !window.kamil.busy, n, { timeout });
}

/** Starts a game of `variant` from the form; `mode`: first, second, both. */
async function newGame(variant, mode, { movetime = '500', skill = '20' } = {}) {
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.selectOption('#variant', variant);
  await page.selectOption('#mode', mode);
  await page.selectOption('#movetime', movetime);
  await page.selectOption('#skill', skill);
  await page.click('#start');
  await page.waitForFunction((v) => window.kamil.game?.variant === v && window.kamil.variant?.name === v && window.kamil.game.plies === 0, variant);
  await page.waitForSelector(`svg.board[data-variant="${variant}"] .piece`);
}

async function loadText(text) {
  await page.evaluate(() => { document.getElementById('io').open = true; });
  await page.fill('#io-text', text);
  await page.click('#load');
}

test('the page runs with no server: the WebAssembly back end', async () => {
  assert.equal(await page.evaluate(async () => (await import('./api.js')).backend), 'local');
  const status = await page.evaluate(() => fetch('/api/status').then((r) => r.status));
  assert.equal(status, 404, 'nothing answers /api');
});

test('Chu Shogi against the engine: a Lion double capture, the reply, the review', async () => {
  await newGame('chu-shogi', 'both');
  for (const [from, to, n] of [['f3', 'f5', 1], ['f9', 'f8', 2], ['f5', 'f7', 3], ['e9', 'e8', 4]]) {
    await page.click(square(from));
    await page.click(square(to));
    await waitPlies(n);
  }
  // The Lion takes f8 and then e8, square by square.
  await page.click(square('f7'));
  await page.waitForSelector('svg.board [data-step="f8"]');
  await page.click(square('f8'));
  await page.waitForSelector('svg.board [data-dest="e8"]');
  await page.click(square('e8'));
  await waitPlies(5);
  assert.equal((await moveTexts())[4], 'f7f8e8');
  assert.equal(await page.$('svg.board .piece[data-sq="f8"]'), null, 'f8 was emptied');
  // kamil takes White (in its worker) and replies, showing its analysis.
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.selectOption('#mode', 'first');
  await waitPlies(6);
  assert.match((await moveTexts())[5], /^[a-l]\d+[a-l]\d+/);
  assert.match(await page.textContent('#analysis-line'), /looked \d+ pl(y|ies) ahead/);
  await page.screenshot({ path: path.join(OUT, 'static-chu-shogi.png') });

  // The review of those six plies, in the worker: one evaluation a position.
  await page.selectOption('#review-movetime', '100');
  await page.click('#review-start');
  await page.waitForFunction(() => /Reviewed/.test(document.getElementById('review-progress').textContent), null, { timeout: 60000 });
  const points = await page.$$eval('svg.eval-graph circle.graph-point', (c) => c.map((p) => Number(p.dataset.ply)));
  assert.deepEqual(points, [0, 1, 2, 3, 4, 5, 6], 'one point per position');
  await page.screenshot({ path: path.join(OUT, 'static-chu-review.png') });
});

test('a bad FEN and a bad move are told; the engine still plays after them', async () => {
  await newGame('courier', 'first', { skill: '0' });
  await loadText('this is no FEN');
  await page.waitForFunction(() => !document.getElementById('error').hidden);
  const shown = await page.textContent('#error');
  assert.match(shown, /FEN/, shown);
  // A move that is not legal, through the page's own API.
  const bad = await page.evaluate(async () => {
    const { api } = await import('./api.js');
    try {
      await api.play(window.kamil.game.id, 'z9z9');
      return null;
    } catch (e) {
      return { status: e.status, message: e.message };
    }
  });
  assert.equal(bad?.status, 400);
  assert.ok(bad.message.length > 0);
});

test('a long search stopped: the worker goes, its best so far is played, a fresh one follows', async () => {
  await newGame('courier', 'first', { movetime: '30000' });
  const first = await page.evaluate(() => window.kamil.game.legal.find((m) => m.vias.length === 0));
  await page.click(square(first.from));
  await page.click(square(first.to));
  // The engine thinks for up to 30 s in its worker; the page answers meanwhile.
  await page.waitForFunction(() => window.kamil.thinking && window.kamil.analysis?.pv?.length > 0, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.kamil.game.plies), 1);
  const started = Date.now();
  await page.click('#move-now');
  await waitPlies(2, 10000);
  assert.ok(Date.now() - started < 10000, 'stopped at once');
});

test('Courier against level 0, to a mate', async () => {
  await newGame('courier', 'first', { skill: '0' });
  // White: King g1, Rooks k1 and l2; Black: King a8, a Pawn on h6.
  // 1. l2l7 (the 7th rank shut), then k1k8 mates whatever Black plays.
  await loadText('k11/12/7p4/12/12/12/11R/6K3R1 w - - 0 1');
  await page.waitForFunction(() => window.kamil.game?.board.length === 5 && window.kamil.game.plies === 0);
  await page.click(square('l2'));
  await page.click(square('l7'));
  await waitPlies(2);
  await page.click(square('k1'));
  await page.click(square('k8'));
  await page.waitForFunction(() => window.kamil.game?.outcome != null, null, { timeout: 30000 });
  const outcome = await page.evaluate(() => window.kamil.game.outcome);
  assert.equal(outcome.winner, 0, JSON.stringify(outcome));
  assert.match(outcome.text, /wins/);
  await page.screenshot({ path: path.join(OUT, 'static-courier-mate.png') });
  assert.deepEqual(errors, [], 'no page errors');
});
