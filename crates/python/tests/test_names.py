"""Issue 80: one naming across the front ends. kamil.pyffish (and
kamil.Position) take every name UCI and USI take for a game: other
programs' names (``chushogi``, ``daishogi``, ``shoshogi``) as well as
kamil's own."""

import pytest

import kamil
import kamil.pyffish as kf


@pytest.mark.parametrize(
    "alias, ours", [("chushogi", "chu-shogi"), ("daishogi", "dai-shogi"), ("shoshogi", "sho-shogi")]
)
def test_other_programs_names_are_our_games(alias, ours):
    theirs = sorted(kf.legal_moves(alias, kf.start_fen(alias), []))
    assert theirs == sorted(kf.legal_moves(ours, kf.start_fen(ours), []))
    assert len(theirs) > 0


def test_a_position_takes_an_alias():
    assert kamil.Position("chushogi").variant_name == "chu-shogi"
    assert kamil.Position("shoshogi").variant_name == "sho-shogi"
    with pytest.raises(kamil.VariantError):
        kamil.Position("no-such-game")
