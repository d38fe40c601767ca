// The evaluation graph of a reviewed game: one point per position (ply 0,
// the start, to the last ply), the evaluation for the first player on the
// vertical axis (capped, so a mate is the top or bottom edge), a point
// coloured by the judgement of the move that led to it. A click on a point
// asks for that ply.

import { el } from './pieces.js';

const W = 600;
const H = 120;
const PAD = 6;

/**
 * Draws into `root` (emptied first) the graph of `evals` ([{ply, eval_cp}])
 * for a game of `plies` plies, capped at `cap` centipawns. `judged` maps a
 * ply to the judgement of the move that reached it; `current` is the ply
 * shown; `onPly(ply)` is called on a click.
 */
export function drawGraph(root, { evals, plies, cap, judged, current, onPly }) {
  root.replaceChildren();
  const svg = el('svg', { class: 'eval-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'evaluation graph' }, root);
  const x = (ply) => PAD + ((W - 2 * PAD) * ply) / Math.max(1, plies);
  const y = (cp) => H / 2 - ((H / 2 - PAD) * Math.max(-cap, Math.min(cap, cp))) / cap;
  el('rect', { class: 'graph-back', x: 0, y: 0, width: W, height: H }, svg);
  el('rect', { class: 'graph-second', x: 0, y: H / 2, width: W, height: H / 2 }, svg);
  el('line', { class: 'graph-zero', x1: 0, y1: H / 2, x2: W, y2: H / 2 }, svg);
  if (current != null) el('line', { class: 'graph-current', x1: x(current), y1: 0, x2: x(current), y2: H }, svg);
  if (evals.length > 1) {
    const points = evals.map((e) => `${x(e.ply).toFixed(1)},${y(e.eval_cp).toFixed(1)}`).join(' ');
    el('polyline', { class: 'graph-line', points }, svg);
  }
  // Wide targets for the pointer first (under the dots): a column per ply.
  const step = (W - 2 * PAD) / Math.max(1, plies);
  for (const e of evals) {
    const hit = el('rect', {
      class: 'graph-hit', x: x(e.ply) - step / 2, y: 0, width: Math.max(6, step), height: H, 'data-ply': e.ply,
    }, svg);
    hit.addEventListener('click', () => onPly(e.ply));
  }
  for (const e of evals) {
    const j = judged.get(e.ply);
    const dot = el('circle', {
      class: `graph-point${j ? ` judged-${j}` : ''}${e.ply === current ? ' current' : ''}`,
      cx: x(e.ply), cy: y(e.eval_cp), r: j ? 5.5 : 3.5, 'data-ply': e.ply,
    }, svg);
    const title = el('title', {}, dot);
    title.textContent = `ply ${e.ply}: ${(e.eval_cp / 100).toFixed(2)}${j ? ` (${j})` : ''}`;
    dot.addEventListener('click', () => onPly(e.ply));
  }
  return svg;
}
