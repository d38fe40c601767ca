"""kamil.pyffish against pyffish itself, on Courier and Sho Shogi
positions of seeded random games (pyffish's names; the module's options
make kamil's rules Fairy-Stockfish's there)."""

import random

import pytest

import kamil.pyffish as kf

sf = pytest.importorskip("pyffish")

GAMES = 3
PLIES = 40


def _games(variant, seed):
    """Seeded random games (captures preferred half the time), as lists of
    moves, generated with kamil.pyffish."""
    rng = random.Random(seed)
    start = kf.start_fen(variant)
    for _ in range(GAMES):
        moves = []
        for _ in range(PLIES):
            legal = kf.legal_moves(variant, start, moves)
            if not legal:
                break
            caps = [m for m in legal if kf.is_capture(variant, start, moves, m)]
            moves.append(rng.choice(caps if caps and rng.random() < 0.5 else legal))
        yield start, moves


@pytest.mark.parametrize("variant", ["courier", "shoshogi"])
def test_kamil_pyffish_agrees_with_pyffish(variant):
    start = sf.start_fen(variant)
    assert kf.start_fen(variant) == start
    rng = random.Random(7)
    checks = captures = positions = 0
    for _, moves in _games(variant, 1 if variant == "courier" else 2):
        for n in range(len(moves) + 1):
            played = moves[:n]
            ours = sorted(kf.legal_moves(variant, start, played))
            theirs = sorted(sf.legal_moves(variant, start, played))
            assert ours == theirs, (variant, played)
            positions += 1
            assert kf.get_fen(variant, start, played) == sf.get_fen(variant, start, played)
            check = kf.gives_check(variant, start, played)
            assert check == sf.gives_check(variant, start, played), played
            checks += check
            for m in rng.sample(ours, min(3, len(ours))):
                cap = kf.is_capture(variant, start, played, m)
                assert cap == sf.is_capture(variant, start, played, m), (played, m)
                captures += cap
            assert kf.is_immediate_game_end(variant, start, played)[0] == sf.is_immediate_game_end(variant, start, played)[0]
            assert kf.is_optional_game_end(variant, start, played)[0] == sf.is_optional_game_end(variant, start, played)[0]
            assert kf.has_insufficient_material(variant, start, played) == tuple(
                sf.has_insufficient_material(variant, start, played)
            )
            if not ours:
                assert kf.game_result(variant, start, played) == sf.game_result(variant, start, played)
            # The FEN, read by either, gives the same moves.
            fen = kf.get_fen(variant, start, played)
            assert sorted(sf.legal_moves(variant, fen, [])) == ours
            assert sorted(kf.legal_moves(variant, fen, [])) == ours
    assert positions > 100
    assert checks > 0 and captures > 0


def test_game_ends_against_pyffish():
    # Courier: mate, then a bare King (pyffish: immediate end).
    mate = "k11/12/12/12/12/P11/r11/1r9K w - - 0 1"
    assert sf.legal_moves("courier", mate, []) == kf.legal_moves("courier", mate, []) == []
    assert kf.game_result("courier", mate, []) == sf.game_result("courier", mate, []) == -kf.VALUE_MATE
    bare = "k11/12/12/12/12/12/12/R10K b - - 0 1"
    ours, theirs = kf.is_immediate_game_end("courier", bare, []), sf.is_immediate_game_end("courier", bare, [])
    # pyffish's value is unset when the game goes on (0, or 32599 seen
    # with pyffish 0.0.90): it means something only when the game ended.
    assert ours[0] == theirs[0] and (not ours[0] or ours[1] == theirs[1])
    # Sho Shogi: mate by the Gold.
    sho_mate = "4k4/4G4/4P4/9/9/9/9/9/4K4 b - - 0 1"
    assert kf.game_result("shoshogi", sho_mate, []) == sf.game_result("shoshogi", sho_mate, [])


def test_names_constants_and_errors():
    assert "courier" in kf.variants() and "shoshogi" in kf.variants() and "chu-shogi" in kf.variants()
    assert kf.VALUE_MATE == sf.VALUE_MATE and kf.VALUE_DRAW == sf.VALUE_DRAW and kf.FEN_OK == sf.FEN_OK
    assert kf.validate_fen(sf.start_fen("courier"), "courier") == kf.FEN_OK
    assert kf.validate_fen("xyz", "courier") < 0
    assert not kf.two_boards("courier") and not kf.captures_to_hand("shoshogi")
    with pytest.raises(kf.error):
        kf.legal_moves("courier", kf.start_fen("courier"), ["a1a5"])
    with pytest.raises(ValueError):
        kf.start_fen("no-such-variant")
    with pytest.raises(NotImplementedError):
        kf.get_san("courier", kf.start_fen("courier"), "a2a3")
    # kamil's own games too.
    assert len(kf.legal_moves("chu-shogi", kf.start_fen("chu-shogi"), [])) > 0


@pytest.mark.parametrize(
    "variant,cycle",
    [("courier", ["b1c3", "b8c6", "c3b1", "c6b8"]), ("shoshogi", ["e1d2", "e9d8", "d2e1", "d8e9"])],
)
def test_repetition_ends_the_game_at_the_same_ply_as_pyffish(variant, cycle):
    start = sf.start_fen(variant)
    moves = cycle * 4
    ends = []
    for n in range(len(moves) + 1):
        ours = kf.is_optional_game_end(variant, start, moves[:n])
        theirs = sf.is_optional_game_end(variant, start, moves[:n])
        # The value means something only when the game has ended.
        assert ours[0] == theirs[0] and (not ours[0] or ours[1] == theirs[1]), n
        if ours[0]:
            ends.append(n)
    assert ends and ends[0] in (8, 12)
