"""The chance of clearing the pyramid from here, as the player sees the position (issue 37).

The ``pimc`` planner's tally (:class:`solitaire_rl.agents.planner.pimc.PimcPlayer`): the stock cards never
seen face up
are shuffled over their places (sorted first, so their real order cannot matter), up to
:data:`CHANCE_SAMPLES` times, and each sample is solved exactly for every legal move. The answer
is the best move's share of the samples in which it leaves a winnable game, a search out of budget
counting half. Each sample is solved knowing the whole stock order, which a player does not, so
the share is an upper bound: "at most about 60%" ("very low" where it rounds to 0%, "high, but not
certain" where it rounds to 100%: :func:`~solitaire_rl.play.server.chance_words.estimate_words`), said
to come from the cards the player has seen. Seeded by the observation, so the same position gets the
same answer. A finished game needs no sampling; once every stock card has been seen, the
solver's answer is certain. In variant 001, whose verdict states a loss the solver proves on the whole
deal (seed 001), a proved loss is a chance of none (issue 51: "at most about 95%" stood above "Not
winnable from here"), so the line, the verdict and the drop warning never disagree.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from solitaire_rl.agents.planner.pimc import DEFAULT_MAX_STATES, PimcPlayer, unseen_places
from solitaire_rl.agents.solver import NOT_WINNABLE, WINNABLE, solve_pyramid
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS, fill_action_mask
from solitaire_rl.envs.pyramid.observation import observe
from solitaire_rl.envs.spec import spec_of
from solitaire_rl.play.server.chance_words import chance_json, estimate_words

CHANCE_SAMPLES = 32
"""Sampled stock orders an estimate draws (as Klondike's; a Pyramid sample is solved in milliseconds)."""
CHANCE_STATES = 1_000_000
"""States the estimate may spend over all its samples (the hint planner's budget)."""

PROOF_TIME = 1.0
"""Seconds the 001 chance may spend asking the solver whether the verdict proves a loss (issue 51)."""

CHANCE_TEXT = {
    "win": ("You have cleared the pyramid.", "ピラミッドを全消ししました"),
    "dead_end": ("Chance of clearing the pyramid from here: none, no move is left.",
                 "ここから全消しできる見込み：ありません（打てる手が残っていません）"),
    "certain_win": ("Chance of clearing the pyramid from here: certain, every stock card has been seen "
                    "and a line that clears it exists.",
                    "ここから全消しできる見込み：確実です（山札はすべて見えていて、全消しの手順があります）"),
    "certain_loss": ("Chance of clearing the pyramid from here: none, every stock card has been seen "
                     "and no line clears it.",
                     "ここから全消しできる見込み：ありません（山札はすべて見えていて、全消しの手順がありません）"),
    "proved_loss": ("Chance of clearing the pyramid from here: none, no line clears it (knowing every card, "
                    "the unseen stock's order too).",
                    "ここから全消しできる見込み：ありません（まだ見ていない山札の並びも含め、すべてのカードで"
                    "確かめました）"),
    "none": ("Chance of clearing the pyramid from here: no estimate, nothing was worked out in time; ask "
             "again.",
             "ここから全消しできる見込み：時間内に試行が終わりませんでした。もう一度どうぞ"),
}


def sampled_chance(share: float, won: int, unknown: int, samples: int) -> dict[str, Any]:
    """The estimate in a player's words, honest about what it rests on (the cards the player has seen,
    and guesses at the order of the stock cards not seen, each solved knowing it: an upper bound);
    guesses the search could not settle in time count as even chances (issue 51: not "sampled ...
    counted half"). No guess cleared is "very low", never "at most about 0%" nor a proof; every guess
    cleared is "high, but not certain" (:func:`estimate_words`)."""
    how_en, how_ja = estimate_words(share)
    en = f"Chance of clearing the pyramid from here, by the cards you have seen: {how_en} ("
    ja = f"ここから全消しできる見込み（見たカードから）：{how_ja}（"
    if won:
        en += f"of {samples} guesses at the order of the stock cards you have not seen, {won} can be cleared"
        ja += f"まだ見ていない山札の並びを {samples} 通り想像すると、{won} 通りで全消しできます"
    else:
        en += f"none of {samples} guesses at the order of the stock cards you have not seen can be cleared"
        ja += f"まだ見ていない山札の並びを {samples} 通り想像しても、全消しできる並びはありません"
    if unknown:
        en += f"; {unknown} more could not be worked out in time and count as even chances"
        ja += f"。時間内に読み切れなかった {unknown} 通りは五分五分と数えました"
    if not won:
        en += "; this does not prove it cannot be cleared"
        ja += "。全消しできないと決まったわけではありません"
    return chance_json(share, won, unknown, samples, "sampled", en + ")", ja + "）")


def pyramid_chance(game: PyramidGame, *, time_limit: float | None, threads: int = 1,
                   samples: int = CHANCE_SAMPLES, max_states: int = CHANCE_STATES) -> dict[str, Any]:
    """The chance of clearing the pyramid from ``game`` as the player sees it (see the module)."""
    outcome = game.outcome()
    if outcome is not None:
        return chance_json(1.0 if outcome == "win" else 0.0, 0, 0, 0, "over", *CHANCE_TEXT[outcome])
    if not game.stock_top_playable:  # 001: the verdict names a loss the solver proves on the whole deal
        proved = solve_pyramid(game.copy(), time_limit=PROOF_TIME, max_states=max_states).status
        if proved == NOT_WINNABLE:  # the chance (and the drop warning) say so too, never "at most 95%"
            said = "proved_loss" if unseen_places(game) else "certain_loss"  # what the proof knew
            return chance_json(0.0, 0, 0, 1, "certain", *CHANCE_TEXT[said])
    if not unseen_places(game):  # every card is known: the solver answers for certain
        status = solve_pyramid(game.copy(), time_limit=time_limit, max_states=max_states).status
        if status == WINNABLE:
            return chance_json(1.0, 1, 0, 1, "certain", *CHANCE_TEXT["certain_win"])
        if status == NOT_WINNABLE:
            return chance_json(0.0, 0, 0, 1, "certain", *CHANCE_TEXT["certain_loss"])
        return chance_json(0.0, 0, 0, 0, "none", *CHANCE_TEXT["none"])
    legal = np.flatnonzero(fill_action_mask(game.legal_moves(), np.zeros(NUM_ACTIONS, np.int8)))
    planner = PimcPlayer(spec_of(game), samples=samples,
                         max_states=DEFAULT_MAX_STATES, seed=zlib.crc32(observe(game).tobytes()),
                         decision_states=max_states, time_limit=time_limit, threads=threads)
    tally = planner.tally(game, legal)
    if tally.samples == 0:
        return chance_json(0.0, 0, 0, 0, "none", *CHANCE_TEXT["none"])
    won, unknown = np.asarray(tally.won), np.asarray(tally.unknown)
    values = (won + 0.5 * unknown) / tally.samples
    best = int(np.argmax(values))
    return sampled_chance(float(min(1.0, values[best])), int(won[best]), int(unknown[best]),
                          int(tally.samples))


__all__ = ["CHANCE_SAMPLES", "CHANCE_STATES", "CHANCE_TEXT", "pyramid_chance", "sampled_chance"]
