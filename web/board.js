// The board: drawn in SVG for any grid up to 16x16 with holes, coordinates
// on the edges, the last move, check, and the legal destinations of the
// selected piece. Moves are entered by clicks or by dragging, a multi-leg
// move square by square (a Lion's first step, then its second, or a click
// back on the origin to pass or take without moving); a promotion that is
// optional or has several choices, or a Sergeant's step beside its capture
// in passing, asks which.

import { el, drawPiece } from './pieces.js';

const S = 100; // square size in SVG units
const M = 40;  // margin for the coordinates
const DRAG_PX = 6;
const LONG_PRESS_MS = 550;

export class Board {
  /**
   * `root`: the element to draw in. Callbacks: `onMove(moveView)` when the
   * user has entered a legal move; `onPiece(kind, side)` when the pointer
   * rests on a piece (hover or long press), for the help panel.
   */
  constructor(root, { onMove, onPiece, onHint }) {
    this.root = root;
    this.onMove = onMove;
    this.onPiece = onPiece;
    this.onHint = onHint ?? (() => {});
    this.svg = el('svg', { class: 'board', role: 'img' }, root);
    this.variant = null;
    this.flipped = false;
    this.labels = 'kanji';
    this.pos = { board: [], legal: [], lastMove: null, sideToMove: 0, check: false, interactive: false };
    this.sel = null; // { from, via, oneLeg, twoLeg } while a move is being entered
    this.chooser = null;
    this.press = null; // pointer state between down and up
    this.svg.addEventListener('pointerdown', (e) => this.down(e));
    this.svg.addEventListener('pointermove', (e) => this.move(e));
    this.svg.addEventListener('pointerup', (e) => this.up(e));
    this.svg.addEventListener('pointercancel', () => this.cancelPress());
    this.svg.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** Draws the board of variant view `v` (from the API). */
  setVariant(v) {
    this.variant = v;
    this.pieceInfo = v.pieces;
    this.cells = new Map(); // name -> [file, rank]
    this.names = new Map(); // "file,rank" -> name
    for (const [f, r, name] of v.squares) {
      this.cells.set(name, [f, r]);
      this.names.set(`${f},${r}`, name);
    }
    this.pos = { board: [], legal: [], lastMove: null, sideToMove: 0, check: false, interactive: false };
    this.sel = null;
    this.chooser = null;
    this.svg.dataset.variant = v.name;
    this.svg.dataset.style = v.style;
    this.redraw();
  }

  /**
   * Board orientation, piece labels (`kanji` or `id`) and whether the
   * files and ranks are written around the board (`coords`; without them
   * the squares take the whole width, as on a phone).
   */
  setView({ flipped, labels, coords = true }) {
    this.flipped = flipped;
    this.labels = labels;
    this.coords = coords;
    if (this.variant) this.redraw();
  }

  // The drawing's frame: the squares, and the margins when coordinates
  // are written. `--cells` is its width in squares, for the phone layout's
  // smallest square (style.css).
  fitView() {
    const v = this.variant;
    const m = this.coords === false ? 0 : M;
    this.svg.setAttribute('viewBox', `${M - m} ${M - m} ${v.files * S + 2 * m} ${v.ranks * S + 2 * m}`);
    this.svg.style.setProperty('--cells', String(v.files + (2 * m) / S));
  }

  /**
   * The position to show: `board` [{sq, kind, side}], `legal` move views,
   * `lastMove` {squares}, `sideToMove`, `check`, and `interactive` (the
   * user may move the side to move's pieces now).
   */
  setPosition(pos) {
    this.pos = pos;
    this.sel = null;
    this.chooser = null;
    this.redraw();
  }

  // --- geometry -------------------------------------------------------

  xy(name) {
    const [f, r] = this.cells.get(name);
    const v = this.variant;
    const col = this.flipped ? v.files - 1 - f : f;
    const row = this.flipped ? r : v.ranks - 1 - r;
    return [M + col * S, M + row * S];
  }

  squareAt(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = pt.matrixTransform(ctm.inverse());
    const col = Math.floor((p.x - M) / S);
    const row = Math.floor((p.y - M) / S);
    const v = this.variant;
    if (!v || col < 0 || row < 0 || col >= v.files || row >= v.ranks) return { x: p.x, y: p.y, name: null };
    const f = this.flipped ? v.files - 1 - col : col;
    const r = this.flipped ? row : v.ranks - 1 - row;
    return { x: p.x, y: p.y, name: this.names.get(`${f},${r}`) ?? null };
  }

  pieceOn(name) {
    return this.pos.board.find((p) => p.sq === name) ?? null;
  }

  // --- drawing --------------------------------------------------------

  redraw() {
    const v = this.variant;
    if (!v) return;
    this.svg.replaceChildren();
    this.ghostEl = null;
    const shogi = v.style === 'shogi';
    const squares = el('g', { class: 'squares' }, this.svg);
    for (const [f, r, name] of v.squares) {
      const [x, y] = this.xy(name);
      const dark = !shogi && (f + r) % 2 === 0;
      el('rect', {
        x, y, width: S, height: S, 'data-sq': name,
        class: `square ${shogi ? 'wood' : dark ? 'dark' : 'light'}`,
      }, squares);
    }
    if (shogi) this.drawStars(squares);
    this.fitView();
    if (this.coords !== false) this.drawCoords();
    const marks = el('g', { class: 'marks' }, this.svg);
    this.drawMarks(marks);
    const pieces = el('g', { class: 'pieces' }, this.svg);
    for (const p of this.pos.board) {
      if (!this.cells.has(p.sq)) continue;
      const info = this.pieceInfo[p.kind];
      const [x, y] = this.xy(p.sq);
      const up = (p.side === 0) !== this.flipped;
      const g = el('g', {
        class: 'piece', transform: `translate(${x} ${y})`,
        'data-sq': p.sq, 'data-kind': p.kind, 'data-side': p.side,
      }, pieces);
      g.appendChild(drawPiece(info, p.side, { style: v.style, up, labels: this.labels }));
      if (this.press?.dragging && this.press.from === p.sq) g.classList.add('lifted');
    }
    this.drawDests(el('g', { class: 'dests' }, this.svg));
    this.onHint(this.hint());
    if (this.chooser) this.drawChooser();
    if (this.press?.dragging) this.drawGhost();
  }

  drawStars(parent) {
    const v = this.variant;
    const z = v.promotion_zone;
    if (!z || 2 * z >= v.ranks || 2 * z >= v.files) return;
    for (const cx of [z, v.files - z]) {
      for (const cy of [z, v.ranks - z]) {
        el('circle', { cx: M + cx * S, cy: M + cy * S, r: 7, class: 'star' }, parent);
      }
    }
  }

  drawCoords() {
    const v = this.variant;
    const g = el('g', { class: 'coords' }, this.svg);
    const H = v.ranks * S + 2 * M;
    const W = v.files * S + 2 * M;
    for (let f = 0; f < v.files; f++) {
      const col = this.flipped ? v.files - 1 - f : f;
      const x = M + col * S + S / 2;
      for (const y of [M / 2, H - M / 2]) {
        const t = el('text', { x, y, class: 'coord' }, g);
        t.textContent = v.file_names[f];
      }
    }
    for (let r = 0; r < v.ranks; r++) {
      const row = this.flipped ? r : v.ranks - 1 - r;
      const y = M + row * S + S / 2;
      for (const x of [M / 2, W - M / 2]) {
        const t = el('text', { x, y, class: 'coord' }, g);
        t.textContent = String(r + 1);
      }
    }
  }

  drawMarks(g) {
    const mark = (name, cls) => {
      if (!this.cells.has(name)) return;
      const [x, y] = this.xy(name);
      el('rect', { x, y, width: S, height: S, class: cls }, g);
    };
    for (const sq of this.pos.lastMove?.squares ?? []) mark(sq, 'mark-last');
    if (this.pos.check) {
      for (const p of this.pos.board) {
        if (p.side === this.pos.sideToMove && this.pieceInfo[p.kind].royal) mark(p.sq, 'mark-check');
      }
    }
    if (this.sel) {
      mark(this.sel.from, 'mark-from');
      if (this.sel.via) mark(this.sel.via, 'mark-via');
    }
  }

  /** What the user may do next while entering a multi-leg move, or null. */
  hint() {
    const sel = this.sel;
    if (this.chooser) return 'Choose the piece it becomes.';
    if (!sel?.via) return null;
    const parts = [];
    if (sel.oneLeg.length) parts.push(`${sel.via} again to stop there`);
    const back = sel.twoLeg.some((m) => m.to === sel.from);
    const on = sel.twoLeg.filter((m) => m.to !== sel.from).length;
    if (on) parts.push('a marked square to go on');
    if (back) parts.push(`${sel.from} to go back (${this.pieceOn(sel.via) ? 'take without moving' : 'pass'})`);
    return `Second step: click ${parts.join(', or ')}.`;
  }

  /** The legal destinations of the move being entered. */
  drawDests(g) {
    if (!this.sel || this.chooser) return;
    const dot = (name, capture) => {
      const [x, y] = this.xy(name);
      if (capture) {
        el('circle', { cx: x + S / 2, cy: y + S / 2, r: 44, class: 'dest-capture', 'data-dest': name }, g);
      } else {
        el('circle', { cx: x + S / 2, cy: y + S / 2, r: 15, class: 'dest', 'data-dest': name }, g);
      }
    };
    const step = (name) => {
      const [x, y] = this.xy(name);
      el('rect', { x: x + 10, y: y + 10, width: S - 20, height: S - 20, rx: 12, class: 'dest-step', 'data-step': name }, g);
    };
    const occupied = (name) => this.pieceOn(name) !== null && name !== this.sel.from;
    if (!this.sel.via) {
      const moves = this.movesFrom(this.sel.from);
      const steps = new Set(moves.flatMap((m) => m.vias));
      const ends = new Set(moves.filter((m) => m.vias.length === 0).map((m) => m.to));
      for (const s of steps) step(s);
      for (const t of ends) if (!steps.has(t)) dot(t, occupied(t));
    } else {
      for (const t of new Set(this.sel.twoLeg.map((m) => m.to))) dot(t, occupied(t) && t !== this.sel.via);
      if (this.sel.oneLeg.length) dot(this.sel.via, occupied(this.sel.via));
    }
  }

  drawGhost() {
    const p = this.press;
    const info = this.pieceInfo[p.piece.kind];
    const up = (p.piece.side === 0) !== this.flipped;
    const g = el('g', { class: 'ghost', transform: `translate(${p.x - S / 2} ${p.y - S / 2})` }, this.svg);
    this.ghostEl = g;
    g.appendChild(drawPiece(info, p.piece.side, { style: this.variant.style, up, labels: this.labels }));
  }

  /** The choice between promoting or not, or between promotion pieces. */
  drawChooser() {
    const { moves, at } = this.chooser;
    const v = this.variant;
    const mover = this.pieceOn(this.sel?.from ?? moves[0].from) ?? { kind: 0, side: this.pos.sideToMove };
    const [x, y0] = this.xy(at);
    const h = moves.length * S;
    const H = v.ranks * S + 2 * M;
    const y = Math.max(M / 2, Math.min(y0, H - M / 2 - h));
    const g = el('g', { class: 'chooser' }, this.svg);
    el('rect', { x: x - 8, y: y - 8, width: S + 16, height: h + 16, rx: 10, class: 'chooser-back' }, g);
    moves.forEach((m, i) => {
      const cell = el('g', { transform: `translate(${x} ${y + i * S})`, class: 'choice', 'data-choice': m.text }, g);
      el('rect', { width: S, height: S, rx: 6, class: 'choice-back' }, cell);
      const kind = m.promo ?? mover.kind;
      const up = (mover.side === 0) !== this.flipped;
      cell.appendChild(drawPiece(this.pieceInfo[kind], mover.side, { style: v.style, up, labels: this.labels }));
      // A Sergeant may step to a passed square or take there in passing.
      const ep = m.kind === 'en-passant';
      if (ep) el('text', { x: S - 6, y: S - 6, class: 'choice-ep' }, cell).textContent = 'e.p.';
      const t = el('title', {}, cell);
      const plain = moves.some((x) => x.kind === 'en-passant') ? 'no capture' : 'no promotion';
      t.textContent = ep
        ? `${m.text}: capture in passing`
        : m.promo == null
          ? `${m.text}: ${plain}`
          : `${m.text}: ${this.pieceInfo[kind].name}`;
    });
  }

  // --- input ----------------------------------------------------------

  movesFrom(from) {
    return this.pos.legal.filter((m) => m.from === from);
  }

  canSelect(name) {
    const p = this.pieceOn(name);
    return this.pos.interactive && p && p.side === this.pos.sideToMove && this.movesFrom(name).length > 0;
  }

  select(name) {
    this.sel = { from: name, via: null, oneLeg: [], twoLeg: [] };
  }

  /** The user has pointed at square `name` while entering a move. */
  target(name) {
    const sel = this.sel;
    if (!sel || !name) {
      this.sel = null;
      return;
    }
    if (!sel.via) {
      if (name === sel.from) {
        this.sel = null;
        return;
      }
      const moves = this.movesFrom(sel.from);
      const oneLeg = moves.filter((m) => m.vias.length === 0 && m.to === name);
      const twoLeg = moves.filter((m) => m.vias.includes(name));
      if (twoLeg.length) {
        this.sel = { ...sel, via: name, oneLeg, twoLeg };
      } else if (oneLeg.length) {
        this.choose(oneLeg, name);
      } else if (this.canSelect(name)) {
        this.select(name);
      } else {
        this.sel = null;
      }
      return;
    }
    if (name === sel.via && sel.oneLeg.length) {
      this.choose(sel.oneLeg, name);
      return;
    }
    const ends = sel.twoLeg.filter((m) => m.to === name);
    if (ends.length) this.choose(ends, name);
    else if (this.canSelect(name) && name !== sel.from) this.select(name);
    else this.sel = null;
  }

  choose(moves, at) {
    if (moves.length === 1) {
      this.sel = null;
      this.onMove(moves[0]);
    } else {
      this.chooser = { moves, at };
    }
  }

  down(e) {
    if (!this.variant || e.button > 0) return;
    const at = this.squareAt(e);
    if (this.chooser) {
      const choice = e.target.closest?.('[data-choice]')?.dataset.choice;
      const m = this.chooser.moves.find((x) => x.text === choice);
      this.chooser = null;
      this.sel = null;
      if (m) this.onMove(m);
      else this.redraw();
      return;
    }
    if (!at?.name) {
      this.sel = null;
      this.redraw();
      return;
    }
    const piece = this.pieceOn(at.name);
    this.press = {
      id: e.pointerId, sx: e.clientX, sy: e.clientY, x: at.x, y: at.y,
      from: null, piece, dragging: false, clickedSelected: false, longPressed: false,
    };
    if (piece) {
      this.press.timer = setTimeout(() => {
        if (this.press && !this.press.dragging) {
          this.press.longPressed = true;
          this.onPiece(piece.kind, piece.side);
        }
      }, LONG_PRESS_MS);
    }
    const selecting = this.sel && !this.sel.via ? this.sel.from : null;
    if (selecting === at.name) {
      this.press.clickedSelected = true;
      this.press.from = at.name;
    } else if (this.canSelect(at.name) && !(this.sel && this.isTarget(at.name))) {
      this.select(at.name);
      this.press.from = at.name;
    } else {
      this.press.targetOnUp = at.name;
    }
    try { this.svg.setPointerCapture(e.pointerId); } catch { /* not capturable */ }
    this.redraw();
  }

  /** Does clicking `name` continue the move being entered? */
  isTarget(name) {
    const sel = this.sel;
    if (!sel) return false;
    if (!sel.via) return this.movesFrom(sel.from).some((m) => m.to === name || m.vias.includes(name));
    return (name === sel.via && sel.oneLeg.length > 0) || sel.twoLeg.some((m) => m.to === name);
  }

  move(e) {
    const at = this.squareAt(e);
    const p = this.press;
    if (p && p.id === e.pointerId) {
      const far = Math.hypot(e.clientX - p.sx, e.clientY - p.sy) > DRAG_PX;
      if (far) clearTimeout(p.timer);
      if (p.from && far && !p.longPressed) p.dragging = true;
      if (p.dragging && at) {
        p.x = at.x;
        p.y = at.y;
        if (this.ghostEl) this.ghostEl.setAttribute('transform', `translate(${p.x - S / 2} ${p.y - S / 2})`);
        else this.redraw();
      }
      return;
    }
    const piece = at?.name ? this.pieceOn(at.name) : null;
    const key = piece ? `${piece.kind}/${piece.side}` : null;
    if (piece && key !== this.hovered) this.onPiece(piece.kind, piece.side);
    this.hovered = key;
  }

  up(e) {
    const p = this.press;
    if (!p || p.id !== e.pointerId) return;
    clearTimeout(p.timer);
    this.press = null;
    if (p.longPressed) {
      this.sel = null;
    } else if (p.dragging) {
      const at = this.squareAt(e);
      if (at?.name && at.name !== p.from) this.target(at.name);
    } else if (p.clickedSelected) {
      this.sel = null;
    } else if (p.targetOnUp) {
      this.target(p.targetOnUp);
    }
    this.redraw();
  }

  cancelPress() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
    this.redraw();
  }
}
