// The JSON API of `kamil serve`, as promises. A failed request throws an
// ApiError carrying the server's message.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
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
  newGame: (req) => call('POST', '/games', req),
  game: (id, ply) => call('GET', `/games/${id}${ply == null ? '' : `?ply=${ply}`}`),
  play: (id, move, ply) => call('POST', `/games/${id}/moves`, { move, ply }),
  undo: (id, plies) => call('POST', `/games/${id}/undo`, { plies }),
  think: (id, req) => call('POST', `/games/${id}/engine`, req),
  stop: (id) => call('POST', `/games/${id}/stop`),
  review: (id, req) => call('POST', `/games/${id}/review`, req),
  pgn: (id) => call('GET', `/games/${id}/pgn`),
  remove: (id) => call('DELETE', `/games/${id}`),
  events: (id) => new EventSource(`/api/games/${id}/events`),
};
