#!/usr/bin/env python3
"""Speed of kamil against pyffish from Python, on the same Courier positions
(not a test): legal-move generation and making / taking back moves.

    python3 crates/python/bench/bench_pyffish.py [--positions N] [--seconds S]

Needs kamil (the wheel) and pyffish installed. The positions: N positions of
seeded random games of Courier (pyffish's rules = kamil's there). Figures,
calls per second:

* legal moves, stateless: ``pyffish.legal_moves("courier", fen, [])``
  against ``kamil.pyffish.legal_moves`` (the same call) and against
  ``kamil.Position(...).legal_moves()`` on positions already set up;
* a move made and taken back: pyffish has no push / pop, so its way is
  ``get_fen("courier", fen, [move])``; kamil's is ``pos.push(m); pos.pop()``
  (and ``kamil.pyffish.get_fen`` for the stateless call).
"""

import argparse
import random
import time

import pyffish as sf

import kamil
import kamil.pyffish as kf


def positions(n, seed=1):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = kamil.Position("courier")
        for _ in range(rng.randint(0, 60)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
        moves = pos.legal_moves()
        if moves and pos.outcome() is None:
            out.append((pos.fen(), rng.choice(moves)))
    return out


def rate(f, items, seconds):
    """Calls of f per second over the items, repeated for about `seconds`."""
    calls = 0
    start = time.perf_counter()
    while True:
        for it in items:
            f(it)
        calls += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    items = positions(args.positions)
    for fen, m in items:
        assert sorted(sf.legal_moves("courier", fen, [])) == sorted(kf.legal_moves("courier", fen, [])), fen
    prepared = [(kamil.Position("courier", fen), m) for fen, m in items]
    s = args.seconds
    rows = [
        ("legal moves: pyffish.legal_moves", rate(lambda it: sf.legal_moves("courier", it[0], []), items, s)),
        ("legal moves: kamil.pyffish.legal_moves", rate(lambda it: kf.legal_moves("courier", it[0], []), items, s)),
        ("legal moves: kamil Position.legal_moves", rate(lambda it: it[0].legal_moves(), prepared, s)),
        ("make+unmake: pyffish.get_fen(fen, [m])", rate(lambda it: sf.get_fen("courier", it[0], [it[1]]), items, s)),
        ("make+unmake: kamil.pyffish.get_fen", rate(lambda it: kf.get_fen("courier", it[0], [it[1]]), items, s)),
        ("make+unmake: kamil push(m); pop()", rate(lambda it: (it[0].push(it[1]), it[0].pop()), prepared, s)),
    ]
    print(f"{kf.info()} against pyffish {'.'.join(map(str, sf.version()))}: "
          f"{len(items)} Courier positions, calls per second")
    base = {"legal": rows[0][1], "make": rows[3][1]}
    for name, r in rows:
        ref = base["legal"] if name.startswith("legal") else base["make"]
        print(f"  {name:<42} {r:>12,.0f} /s  {r / ref:6.1f}x pyffish")


if __name__ == "__main__":
    main()
