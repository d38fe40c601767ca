"""Bad input becomes kamil's exceptions, with the command line's messages;
no input crashes the interpreter."""

import random

import pytest

import kamil


def test_the_exceptions_are_value_errors():
    for e in (kamil.FenError, kamil.MoveError, kamil.VariantError):
        assert issubclass(e, kamil.KamilError)
        assert issubclass(e, ValueError)


def test_bad_fen_names_the_field_as_the_cli(cli):
    with pytest.raises(kamil.FenError) as e:
        kamil.Position("courier", "rnebmk1wbenr/12 w - - 0 1")
    assert "FEN board" in str(e.value) and "rank" in str(e.value)
    assert str(e.value) in cli.error("moves", "courier", "--fen", "rnebmk1wbenr/12 w - - 0 1")
    with pytest.raises(kamil.FenError, match="side to move"):
        kamil.Position("courier", "k11/12/12/12/12/12/12/K11 x - - 0 1")


def test_bad_move_lists_the_legal_ones_as_the_cli(cli):
    pos = kamil.Position("courier")
    with pytest.raises(kamil.MoveError) as e:
        pos.push("a1a5")
    assert "legal moves of a1: a1a2 a1a3" in str(e.value)
    assert str(e.value) in cli.error("moves", "courier", "--moves", "a1a5")
    for bad in ["", "x", "a1", "z9z9", "a1a2a3a4a5a6", "a3a4", "a8a7", "\x00", "a1a2=Q", "\u4e2d\u4e2d"]:
        with pytest.raises(kamil.MoveError):
            pos.push(bad)
        assert not pos.is_legal(bad)
    assert pos.fen() == pos.start_fen
    with pytest.raises(kamil.MoveError):
        pos.move_effects("a1a5")


def test_bad_variants_and_options(cli, tmp_path):
    with pytest.raises(kamil.VariantError, match="no such variant") as e:
        kamil.Position("nonesuch")
    assert str(e.value) in cli.error("moves", "nonesuch")
    with pytest.raises(kamil.VariantError, match="unknown option") as e:
        kamil.Position("courier", options={"no-such-option": True})
    assert str(e.value) in cli.error("moves", "courier", "--option", "no-such-option=true")
    with pytest.raises(kamil.VariantError):
        kamil.Position("courier-modern", options={"albers-castling": "maybe"})
    with pytest.raises(TypeError):
        kamil.Position("courier", options={"albers-castling": 1.5})
    with pytest.raises(TypeError):
        kamil.Position("courier", options=["albers-castling"])
    with pytest.raises(TypeError):
        kamil.Position(42)
    with pytest.raises(kamil.VariantError, match="reading variant file"):
        kamil.Position(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\n[board\n")
    with pytest.raises(kamil.VariantError) as e:
        kamil.Position(str(bad))
    assert str(e.value) in cli.error("moves", str(bad))
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (5 << 20))
    with pytest.raises(kamil.VariantError, match="larger than 4 MB"):
        kamil.Position(str(big))
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"name = '\xff'\n")
    with pytest.raises(kamil.VariantError, match="not UTF-8"):
        kamil.Position(str(binary))


def test_random_junk_never_crashes():
    rng = random.Random(15)
    alphabet = "rnbqkpRNBQKP+*/0123456789 -wbx!'@,\x00\u00e9abcdefghijklmnop"
    names = [v["name"] for v in kamil.variants()]
    for i in range(600):
        name = names[i % len(names)]
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        try:
            pos = kamil.Position(name, text)
        except kamil.FenError:
            pos = kamil.Position(name)
        # Mutate the start FEN a little: most stay FENs, some break.
        fen = list(pos.fen())
        for _ in range(rng.randint(1, 3)):
            fen[rng.randrange(len(fen))] = rng.choice(alphabet)
        try:
            kamil.Position(name, "".join(fen)).legal_moves()
        except kamil.FenError:
            pass
        try:
            pos.push(text[:12])
        except kamil.MoveError:
            pass


def test_engine_arguments_are_checked():
    with pytest.raises(ValueError):
        kamil.Engine(hash_mb=0)
    with pytest.raises(ValueError):
        kamil.Engine(threads=0)
    with pytest.raises(OverflowError):
        kamil.Engine(hash_mb=-1)
    e = kamil.Engine(hash_mb=1)
    pos = kamil.Position("courier")
    with pytest.raises(ValueError, match="give a limit"):
        e.search(pos)
    with pytest.raises(ValueError):
        e.search(pos, depth=0)
    with pytest.raises(TypeError):
        e.search("courier", depth=1)


def test_pyffish_arguments_of_the_wrong_type_raise_type_error():
    import kamil.pyffish as kf

    # Issue 47: a None FEN was read as the start position, "valid".
    with pytest.raises(TypeError, match="fen must be a str"):
        kf.validate_fen(None, "courier")
    start = kf.start_fen("courier")
    # Each function with good arguments: which are strings, which the moves.
    S, M = "str", "moves"
    calls = {
        kf.start_fen: [("courier", S)],
        kf.two_boards: [("courier", S)],
        kf.captures_to_hand: [("courier", S)],
        kf.set_option: [("Threads", S), (1, None)],
        kf.validate_fen: [(start, S), ("courier", S)],
        kf.legal_moves: [("courier", S), (start, S), ([], M)],
        kf.get_fen: [("courier", S), (start, S), (["b2b3"], M)],
        kf.gives_check: [("courier", S), (start, S), ([], M)],
        kf.is_capture: [("courier", S), (start, S), ([], M), ("b2b3", S)],
        kf.game_result: [("courier", S), (start, S), ([], M)],
        kf.is_immediate_game_end: [("courier", S), (start, S), ([], M)],
        kf.is_optional_game_end: [("courier", S), (start, S), ([], M)],
        kf.has_insufficient_material: [("courier", S), (start, S), ([], M)],
        kf.piece_to_partner: [("courier", S), (start, S), ([], M)],
    }
    junk = [None, 0, 1.5, b"courier", {"a": 1}, object()]
    for f, spec in calls.items():
        good = [a for a, _ in spec]
        f(*good)
        for i, (_, kind) in enumerate(spec):
            if kind is None:
                continue
            bad = junk + ([["b2b3"]] if kind == S else ["b2b3", [None], [7], ("b2b3", 1)])
            for b in bad:
                args = good[:i] + [b] + good[i + 1 :]
                with pytest.raises(TypeError):
                    f(*args)
