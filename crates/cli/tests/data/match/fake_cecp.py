#!/usr/bin/env python3
"""A fake CECP (XBoard) engine for `kamil match` tests, as strict as real
ones: it crashes when asked to move before `memory` was sent (as HaChu
does), and exits when a feature went unanswered or a move came without the
`usermove` prefix it asked for. It knows no rules: it plays the move of a
scripted game at the current ply and checks the opponent's moves against
the script ("Illegal move" otherwise).

Options: --script FILE, --name NAME, --no-setboard (then it needs `edit`),
--refuse-setup (answers `setboard` as HaChu answers a FEN it cannot read:
`tellusererror Unknown piece ' ' in setup (32)`, then exits),
--illegal-at N / --crash-at N / --claim-at N / --resign-at N / --null-at N (-1 = every
own ply),
--record FILE (append every line heard).
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--name", default="FakeCecp")
    ap.add_argument("--no-setboard", action="store_true")
    ap.add_argument("--refuse-setup", action="store_true")
    ap.add_argument("--illegal-at", type=int)
    ap.add_argument("--crash-at", type=int)
    ap.add_argument("--claim-at", type=int)
    ap.add_argument("--resign-at", type=int)
    ap.add_argument("--null-at", type=int)
    ap.add_argument("--record")
    a = ap.parse_args()
    script = [l.strip() for l in open(a.script) if l.strip()]
    rec = open(a.record, "a") if a.record else None
    features = {
        "myname": '"%s"' % a.name,
        "setboard": "0" if a.no_setboard else "1",
        "usermove": "1",
        "ping": "1",
        "memory": "1",
        "sigint": "0",
        "variants": '"normal,courier,sho"',
        "highlight": "1",
    }
    unanswered = set(features) | {"done"}
    memory = False
    playing = False
    ply = 0
    editing = False

    def say(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    def die(why, code):
        sys.stderr.write(why + "\n")
        sys.exit(code)

    def hit(n):
        return n is not None and (n == ply or n == -1)

    def move():
        nonlocal ply
        if not memory:
            die("searching without memory", 11)
        if hit(a.crash_at):
            die("crash on purpose", 3)
        if hit(a.resign_at):
            say("resign")
            return
        if hit(a.null_at):
            say("move @@@@")
            return
        if hit(a.claim_at):
            say("0-1 {Black mates}")
            return
        if hit(a.illegal_at):
            say("move a1a1")
        elif ply < len(script):
            say("move " + script[ply])
        ply += 1

    for line in sys.stdin:
        line = line.strip()
        if rec:
            rec.write(line + "\n")
            rec.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if editing:
            if cmd == ".":
                editing = False
            continue
        if cmd == "protover":
            say("feature done=0")
            say("feature " + " ".join("%s=%s" % kv for kv in features.items()))
            say("feature done=1")
        elif cmd in ("accepted", "rejected"):
            unanswered.discard(words[1])
        elif cmd == "new":
            if unanswered:
                die("features never answered: %s" % sorted(unanswered), 5)
            ply = 0
            playing = False
        elif cmd == "memory":
            memory = True
        elif cmd == "force":
            playing = False
        elif cmd == "ping":
            say("pong " + words[1])
        elif cmd == "setboard":
            if a.refuse_setup:
                say("tellusererror Unknown piece ' ' in setup (32)")
                die("refused the setup", 255)
            if a.no_setboard:
                say("Error (unknown command): setboard")
        elif cmd == "edit":
            editing = True
        elif cmd == "go":
            playing = True
            move()
        elif cmd == "usermove":
            if ply >= len(script) or words[1] != script[ply]:
                say("Illegal move: " + words[1])
                continue
            ply += 1
            if playing:
                move()
        elif cmd == "quit":
            return
        elif len(cmd) >= 4 and cmd[0].isalpha() and cmd[1].isdigit():
            die("move without usermove: " + cmd, 6)


if __name__ == "__main__":
    main()
