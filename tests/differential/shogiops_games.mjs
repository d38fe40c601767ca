// Records seeded random Chu Shogi games played with shogiops (lishogi's rules
// library) for crates/rules/tests/shogiops_diff.rs. Run by
// scripts/gen-shogiops-data; writes one JSON object per game to stdout.
//
//   node shogiops_games.mjs GAMES SEED MAX_PLIES CAPTURE_BIAS
//
// Every position is described by the effect of each legal move, in kamil's
// square names, so that the two move lists compare as sets whatever path a
// Lion takes: "FROM-TO:CAPTURED,SQUARES[+]". shogiops lists a Lion's two-step
// path through an empty square beside the equal jump, and a pass once per empty
// neighbour; kamil generates each effect once (rules/chu-shogi.md, section 4).
//
// Also, for crates/rules/tests/sfen_usi_diff.rs, shogiops' own notation:
// "sfens" (makeSfen of every position, the last one after the last move
// included: one more than "legal"), "usi" (makeUsi of every legal move as
// legalMoves lists them, sorted, duplicates removed) and "usi_moves"
// (makeUsi of each move played).

import { Chushogi, secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';
import { makeSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';

const [games, seed, maxPlies, bias] = process.argv.slice(2).map(Number);
if (![games, seed, maxPlies, bias].every(Number.isFinite)) {
  console.error('usage: node shogiops_games.mjs GAMES SEED MAX_PLIES CAPTURE_BIAS');
  process.exit(2);
}

// mulberry32: a small seeded generator, so a seed gives the same games.
function rng(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// shogiops square = file + 16 * rank, file 0 = USI file 1 (the right edge
// seen from Sente), rank 0 = row a (Gote's back rank). kamil: files a..l from
// the left seen from the first player (Sente), ranks 1..12 from Sente's side.
function name(sq) {
  const file = sq & 15;
  const rank = sq >>> 4;
  return String.fromCharCode(97 + (11 - file)) + String(12 - rank);
}

const lionPower = ['lion', 'lionpromoted', 'eagle', 'falcon'];

// Every legal move of `pos` as {from, to, midStep?, promotion}, as shogiops'
// own perft enumerates them.
function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
        out.push({ from, to, promotion: true });
        if (!pieceForcePromote(pos.rules)(piece, to)) out.push({ from, to, promotion: false });
      } else {
        out.push({ from, to, promotion: false });
      }
      if (lionPower.includes(piece.role)) {
        for (const last of secondLionStepDests(pos, from, to)) {
          out.push({ from, to: last, midStep: to, promotion: false });
        }
      }
    }
  }
  return out;
}

function effect(pos, m) {
  const mover = pos.board.get(m.from).color;
  const enemy = (sq) => {
    const p = pos.board.get(sq);
    return p !== undefined && p.color !== mover;
  };
  const caps = [];
  if (m.midStep !== undefined && enemy(m.midStep)) caps.push(name(m.midStep));
  if (m.to !== m.from && enemy(m.to)) caps.push(name(m.to));
  caps.sort();
  return `${name(m.from)}-${name(m.to)}:${caps.join(',')}${m.promotion ? '+' : ''}`;
}

function isCapture(pos, m) {
  return effect(pos, m).split(':')[1].replace('+', '') !== '';
}

const random = rng(seed);
for (let g = 0; g < games; g++) {
  const pos = Chushogi.default();
  const moves = [];
  const legal = [];
  const sfens = [];
  const usi = [];
  const usiMoves = [];
  let end = 'plies';
  for (let ply = 0; ; ply++) {
    sfens.push(makeSfen(pos));
    const outcome = pos.outcome();
    if (outcome !== undefined) {
      end = `${outcome.result}:${outcome.winner ?? 'none'}`;
      break;
    }
    if (ply >= maxPlies) break;
    const list = legalMoves(pos);
    const effects = [...new Set(list.map((m) => effect(pos, m)))].sort();
    legal.push(effects);
    usi.push([...new Set(list.map((m) => makeUsi(m)))].sort());
    const captures = list.filter((m) => isCapture(pos, m));
    const pool = captures.length > 0 && random() < bias ? captures : list;
    const m = pool[Math.floor(random() * pool.length)];
    moves.push(effect(pos, m));
    usiMoves.push(makeUsi(m));
    pos.play(m);
  }
  process.stdout.write(JSON.stringify({ game: g, seed, moves, legal, end, sfens, usi, usi_moves: usiMoves }) + '\n');
}
