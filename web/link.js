// The game in the page's address, so that reloading, the back button and a
// pasted link bring back the same game at the same ply. The address's hash
// holds it as `key=value` pairs joined by `&`:
//
//   #v=chu-shogi&o=lion-trading:off&fen=...&m=f3f5,f9f8,f5f7&p=2
//
//   v    the variant (a built-in name)
//   o    options that differ from the variant's defaults, KEY:VALUE,...
//   fen  the start position, when it is not the variant's start
//   m    the moves from there, in kamil's notation, comma-separated
//   p    the ply shown, when it is not the latest
//
// Values are percent-encoded, except `, + : / @` (readable moves and FENs).

/** A link that cannot be read: `message` says what is wrong. */
export class LinkError extends Error {}

const enc = (s) => encodeURIComponent(s).replace(/%(2C|2B|3A|2F|40)/gi, (m) => decodeURIComponent(m));

/**
 * The hash (without `#`) of game view `game` of variant view `variant`,
 * showing ply `ply`.
 */
export function gameHash(game, variant, ply) {
  const parts = [`v=${enc(variant.name)}`];
  const changed = variant.options
    .filter((o) => variant.chosen[o.name] != null && String(variant.chosen[o.name]) !== String(o.default))
    .map((o) => `${enc(o.name)}:${enc(String(variant.chosen[o.name]))}`);
  if (changed.length) parts.push(`o=${changed.join(',')}`);
  if (game.start_fen !== variant.start_fen) parts.push(`fen=${enc(game.start_fen)}`);
  if (game.moves.length) parts.push(`m=${game.moves.map((m) => enc(m.text)).join(',')}`);
  if (ply != null && ply < game.plies) parts.push(`p=${ply}`);
  return parts.join('&');
}

/**
 * The game a hash names: `{variant, options, fen, moves, ply}` (`fen` and
 * `ply` may be null), or null for an empty hash.
 * Throws a LinkError for a hash that is not a game link.
 */
export function parseHash(hash) {
  const text = hash.replace(/^#/, '');
  if (!text) return null;
  const fields = new Map();
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    let value;
    try {
      value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
    } catch {
      throw new LinkError(`the link's \`${key}\` is not readable`);
    }
    if (!['v', 'o', 'fen', 'm', 'p'].includes(key)) throw new LinkError(`the link has an unknown part \`${key}\``);
    fields.set(key, value);
  }
  const variant = fields.get('v');
  if (!variant) throw new LinkError('the link names no game (its `v=` part)');
  const options = {};
  for (const kv of (fields.get('o') ?? '').split(',').filter(Boolean)) {
    const at = kv.indexOf(':');
    if (at < 1) throw new LinkError(`the link's option \`${kv}\` is not KEY:VALUE`);
    options[kv.slice(0, at)] = kv.slice(at + 1);
  }
  const moves = (fields.get('m') ?? '').split(',').filter(Boolean);
  let ply = null;
  if (fields.has('p')) {
    ply = Number(fields.get('p'));
    if (!Number.isInteger(ply) || ply < 0) throw new LinkError(`the link's ply \`${fields.get('p')}\` is not a number of plies`);
  }
  return { variant, options, fen: fields.get('fen') || null, moves, ply };
}

/**
 * Keeps the address in step with the game shown: call `update()` after
 * every change; while `quietly` runs (a link being restored) the address
 * is replaced rather than pushed, so the back button keeps its steps.
 */
export class Address {
  constructor() {
    this.quiet = 0;
  }

  /** Writes the game into the address: a new history entry if it changed. */
  update(game, variant, ply) {
    if (!game || !variant) return;
    const hash = `#${gameHash(game, variant, ply)}`;
    if (hash === window.location.hash) return;
    const url = `${window.location.pathname}${window.location.search}${hash}`;
    if (this.quiet > 0 || !window.location.hash) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
  }

  /** Runs async `f` with the address replaced, not pushed. */
  async quietly(f) {
    this.quiet++;
    try {
      return await f();
    } finally {
      this.quiet--;
    }
  }
}

/** Copies `text` to the clipboard; resolves to whether it could. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
