// The picture in README.md and docs/web.md, run by hand: a Chu Shogi game
// against kamil with the Lion selected (its destinations marked) and
// explained in the help panel. Writes ../../docs/kamil-serve-chu-shogi.png
// (or the path given).
//
//   node web/e2e/screenshot.mjs [OUT.png]

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.resolve(here, '../../docs/kamil-serve-chu-shogi.png');

const { child, url } = await startServer(['--engines', '1']);
const browser = await launchBrowser({ width: 1360, height: 980 });
try {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.waitForSelector('svg.board .piece');
  await page.selectOption('#variant', 'chu-shogi');
  await page.selectOption('#mode', 'first');
  await page.selectOption('#movetime', '1000');
  await page.click('#start');
  await page.waitForFunction(() => window.kamil.game?.variant === 'chu-shogi');
  const sq = (name) => `svg.board rect.square[data-sq="${name}"]`;
  let plies = 0;
  for (const [from, to] of [['f3', 'f5'], ['g4', 'g5'], ['e4', 'e5']]) {
    await page.click(sq(from));
    await page.click(sq(to));
    plies += 2;
    await page.waitForFunction((n) => window.kamil.game.plies >= n && !window.kamil.thinking, plies, { timeout: 60000 })
      .catch(async (e) => { console.log(await page.evaluate(() => JSON.stringify([window.kamil.game.plies, window.kamil.thinking, window.kamil.game.moves.map((m) => m.text)]))); throw e; });
  }
  await page.click(sq('f5'));
  await page.waitForSelector('#help-body svg.help-board');
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  child.kill();
}
