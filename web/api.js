// The page's back end, as promises: the JSON API of `kamil serve`, or,
// when the page was not served by `kamil serve` (the static build of
// scripts/build-wasm, any static host), the same calls answered in the
// browser by kamil in WebAssembly (local/backend.js; searches and reviews
// in a Web Worker). A failed call throws an ApiError carrying the message.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * 'server' when `kamil serve` answers /api/status with its JSON, else
 * 'local'; the static build says 'local' in a meta tag and asks nothing.
 */
async function detect() {
  const meta = document.querySelector('meta[name="kamil-backend"]')?.content;
  if (meta === 'local' || meta === 'server') return meta;
  try {
    const res = await fetch('/api/status');
    const data = res.ok ? await res.json() : null;
    if (typeof data?.max_movetime_ms === 'number' && !data.local) return 'server';
  } catch {
    // No server: the local back end.
  }
  return 'local';
}

export const backend = await detect();

/** The WebAssembly back end, or why it could not start. */
let local = null;
let localError = null;
if (backend === 'local') {
  try {
    local = await (await import('./local/backend.js')).start();
  } catch (e) {
    localError = `kamil in WebAssembly did not load: ${e?.message ?? e}`;
    console.error(localError);
  }
}

async function call(method, path, body) {
  if (backend === 'local') {
    if (!local) throw new ApiError(localError, 503);
    const { status, data } = await local.request(method, path, body);
    if (status >= 400) throw new ApiError(data?.error ?? `${status}`, status);
    return data;
  }
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`/api${path}`, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(data?.error ?? `${res.status} ${res.statusText}`, res.status);
  return data;
}

export const api = {
  variants: () => call('GET', '/variants'),
  rules: (name, chosen) => {
    const q = new URLSearchParams(chosen ?? {}).toString();
    return call('GET', `/variants/${encodeURIComponent(name)}/rules${q ? `?${q}` : ''}`);
  },
  newGame: (req) => call('POST', '/games', req),
  game: (id, ply) => call('GET', `/games/${id}${ply == null ? '' : `?ply=${ply}`}`),
  play: (id, move, ply) => call('POST', `/games/${id}/moves`, { move, ply }),
  undo: (id, plies) => call('POST', `/games/${id}/undo`, { plies }),
  think: (id, req) => call('POST', `/games/${id}/engine`, req),
  stop: (id) => call('POST', `/games/${id}/stop`),
  review: (id, req) => call('POST', `/games/${id}/review`, req),
  pgn: (id) => call('GET', `/games/${id}/pgn`),
  remove: (id) => call('DELETE', `/games/${id}`),
  // An EventSource, or the local back end's object with its interface.
  events: (id) => (backend === 'local' && local ? local.events(id) : new EventSource(`/api/games/${id}/events`)),
};
