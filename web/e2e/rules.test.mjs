// End-to-end test of the rules panel (web/rules.js): for every built-in
// game, starts it from the form, opens "Rules", and checks that the panel
// shows the game's sections, a diagram (drawn like the piece help) for
// every piece type of the variant and every option by name. Saves a
// screenshot of Chu Shogi's rules to out/rules-chu-shogi.png.
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
    const codes = await page.$$eval('#rules-body code', (cs) => cs.map((c) => c.textContent));
    for (const o of options) assert.ok(codes.includes(o.name), `${name}: option ${o.name} not named`);
    if (name === 'chu-shogi') {
      await page.locator('#rules-body figure[data-piece-key="lion"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, 'rules-chu-shogi.png') });
    }
    await page.click('#rules-close');
    await page.waitForFunction(() => !document.getElementById('rules-dialog').open);
  }
  assert.deepEqual(errors, [], 'no page errors');
});
