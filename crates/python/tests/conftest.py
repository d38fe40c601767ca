"""Shared fixtures of kamil's Python tests: the `kamil` command line to
compare with (KAMIL_BIN, default: the workspace's target/release/kamil)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _kamil_bin() -> str:
    path = os.environ.get("KAMIL_BIN")
    if path:
        return path
    target = os.environ.get("CARGO_TARGET_DIR") or str(ROOT / "target")
    return str(pathlib.Path(target) / "release" / "kamil")


class Cli:
    """The `kamil` binary, as the tests call it."""

    def __init__(self, path: str):
        self.path = path

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [self.path, *args], capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise AssertionError(f"kamil {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def moves(self, variant, moves=(), fen=None):
        args = ["moves", variant, "--json"]
        if fen is not None:
            args += ["--fen", fen]
        if moves:
            args += ["--moves", ",".join(moves)]
        return json.loads(self.run(*args))

    def perft(self, variant, depth):
        out = self.run("perft", variant, str(depth)).split()
        return int(out[out.index("nodes") + 1])

    def outcome(self, variant, turn, moves=(), fen=None):
        """The result `kamil play` announces for the position (the user
        playing the side to move, `turn`, so the engine does not move):
        `"0-1 (checkmate)"`, or None while the game goes on."""
        args = [self.path, "play", variant, "--no-color", "--side", ("first", "second")[turn]]
        if fen is not None:
            args += ["--fen", fen]
        if moves:
            args += ["--moves", ",".join(moves)]
        done = subprocess.run(args, input="quit\n", capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise AssertionError(f"kamil play failed: {done.stderr}")
        for line in done.stdout.splitlines():
            if line.startswith("Result "):
                return line[len("Result ") :]
        return None

    def error(self, *args: str) -> str:
        done = subprocess.run(
            [self.path, *args], capture_output=True, text=True, timeout=120
        )
        assert done.returncode != 0, f"kamil {' '.join(args)} succeeded"
        return done.stderr


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = _kamil_bin()
    if not os.access(path, os.X_OK):
        raise AssertionError(
            f"no kamil binary at {path}: build it (cargo build --release) or set KAMIL_BIN"
        )
    return Cli(path)


@pytest.fixture(scope="session")
def variant_names():
    import kamil

    return [v["name"] for v in kamil.variants()]


@pytest.fixture(scope="session")
def courier_toml() -> str:
    return (ROOT / "variants" / "courier.toml").read_text()
