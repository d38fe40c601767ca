"""Positions and legal moves as numpy arrays."""

import pytest

import kamil

np = pytest.importorskip("numpy")
import kamil.arrays as ka  # noqa: E402


def test_planes_of_a_position():
    pos = kamil.Position("courier")
    p = ka.planes(pos)
    n = len(pos.piece_types)
    assert p.shape == (2 * n, 8, 12) and p.dtype == np.uint8
    assert int(p.sum()) == len(pos.board())
    king = pos.piece_types.index("K")
    assert p[king, 0, 5] == 1  # f1, the first player's King
    assert p[n + king, 7, 5] == 1  # f8, the second's
    assert p[:, 2, :].sum() == 1  # rank 3: the first player's Fers on g3 only


def test_moves_of_a_position():
    pos = kamil.Position("sho-shogi")
    m = ka.moves(pos)
    legal = pos.legal_moves()
    assert m.shape == (len(legal), 4) and m.dtype == np.int32
    files = pos.files
    for row, text in zip(m, legal):
        frm = (ord(text[0]) - 97) + (int(text[1]) - 1) * files
        assert row[0] == frm
        assert row[2] == -1
    assert (m[:, 3] == -1).all()  # no promotion from the start


def test_batches():
    pos = kamil.Position("chu-shogi")
    fens = [pos.fen()]
    for mv in ["e4e5", "h9h8", "f4f5"]:
        pos.push(mv) if pos.is_legal(mv) else pos.push(pos.legal_moves()[0])
        fens.append(pos.fen())
    planes = ka.batch_planes("chu-shogi", fens)
    assert planes.shape == (len(fens), 2 * len(pos.piece_types), 12, 12)
    for i, f in enumerate(fens):
        assert (planes[i] == ka.planes(kamil.Position("chu-shogi", f))).all()
    moves, offsets = ka.batch_moves("chu-shogi", fens)
    assert offsets[0] == 0 and offsets[-1] == len(moves) and len(offsets) == len(fens) + 1
    for i, f in enumerate(fens):
        one = kamil.Position("chu-shogi", f)
        assert offsets[i + 1] - offsets[i] == len(one.legal_moves())
        assert (moves[offsets[i] : offsets[i + 1]] == ka.moves(one)).all()
    # Lion double moves carry their intermediate square.
    assert (moves[:, 2] >= 0).any()
    with pytest.raises(kamil.FenError):
        ka.batch_planes("chu-shogi", fens + ["bad"])
