"""kamil's rules from Python against the `kamil` command line: start
moves, perft, random games ply by ply; positions' other methods."""

import copy
import pickle
import random

import pytest

import kamil

NAMES = [v["name"] for v in kamil.variants()]
# perft(3) where it is cheap (the smaller boards); perft(2) for all.
PERFT3 = {"courier", "courier-modern", "courier-albers", "sho-shogi", "hiashatar"}


def test_variants_list_names_boards_and_options():
    vs = {v["name"]: v for v in kamil.variants()}
    assert len(vs) == 16
    assert (vs["courier"]["files"], vs["courier"]["ranks"]) == (12, 8)
    assert (vs["dai-shogi"]["files"], vs["dai-shogi"]["ranks"]) == (15, 15)
    assert vs["chu-shogi"]["title"]
    opts = {o["name"]: o for o in vs["courier-modern"]["options"]}
    assert opts["albers-castling"]["values"] == ["false", "true"] or "true" in opts["albers-castling"]["values"]
    assert opts["albers-castling"]["default"] in opts["albers-castling"]["values"]
    # A player's words beside the key (issue 80), as kamil variants says them.
    assert opts["albers-queen"]["label"] == "Queen instead of Fers"
    assert opts["albers-queen"]["value_labels"] == ["no", "yes"]
    assert "(5.2)" not in opts["albers-queen"]["summary"] and "(5.2)" in opts["albers-queen"]["description"]
    for v in vs.values():
        # The board; the state fields follow the options (no castling
        # rights where the default options have no castling).
        assert kamil.Position(v["name"]).fen().split()[0] == v["start_fen"].split()[0]


def test_variants_agree_with_the_cli(cli):
    import json

    ours = [{k: v[k] for k in ("name", "title", "start_fen")} for v in kamil.variants()]
    theirs = [{k: v[k] for k in ("name", "title", "start_fen")} for v in json.loads(cli.run("variants", "--json"))]
    assert ours == theirs


@pytest.mark.parametrize("name", NAMES)
def test_start_moves_and_perft_equal_the_cli(cli, name):
    pos = kamil.Position(name)
    assert sorted(pos.legal_moves()) == cli.moves(name)
    assert pos.count_legal() == len(cli.moves(name))
    depth = 3 if name in PERFT3 else 2
    assert pos.perft(depth) == cli.perft(name, depth)
    assert pos.fen() == pos.start_fen  # perft leaves the position as it was


@pytest.mark.parametrize("name", NAMES)
def test_a_random_game_agrees_with_the_cli_at_every_ply(cli, name):
    rng = random.Random(sum(map(ord, name)))
    pos = kamil.Position(name)
    played = []
    for ply in range(40):
        ours = sorted(pos.legal_moves())
        assert ours == cli.moves(name, played), f"ply {ply} after {played}"
        if ply % 8 == 0:
            # Our FEN, read by the CLI, is the same position.
            assert cli.moves(name, fen=pos.fen()) == ours, f"FEN {pos.fen()} at ply {ply}"
        o = pos.outcome()
        if ply % 10 == 0 or o is not None:
            ours_text = None if o is None else f"{o.result} ({o.reason})"
            assert cli.outcome(name, pos.turn, played) == ours_text, f"ply {ply} after {played}"
        if o is not None:
            break
        assert ours, f"no legal move but no outcome at ply {ply}"
        m = rng.choice(ours)
        assert pos.is_legal(move=m)
        before = pos.fen()
        pos.push(m)
        played.append(m)
        assert pos.moves == played and pos.ply == len(played)
        assert pos.fen() != before or m in pos.moves
        # A FEN read back is the same position.
        assert kamil.Position(name, pos.fen()).fen() == pos.fen()
    if pos.outcome() is None:
        assert cli.outcome(name, pos.turn, played) is None
    # pop takes every move back.
    for m in reversed(played):
        assert pos.pop() == m
    assert pos.fen() == kamil.Position(name).fen()
    with pytest.raises(IndexError):
        pos.pop()


def test_outcome_of_a_mate_and_of_a_bare_king():
    # Courier: the first player's King on l1, Rooks on a2 and b1; a Pawn
    # on a3 so that it is not a bare King.
    mate = "k11/12/12/12/12/P11/r11/1r9K w - - 0 1"
    pos = kamil.Position("courier", mate)
    o = pos.outcome()
    assert o is not None
    assert (o.result, o.winner, o.reason, o.points) == ("0-1", 1, "checkmate", None)
    assert pos.is_check()
    assert pos.legal_moves() == []
    assert pos.rule_outcome() is None
    # One move earlier nothing has ended.
    before = kamil.Position("courier", "k11/12/12/12/12/P1r9/r11/11K b - - 0 1")
    assert before.outcome() is None
    before.push("c3c1")
    assert before.outcome() == o
    # Ordinary Variant is scored in points.
    ov = kamil.Position("ordinary-variant")
    assert ov.outcome() is None


def test_game_ends_agree_with_the_cli(cli):
    mate = kamil.Position("courier", "k11/12/12/12/12/P11/r11/1r9K w - - 0 1")
    assert cli.outcome("courier", 0, fen=mate.fen()) == "0-1 (checkmate)"
    rep = kamil.Position("courier")
    cycle = ["b1c3", "b8c6", "c3b1", "c6b8"] * 2
    for m in cycle:
        rep.push(m)
    o = rep.outcome()
    assert (o.result, o.reason) == ("1/2-1/2", "repetition")
    assert cli.outcome("courier", rep.turn, cycle) == f"{o.result} ({o.reason})"
    rep.pop()
    assert rep.outcome() is None
    assert cli.outcome("courier", rep.turn, cycle[:-1]) is None


def test_is_check_and_turn():
    pos = kamil.Position("courier", "k11/12/12/12/12/12/12/r10K w - - 0 1")
    assert pos.turn == 0
    assert pos.is_check()
    assert all(m.startswith("l1") for m in pos.legal_moves())
    pos.push(pos.legal_moves()[0])
    assert pos.turn == 1
    assert not pos.is_check()


def test_board_and_repr():
    pos = kamil.Position("courier")
    b = pos.board()
    assert b["a1"] == "R" and b["a8"] == "r" and b["f1"] == "K"
    assert "a3" not in b
    assert len(b) == 48
    assert repr(pos) == f"Position('courier', fen='{pos.fen()}')"
    # print(pos): the board as kamil play draws it, with its legend (issue 80).
    text = str(pos)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijkl")
    assert lines[1].split() == ["8", "r", "n", "e", "b", "m", "k", ".", "w", "b", "e", "n", "r", "8"]
    assert "Pieces in upper case: White, who moves first; pieces in lower case: Black." in text
    assert "Labels:" in text and "E Alfil" in text
    assert lines[-1] == f"White to move: {pos.fen()}"
    chu = kamil.Position("chu-shogi")
    shown = str(chu)
    assert shown.splitlines()[1].split()[0:3] == ["12", "vL", "vFL"]
    assert "Ln Lion" in shown and "marked with a v: White (Gote)" in shown
    # The last move's squares are bracketed, as in kamil play.
    ranks = lambda p: str(p).splitlines()[1:13]
    assert not any("[" in line for line in ranks(chu))
    chu.push("a4a5")
    assert sum(line.count("[") for line in ranks(chu)) == 2


def test_move_effects_capture_promotion_and_a_lion_double_capture():
    pos = kamil.Position("courier", "k11/12/12/12/12/2p9/1P10/K11 w - - 0 1")
    e = pos.move_effects("b2c3")
    assert (e["from"], e["to"], e["piece"]) == ("b2", "c3", "P")
    assert e["captured"] == [("c3", "p")]
    assert e["promotion"] is None
    assert pos.fen() == "k11/12/12/12/12/2p9/1P10/K11 w - - 0 1"
    # A pawn reaching the last rank promotes.
    pos = kamil.Position("courier", "k11/1P10/12/11p/12/12/12/K11 w - - 0 1")
    promos = [m for m in pos.legal_moves() if m.startswith("b7b8")]
    assert promos
    e = pos.move_effects(promos[0])
    assert e["to"] == "b8" and e["promotion"] is not None
    # Chu Shogi: a Lion taking two pieces in one turn.
    chu = kamil.Position("chu-shogi", "12/12/12/12/12/12/5p6/5p6/5N6/12/12/k10K b")
    e = chu.move_effects("f4f5f6")
    assert e["piece"] == "N" and e["to"] == "f6"
    assert sorted(e["captured"]) == [("f5", "p"), ("f6", "p")]


def test_copy_and_pickle_keep_moves_and_options(tmp_path, courier_toml):
    pos = kamil.Position("courier-modern", options={"albers-castling": True})
    for m in ["g2g3", "g7g6"]:
        pos.push(m)
    for other in (pos.copy(), copy.copy(pos), copy.deepcopy(pos), pickle.loads(pickle.dumps(pos))):
        assert other.fen() == pos.fen()
        assert other.moves == ["g2g3", "g7g6"]
        assert other.options == {"albers-castling": "true"}
        assert other.pop() == "g7g6"
        assert pos.moves == ["g2g3", "g7g6"]
    # A position of a variant file pickles with the file's text.
    path = tmp_path / "mine.toml"
    path.write_text(courier_toml)
    mine = kamil.Position(str(path))
    mine.push("b2b3")
    data = pickle.dumps(mine)
    path.unlink()
    back = pickle.loads(data)
    assert back.fen() == mine.fen() and back.moves == ["b2b3"]


def test_a_variant_file_by_path_and_pathlike(tmp_path, courier_toml):
    path = tmp_path / "copy.toml"
    path.write_text(courier_toml)
    assert kamil.Position(path).perft(2) == 678
    assert kamil.Position(str(path)).perft(2) == 678
    assert kamil.start_fen(path) == kamil.start_fen("courier")


def test_options_change_the_rules():
    plain = kamil.Position("courier-modern")
    albers = kamil.Position("courier-modern", options={"albers-castling": True, "albers-queen": "true"})
    assert albers.options == {"albers-castling": "true", "albers-queen": "true"}
    assert plain.perft(2) > 0 and albers.perft(2) > 0


def test_piece_types_and_key():
    pos = kamil.Position("sho-shogi")
    assert pos.piece_types[0] == "K"
    assert len(set(pos.piece_types)) == len(pos.piece_types)
    other = kamil.Position("sho-shogi")
    assert pos.key == other.key
    pos.push("e3e4")
    assert pos.key != other.key
    pos.pop()
    assert pos.key == other.key
