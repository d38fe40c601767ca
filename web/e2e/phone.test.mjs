// The page on a phone (issue 80): at 390 px wide, Chu Shogi's 12x12 and
// Dai Shogi's 15x15 boards take the whole width with no coordinates
// around them (the "a1" button shows them), every square at least 28 px
// wide (the 15x15 board scrolls sideways a little), and the "You play"
// choice reads whole. Screenshots: out/phone-chu-shogi.png and
// out/phone-dai-shogi.png (docs/kamil-phone-*.png are copies).
//
// KAMIL_BIN: the kamil binary (default ../../target/release/kamil);
// CHROMIUM: the browser (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openSession, OUT } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const MIN_SQUARE_PX = 28;

let base;
let page;
let errors;
let close;

before(async () => {
  ({ base, page, errors, close } = await openSession(['--engines', '1'], {
    viewport: PHONE,
    device: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  }));
});

after(async () => {
  await close?.();
});

async function start(name) {
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.selectOption('#variant', name);
  await page.selectOption('#mode', 'first');
  await page.selectOption('#skill', '0');
  await page.click('#start');
  await page.waitForFunction((v) => window.kamil.variant?.name === v, name);
  await page.waitForSelector(`svg.board[data-variant="${name}"] .piece`);
}

/** The narrowest and widest square of the board, in CSS pixels. */
const squareSizes = () => page.$$eval('svg.board rect.square', (rs) => {
  const w = rs.map((r) => r.getBoundingClientRect().width);
  return [Math.min(...w), Math.max(...w)];
});

test('a 12x12 and a 15x15 board can be read on a 390 px phone', async () => {
  await page.goto(base);
  await page.waitForSelector('svg.board .piece');
  for (const [name, files] of [['chu-shogi', 12], ['dai-shogi', 15]]) {
    await start(name);
    const [small, large] = await squareSizes();
    assert.ok(small >= MIN_SQUARE_PX, `${name}: squares of ${small.toFixed(1)} px, under ${MIN_SQUARE_PX}`);
    assert.ok(large - small < 0.5, `${name}: squares of ${small} to ${large} px`);
    assert.equal(await page.$$eval('svg.board .coord', (cs) => cs.length), 0, `${name}: coordinates on a phone`);
    // The board takes the whole width: its squares are as wide as the
    // screen allows (390 / files), or the 28 px floor where that is less.
    const want = Math.max(MIN_SQUARE_PX, (PHONE.width - 2) / files);
    assert.ok(small >= want - 1.5, `${name}: squares of ${small.toFixed(1)} px where ${want.toFixed(1)} fit`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, `phone-${name}.png`) });
  }
  // The coordinates on demand, and off again.
  await page.click('#coords');
  assert.ok(await page.$$eval('svg.board .coord', (cs) => cs.length) > 0, 'the a1 button shows coordinates');
  await page.click('#coords');
  assert.equal(await page.$$eval('svg.board .coord', (cs) => cs.length), 0);
  assert.deepEqual(errors, [], 'no page errors');
});

test('"You play" reads whole on a phone', async () => {
  // A fresh page: nothing of the last test's games can close the form.
  await page.goto(base);
  await page.waitForSelector('svg.board .piece');
  await page.evaluate(() => { document.getElementById('setup').open = true; });
  await page.waitForSelector('#mode', { state: 'visible' });
  await page.selectOption('#variant', 'chu-shogi');
  for (const mode of ['first', 'second', 'both']) {
    await page.selectOption('#mode', mode);
    const { text, room, need } = await page.$eval('#mode', (sel) => {
      const probe = document.createElement('span');
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
      probe.style.font = getComputedStyle(sel).font;
      probe.textContent = sel.selectedOptions[0].textContent;
      document.body.appendChild(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      // Room for the text: the box less its padding and the arrow.
      return { text: sel.selectedOptions[0].textContent, room: sel.clientWidth - 28, need };
    });
    assert.ok(need <= room, `"${text}" needs ${need.toFixed(0)} px, the choice has ${room} px`);
  }
});
