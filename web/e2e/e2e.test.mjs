// End-to-end test of `kamil serve`: starts the server on a free port,
// drives Debian's Chromium headless through playwright-core, plays Chu
// Shogi by clicks (a drag, a Lion double capture entered square by square)
// until the engine replies, saves a screenshot, then opens every built-in
// game and checks that its start position is drawn whole.
//
// KAMIL_BIN: the kamil binary (default ../../target/release/kamil);
// CHROMIUM: the browser (default /usr/bin/chromium). Screenshots go to out/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openSession, OUT } from './harness.mjs';

let base;
let close;
let page;

async function apiGet(p) {
  const res = await fetch(new URL(`api${p}`, base));
  assert.ok(res.ok, `GET ${p}: ${res.status}`);
  return res.json();
}

async function apiPost(p, body) {
  const res = await fetch(new URL(`api${p}`, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `POST ${p}: ${res.status}`);
  return res.json();
}

before(async () => {
  ({ base, page, close } = await openSession(['--engines', '1', '--max-movetime', '5000']));
});

after(async () => {
  await close?.();
});

/** Starts a game of `variant` from the form; `mode`: first, second, both. */
async function newGame(variant, mode, movetime = '500') {
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.selectOption('#variant', variant);
  await page.selectOption('#mode', mode);
  await page.selectOption('#movetime', movetime);
  await page.click('#start');
  await page.waitForFunction((v) => window.kamil.game?.variant === v && window.kamil.variant?.name === v, variant);
  await page.waitForSelector(`svg.board[data-variant="${variant}"] .piece`);
}

const square = (name) => `svg.board rect.square[data-sq="${name}"]`;
const moveTexts = () => page.$$eval('#moves .move', (ms) => ms.map((m) => m.textContent));

async function waitPlies(n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves .move').length >= k, n, { timeout: 60000 });
}

test('Chu Shogi by clicks: a drag, a Lion double capture, the engine replies', async () => {
  await page.goto(base);
  await page.waitForSelector('svg.board .piece');
  await newGame('chu-shogi', 'both');

  // 1. The Lion jumps f3-f5: a click on it shows its destinations.
  await page.click(square('f3'));
  await page.waitForSelector('svg.board [data-dest="f5"]');
  await page.click(square('f5'));
  await waitPlies(1);

  // 1... White's pawn f9-f8, dragged.
  const from = await page.locator(square('f9')).boundingBox();
  const to = await page.locator(square('f8')).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
  await waitPlies(2);

  // 2. f5-f7 (the Lion's jump), 2... e9-e8.
  await page.click(square('f5'));
  await page.click(square('f7'));
  await waitPlies(3);
  await page.click(square('e9'));
  await page.click(square('e8'));
  await waitPlies(4);
  assert.deepEqual(await moveTexts(), ['f3f5', 'f9f8', 'f5f7', 'e9e8']);

  // 3. The Lion takes f8 and then e8: square by square.
  await page.click(square('f7'));
  await page.waitForSelector('svg.board [data-step="f8"]');
  await page.click(square('f8'));
  await page.waitForSelector('svg.board .mark-via');
  await page.waitForSelector('svg.board [data-dest="e8"]');
  await page.click(square('e8'));
  await waitPlies(5);
  assert.equal((await moveTexts())[4], 'f7f8e8');
  const lion = await page.$eval('svg.board .piece[data-sq="e8"]', (p) => p.dataset.side);
  assert.equal(lion, '0', 'the Lion stands on e8');
  assert.equal(await page.$('svg.board .piece[data-sq="f8"]'), null, 'f8 was emptied');

  // Pointing at the Lion explains it in the help panel. Asked before the
  // engine replies: its reply depends on the time it gets, and a deeper
  // search takes the Lion on e8.
  await page.hover(square('e8'));
  await page.waitForSelector('#help-body svg.help-board');
  assert.match(await page.textContent('#help-body'), /Lion/);

  // kamil takes White from here and replies, showing its analysis.
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.selectOption('#mode', 'first');
  await waitPlies(6);
  await page.waitForFunction(() => !window.kamil.thinking);
  const reply = (await moveTexts())[5];
  assert.match(reply, /^[a-l]\d+[a-l]\d+/);
  // The analysis in a player's words: who is better, how far it looked,
  // how many positions (1.2k, not 0k).
  const said = await page.textContent('#analysis-line');
  assert.match(said, /(better|about level|mates in \d+) .* · looked \d+ pl(y|ies) ahead · (\d{1,3}|\d+(\.\d)?[kM]) positions in \d/, said);
  assert.doesNotMatch(said, /\b0k\b/, said);
  assert.match(await page.textContent('#status'), /Black \(Sente\) to move/);
  await page.screenshot({ path: path.join(OUT, 'chu-shogi-game.png') });

  // The move list steps back and the board follows.
  await page.click('#moves .move[data-ply="4"]');
  await page.waitForSelector('svg.board .piece[data-sq="f7"]');
  await page.click('#last');
  await page.waitForSelector('svg.board .piece[data-sq="e8"]');
});

test('a FEN loaded, an optional promotion chosen, the PGN exported, undo', async () => {
  await newGame('chu-shogi', 'both');
  await page.evaluate(() => { document.getElementById('io').open = true; });
  // Black's Pawn on e8 is one step from the promotion zone (rules/chu-shogi.md 5).
  await page.fill('#io-text', '4k7/12/12/12/4P7/12/12/12/12/12/12/4K7 b');
  await page.click('#load');
  await page.waitForFunction(() => window.kamil.game?.board.length === 3);
  await page.click(square('e8'));
  await page.click(square('e9'));
  await page.waitForSelector('svg.board .chooser');
  const choices = await page.$$eval('svg.board [data-choice]', (c) => c.map((x) => x.dataset.choice).sort());
  assert.deepEqual(choices, ['e8e9', 'e8e9+']);
  assert.match(await page.textContent('#hint-line'), /Choose/);
  await page.click('svg.board [data-choice="e8e9+"]');
  await waitPlies(1);
  assert.deepEqual(await moveTexts(), ['e8e9+']);
  const tokin = await page.$eval('svg.board .piece[data-sq="e9"]', (p) => Number(p.dataset.kind));
  const info = await page.evaluate((k) => window.kamil.variant.pieces[k], tokin);
  assert.equal(info.key, 'tokin');
  await page.click('#show-pgn');
  await page.waitForFunction(() => document.getElementById('io-text').value.includes('e8e9+'));
  const pgn = await page.inputValue('#io-text');
  assert.match(pgn, /\[Variant "chu-shogi"\]/);
  assert.match(pgn, /\[FEN "4k7\/12\/12\/12\/4P7/);
  await page.click('#undo');
  await page.waitForFunction(() => window.kamil.game.plies === 0);
  assert.equal(await page.$('svg.board .piece[data-sq="e8"]') !== null, true, 'the Pawn is back');
});

test("Frolov's Sergeant: a step and a capture in passing to one square, told apart", async () => {
  await newGame('frolov-10x10', 'both');
  await page.evaluate(() => { document.getElementById('io').open = true; });
  // White's Pawn has just gone b3-b5; Black's Sergeant on c5 may step to b4
  // or take the Pawn there in passing (rules/frolov-10x10.md 5.1).
  await page.fill('#io-text', '2k9/*10*/*10*/*10*/*10*/*Px8*/*10*/*10*/*10*/2K9 b - b4 - 0 1');
  await page.click('#load');
  await page.waitForSelector('svg.board .piece[data-sq="b5"]');
  await page.click(square('c5'));
  await page.click(square('b4'));
  await page.waitForSelector('svg.board .chooser');
  const choices = await page.$$eval('svg.board [data-choice]', (c) => c.map((x) => x.dataset.choice).sort());
  assert.deepEqual(choices, ['c5b4', 'c5b4ep']);
  assert.match(await page.textContent('svg.board [data-choice="c5b4ep"]'), /capture in passing/);
  await page.click('svg.board [data-choice="c5b4ep"]');
  await waitPlies(1);
  assert.deepEqual(await moveTexts(), ['c5b4ep']);
  assert.equal(await page.$('svg.board .piece[data-sq="b5"]'), null, 'the Pawn was taken');
});

test('every built-in game: the start position is drawn whole', async () => {
  const variants = await apiGet('/variants');
  assert.ok(variants.length >= 6, 'the built-in games are listed');
  for (const v of variants) {
    const info = await apiGet(`/variants/${v.name}`);
    const start = await apiPost('/games', { variant: v.name });
    await newGame(v.name, 'both');
    const squares = await page.$$eval('svg.board rect.square', (r) => r.length);
    assert.equal(squares, info.squares.length, `${v.name}: squares drawn`);
    assert.equal(info.squares.length <= info.files * info.ranks, true);
    const pieces = await page.$$eval('svg.board .piece', (ps) => ps.map((p) => ({
      sq: p.dataset.sq, kind: Number(p.dataset.kind), side: Number(p.dataset.side), label: p.textContent.trim(),
    })));
    assert.equal(pieces.length, start.board.length, `${v.name}: pieces drawn`);
    const expected = start.board.map((p) => `${p.sq}/${p.kind}/${p.side}`).sort();
    assert.deepEqual(pieces.map((p) => `${p.sq}/${p.kind}/${p.side}`).sort(), expected, `${v.name}: placement`);
    assert.ok(pieces.every((p) => p.label.length > 0), `${v.name}: every piece is labelled`);
    const coords = await page.$$eval('svg.board .coord', (c) => c.length);
    assert.equal(coords, 2 * (info.files + info.ranks), `${v.name}: coordinates on the edges`);
    await page.screenshot({ path: path.join(OUT, `${v.name}.png`) });
  }
});
