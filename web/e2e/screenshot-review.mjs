// docs/web.md's picture of a reviewed game ("Game review"), run by hand: a
// short Courier game pasted as PGN, analysed whole at 0.3 s a position,
// the hung Rook (9. c3c6) shown with its mark, the graph and the better
// move. Writes ../../docs/kamil-review-courier.png (or the path given).
//
//   node web/e2e/screenshot-review.mjs [OUT.png]

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? path.resolve(here, '../../docs/kamil-review-courier.png');

const GAME = `[Event "kamil review"]
[Variant "courier"]

1. h2h3 h7h6 2. i2i3 i7i6 3. a1a3 l8l7 4. a3c3 l7l6 5. c3c6 b7c6
6. k1j3 k8j6 7. j3i5 j6i4 8. e2e3 e7e6 *
`;

const { child, url } = await startServer(['--engines', '1']);
const browser = await launchBrowser({ width: 1360, height: 900 });
try {
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.waitForSelector('svg.board .piece');
  await page.selectOption('#mode', 'both');
  await page.evaluate(() => { document.getElementById('io').open = true; });
  await page.fill('#io-text', GAME);
  await page.click('#load');
  await page.waitForFunction(() => window.kamil.game?.plies === 16);
  await page.evaluate(() => { document.getElementById('setup').open = false; document.getElementById('io').open = false; });
  await page.selectOption('#review-movetime', '300');
  await page.click('#review-start');
  await page.waitForFunction(() => /Reviewed/.test(document.getElementById('review-progress').textContent), null, { timeout: 120000 });
  await page.click('svg.eval-graph circle.graph-point[data-ply="9"]');
  await page.waitForFunction(() => window.kamil.view?.ply === 9);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  child.kill();
}
