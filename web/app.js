// The page: choose a game and its options, play against kamil or let two
// people share the board, follow the engine's analysis live, step through
// the moves, import and export FEN and PGN. Talks to the server through
// api.js; draws with board.js; explains pieces with help.js; keeps the
// game in the address with link.js; reviews whole games with review.js.

import { api } from './api.js';
import { Board } from './board.js';
import { disclosure, showHelp } from './help.js';
import { Address, LinkError, copyText, gameHash, parseHash } from './link.js';
import { Review } from './review.js';

const $ = (id) => document.getElementById(id);

const prefs = (() => {
  try {
    return JSON.parse(localStorage.getItem('kamil') ?? '{}');
  } catch {
    return {};
  }
})();
const savePrefs = () => {
  try {
    localStorage.setItem('kamil', JSON.stringify(prefs));
  } catch {
    /* private mode: no memory */
  }
};

const app = {
  variants: [],
  variant: null, // the game's variant view (board, pieces, help)
  game: null, // the latest game view
  view: null, // the view shown (the latest, or an earlier ply)
  mode: 'first', // 'first' | 'second': the user's side against kamil; 'both': two people
  flipped: false,
  labels: prefs.labels ?? 'kanji',
  // Files and ranks around the board: off by default on a phone, where
  // the squares need the whole width.
  coords: prefs.coords ?? !window.matchMedia('(max-width: 600px)').matches,
  thinking: false,
  reviewing: false, // a whole-game review runs (review.js)
  analysis: null,
  events: null,
  busy: 0,
};
window.kamil = app; // for the end-to-end test and the curious

const board = new Board($('board'), {
  onMove: (m) => userMove(m),
  onPiece: (kind, side) => {
    if (app.variant) showHelp($('help-body'), app.variant, kind, side, app.labels);
  },
  onHint: (text) => {
    $('hint-line').textContent = text ?? '';
  },
});

// --- errors and status ----------------------------------------------------

let errorTimer = null;
function showError(e) {
  const box = $('error');
  box.textContent = e?.message ?? String(e);
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

async function guarded(f) {
  app.busy++;
  try {
    return await f();
  } catch (e) {
    showError(e);
    return null;
  } finally {
    app.busy--;
  }
}

function engineSide() {
  if (app.mode === 'first') return 1;
  if (app.mode === 'second') return 0;
  return null;
}

function boardView() {
  return { flipped: app.flipped, labels: app.labels, coords: app.coords };
}

function sideName(side) {
  return app.variant?.side_names[side] ?? (side === 0 ? 'First' : 'Second');
}

// --- the new-game form ----------------------------------------------------

function fillVariants() {
  const sel = $('variant');
  sel.replaceChildren();
  for (const v of app.variants) {
    const o = document.createElement('option');
    o.value = v.name;
    o.textContent = v.title;
    sel.appendChild(o);
  }
  if (prefs.variant && app.variants.some((v) => v.name === prefs.variant)) sel.value = prefs.variant;
  if (prefs.movetime) $('movetime').value = prefs.movetime;
  if (prefs.depth != null) $('depth').value = prefs.depth;
  if (prefs.skill != null) $('skill').value = prefs.skill;
  fillOptions();
}

// Each level below full strength with its Elo in this game (the scale
// of UCI_Elo: 1000 is level 0; measured with kamil match).
function showLevelElo(v) {
  for (const o of $('skill').options) {
    const level = Number(o.value);
    const words = { 20: 'full strength', 0: 'beginner' }[level];
    const elo = v.level_elo?.[level];
    const parts = [words, elo != null ? `Elo ${elo}` : null].filter(Boolean);
    o.textContent = parts.length ? `${level} (${parts.join(', ')})` : String(level);
  }
}

function fillOptions() {
  const v = app.variants.find((x) => x.name === $('variant').value);
  if (!v) return;
  $('variant-desc').textContent = v.description;
  const box = $('options');
  box.replaceChildren();
  $('options-box').hidden = v.options.length === 0;
  $('options-summary').textContent = `Rule options (${v.options.length})`;
  for (const o of v.options) box.appendChild(optionRow(o));
  showLevelElo(v);
  // The side names depend on the game (White/Black, Sente/Gote).
  const names = v.side_names;
  const mode = $('mode');
  const keep = mode.value || prefs.mode || 'first';
  mode.replaceChildren();
  for (const [value, text] of [
    ['first', `${names[0]}, moves first`],
    ['second', names[1]],
    ['both', 'both sides, two players'],
  ]) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    mode.appendChild(o);
  }
  mode.value = keep;
}

// One option of the form: the player's label and its choice, the summary
// in plain words below, and the key and source behind "details".
function optionRow(o) {
  const row = document.createElement('div');
  row.className = 'option';
  const label = document.createElement('label');
  label.append(`${o.label} `);
  let input;
  if (o.values.length) {
    input = document.createElement('select');
    o.values.forEach((val, i) => {
      const opt = document.createElement('option');
      opt.value = val;
      opt.textContent = o.value_labels?.[i] ?? val;
      input.appendChild(opt);
    });
  } else {
    input = document.createElement('input');
    input.type = 'number';
    input.min = '0';
  }
  input.value = o.default;
  input.dataset.option = o.name;
  label.appendChild(input);
  const summary = document.createElement('p');
  summary.className = 'option-summary muted';
  summary.textContent = o.summary;
  const key = document.createElement('code');
  key.textContent = o.name;
  const source = document.createElement('p');
  source.textContent = o.description;
  row.append(label, summary, disclosure('details', 'Key ', key, source));
  return row;
}

function chosenOptions() {
  const out = {};
  for (const input of $('options').querySelectorAll('[data-option]')) out[input.dataset.option] = input.value;
  return out;
}

// --- games ----------------------------------------------------------------

// `rethrow`: a failure is thrown to the caller (a link being opened)
// rather than shown.
async function newGame(extra = {}, { rethrow = false } = {}) {
  await stopThinking();
  const variant = $('variant').value;
  const req = { variant, options: chosenOptions(), ...extra };
  const g = rethrow ? await api.newGame(req) : await guarded(() => api.newGame(req));
  if (!g) return;
  app.mode = $('mode').value;
  Object.assign(prefs, { variant, mode: app.mode, movetime: $('movetime').value, depth: $('depth').value, skill: $('skill').value });
  savePrefs();
  if (app.game) api.remove(app.game.id).catch(() => {});
  app.variant = g.variant_info;
  delete g.variant_info;
  app.flipped = app.mode === 'second';
  app.analysis = null;
  board.setView(boardView());
  board.setVariant(app.variant);
  document.title = `kamil: ${app.variant.title}`;
  $('title').textContent = app.variant.title;
  $('help-body').textContent = 'Point at a piece (or press and hold it) to see how it moves.';
  setGame(g);
  subscribe(g.id);
  maybeEngine();
}

function setGame(g) {
  // Once a game is under way the board matters more than the form.
  if (g.plies > 0 && app.game?.id === g.id && app.game.plies === 0) $('setup').open = false;
  app.game = g;
  app.view = g;
  render();
}

function subscribe(id) {
  if (app.events) app.events.close();
  const es = api.events(id);
  app.events = es;
  es.addEventListener('info', (e) => {
    if (!app.thinking || es !== app.events) return;
    app.analysis = JSON.parse(e.data);
    renderAnalysis();
  });
  es.addEventListener('state', (e) => {
    const s = JSON.parse(e.data);
    // A change made elsewhere (another tab): catch up, unless our own
    // request is on its way with it.
    setTimeout(async () => {
      if (es !== app.events || app.busy || app.thinking) return;
      if (app.game && s.generation > app.game.generation) {
        const g = await guarded(() => api.game(id));
        if (g && es === app.events) setGame(g);
      }
    }, 300);
  });
}

async function userMove(m) {
  const g = app.game;
  if (!g || app.thinking) return;
  const ply = app.view.ply < g.plies ? app.view.ply : undefined;
  const next = await guarded(() => api.play(g.id, m.text, ply));
  if (next) setGame(next);
  else render();
  maybeEngine();
}

function maybeEngine() {
  const g = app.game;
  if (!g || app.thinking || app.reviewing || g.outcome || app.view !== g) return;
  if (engineSide() === g.side_to_move) think(true);
}

function engineLimits() {
  const req = { movetime_ms: Number($('movetime').value) };
  const depth = $('depth').value;
  if (depth) req.depth = Number(depth);
  const skill = Number($('skill').value);
  if (skill < 20) req.skill = skill;
  return req;
}

async function think(play) {
  const g = app.game;
  if (!g || app.thinking || app.reviewing) return;
  app.thinking = true;
  app.analysis = null;
  render();
  let result = null;
  try {
    result = await api.think(g.id, { ...engineLimits(), play });
  } catch (e) {
    // 409: the game changed (undo, new game) while the engine thought.
    if (e.status !== 409) showError(e);
  }
  app.thinking = false;
  if (result && app.game?.id === g.id) {
    app.analysis = result;
    if (play) setGame(result.game);
  }
  render();
}

async function stopThinking() {
  if (app.thinking && app.game) await api.stop(app.game.id).catch(() => {});
}

async function goPly(ply) {
  const g = app.game;
  if (!g) return;
  const n = Math.max(0, Math.min(g.plies, ply));
  if (n === g.plies) {
    app.view = g;
  } else {
    const v = await guarded(() => api.game(g.id, n));
    if (!v) return;
    app.view = v;
  }
  render();
  maybeEngine();
}

async function undo() {
  const g = app.game;
  if (!g || g.plies === 0) return;
  let n = 1;
  const es = engineSide();
  if (!app.thinking && es != null && g.plies >= 2 && g.moves[g.plies - 1].side === es) n = 2;
  const next = await guarded(() => api.undo(g.id, n));
  if (next) setGame(next);
}

// --- drawing the panel ------------------------------------------------------

function scoreText(score, side) {
  // Scores come for the side to move; show them for the first player.
  const sign = side === 0 ? 1 : -1;
  if (score.mate != null) {
    const m = score.mate * sign;
    return m > 0 ? `${sideName(0)} mates in ${m}` : `${sideName(1)} mates in ${-m}`;
  }
  const cp = (score.cp * sign) / 100;
  return `${cp >= 0 ? '+' : ''}${cp.toFixed(2)}`;
}

// The score in words: who is better and by how much (pawns), or who mates.
function scoreWords(score, side) {
  const text = scoreText(score, side);
  if (score.mate != null) return text;
  const cp = score.cp * (side === 0 ? 1 : -1);
  if (Math.abs(cp) < 30) return `about level (${text})`;
  return `${sideName(cp > 0 ? 0 : 1)} better (${text})`;
}

/** A count as a player reads it: 950, 1.2k, 34k, 1.5M. */
function countText(n) {
  if (n < 1000) return String(n);
  if (n < 1e4) return `${(n / 1e3).toFixed(1)}k`;
  if (n < 1e6) return `${Math.round(n / 1e3)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

function secondsText(ms) {
  return ms < 1000 ? `${Math.max(ms, 0).toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function renderAnalysis() {
  const a = app.analysis;
  const line = $('analysis-line');
  const pv = $('pv');
  if (!a) {
    line.textContent = app.thinking ? 'Searching…' : 'Engine idle.';
    pv.textContent = '';
  } else {
    const prefix = app.thinking ? 'Searching… ' : a.best ? `Best ${a.best} · ` : '';
    line.textContent = `${prefix}${scoreWords(a.score, a.side)} · looked ${a.depth} ${a.depth === 1 ? 'ply' : 'plies'} ahead · ${countText(a.nodes)} positions in ${secondsText(a.time_ms)}`;
    pv.textContent = a.pv?.length ? `PV ${a.pv.join(' ')}` : '';
  }
  $('analysis').classList.toggle('active', app.thinking);
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  const g = app.game;
  let li = null;
  g.moves.forEach((m, i) => {
    if (!li || m.side === 0) {
      li = document.createElement('li');
      list.appendChild(li);
      if (m.side === 1) li.append(document.createTextNode('… '));
    }
    const a = document.createElement('button');
    a.className = 'move';
    a.textContent = m.text;
    a.dataset.ply = String(i + 1);
    if (app.view.ply === i + 1) a.classList.add('current');
    a.addEventListener('click', () => goPly(i + 1));
    li.appendChild(a);
  });
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function render() {
  const g = app.game;
  const v = app.view;
  if (!g || !v) return;
  const latest = v === g || v.ply === g.plies;
  const userTurn = engineSide() !== v.side_to_move || !latest;
  // The shogi games also write SFEN (null for the others).
  $('show-sfen').hidden = !v.sfen;
  board.setPosition({
    board: v.board,
    legal: v.legal,
    lastMove: v.last_move,
    sideToMove: v.side_to_move,
    check: v.check,
    interactive: !app.thinking && !app.reviewing && !v.outcome && userTurn,
  });
  let status;
  if (v.outcome) {
    status = `${v.outcome.result}: ${v.outcome.text}.`;
  } else {
    status = `${sideName(v.side_to_move)} to move${v.check ? ', in check' : ''}.`;
    if (app.thinking) status += ' kamil is thinking…';
    const opening = v.legal.length === 1 && v.legal[0].kind === 'opening' ? v.legal[0] : null;
    if (opening && !app.thinking) {
      status += ` The compulsory opening ${opening.text} is the only move: ${opening.from} to ${opening.to} plays it.`;
    }
  }
  if (!latest) status += ` (Viewing ply ${v.ply} of ${g.plies}; a move here replaces the rest.)`;
  $('status').textContent = status;
  $('status').classList.toggle('over', !!v.outcome);
  renderMoves();
  renderAnalysis();
  $('move-now').disabled = !app.thinking;
  $('hint').disabled = app.thinking || !!g.outcome || !latest;
  $('undo').disabled = g.plies === 0;
  $('first').disabled = $('prev').disabled = v.ply === 0;
  $('next').disabled = $('last').disabled = latest;
  const hasKanji = app.variant?.pieces.some((p) => p.kanji);
  $('coords').setAttribute('aria-pressed', String(app.coords));
  $('labels').hidden = !hasKanji;
  $('labels').textContent = app.labels === 'kanji' ? 'IDs' : '漢字';
  $('labels').title = app.labels === 'kanji' ? 'Label pieces with rule-book IDs' : 'Label pieces with kanji';
  address.update(g, app.variant, v.ply);
  review.afterRender();
}

// --- links: the game in the address (link.js) --------------------------------

const address = new Address();

function showLinkMessage(text) {
  const box = $('link-message');
  box.textContent = text;
  box.hidden = !text;
}

/** A link that cannot be opened: says why, then shows the start position. */
async function badLink(reason) {
  if (!app.variants.some((v) => v.name === $('variant').value)) $('variant').value = app.variants[0].name;
  fillOptions();
  const title = $('variant').selectedOptions[0]?.textContent ?? $('variant').value;
  await address.quietly(() => newGame());
  showLinkMessage(`This link could not be opened: ${reason}. Here is the start position of ${title} instead.`);
}

/** Opens the game of link `link` (from parseHash) at its ply. */
async function openLink(link) {
  if (!app.variants.some((v) => v.name === link.variant)) {
    await badLink(`there is no game named “${link.variant}”`);
    return;
  }
  $('variant').value = link.variant;
  fillOptions();
  for (const input of $('options').querySelectorAll('[data-option]')) {
    const value = link.options[input.dataset.option];
    if (value != null) input.value = value;
  }
  try {
    await address.quietly(async () => {
      const options = { ...chosenOptions(), ...link.options };
      await newGame({ options, fen: link.fen ?? undefined, moves: link.moves }, { rethrow: true });
      if (link.ply != null && link.ply > app.game.plies) {
        throw new LinkError(`its ply ${link.ply} is beyond the game's ${app.game.plies} plies`);
      }
      if (link.ply != null && link.ply < app.game.plies) await goPly(link.ply);
    });
    showLinkMessage('');
  } catch (e) {
    await badLink(e.message);
  }
}

/** The address changed (back, forward, a link pasted): show its game. */
async function followAddress() {
  let link;
  try {
    link = parseHash(window.location.hash);
  } catch (e) {
    await badLink(e.message);
    return;
  }
  if (!link) return;
  const g = app.game;
  if (g && app.variant) {
    // The same game, or an earlier point of it: step there.
    const here = parseHash(`#${gameHash(g, app.variant)}`);
    const texts = g.moves.map((m) => m.text);
    const same = here.variant === link.variant && here.fen === link.fen
      && JSON.stringify(here.options) === JSON.stringify(link.options)
      && link.moves.length <= texts.length && link.moves.every((t, i) => t === texts[i]);
    if (same) {
      await address.quietly(() => goPly(link.ply ?? link.moves.length));
      return;
    }
  }
  await openLink(link);
}

async function copyLink() {
  const url = window.location.href;
  if (await copyText(url)) {
    $('hint-line').textContent = 'Link copied: it opens this game at this ply.';
  } else {
    $('io').open = true;
    $('io-text').value = url;
    $('io-text').select();
    $('hint-line').textContent = 'The link is in the text box below: copy it from there.';
  }
}

const review = new Review({ app, goPly, showError, render: () => render() });

// --- import and export ------------------------------------------------------

async function showPgn() {
  const r = await guarded(() => api.pgn(app.game.id));
  if (r) $('io-text').value = r.pgn;
  return r?.pgn;
}

async function load() {
  const text = $('io-text').value.trim();
  if (!text) return;
  const isPgn = /^\s*\[\w+\s+"/m.test(text) || /^\s*1\.\s/.test(text);
  if (isPgn) {
    // XBoard's and HaChu's names of the shogi games are read too.
    const xboardNames = { chu: 'chu-shogi', dai: 'dai-shogi', sho: 'sho-shogi' };
    let tag = /\[Variant\s+"([^"]+)"\]/.exec(text)?.[1];
    tag = xboardNames[tag] ?? tag;
    if (tag && app.variants.some((v) => v.name === tag)) {
      $('variant').value = tag;
      fillOptions();
      // The game's own tags (Variant, VariantOptions) say what it is.
      await newGame({ pgn: text, variant: undefined, options: {} });
    } else {
      await newGame({ pgn: text });
    }
  } else {
    await newGame({ fen: text });
  }
}

async function download() {
  const pgn = await showPgn();
  if (!pgn) return;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' }));
  a.download = `${app.variant.name}.pgn`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// --- wiring -----------------------------------------------------------------

$('variant').addEventListener('change', fillOptions);
$('new-game').addEventListener('submit', (e) => {
  e.preventDefault();
  showLinkMessage('');
  newGame();
});
$('mode').addEventListener('change', () => {
  // Changing sides mid-game: kamil takes over the other side at once.
  if (!app.game) return;
  app.mode = $('mode').value;
  prefs.mode = app.mode;
  savePrefs();
  render();
  maybeEngine();
});
$('move-now').addEventListener('click', stopThinking);
$('hint').addEventListener('click', () => think(false));
$('first').addEventListener('click', () => goPly(0));
$('prev').addEventListener('click', () => goPly(app.view.ply - 1));
$('next').addEventListener('click', () => goPly(app.view.ply + 1));
$('last').addEventListener('click', () => goPly(app.game.plies));
$('undo').addEventListener('click', undo);
$('flip').addEventListener('click', () => {
  app.flipped = !app.flipped;
  board.setView(boardView());
});
$('coords').addEventListener('click', () => {
  app.coords = !app.coords;
  prefs.coords = app.coords;
  savePrefs();
  board.setView(boardView());
  render();
});
$('labels').addEventListener('click', () => {
  app.labels = app.labels === 'kanji' ? 'id' : 'kanji';
  prefs.labels = app.labels;
  savePrefs();
  board.setView(boardView());
  render();
});
$('show-fen').addEventListener('click', () => { $('io-text').value = app.view.fen; });
$('show-sfen').addEventListener('click', () => { $('io-text').value = app.view.sfen ?? app.view.fen; });
$('show-pgn').addEventListener('click', showPgn);
$('load').addEventListener('click', load);
$('download').addEventListener('click', download);
$('copy-link').addEventListener('click', copyLink);
$('open-file').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  $('io-text').value = await file.text();
  e.target.value = '';
  await load();
});
window.addEventListener('hashchange', followAddress);
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select') || !app.view) return;
  if (e.key === 'ArrowLeft') goPly(app.view.ply - 1);
  if (e.key === 'ArrowRight') goPly(app.view.ply + 1);
});

(async () => {
  const list = await guarded(() => api.variants());
  if (!list) return;
  app.variants = list;
  fillVariants();
  if (window.location.hash) await followAddress();
  else await newGame();
})();
