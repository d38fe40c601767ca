// The piece help panel: the piece as drawn, its names, its description
// from the variant file in plain words, and where it could move from the
// middle of an empty board (dots) and what it could take (crosses); its
// Betza code and the rule book sections the description cites sit behind
// "details".

import { el, drawPiece } from './pieces.js';

const S = 20;

// A parenthesis that cites a source: a section `(6.1)`, `(section 4)`, an
// ambiguity `(A9)`, `(B15 fr.caliph)`.
const CITATION = /\s*\(((?:section \d+|\d+(?:\.\d+)*|[AB]\d+)(?:[ ,;][^()]*)?)\)/g;

/** A "details" disclosure titled `title`, holding `children`. */
export function disclosure(title, ...children) {
  const d = document.createElement('details');
  d.className = 'details';
  const head = document.createElement('summary');
  head.textContent = title;
  d.append(head, ...children);
  return d;
}

/**
 * A description split into its plain words and the citations it holds:
 * `{ text, cited: ['6.1'] }`.
 */
export function plainDescription(description) {
  const cited = [];
  const text = description.replace(CITATION, (_, ref) => { cited.push(ref); return ''; });
  return { text, cited };
}

/**
 * Fills `root` with the help for piece type `kind` of `side`. `describe`:
 * whether to show the variant file's description (the rules panel, whose
 * text describes each piece, leaves it out).
 */
export function showHelp(root, variant, kind, side, labels, { describe = true } = {}) {
  const info = variant.pieces[kind];
  if (!info) return;
  root.replaceChildren();
  const head = document.createElement('div');
  head.className = 'help-head';
  const icon = el('svg', { viewBox: '0 0 100 100', class: 'help-icon' }, head);
  icon.appendChild(drawPiece(info, side, { style: variant.style, up: true, labels }));
  const names = document.createElement('div');
  const title = document.createElement('strong');
  title.textContent = info.name;
  const sub = document.createElement('div');
  sub.className = 'muted';
  const bits = [`ID ${info.id}`];
  if (info.kanji) bits.push(info.kanji);
  if (info.royal) bits.push('royal');
  if (info.promotes_to != null) bits.push(`promotes to ${variant.pieces[info.promotes_to].name}`);
  sub.textContent = bits.join(' · ');
  names.append(title, sub);
  head.appendChild(names);
  root.appendChild(head);
  const { text, cited } = plainDescription(info.description ?? '');
  if (describe && text) {
    const p = document.createElement('p');
    p.textContent = text;
    root.appendChild(p);
  }
  root.appendChild(miniBoard(variant, info, side));
  const betza = document.createElement('code');
  betza.textContent = info.betza;
  const details = disclosure('details', 'Betza ', betza);
  if (describe && cited.length) details.append(`; rule book ${cited.join('; ')}`);
  root.appendChild(details);
}

function miniBoard(variant, info, side) {
  const help = info.help[side];
  const svg = el('svg', {
    viewBox: `0 0 ${variant.files * S} ${variant.ranks * S}`,
    class: 'help-board',
    'data-kind': info.kind,
  });
  const moves = new Set(help.moves);
  const captures = new Set(help.captures);
  for (const [f, r, name] of variant.squares) {
    const x = f * S;
    const y = (variant.ranks - 1 - r) * S;
    el('rect', { x, y, width: S, height: S, class: 'help-square' }, svg);
    if (name === help.from) {
      el('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 3, class: 'help-from' }, svg);
    } else if (moves.has(name)) {
      el('circle', { cx: x + S / 2, cy: y + S / 2, r: S / 4, class: 'help-move' }, svg);
    } else if (captures.has(name)) {
      const d = S / 4;
      const c = [x + S / 2, y + S / 2];
      el('path', { d: `M${c[0] - d} ${c[1] - d}L${c[0] + d} ${c[1] + d}M${c[0] + d} ${c[1] - d}L${c[0] - d} ${c[1] + d}`, class: 'help-capture' }, svg);
    }
  }
  return svg;
}
