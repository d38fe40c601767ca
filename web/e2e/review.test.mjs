// End-to-end test of links and game review in `kamil serve`'s page, in
// headless Chromium: three moves of Chu Shogi survive a reload (and the
// back button steps back); a pasted link opens a Tamerlane position with a
// citadel occupied; a short Courier game, pasted as PGN, is reviewed: its
// graph has one point per position and the hung Rook is marked a blunder;
// an XBoard game file is opened; a bad link says so and shows the start
// position.
//
// KAMIL_BIN, CHROMIUM: as for e2e.test.mjs. Screenshots go to out/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openSession, OUT } from './harness.mjs';

let base;
let close;
let page;

before(async () => {
  ({ base, page, close } = await openSession(['--engines', '1', '--max-movetime', '5000']));
});

after(async () => {
  await close?.();
});

/** Opens `url` as a fresh page load (as a link pasted in the address bar). */
async function open(url) {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForFunction(() => window.kamil?.game && window.kamil.variant && !window.kamil.busy);
}

/** Starts a game of `variant` from the form, two people on one board. */
async function newGame(variant) {
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.selectOption('#variant', variant);
  await page.selectOption('#mode', 'both');
  await page.click('#start');
  await page.waitForFunction((v) => window.kamil.game?.variant === v && window.kamil.variant?.name === v, variant);
  await page.waitForSelector(`svg.board[data-variant="${variant}"] .piece`);
}

const square = (name) => `svg.board rect.square[data-sq="${name}"]`;

async function waitPlies(n) {
  await page.waitForFunction((k) => window.kamil.game?.plies === k && !window.kamil.busy, n, { timeout: 30000 });
}

test('Chu Shogi: the back button steps back, and three moves survive a reload', async () => {
  await open(base);
  await newGame('chu-shogi');
  for (const [i, [from, to]] of [['f3', 'f5'], ['f9', 'f8'], ['f5', 'f7']].entries()) {
    await page.click(square(from));
    await page.click(square(to));
    await waitPlies(i + 1);
  }
  const before = await page.evaluate(() => window.kamil.game.fen);
  assert.match(page.url(), /#v=chu-shogi&m=f3f5,f9f8,f5f7$/);

  // Back: the same game, one ply earlier (the Lion on f5); forward again.
  await page.goBack();
  await page.waitForFunction(() => window.kamil?.view?.ply === 2);
  await page.waitForSelector('svg.board .piece[data-sq="f5"]');
  assert.equal(await page.evaluate(() => window.kamil.game.plies), 3, 'the game keeps its moves');
  await page.goForward();
  await page.waitForFunction(() => window.kamil?.view?.ply === 3);

  await page.reload();
  await page.waitForFunction(() => window.kamil?.game?.plies === 3 && !window.kamil.busy);
  assert.equal(await page.evaluate(() => window.kamil.game.fen), before);
  assert.equal(await page.evaluate(() => window.kamil.view.ply), 3);
  const lion = await page.$eval('svg.board .piece[data-sq="f7"]', (p) => p.dataset.side);
  assert.equal(lion, '0', 'the Lion is back on f7');
  assert.deepEqual(
    await page.$$eval('#moves .move', (ms) => ms.map((m) => m.textContent)),
    ['f3f5', 'f9f8', 'f5f7'],
  );

  // Copy link: to the clipboard, or (where the page may not write it) to
  // the text box.
  await page.click('#copy-link');
  await page.waitForFunction(() => /[Ll]ink/.test(document.getElementById('hint-line').textContent));
  if (/text box/.test(await page.textContent('#hint-line'))) {
    assert.equal(await page.inputValue('#io-text'), page.url());
  }
});

test('a pasted link opens a Tamerlane position with a citadel occupied', async () => {
  // White's Adventitious King in its citadel l2, a Black Rook beside it.
  const fen = '*10k*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*10rA/*11* w - 0 1';
  const link = `${base}#v=tamerlane&o=citadel:draw-unless-swap&fen=${encodeURIComponent(fen)}`;
  await open(link);
  await page.waitForFunction(() => window.kamil.variant.name === 'tamerlane');
  assert.equal(await page.evaluate(() => window.kamil.game.start_fen), fen);
  assert.equal(await page.evaluate(() => window.kamil.variant.chosen.citadel), 'draw-unless-swap');
  assert.equal(await page.inputValue('#options [data-option="citadel"]'), 'draw-unless-swap');
  const citadel = await page.$eval('svg.board .piece[data-sq="l2"]', (p) => ({ side: p.dataset.side, kind: Number(p.dataset.kind) }));
  assert.equal(citadel.side, '0');
  const info = await page.evaluate((k) => window.kamil.variant.pieces[k], citadel.kind);
  assert.match(info.name, /adventitious/i);
  assert.ok(await page.$('svg.board .piece[data-sq="k2"]'), 'the Rook on k2');
  assert.equal(await page.isHidden('#link-message'), true);
});

const COURIER_GAME = `[Event "review test"]
[Variant "courier"]

1. a1a3 l8l7 2. a3c3 l7l6 3. c3c6 b7c6 *
`;

test('a short Courier game is reviewed: one point per position, the hung Rook a blunder', async () => {
  await open(base);
  await newGame('courier');
  await page.evaluate(() => { document.getElementById('io').open = true; });
  await page.fill('#io-text', COURIER_GAME);
  await page.click('#load');
  await waitPlies(6);
  await page.selectOption('#review-movetime', '100');
  await page.click('#review-start');
  await page.waitForFunction(() => /Reviewed/.test(document.getElementById('review-progress').textContent), null, { timeout: 60000 });
  const points = await page.$$eval('svg.eval-graph circle.graph-point', (c) => c.map((p) => Number(p.dataset.ply)));
  assert.deepEqual(points, [0, 1, 2, 3, 4, 5, 6], 'one point per position, ply 0 to 6');
  const marked = await page.$$eval('#moves .move[data-judgement="blunder"]', (ms) => ms.map((m) => m.dataset.ply));
  assert.deepEqual(marked, ['5'], 'c3c6 hangs the Rook');
  assert.match(await page.textContent('#moves .move[data-ply="5"]'), /c3c6\?\?/);
  assert.ok(await page.$('svg.eval-graph circle.graph-point.judged-blunder[data-ply="5"]'));
  // A click on the graph shows that ply, and the better move.
  await page.click('svg.eval-graph circle.graph-point[data-ply="5"]');
  await page.waitForFunction(() => window.kamil.view?.ply === 5);
  assert.match(await page.textContent('#review-move'), /c3c6\?\? blunder: loses \d+\.\d\d; better [a-l]\d[a-l]\d/);
  await page.screenshot({ path: path.join(OUT, 'review-courier.png') });
});

// Chu Shogi as XBoard saves it (kamil against HaChu): SAN, the Lion `N`,
// its double move as first leg then last square, a pass as `--` and as
// out and back.
const XBOARD_GAME = `[Event "Computer chess game"]
[Site "xboard"]
[Date "2026.11.26"]
[Round "-"]
[White "kamil"]
[Black "HaChu 0.21"]
[Result "*"]
[Variant "chu"]
[TimeControl "30+0.5"]

1. Nf5 {+0.20/8 1} f8 2. Nf6-f7 e8 3. -- g8 4. Ng7-f7
*
`;

test('an XBoard game file is opened: Lion double moves and passes', async () => {
  await open(base);
  await page.evaluate(() => { document.getElementById('io').open = true; });
  await page.setInputFiles('#open-file', { name: 'chu.pgn', mimeType: 'text/plain', buffer: Buffer.from(XBOARD_GAME) });
  await page.waitForFunction(() => window.kamil.game?.variant === 'chu-shogi' && window.kamil.game.plies === 7);
  const moves = await page.$$eval('#moves .move', (ms) => ms.map((m) => m.textContent));
  assert.deepEqual(moves.slice(0, 4), ['f3f5', 'f9f8', 'f5f7', 'e9e8']);
  assert.match(moves[4], /^f7[a-l]\d+f7$/, 'a pass of the Lion');
  assert.match(moves[6], /^f7[a-l]\d+f7$/, 'a pass of the Lion');
  assert.match(page.url(), /#v=chu-shogi&m=f3f5,f9f8,f5f7,e9e8,/);
});

test('a bad link says so and shows the start position', async () => {
  await open(`${base}#v=courier&m=b2b3,a1a8`);
  await page.waitForSelector('#link-message:not([hidden])');
  const text = await page.textContent('#link-message');
  assert.match(text, /could not be opened/);
  assert.match(text, /a1a8/);
  assert.equal(await page.evaluate(() => window.kamil.game.plies), 0);
  assert.equal(await page.evaluate(() => window.kamil.variant.name), 'courier');
  assert.ok((await page.$$('svg.board .piece')).length > 0, 'the board is drawn');

  await open(`${base}#v=no-such-game&m=e2e4`);
  await page.waitForSelector('#link-message:not([hidden])');
  assert.match(await page.textContent('#link-message'), /no game named/);
  assert.ok((await page.$$('svg.board .piece')).length > 0, 'the board is drawn');

  await open(`${base}#v=courier&p=x`);
  await page.waitForSelector('#link-message:not([hidden])');
  assert.match(await page.textContent('#link-message'), /ply/);
});
