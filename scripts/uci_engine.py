"""UCI engines on pipes and the games of a PGN, for the benchmark scripts
(`fsf-eval-terms`, `nodes-to-depth`, `loss-onset`, ...). Not part of the test command."""
import re
import subprocess
import sys

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def pgn_games(path):
    """(tags, moves) of each game of a PGN file: the tags as a dict
    (`FEN`, `Variant`, `White`, ...), the moves as the file writes them
    (comments, move numbers and the result left out)."""
    text = open(path, encoding="utf-8").read()
    for block in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        body = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [t for t in body.split()
                 if not re.match(r"^\d+\.+$", t) and t not in RESULTS]
        yield tags, moves


class Engine:
    """A UCI engine on pipes, set to `variant`, one thread."""

    def __init__(self, cmd, variant, hash_mb=None):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("setoption name Threads value 1")
        if hash_mb is not None:
            self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, token):
        """The engine's lines up to and including the first that starts
        with `token`; exits the script if the engine ends first."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before `{token}`")
            lines.append(line)
            if line.startswith(token):
                return lines

    def go_depth(self, position, depth):
        """The output of a search to `depth` plies from a new game at
        `position` (what follows `position ` in UCI: `fen F [moves ...]`)."""
        self.send("ucinewgame")
        self.send("position " + position)
        self.send(f"go depth {depth}")
        return self.until("bestmove")

    def quit(self):
        self.send("quit")
        self.p.wait()


def score(lines):
    """Centipawns for the side to move in a search's last score (a mate is
    ±10000), or None."""
    value = None
    for line in lines:
        m = re.search(r"score (cp|mate) (-?\d+)", line)
        if m:
            v = int(m.group(2))
            value = v if m.group(1) == "cp" else (10000 if v > 0 else -10000)
    return value


def nodes_at_depth(lines, depth):
    """Nodes of a search's last `info depth DEPTH ... pv` line, or None."""
    nodes = None
    for line in lines:
        m = re.match(rf"info depth {depth} .*\bnodes (\d+)", line)
        if m and " pv " in line:
            nodes = int(m.group(1))
    return nodes
