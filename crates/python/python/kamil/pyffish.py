"""pyffish's functions on kamil's rules: change ``import pyffish as sf`` to
``import kamil.pyffish as sf``.

Every function takes pyffish's arguments in pyffish's order: a variant name,
a FEN and a list of moves played from it (UCI-style coordinate text), then
the function's own. The variant is one of pyffish's names that kamil has
(``VARIANTS``; the options there make kamil's rules the same as
Fairy-Stockfish's) or any of kamil's own names (``kamil.variants()``), with
kamil's default options.

Calls and what they map to:

=========================  ==============================================
pyffish                    kamil
=========================  ==============================================
``version()``              kamil's version, a tuple of three ints
``info()``                 ``"kamil <version>"``
``variants()``             the names ``VARIANTS`` maps and kamil's own
``start_fen(v)``           the variant's start FEN
``legal_moves(v, f, ms)``  ``Position.legal_moves()`` after ``ms``
``get_fen(v, f, ms)``      ``Position.fen()`` after ``ms``; for
                           ``shoshogi`` in Fairy-Stockfish's form (``w``
                           for the first player, its counters), which
                           kamil reads too; ``sfen=True``: the SFEN
                           (``Position.sfen()``), as Fairy-Stockfish's
                           for ``shoshogi``; every FEN argument may be an
                           SFEN in the shogi games
``gives_check(v, f, ms)``  ``Position.is_check()``: is the side to move
                           in check after ``ms``
``is_capture(v,f,ms,m)``   does ``m`` remove a piece (``move_effects``)
``game_result(v, f, ms)``  ``VALUE_MATE`` / ``-VALUE_MATE`` / ``VALUE_DRAW``
                           for the side to move: ``Position.outcome()``, or
                           when the game goes on, the result if the side
                           to move had no move (as Fairy-Stockfish, which
                           is called when there is none)
``is_immediate_game_end``  ``(True, value)`` when a rule of the board ended
                           the game (``Position.rule_outcome()``)
``is_optional_game_end``   ``(True, value)`` when the game ended by
                           repetition, perpetual check or a move-count
                           rule (kamil applies these, no claim needed)
``has_insufficient_        ``(True, True)`` when kamil's rules draw the
material``                 game by insufficient material, else
                           ``(False, False)``
``validate_fen(f, v)``     ``FEN_OK`` (1) when kamil reads it, else -1
``two_boards``,            ``False`` (kamil's games have no drops and one
``captures_to_hand``       board)
``set_option(n, v)``       accepted and ignored
``load_variant_config``,   ``NotImplementedError`` (kamil's variant files
``get_san``,               are TOML: pass their path as the variant;
``get_san_moves``,         kamil has no SAN)
``get_fog_fen``
=========================  ==============================================

``chess960`` must be False (kamil has no Chess960 games). An argument of
the wrong type (``None`` for a FEN, a string for the list of moves) raises
``TypeError``, as pyffish's own argument checks do. Other errors are
kamil's exceptions (``error`` is ``kamil.KamilError``, a ``ValueError``):
``VariantError`` for an unknown variant, ``FenError`` for a bad FEN,
``MoveError`` for a bad move, where pyffish would print and go on or crash.
"""

from typing import Dict, List, Optional, Sequence, Tuple

from . import _kamil
from ._kamil import KamilError, Position

error = KamilError

VALUE_MATE = 32000
VALUE_DRAW = 0
FEN_OK = 1
FEN_INVALID = -1
NOTATION_DEFAULT = 0
NOTATION_SAN = 1
NOTATION_LAN = 2
NOTATION_SHOGI_HOSKING = 3
NOTATION_SHOGI_HODGES = 4
NOTATION_SHOGI_HODGES_NUMBER = 5
NOTATION_JANGGI = 6
NOTATION_XIANGQI_WXF = 7
NOTATION_THAI_SAN = 8
NOTATION_THAI_LAN = 9
FEN_INVALID_PROMOTED_PIECE = -13

#: pyffish's variant names that kamil has: name -> (kamil's variant, options
#: that make kamil's rules Fairy-Stockfish's).
VARIANTS: Dict[str, Tuple[str, Dict[str, str]]] = {
    "courier": ("courier", {}),
    # Fairy-Stockfish counts royals before a Drunk Elephant's promotion
    # takes effect.
    "shoshogi": ("sho-shogi", {"royal-count": "before-move"}),
}

_KAMIL_NAMES = [v["name"] for v in _kamil.variants()]

#: pyffish's names whose FENs Fairy-Stockfish writes in another form than
#: kamil: Sho Shogi (kamil: shogi's side letters, ``b`` for the first
#: player; Fairy-Stockfish: chess's, ``w`` for the first player, then
#: castling and en passant ``- -``, a ply counter reset by captures and the
#: move number). ``start_fen`` and ``get_fen`` write these in
#: Fairy-Stockfish's form; kamil reads both.
_FSF_FEN_FORM = {"shoshogi"}


def _str(what: str, value) -> str:
    """``value`` if it is a str, else ``TypeError`` naming ``what``: a
    ``None`` FEN must not read as the start position (pyffish's argument
    checks refuse it)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    return value


def _moves(moves) -> Sequence[str]:
    """``moves`` if it is a list (or tuple) of str, else ``TypeError``: a
    string would be read as one move per character."""
    if not isinstance(moves, (list, tuple)):
        raise TypeError(f"moves must be a list of str, not {type(moves).__name__}")
    for i, m in enumerate(moves):
        _str(f"moves[{i}]", m)
    return moves


def _variant(variant: str) -> Tuple[str, Optional[Dict[str, str]]]:
    _str("variant", variant)
    mapped = VARIANTS.get(variant)
    if mapped is not None:
        return mapped[0], mapped[1] or None
    return variant, None


def _check960(chess960: bool) -> None:
    if chess960:
        raise ValueError("chess960: kamil has no Chess960 games")


def _position(variant: str, fen: str, moves: Sequence[str]) -> Position:
    name, options = _variant(variant)
    _str("fen", fen)
    _moves(moves)
    pos = Position(name, fen, options)
    for m in moves:
        pos.push(m)
    return pos


def _value(outcome, turn: int) -> int:
    if outcome.winner is None:
        return VALUE_DRAW
    return VALUE_MATE if outcome.winner == turn else -VALUE_MATE


def version() -> Tuple[int, int, int]:
    """kamil's version as (major, minor, patch)."""
    return (0, 1, 0)


def info() -> str:
    """A line naming the library: ``"kamil 0.1.0"``."""
    return "kamil %d.%d.%d" % version()


def variants() -> List[str]:
    """The variant names this module takes: pyffish's that kamil has, then
    kamil's own."""
    return list(VARIANTS) + [n for n in _KAMIL_NAMES if n not in VARIANTS]


def set_option(name: str, value) -> None:
    """Accepted for compatibility and ignored (kamil has no engine options
    here). Errors: ``TypeError`` when ``name`` is not a str."""
    _str("name", name)


def load_variant_config(config: str) -> None:
    """Not available: kamil's variants are TOML files; pass a file's path
    as the variant name instead."""
    _str("config", config)
    raise NotImplementedError(
        "load_variant_config: kamil reads TOML variant files; pass the file's path as the variant"
    )


def start_fen(variant: str) -> str:
    """The start FEN of ``variant`` (Fairy-Stockfish's form for its names).
    Errors: ``VariantError``."""
    name, options = _variant(variant)
    fen = _kamil.start_fen(name, options)
    if variant in _FSF_FEN_FORM:
        return fen.split()[0] + " w 0 1"
    return fen


def _pieces(fen: str) -> int:
    return sum(c.isalpha() for c in fen.split()[0])


def _fsf_form(variant: str, fen: str, moves: Sequence[str]) -> str:
    """The FEN after ``moves`` as Fairy-Stockfish writes it for a variant
    of ``_FSF_FEN_FORM``: board, ``w``/``b``, ``- -``, the plies since the
    last capture and the move number (counted on from those of ``fen`` when
    it has them)."""
    name, options = _variant(variant)
    pos = Position(name, _str("fen", fen), options)
    _moves(moves)
    fields = fen.split()
    half, full = 0, 1
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        half, full = int(fields[4]), int(fields[5])
    pieces = _pieces(pos.fen())
    for m in moves:
        pos.push(m)
        now = _pieces(pos.fen())
        half = 0 if now < pieces else half + 1
        pieces = now
        if pos.turn == 0:
            full += 1
    return f"{pos.fen().split()[0]} {'wb'[pos.turn]} - - {half} {full}"


def two_boards(variant: str) -> bool:
    """False: no kamil game is played on two boards."""
    _variant(variant)
    return False


def captures_to_hand(variant: str) -> bool:
    """False: no kamil game drops captured pieces."""
    _variant(variant)
    return False


def legal_moves(variant: str, fen: str, moves: Sequence[str], chess960: bool = False) -> List[str]:
    """The legal moves after playing ``moves`` from ``fen``, in kamil's
    notation (pyffish's for Courier and Sho Shogi). Errors: ``VariantError``,
    ``FenError``, ``MoveError``."""
    _check960(chess960)
    return _position(variant, fen, moves).legal_moves()


def get_fen(
    variant: str,
    fen: str,
    moves: Sequence[str],
    chess960: bool = False,
    sfen: bool = False,
    showPromoted: bool = False,
    countStarted: int = 0,
) -> str:
    """The FEN after ``moves``: Fairy-Stockfish's form for its names,
    kamil's otherwise; with ``sfen=True`` the SFEN (``... b - 1``, the move
    number counted in plies from 1 at ``fen``, or from the move number of
    an SFEN given), for the shogi games only. ``showPromoted`` and
    ``countStarted`` are ignored. Errors: ``ValueError`` for ``sfen=True``
    in a game without SFEN."""
    _check960(chess960)
    if sfen:
        text = _position(variant, fen, moves).sfen()
        if text is None:
            raise ValueError(f"get_fen: {variant} has no SFEN (the shogi games have)")
        return text
    if variant in _FSF_FEN_FORM:
        return _fsf_form(variant, fen, moves)
    return _position(variant, fen, moves).fen()


def gives_check(variant: str, fen: str, moves: Sequence[str], chess960: bool = False) -> bool:
    """Is the side to move in check after ``moves``?"""
    _check960(chess960)
    return _position(variant, fen, moves).is_check()


def is_capture(variant: str, fen: str, moves: Sequence[str], move: str, chess960: bool = False) -> bool:
    """Does ``move`` (legal after ``moves``) capture a piece?"""
    _check960(chess960)
    pos = _position(variant, fen, moves)
    return bool(pos.move_effects(_str("move", move))["captured"])


def game_result(variant: str, fen: str, moves: Sequence[str], chess960: bool = False) -> int:
    """The game's value for the side to move: ``VALUE_MATE`` (won),
    ``-VALUE_MATE`` (lost) or ``VALUE_DRAW``. When the game has not ended,
    the value it would have if the side to move had no legal move (called,
    as in pyffish, when ``legal_moves`` is empty)."""
    _check960(chess960)
    pos = _position(variant, fen, moves)
    o = pos.outcome()
    if o is None:
        o = pos._no_move_outcome()
    return _value(o, pos.turn)


def is_immediate_game_end(
    variant: str, fen: str, moves: Sequence[str], chess960: bool = False
) -> Tuple[bool, int]:
    """``(True, value for the side to move)`` when a rule of the board has
    ended the game (royals captured, bare king, citadel...), else
    ``(False, 0)``."""
    _check960(chess960)
    pos = _position(variant, fen, moves)
    o = pos.rule_outcome()
    return (False, VALUE_DRAW) if o is None else (True, _value(o, pos.turn))


_OPTIONAL = {"repetition", "perpetual check", "move-count rule", "game-length limit"}


def is_optional_game_end(
    variant: str, fen: str, moves: Sequence[str], chess960: bool = False, count_started: int = 0
) -> Tuple[bool, int]:
    """``(True, value for the side to move)`` when the game has ended by
    repetition, perpetual check, a move-count rule or the game-length
    limit (kamil ends it without a claim), else ``(False, 0)``. Repetition
    counts only positions reached by ``moves``."""
    _check960(chess960)
    pos = _position(variant, fen, moves)
    o = pos.outcome()
    if o is None or o.reason not in _OPTIONAL:
        return (False, VALUE_DRAW)
    return (True, _value(o, pos.turn))


def has_insufficient_material(
    variant: str, fen: str, moves: Sequence[str], chess960: bool = False
) -> Tuple[bool, bool]:
    """Per side (first, second): can it not win for lack of material?
    kamil's rules answer for both sides at once: ``(True, True)`` when the
    game is drawn by insufficient material (Alfonso's Great Chess: King
    and a minor piece against a King), else ``(False, False)``; a bare
    King is an ending of its own (bare king rule), as in Fairy-Stockfish,
    which answers ``(False, False)`` for Courier and Sho Shogi."""
    _check960(chess960)
    o = _position(variant, fen, moves).outcome()
    drawn = o is not None and o.reason == "insufficient material"
    return (drawn, drawn)


def validate_fen(fen: str, variant: str, chess960: bool = False) -> int:
    """``FEN_OK`` (1) when kamil reads ``fen`` as a position of
    ``variant``, else ``FEN_INVALID`` (-1). Errors: ``VariantError`` for an
    unknown variant."""
    _check960(chess960)
    name, options = _variant(variant)
    _str("fen", fen)
    _kamil.start_fen(name, options)
    try:
        Position(name, fen, options)
    except _kamil.FenError:
        return FEN_INVALID
    return FEN_OK


def _unsupported(name: str):
    def f(*args, **kwargs):
        raise NotImplementedError(f"{name}: not available in kamil")

    f.__name__ = name
    f.__doc__ = f"Not available in kamil: raises NotImplementedError."
    return f


get_san = _unsupported("get_san")
get_san_moves = _unsupported("get_san_moves")
get_fog_fen = _unsupported("get_fog_fen")


def piece_to_partner(variant: str, fen: str, moves: Sequence[str], chess960: bool = False) -> str:
    """``""``: no kamil game passes pieces to a partner."""
    _variant(variant)
    _str("fen", fen)
    _moves(moves)
    return ""
