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


def test_the_encoders_word_every_native_input_error_by_name() -> None:
    """A row the native encoders refuse comes back as an ``InputError`` member, worded by its name
    (no table read by position)."""
    import numpy as np

    from solitaire_rl.agents.encodings import klondike_inputs_batch, pyramid_inputs_batch
    from solitaire_rl.agents.encodings.klondike_inputs_batch import klondike_actions_batch
    from solitaire_rl.envs.errors import MalformedInputError

    names = {e.name for e in native.InputError} - {"none"}
    assert names == {"bad_observation", "too_many_actions", "bad_mask"}
    for module in (klondike_inputs_batch, pyramid_inputs_batch):
        assert set(module._ERRORS) == names
    with pytest.raises(MalformedInputError, match="row 1 is not a Klondike observation"):
        klondike_actions_batch(np.r_[np.zeros((1, 190), np.int64), np.full((1, 190), 60, np.int64)],
                               np.zeros((2, 590), np.int8))


def test_the_native_counters_are_read_by_their_names() -> None:
    """Each game's native counters (``*Buffers.counter_names``) are arrays of its batch, and the vector
    envs' infos name them (``counters``); a step's buffers take them by name, and refuse a wrong set
    or an array of another type (it would be written through a copy)."""
    import numpy as np

    from solitaire_rl.envs.spec import GAME_SPECS

    fixed = ("obs", "mask", "reward", "terminated", "truncated", "refusal", "outcome", "was_reset",
             "final_obs", "final_mask")
    for spec in GAME_SPECS.values():
        batch = spec.make_batch(2)
        buffers, names = type(batch.buffers), type(batch.buffers).counter_names
        assert names and set(names) <= set(batch.counters.values())
        counters = {name: getattr(batch, name) for name in names}
        assert all(c.dtype == np.int32 and c.shape == (2,) for c in counters.values())
        arrays = {k: getattr(batch, k) for k in fixed}
        with pytest.raises(ValueError, match=f"counters has no {names[-1]}"):
            buffers(**arrays, counters={n: counters[n] for n in names[:-1]})
        with pytest.raises(ValueError, match="names a counter this game does not keep"):
            buffers(**arrays, counters={**counters, "x": batch.pending})
        with pytest.raises(ValueError, match=f"counter {names[0]} is not a C-contiguous int32 column"):
            buffers(**arrays, counters=dict.fromkeys(names, batch.reward))
        with pytest.raises(TypeError):
            buffers(**{**arrays, "reward": batch.pending}, counters=counters)
