"""Positions and legal moves as numpy arrays, for machine learning.

numpy is an optional dependency (``pip install kamil[numpy]``); the
``position_planes``, ``position_moves``, ``batch_planes`` and ``batch_moves`` of ``kamil._kamil`` give the same data as bytes.

Shapes (``P = len(pos.piece_types)``, ``R = pos.ranks``, ``F = pos.files``):

* ``planes(pos)``: ``uint8 (2*P, R, F)``; plane ``s*P + t`` is 1 where side
  ``s`` (0: first player) has a piece of type ``t`` (``pos.piece_types[t]``).
  Row 0 is the first rank (``a1`` is ``[:, 0, 0]``); cells that are not
  squares (Tamerlane's citadels' neighbours) are 0.
* ``moves(pos)``: ``int32 (M, 4)``, one row per legal move in the order of
  ``pos.legal_moves()``: origin, final square, intermediate square (two-step
  moves, else -1), promotion piece type (else -1). Squares are numbered
  ``rank * F + file``.
* ``batch_planes(variant, fens, options=None)``: ``uint8 (N, 2*P, R, F)``.
* ``batch_moves(variant, fens, options=None)``: ``(moves, offsets)``,
  ``moves`` ``int32 (total, 4)`` as above, ``offsets`` ``int64 (N + 1,)``:
  the moves of FEN ``i`` are ``moves[offsets[i]:offsets[i+1]]``.

The batch functions parse the FENs and generate in Rust without the GIL.
Errors: ``kamil.VariantError``, ``kamil.FenError`` (the first bad FEN).
"""

from typing import Dict, Optional, Sequence, Tuple

from . import _kamil
from ._kamil import Position

try:
    import numpy as _np
except ImportError:  # pragma: no cover - exercised only without numpy
    _np = None


def _numpy():
    if _np is None:
        raise ImportError("kamil.arrays needs numpy: pip install numpy")
    return _np


def planes(pos: Position):
    """The piece planes of ``pos``: ``uint8`` array ``(2*P, R, F)``."""
    np = _numpy()
    data = _kamil.position_planes(pos)
    return np.frombuffer(data, dtype=np.uint8).reshape(2 * len(pos.piece_types), pos.ranks, pos.files)


def moves(pos: Position):
    """The legal moves of ``pos`` encoded: ``int32`` array ``(M, 4)``."""
    np = _numpy()
    return np.frombuffer(_kamil.position_moves(pos), dtype="<i4").reshape(-1, 4)


def batch_planes(variant, fens: Sequence[str], options: Optional[Dict[str, object]] = None):
    """The planes of many FENs of one variant: ``uint8 (N, 2*P, R, F)``."""
    np = _numpy()
    probe = Position(variant, None, options)
    data = _kamil.batch_planes(variant, list(fens), options)
    shape = (len(fens), 2 * len(probe.piece_types), probe.ranks, probe.files)
    return np.frombuffer(data, dtype=np.uint8).reshape(shape)


def batch_moves(variant, fens: Sequence[str], options: Optional[Dict[str, object]] = None) -> Tuple[object, object]:
    """The legal moves of many FENs: ``(int32 (total, 4), int64 (N+1,))``."""
    np = _numpy()
    data, offsets = _kamil.batch_moves(variant, list(fens), options)
    return (
        np.frombuffer(data, dtype="<i4").reshape(-1, 4),
        np.frombuffer(offsets, dtype="<i8"),
    )
