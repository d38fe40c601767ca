#!/usr/bin/env python3
"""A fake UCI engine for `kamil match` tests: it knows no rules and plays
the move of a scripted game at the current ply (the number of moves after
`position ... moves`).

Options: --script FILE (one move per line), --name NAME,
--illegal-at N / --crash-at N / --hang-at N / --none-at N (misbehave at ply
N; -1 = at every ply of its own), --record FILE (append every line heard).
"""
import argparse
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--name", default="FakeUci")
    ap.add_argument("--illegal-at", type=int)
    ap.add_argument("--crash-at", type=int)
    ap.add_argument("--hang-at", type=int)
    ap.add_argument("--none-at", type=int)
    ap.add_argument("--record")
    a = ap.parse_args()
    script = [l.strip() for l in open(a.script) if l.strip()]
    rec = open(a.record, "a") if a.record else None
    ply = 0

    def hit(n):
        return n is not None and (n == ply or n == -1)

    def say(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        line = line.strip()
        if rec:
            rec.write(line + "\n")
            rec.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            say("id name " + a.name)
            say("id author nobody")
            say("option name UCI_Variant type combo default courier var courier var sho-shogi")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("uciok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "position":
            ply = len(words) - words.index("moves") - 1 if "moves" in words else 0
        elif cmd == "go":
            if hit(a.crash_at):
                sys.exit(3)
            if hit(a.hang_at):
                time.sleep(3600)
            if hit(a.none_at):
                say("bestmove (none)")
            elif hit(a.illegal_at):
                say("info depth 1 score cp 0")
                say("bestmove a1a1")
            elif ply < len(script):
                say("info depth 1 score cp 0 pv " + script[ply])
                say("bestmove " + script[ply])
            else:
                say("bestmove (none)")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
