// "Analyse the whole game": the server's review (POST /api/games/{id}/review)
// evaluates every position within a bounded time each, its progress comes
// as `review` events; the evaluation graph (graph.js) goes under the board,
// and each move the review judged an inaccuracy (?!), mistake (?) or
// blunder (??) is marked in the move list with the engine's better move.
// Thresholds, in centipawns of loss against the engine's best move, are
// the server's (crates/cli/src/review.rs): 50, 100, 300.

import { api } from './api.js';
import { drawGraph } from './graph.js';

const $ = (id) => document.getElementById(id);

export class Review {
  /**
   * `app`: the page's state (game, view, variant); `goPly(n)`: show ply n;
   * `showError(e)`; `render()`: redraw the page.
   */
  constructor({ app, goPly, showError, render }) {
    this.app = app;
    this.goPly = goPly;
    this.showError = showError;
    this.render = render;
    this.running = false;
    this.result = null; // {gameId, moves: [text], evals, judged: Map(ply -> move review), cap, complete}
    this.live = null; // evals arriving during a run
    $('review-start').addEventListener('click', () => this.start());
    $('review-stop').addEventListener('click', () => this.stop());
  }

  /** The review of the game shown, if it still matches the game's moves. */
  current() {
    const r = this.result;
    const g = this.app.game;
    if (!r || !g || r.gameId !== g.id) return null;
    if (r.moves.length !== g.moves.length || r.moves.some((t, i) => t !== g.moves[i].text)) return null;
    return r;
  }

  async start() {
    const g = this.app.game;
    if (!g || this.running || this.app.thinking) return;
    this.running = true;
    this.app.reviewing = true;
    this.result = null;
    this.live = { gameId: g.id, moves: g.moves.map((m) => m.text), evals: [], judged: new Map(), cap: 1000 };
    $('review-progress').textContent = `Analysing ${g.plies + 1} positions…`;
    this.render();
    // Progress: the events of this game, watched from before the review starts.
    const es = api.events(g.id);
    await new Promise((resolve) => {
      es.addEventListener('state', resolve, { once: true });
      es.onerror = resolve;
      setTimeout(resolve, 2000);
    });
    es.addEventListener('review', (e) => {
      const ev = JSON.parse(e.data);
      if (!this.live) return;
      this.live.evals[ev.ply] = ev;
      $('review-progress').textContent = `Analysing: ${this.live.evals.filter(Boolean).length} of ${ev.plies + 1} positions…`;
      this.draw();
    });
    const movetime = Number($('review-movetime').value);
    let r = null;
    try {
      r = await api.review(g.id, { movetime_ms: movetime });
    } catch (e) {
      this.showError(e);
    } finally {
      es.close();
      this.running = false;
      this.app.reviewing = false;
      this.live = null;
    }
    if (r && this.app.game?.id === g.id) {
      const judged = new Map(r.moves.map((m) => [m.ply, m]));
      this.result = {
        gameId: g.id, moves: g.moves.map((m) => m.text), evals: r.evals, judged, cap: r.thresholds.cap, complete: r.complete,
      };
      const count = (j, one, many) => {
        const n = r.moves.filter((m) => m.judgement === j).length;
        return `${n} ${n === 1 ? one : many}`;
      };
      const what = [
        count('inaccuracy', 'inaccuracy', 'inaccuracies'),
        count('mistake', 'mistake', 'mistakes'),
        count('blunder', 'blunder', 'blunders'),
      ].join(', ');
      $('review-progress').textContent = r.complete
        ? `Reviewed at ${r.movetime_ms} ms a position: ${what}.`
        : `Stopped after ${r.evals.length} of ${g.plies + 1} positions: ${what}.`;
    } else if (!r) {
      $('review-progress').textContent = '';
    }
    this.render();
  }

  async stop() {
    if (this.running && this.app.game) await api.stop(this.app.game.id).catch(() => {});
  }

  /** Draws the graph (of the finished review, or of the one running). */
  draw() {
    const box = $('review-graph');
    const r = this.live ?? this.current();
    if (!r || !this.app.game) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    box.hidden = false;
    drawGraph(box, {
      evals: r.evals.filter(Boolean),
      plies: this.app.game.plies,
      cap: r.cap,
      judged: new Map([...r.judged].filter(([, m]) => m.judgement).map(([p, m]) => [p, m.judgement])),
      current: this.app.view?.ply,
      onPly: (ply) => { if (!this.running) this.goPly(ply); },
    });
  }

  /** Called after the page is drawn: buttons, graph, marks in the move list. */
  afterRender() {
    const g = this.app.game;
    $('review-start').disabled = this.running || !g || this.app.thinking || g.plies === 0;
    $('review-stop').disabled = !this.running;
    $('review').classList.toggle('active', this.running);
    const r = this.current();
    if (!r && !this.running && this.result) {
      // The game changed: the review no longer applies.
      this.result = null;
      $('review-progress').textContent = '';
    }
    this.draw();
    if (!r) return;
    for (const b of document.querySelectorAll('#moves .move[data-ply]')) {
      const m = r.judged.get(Number(b.dataset.ply));
      if (!m?.judgement) continue;
      b.classList.add(`judged-${m.judgement}`);
      b.dataset.judgement = m.judgement;
      const mark = document.createElement('span');
      mark.className = 'nag';
      mark.textContent = m.symbol;
      b.appendChild(mark);
      b.title = `${m.judgement}: loses ${(m.loss_cp / 100).toFixed(2)}${m.better ? `; better ${m.better}` : ''}`;
    }
    const shown = this.app.view?.ply;
    const m = shown ? r.judged.get(shown) : null;
    $('review-move').textContent = m?.judgement
      ? `${m.move}${m.symbol} ${m.judgement}: loses ${(m.loss_cp / 100).toFixed(2)}; better ${m.better}.`
      : '';
  }
}
