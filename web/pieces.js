// Drawing one piece in SVG: shogi pieces as pointed tiles facing their
// owner's opponent, labelled with the piece's kanji or its rule-book ID;
// chess pieces as discs with their letter, white or black. Every drawing
// fits a 100 x 100 box, so it scales with the board.

const NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes. */
export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** The label of a piece: its kanji (when asked for and known) or its ID. */
export function pieceLabel(info, labels) {
  if (labels === 'kanji' && info.kanji) return { text: info.kanji, kanji: true };
  return { text: info.id || info.token, kanji: false };
}

function fitText(text, parent, { x, y, size, fill, weight = 700, family }) {
  const t = el('text', {
    x, y, 'font-size': size, fill, 'font-weight': weight,
    'text-anchor': 'middle', 'dominant-baseline': 'central',
    'font-family': family,
  }, parent);
  t.textContent = text;
  return t;
}

const KANJI_FONT = "'Noto Serif CJK JP','Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho','MS Mincho',serif";
const LATIN_FONT = "'DejaVu Sans','Segoe UI',Arial,sans-serif";

/**
 * A shogi piece: a pentagon pointing away from its owner (up when `up`).
 * Kanji labels turn with the tile, as on a real board; IDs stay upright
 * so they can be read from either side.
 */
function shogiPiece(info, up, labels) {
  const g = el('g', { class: 'tile' });
  const body = el('g', up ? {} : { transform: 'rotate(180 50 50)' }, g);
  el('path', {
    d: 'M50 8 L76 19 L87 92 L13 92 L24 19 Z',
    class: 'tile-body',
  }, body);
  const { text, kanji } = pieceLabel(info, labels);
  const fill = info.promoted ? '#b3141b' : '#1b1209';
  if (kanji) {
    const chars = [...text];
    if (chars.length === 1) {
      fitText(chars[0], body, { x: 50, y: 56, size: 46, fill, family: KANJI_FONT });
    } else {
      const size = chars.length === 2 ? 31 : 23;
      const step = chars.length === 2 ? 31 : 23;
      const top = 58 - (step * (chars.length - 1)) / 2;
      chars.forEach((c, i) =>
        fitText(c, body, { x: 50, y: top + i * step, size, fill, family: KANJI_FONT }));
    }
  } else {
    const size = text.length <= 1 ? 44 : text.length === 2 ? 36 : 27;
    fitText(text, g, { x: 50, y: up ? 60 : 42, size, fill, family: LATIN_FONT });
  }
  return g;
}

/** A chess piece: a disc in its owner's colour with its letter. */
function chessPiece(info, side) {
  const g = el('g', { class: `disc side-${side}` });
  el('circle', { cx: 50, cy: 50, r: 39, class: 'disc-body' }, g);
  if (info.royal) el('circle', { cx: 50, cy: 50, r: 32, class: 'disc-ring' }, g);
  const text = info.id || info.token;
  const size = text.length <= 1 ? 46 : text.length === 2 ? 34 : 26;
  fitText(text, g, { x: 50, y: 52, size, fill: side === 0 ? '#161616' : '#f4f4f4', family: LATIN_FONT });
  return g;
}

/**
 * Draws piece `info` (an entry of the variant's `pieces`) of `side` (0 or
 * 1) in a 100 x 100 box. `up`: the piece points up the screen (its owner
 * sits at the bottom). `style`: 'shogi' or 'chess'.
 */
export function drawPiece(info, side, { style, up, labels }) {
  const g = style === 'shogi' ? shogiPiece(info, up, labels) : chessPiece(info, side);
  g.classList.add('piece-art');
  const title = el('title', {}, g);
  title.textContent = `${info.name}${info.kanji ? ' ' + info.kanji : ''} (${info.id})`;
  return g;
}
