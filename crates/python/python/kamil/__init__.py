"""kamil: the rules and the engine of the great historical chess variants.

Courier, Sho, Chu and Dai Shogi, Tamerlane, Hiashatar, Alfonso's Great
Chess, Savard's Ordinary Variant and Frolov's 10x10 game, and any variant
file kamil reads.

    >>> import kamil
    >>> pos = kamil.Position("courier")
    >>> len(pos.legal_moves())
    ...
    >>> kamil.Engine().search(pos, depth=4).best

Modules: ``kamil.pyffish`` (pyffish's functions on kamil's rules) and
``kamil.arrays`` (positions and moves as numpy arrays).
"""

from ._kamil import (
    Engine,
    FenError,
    KamilError,
    MoveError,
    Outcome,
    Position,
    SearchInfo,
    SearchResult,
    VariantError,
    start_fen,
    variants,
)

__all__ = [
    "Engine",
    "FenError",
    "KamilError",
    "MoveError",
    "Outcome",
    "Position",
    "SearchInfo",
    "SearchResult",
    "VariantError",
    "start_fen",
    "variants",
]
