"""Type stubs of kamil's extension module (re-exported by ``kamil``)."""

import os
from typing import Callable, Dict, List, Mapping, Optional, Tuple, TypedDict, Union

Variant = Union[str, "os.PathLike[str]"]
OptionValue = Union[str, bool, int]

class KamilError(ValueError):
    """Base of kamil's errors: a FEN, move, variant or option kamil refused."""

class FenError(KamilError):
    """A FEN that could not be read (``bad FEN `...`: FEN board: ...``)."""

class MoveError(KamilError):
    """A move that is malformed or not legal (``move `a1a5`: illegal; legal moves of a1: ...``)."""

class VariantError(KamilError):
    """Unknown variant, bad option or value, unreadable or invalid variant file."""

class OptionInfo(TypedDict):
    name: str  # the key: Position(..., options={name: value})
    label: str  # the player's name for it ("Check rule")
    summary: str  # what it does, one line in plain words
    default: str
    values: List[str]  # empty for a numeric option
    value_labels: List[str]  # the player's name for each of values
    description: str  # the details: source and rule book section

class VariantInfo(TypedDict):
    name: str
    title: str
    description: str
    files: int
    ranks: int
    start_fen: str
    elo_range: Tuple[int, int]  # Engine(elo=...) in this game: its ladder's ends
    options: List[OptionInfo]

# "from" is a Python keyword, hence the functional form.
MoveEffects = TypedDict(
    "MoveEffects",
    {
        "move": str,  # kamil's notation
        "piece": Optional[str],  # the mover's token
        "from": str,  # origin square
        "to": str,  # the square the piece ends on
        "captured": List[Tuple[str, str]],  # (square, token) of every piece removed
        "promotion": Optional[str],  # the token promoted to
        "kind": str,  # "normal", "castle", "en-passant", "checker", ...
    },
)

def variants() -> List[VariantInfo]:
    """The built-in games with their boards and options (``kamil variants``)."""

def start_fen(variant: Variant, options: Optional[Mapping[str, OptionValue]] = None) -> str:
    """The start FEN of a built-in game or a variant file. Raises VariantError."""

class Outcome:
    """The result of a finished game."""

    result: str  # "1-0", "0-1" or "1/2-1/2"
    winner: Optional[int]  # 0: first player, 1: second, None: draw or level points
    reason: str  # "checkmate", "stalemate", "bare king", "repetition", ...
    points: Optional[Tuple[float, float]]  # (first, second) in games scored in points
    text: str  # as the command line writes it: "1-0 checkmate"

class Position:
    """A position of a variant, changed by push / pop.

    ``Position(variant, fen=None, options=None)``: a built-in name or a
    variant file's path; a FEN (None: the start), in the shogi games also an
    SFEN; a dict of options. Moves in the shogi games may be USI (``7g7f``).
    Raises VariantError, FenError, TypeError.
    """

    def __init__(
        self,
        variant: Variant,
        fen: Optional[str] = None,
        options: Optional[Mapping[str, OptionValue]] = None,
    ) -> None: ...
    @property
    def variant_name(self) -> str: ...
    @property
    def options(self) -> Dict[str, str]: ...
    @property
    def files(self) -> int: ...
    @property
    def ranks(self) -> int: ...
    @property
    def piece_types(self) -> List[str]:
        """FEN tokens of the piece types, index = type number (kamil.arrays)."""
    @property
    def turn(self) -> int:
        """0: the first player (upper case) to move; 1: the second."""
    @property
    def start_fen(self) -> str:
        """The FEN the position was set up from (the SFEN if it was one)."""
    @property
    def moves(self) -> List[str]:
        """Moves pushed since, oldest first."""
    @property
    def key(self) -> int:
        """Zobrist hash, 0 <= key < 2**64."""
    def fen(self) -> str: ...
    def sfen(self) -> Optional[str]:
        """The SFEN (Sho, Chu and Dai Shogi), None in other games."""
    def legal_moves(self, usi: bool = False) -> List[str]:
        """Legal moves in kamil's notation (USI with usi=True, shogi games),
        generation order (sort to compare). Raises ValueError for usi=True
        in a game without USI."""
    def count_legal(self) -> int: ...
    def is_legal(self, move: str) -> bool: ...
    def push(self, move: str) -> None:
        """Plays a legal move. Raises MoveError."""
    def pop(self) -> str:
        """Takes back the last move pushed, returns its text. Raises IndexError."""
    def outcome(self) -> Optional[Outcome]: ...
    def rule_outcome(self) -> Optional[Outcome]:
        """The result when a rule of the board alone ended the game."""
    def is_check(self) -> bool: ...
    def perft(self, depth: int) -> int:
        """Leaf count of the legal move tree, depth in plies (releases the GIL)."""
    def board(self) -> Dict[str, str]:
        """Square name -> piece token, occupied squares only."""
    def move_effects(self, move: str) -> MoveEffects:
        """Origin ("from"), final square, captured squares and tokens, promotion. Raises MoveError."""
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: object) -> "Position": ...
    @property
    def ply(self) -> int:
        """Moves pushed since the position was set up."""

class SearchInfo:
    """One completed iteration, given to Engine.search's callback."""

    depth: int
    seldepth: int
    multipv: int
    score_cp: Optional[int]
    mate: Optional[int]
    nodes: int
    time_ms: int
    nps: int
    pv: List[str]

class SearchResult:
    """What a search found."""

    best: Optional[str]  # None only when the game is over
    ponder: Optional[str]
    score_cp: Optional[int]  # centipawns for the side to move, None for a mate score
    mate: Optional[int]  # mate in n moves (negative: mated)
    pv: List[str]
    depth: int  # plies
    seldepth: int
    nodes: int
    time_ms: int

class Engine:
    """kamil's engine. hash_mb: 1..65536 MB; threads: 1..64; eval_file: a network file
    (.nnue) of a built-in game (default: each game's built-in network where it has
    one); skill: strength level 0..20 (20: full strength); elo: a strength on the
    levels' Elo scale (1000 = level 0 in every game), played as the nearest level of
    the position's game, in place of skill; use_nnue: False for the hand-written
    evaluation in every game. Raises ValueError (naming a network file that cannot be
    used, a level or Elo out of range, skill and elo both given, or eval_file with
    use_nnue=False), MemoryError."""

    def __init__(
        self,
        hash_mb: int = 16,
        threads: int = 1,
        eval_file: Optional[str] = None,
        skill: int = 20,
        elo: Optional[int] = None,
        use_nnue: bool = True,
    ) -> None: ...
    @property
    def hash_mb(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def eval_file(self) -> Optional[str]: ...
    @property
    def use_nnue(self) -> bool: ...
    @property
    def skill(self) -> int: ...
    @property
    def elo(self) -> Optional[int]: ...
    def search(
        self,
        position: Position,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[int] = None,
        callback: Optional[Callable[[SearchInfo], object]] = None,
    ) -> SearchResult:
        """Searches within depth (plies), nodes, movetime (ms); at least one is required.
        Releases the GIL. Raises ValueError; RuntimeError when called from the callback
        of a search on the same engine; re-raises the callback's exception."""
    def stop(self) -> None:
        """Stops the running search (from another thread)."""
    def new_game(self) -> None: ...

def position_planes(position: Position) -> bytes: ...
def position_moves(position: Position) -> bytes: ...
def batch_planes(
    variant: Variant, fens: List[str], options: Optional[Mapping[str, OptionValue]] = None
) -> bytes: ...
def batch_moves(
    variant: Variant, fens: List[str], options: Optional[Mapping[str, OptionValue]] = None
) -> Tuple[bytes, bytes]: ...
