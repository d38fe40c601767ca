"""SFEN and USI move text in the Python package (issue 48): positions set
up from an SFEN, written back, pickled; moves pushed and listed in USI; and
kamil.pyffish's get_fen(..., sfen=True) against pyffish's on Sho Shogi."""

import pickle
import random

import pytest

import kamil
import kamil.pyffish as kf

CHU_START = (
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/"
    "3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1"
)
# White's Kirin just took Black's Lion on 7h, promoting: the counter-strike
# rule binds Black (rules/chu-shogi.md 6.4 LT3).
STRIKE = "6k5/12/12/12/12/6n5/6G5/5+o6/5G6/12/12/6K5 b 7h 11"


def test_positions_read_and_write_sfen():
    pos = kamil.Position("chu-shogi")
    assert pos.sfen() == CHU_START
    assert kamil.Position("chu-shogi", CHU_START).fen() == pos.fen()
    pos.push("7i7h")  # USI: kamil's f4f5
    assert pos.moves == ["f4f5"]
    assert pos.sfen().endswith(" w - 2")
    assert pos.is_legal("6d6e") and pos.is_legal("g9g8")
    assert kamil.Position("courier").sfen() is None


def test_the_counter_strike_square_survives_a_pickle():
    pos = kamil.Position("chu-shogi", STRIKE)
    assert pos.sfen() == STRIKE
    assert pos.start_fen == STRIKE
    assert not pos.is_legal("6g6f")  # no Lion taken but on 7h
    assert pos.is_legal("7i7h")
    back = pickle.loads(pickle.dumps(pos))
    assert back.sfen() == STRIKE and back.key == pos.key
    free = kamil.Position("chu-shogi", STRIKE.replace(" 7h ", " - "))
    assert free.is_legal("6g6f") and free.key != pos.key


def test_usi_move_lists_match_kamils():
    pos = kamil.Position("dai-shogi")
    ours, usi = pos.legal_moves(), pos.legal_moves(usi=True)
    assert len(ours) == len(usi) > 0
    for a, b in zip(ours, usi):
        assert kamil.Position("dai-shogi").is_legal(b)
        p = kamil.Position("dai-shogi")
        p.push(b)
        assert p.moves == [a]
    with pytest.raises(ValueError, match="no USI"):
        kamil.Position("courier").legal_moves(usi=True)


def test_bad_sfen_and_usi_raise_kamils_errors():
    with pytest.raises(kamil.FenError, match=r"bad SFEN .*SFEN side to move"):
        kamil.Position("sho-shogi", "9/9/9/9/9/9/9/9/9 x - 1")
    with pytest.raises(kamil.FenError, match="SFEN hands"):
        kamil.Position("sho-shogi", "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b P 1")
    with pytest.raises(kamil.MoveError, match="USI move `P\\*5e`: a drop"):
        kamil.Position("sho-shogi").push("P*5e")


def test_get_fen_sfen_agrees_with_pyffish():
    sf = pytest.importorskip("pyffish")
    rng = random.Random(11)
    start = kf.start_fen("shoshogi")
    compared = 0
    for _ in range(3):
        moves = []
        for _ in range(40):
            theirs = sf.get_fen("shoshogi", start, moves, False, True)
            assert kf.get_fen("shoshogi", start, moves, False, True) == theirs
            # pyffish's SFEN reads as a FEN argument, and back to itself.
            assert kf.get_fen("shoshogi", theirs, [], False, True) == theirs
            compared += 1
            legal = kf.legal_moves("shoshogi", start, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
    assert compared > 100
    with pytest.raises(ValueError, match="no SFEN"):
        kf.get_fen("courier", kf.start_fen("courier"), [], False, True)
