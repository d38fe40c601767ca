#!/usr/bin/env python3
"""Random games recorded with Fairy-Stockfish's legal move sets (pyffish).

Plays seeded random games of a Fairy-Stockfish variant and writes, per game,
one JSON line:

    {"variant": OUR_NAME, "fsf_variant": FSF_NAME, "options": {...},
     "game": i, "seed": SEED + i, "moves": [...],
     "legal": [[sorted legal moves of every position reached]],
     "end": "checkmate" | "stalemate" | "rule" | "claim" | "max-plies",
     "result": FSF value for the side to move of the last position}

With --sfen (the shogi games), "sfens" holds Fairy-Stockfish's SFEN of
every position (`get_fen(..., sfen=True)`), one per entry of `legal`, for
`crates/rules/tests/sfen_usi_diff.rs`.

`legal` has one entry per position: len(moves) + 1, the last for the final
position (empty when Fairy-Stockfish ended the game there). `end`: no legal
move with / without check ("checkmate" / "stalemate"); "rule" when
`is_immediate_game_end` holds (bare king, extinction); "claim" when
`is_optional_game_end` holds (repetition, move-count rule); "max-plies" when
the game reached the ply limit. `result` is pyffish's value from the side to
move's view (negative: it lost; 0: draw).

The crate test `crates/rules/tests/pyffish_diff.rs` replays these games
with kamil-rules and compares the legal move sets. Run through
`scripts/gen-pyffish-data`. Standard library and pyffish only.

Speed: every pyffish call rebuilds its tables for the variant (about 1.5 ms
whatever it computes), and replaying a move list costs a legal-move
generation per move. So each position costs one `legal_moves` call from a
checkpoint FEN a few plies back (refreshed with `get_fen` every
--checkpoint plies); the game-end calls are made only when they can answer
yes: `is_immediate_game_end` / `game_result` when there is no legal move
(pyffish returns no moves once the variant's rules ended the game),
`is_optional_game_end` (with the whole game, for its repetition history)
only when this script's own board tracking sees a repeated position or a
high move-count clock. --paranoid makes every call at every ply to check
those shortcuts.

Move choice: uniform among the legal moves, except that with probability
--capture-bias a capture is chosen (uniformly among the captures) when
there is one. That makes the games reach endgames (bare kings, promotions,
mates) within fewer plies.
"""

import argparse
import json
import multiprocessing
import os
import random
import re
import sys
import time

import pyffish as sf

MOVE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)(.*)$")


def parse_board(fen):
    """Board of a FEN as {(file, rank): token}, ranks counted from 1 at the bottom."""
    rows = fen.split()[0].split("/")
    board = {}
    nranks = len(rows)
    for i, row in enumerate(rows):
        rank = nranks - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            if c == "+":
                board[(f, rank)] = "+" + row[j + 1]
                j += 2
            else:
                board[(f, rank)] = c
                j += 1
            f += 1
    return board


class Tracker:
    """Just enough of the position to spot repetitions, the move-count
    clock and captures: the variants compared have no castling, en passant
    or drops, so a move is: take the piece off its square, put it (maybe
    promoted) on the target square."""

    def __init__(self, fen):
        self.board = parse_board(fen)
        self.side = fen.split()[1]
        self.halfmove = 0
        self.seen = {}
        self.note()

    def key(self):
        return (self.side, tuple(sorted(self.board.items())))

    def note(self):
        k = self.key()
        self.seen[k] = self.seen.get(k, 0) + 1
        return self.seen[k]

    def repeated(self):
        return self.seen[self.key()] >= 2

    @staticmethod
    def squares(move):
        m = MOVE.match(move)
        if not m:
            raise ValueError(f"unexpected move text {move!r}")
        a = (ord(m.group(1)) - ord("a"), int(m.group(2)))
        b = (ord(m.group(3)) - ord("a"), int(m.group(4)))
        return a, b, m.group(5)

    def is_capture(self, move):
        _, b, _ = self.squares(move)
        return b in self.board

    def play(self, move):
        a, b, suffix = self.squares(move)
        piece = self.board.pop(a)
        captured = b in self.board
        if suffix == "+":
            piece = "+" + piece
        elif suffix:
            piece = suffix.upper() if piece.isupper() else suffix.lower()
        pawn = piece.lower() == "p"
        self.board[b] = piece
        self.side = "b" if self.side == "w" else "w"
        self.halfmove = 0 if (captured or pawn) else self.halfmove + 1
        self.note()


def play_game(job):
    (fsf, ours, options, index, seed, max_plies, bias, checkpoint, paranoid, want_sfen) = job
    rng = random.Random(seed + index)
    start = sf.start_fen(fsf)
    base = start  # checkpoint FEN
    since = []  # moves played since the checkpoint
    moves = []
    legal = []
    sfens = []
    tracker = Tracker(start)
    end = "max-plies"
    result = 0
    while True:
        lm = sorted(sf.legal_moves(fsf, base, since))
        legal.append(lm)
        if want_sfen:
            sfens.append(sf.get_fen(fsf, base, since, False, True))
        if paranoid:
            full = sorted(sf.legal_moves(fsf, start, moves))
            assert full == lm, (index, len(moves), full, lm)
            imm = sf.is_immediate_game_end(fsf, start, moves)
            assert not imm[0] or not lm, (index, len(moves), imm, lm)
            opt = sf.is_optional_game_end(fsf, start, moves)
            if opt[0]:
                assert tracker.repeated() or tracker.halfmove >= 98, (index, len(moves))
        if not lm:
            imm, value = sf.is_immediate_game_end(fsf, base, since)
            if imm:
                end, result = "rule", value
            else:
                check = sf.gives_check(fsf, base, since)
                end = "checkmate" if check else "stalemate"
                result = sf.game_result(fsf, base, since)
            break
        if tracker.repeated() or tracker.halfmove >= 98:
            claim, value = sf.is_optional_game_end(fsf, start, moves)
            if claim:
                end, result = "claim", value
                break
        if len(moves) >= max_plies:
            break
        pool = lm
        if bias > 0 and rng.random() < bias:
            caps = [m for m in lm if tracker.is_capture(m)]
            if caps:
                pool = caps
        m = rng.choice(pool)
        moves.append(m)
        since.append(m)
        tracker.play(m)
        if len(since) >= checkpoint:
            base = sf.get_fen(fsf, base, since)
            since = []
    record = {
        "variant": ours,
        "fsf_variant": fsf,
        "options": options,
        "game": index,
        "seed": seed + index,
        "moves": moves,
        "legal": legal,
        "end": end,
        "result": result,
    }
    if want_sfen:
        record["sfens"] = sfens
    return record


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fsf_variant", help="Fairy-Stockfish's variant name (courier, shoshogi)")
    p.add_argument("our_variant", help="kamil's variant name (courier, sho-shogi)")
    p.add_argument("games", type=int)
    p.add_argument("seed", type=int, help="game i uses random.Random(seed + i)")
    p.add_argument("max_plies", type=int)
    p.add_argument("output", help="JSON-lines file to write")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="kamil variant option the games are meant for (recorded)")
    p.add_argument("--capture-bias", type=float, default=0.0)
    p.add_argument("--checkpoint", type=int, default=16,
                   help="plies between FEN checkpoints")
    p.add_argument("--sfen", action="store_true",
                   help="record Fairy-Stockfish's SFEN of every position")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--paranoid", action="store_true",
                   help="check the call-saving shortcuts at every ply (slow)")
    a = p.parse_args()
    if a.fsf_variant not in sf.variants():
        sys.exit(f"pyffish has no variant {a.fsf_variant!r}")
    options = {}
    for o in a.option:
        k, _, v = o.partition("=")
        options[k] = v
    jobs = [(a.fsf_variant, a.our_variant, options, i, a.seed, a.max_plies,
             a.capture_bias, max(1, a.checkpoint), a.paranoid, a.sfen)
            for i in range(a.games)]
    t0 = time.time()
    tmp = a.output + ".tmp"
    positions = 0
    ends = {}
    with open(tmp, "w") as out:
        if a.jobs > 1:
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(a.jobs) as pool:
                games = pool.imap(play_game, jobs, chunksize=8)
                for g in games:
                    out.write(json.dumps(g, separators=(",", ":")) + "\n")
                    positions += len(g["legal"])
                    ends[g["end"]] = ends.get(g["end"], 0) + 1
        else:
            for j in jobs:
                g = play_game(j)
                out.write(json.dumps(g, separators=(",", ":")) + "\n")
                positions += len(g["legal"])
                ends[g["end"]] = ends.get(g["end"], 0) + 1
    os.replace(tmp, a.output)
    print(f"{a.our_variant}: {a.games} games, {positions} positions, ends {ends}, "
          f"{time.time() - t0:.1f} s -> {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
