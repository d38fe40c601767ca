from ._kamil import (
    Engine as Engine,
    FenError as FenError,
    KamilError as KamilError,
    MoveError as MoveError,
    Outcome as Outcome,
    Position as Position,
    SearchInfo as SearchInfo,
    SearchResult as SearchResult,
    VariantError as VariantError,
    start_fen as start_fen,
    variants as variants,
)
