"""The native module's codes are named, and the Python side reads them by name (issue 38): each
native enum's names are the Python engine's, so a code added or reordered on one side only fails
here, not as a wrong message in a game."""

from __future__ import annotations

import pytest

from solitaire_rl.envs.klondike import moves as klondike_moves
from solitaire_rl.envs.klondike.messages import Refusal as KlondikeRefusal
from solitaire_rl.envs.pyramid import moves as pyramid_moves
from solitaire_rl.envs.pyramid.messages import Refusal as PyramidRefusal

native = pytest.importorskip("solitaire_native")


def test_the_klondike_action_kinds_are_the_engines_move_kinds_by_name() -> None:
    from solitaire_rl.agents.solver.klondike import KIND_OF_NATIVE, NATIVE_KIND

    names = {k.name.upper().replace("_TO_", "_"): k.value for k in native.KlondikeActionKind}
    assert set(names) == {"DRAW", "RECYCLE", "WASTE_FOUNDATION", "WASTE_COLUMN", "COLUMN_FOUNDATION",
                          "COLUMN_COLUMN", "FOUNDATION_COLUMN"}
    for name, code in names.items():
        assert KIND_OF_NATIVE[code] == getattr(klondike_moves, name)
        assert NATIVE_KIND[getattr(klondike_moves, name)] == code


def test_the_pyramid_move_kinds_are_the_engines_by_name() -> None:
    from solitaire_rl.agents.solver.pyramid import KIND_OF_NATIVE, NATIVE_KIND

    assert {k.name for k in native.PyramidMoveKind} == {"remove", "draw", "recycle"}
    for k in native.PyramidMoveKind:
        assert KIND_OF_NATIVE[k.value] == getattr(pyramid_moves, k.name.upper())
        assert NATIVE_KIND[getattr(pyramid_moves, k.name.upper())] == k.value


@pytest.mark.parametrize(("codes", "engine", "native_only", "engine_only"), [
    ("KlondikeRefusal", KlondikeRefusal, {"none", "not_legal_now"}, set()),
    ("PyramidRefusal", PyramidRefusal, {"none"}, {"same_card"}),  # no action pairs a card with itself
])
def test_every_engine_refusal_has_a_native_code_of_its_name_and_back(
        codes: str, engine: type, native_only: set, engine_only: set) -> None:
    names = {m.name for m in getattr(native, codes)}
    assert names - native_only == {r.name.lower() for r in engine} - engine_only


def test_the_batches_read_refusals_and_outcomes_by_name() -> None:
    from solitaire_rl.envs.klondike.vector import KlondikeBatch
    from solitaire_rl.envs.native_batch import codes_by_name
    from solitaire_rl.envs.pyramid.vector import PyramidBatch

    klondike = KlondikeBatch(1)
    for member in native.KlondikeRefusal:
        expected = (None if member.name == "none" else "not legal now" if member.name == "not_legal_now"
                    else KlondikeRefusal[member.name.upper()].en)
        assert klondike.refusal_texts[member.value] == expected
    assert klondike.outcome_names == (None, "win", "no_progress", "dead_end")
    from gymnasium.vector import AutoresetMode

    pyramid = PyramidBatch(1, stock_top_playable=True, reward_shaping=False, max_episode_steps=None,
                           autoreset=AutoresetMode.NEXT_STEP)
    for member in native.PyramidRefusal:
        assert pyramid.refusal_texts[member.value] == (
            None if member.name == "none" else PyramidRefusal[member.name.upper()].en)
    assert pyramid.outcome_names == (None, "win", "dead_end")
    with pytest.raises(RuntimeError, match="does not know: \\['dead_end'\\]"):
        codes_by_name(native.PyramidOutcome, {"none": None, "win": "win"})
