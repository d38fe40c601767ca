// End-to-end test of the rules panel (web/rules.js): for every built-in
// game, starts it from the form, opens "Rules", and checks that the panel
// shows the game's sections, a diagram (drawn like the piece help) for
// every piece type of the variant and every option by its label (and by
// key in the details). Then, for Chu Shogi and Tamerlane, that the options
// and the rules panel speak plainly outside the "details" disclosures: no
// option key, no seed, no Betza code. Saves a screenshot of Chu Shogi's
// rules to out/rules-chu-shogi.png.
//
// KAMIL_BIN: the kamil binary (default ../../target/release/kamil);
// CHROMIUM: the browser (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, OUT } from './harness.mjs';

let server;
let base;
let browser;
let page;
const errors = [];

async function apiGet(p) {
  const res = await fetch(new URL(`api${p}`, base));
  assert.ok(res.ok, `GET ${p}: ${res.status}`);
  return res.json();
}

before(async () => {
  ({ child: server, url: base } = await startServer(['--engines', '1']));
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  fs.mkdirSync(OUT, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

test('the rules of every built-in game show every piece type and option', async () => {
  await page.goto(base);
  await page.waitForSelector('svg.board .piece');
  const variants = await apiGet('/variants');
  assert.ok(variants.length >= 16, `only ${variants.length} variants`);
  for (const { name, options } of variants) {
    // The pieces as the variant view lists them: an independent source.
    const view = await apiGet(`/variants/${name}`);
    await page.evaluate(() => { document.getElementById('setup').open = true; });
    await page.selectOption('#variant', name);
    await page.selectOption('#mode', 'both');
    await page.click('#start');
    await page.waitForFunction((v) => window.kamil.variant?.name === v, name);
    await page.click('#rules-open');
    await page.waitForSelector(`#rules-body[data-variant="${name}"] figure.rules-diagram svg.help-board`);
    const shown = await page.$$eval('#rules-body figure.rules-diagram', (fs) =>
      fs.map((f) => ({ key: f.dataset.pieceKey, board: !!f.querySelector('svg.help-board'), name: f.querySelector('strong')?.textContent })));
    const keys = shown.map((d) => d.key).sort();
    assert.deepEqual(keys, view.pieces.map((p) => p.key).sort(), `${name}: one diagram per piece type`);
    for (const d of shown) {
      assert.ok(d.board, `${name}: ${d.key} has no diagram`);
      const piece = view.pieces.find((p) => p.key === d.key);
      assert.equal(d.name, piece.name, `${name}: ${d.key} named`);
    }
    const headings = await page.$$eval('#rules-body .rules-heading', (hs) => hs.map((h) => h.textContent));
    for (const want of ['Board and setup', 'Pieces', 'Promotion', 'Special rules', 'End of the game', 'Options', 'Sources']) {
      assert.ok(headings.includes(want), `${name}: no section ${want}`);
    }
    // Every option in the player's words, its key behind details.
    const said = await page.$$eval('#rules-body .option-list strong', (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(said, options.map((o) => o.label), `${name}: the options by label`);
    // By key: in the details, or kept on the label that stands for it.
    const codes = await page.$$eval('#rules-body details code, #rules-body .option-ref', (cs) =>
      cs.map((c) => (c.dataset.key ?? c.textContent).split('=')[0]));
    for (const o of options) assert.ok(codes.includes(o.name), `${name}: option ${o.name} not named by key`);
    if (name === 'chu-shogi') {
      await page.locator('#rules-body figure[data-piece-key="lion"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, 'rules-chu-shogi.png') });
    }
    await page.click('#rules-close');
    await page.waitForFunction(() => !document.getElementById('rules-dialog').open);
  }
  assert.deepEqual(errors, [], 'no page errors');
});

/**
 * The text of `selector` as a reader sees it without opening any "details"
 * disclosure, and the `code` elements in it: { text, codes }.
 */
function plainText(selector) {
  return page.$eval(selector, (root) => {
    const copy = root.cloneNode(true);
    for (const d of copy.querySelectorAll('details')) d.remove();
    // A select shows only its chosen option.
    for (const sel of copy.querySelectorAll('select')) sel.remove();
    return { text: copy.textContent, codes: [...copy.querySelectorAll('code')].map((c) => c.textContent) };
  });
}

/** What in `shown` a player should not have to read: keys, seeds, Betza. */
function jargon(shown, view) {
  const found = [];
  for (const o of view.options) {
    if (/[-.]/.test(o.name) && shown.text.includes(o.name)) found.push(`the key ${o.name}`);
    if (shown.codes.some((c) => c === o.name || c.startsWith(`${o.name}=`))) found.push(`the key ${o.name} as code`);
  }
  if (/\bseed\b/i.test(shown.text)) found.push(`"seed": …${shown.text.match(/.{0,40}\bseed\b.{0,40}/i)[0]}…`);
  if (/\bBetza\b/.test(shown.text)) found.push('the word Betza');
  for (const p of view.pieces) {
    const code = p.betza.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (p.betza.length >= 3 && new RegExp(`\\b${code}\\b`).test(shown.text)) found.push(`the Betza ${p.betza} (${p.name})`);
  }
  return found;
}

test('options, piece help and rules speak plainly outside the details (Chu Shogi, Tamerlane)', async () => {
  await page.goto(base);
  await page.waitForSelector('svg.board .piece');
  for (const name of ['chu-shogi', 'tamerlane']) {
    const view = await apiGet(`/variants/${name}`);
    await page.evaluate(() => { document.getElementById('setup').open = true; });
    await page.selectOption('#variant', name);
    await page.evaluate(() => { document.getElementById('options-box').open = true; });
    const form = await plainText('#options-box');
    assert.deepEqual(jargon(form, view), [], `${name}: the options`);
    for (const o of view.options) assert.ok(form.text.includes(o.label) && form.text.includes(o.summary), `${name}: ${o.name} said plainly`);
    // The key and source are there for those who open the details.
    const details = await page.$$eval('#options details', (ds) => ds.map((d) => d.textContent));
    for (const o of view.options) assert.ok(details.some((d) => d.includes(o.name)), `${name}: ${o.name} in the details`);

    await page.selectOption('#mode', 'both');
    await page.click('#start');
    await page.waitForFunction((v) => window.kamil.variant?.name === v, name);
    // The piece help of every piece type on the board.
    const squares = await page.$$eval('svg.board g.piece', (gs) => {
      const byKind = new Map();
      for (const g of gs) if (!byKind.has(g.dataset.kind)) byKind.set(g.dataset.kind, g.dataset.sq);
      return [...byKind.entries()];
    });
    for (const [kind, sq] of squares) {
      await page.hover(`svg.board rect.square[data-sq="${sq}"]`);
      await page.waitForSelector(`#help-body svg.help-board[data-kind="${kind}"]`);
      assert.deepEqual(jargon(await plainText('#help-body'), view), [], `${name}: the help of the piece on ${sq}`);
    }

    await page.click('#rules-open');
    await page.waitForSelector(`#rules-body[data-variant="${name}"] figure.rules-diagram svg.help-board`);
    assert.deepEqual(jargon(await plainText('#rules-body'), view), [], `${name}: the rules panel`);
    await page.click('#rules-close');
    await page.waitForFunction(() => !document.getElementById('rules-dialog').open);
  }
  assert.deepEqual(errors, [], 'no page errors');
});
