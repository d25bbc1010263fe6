"""World scores (solitaire_rl/agents/planner/world_score.py over native/src/klondike/world_score.hpp):
the same labels for any thread count and batch, none changed by where the hidden cards lie, the
expected counts where every card is known, and bad options or observations refused."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.planner.commitment import observe_game
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.planner.world_score import DEFAULT_CAP, DEFAULT_WORLDS, WorldScores, world_scores
from solitaire_rl.agents.solver import _native
from solitaire_rl.agents.solver.klondike import KlondikePosition, solve_klondike
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import DRAW_MOVE, KlondikeGame
from solitaire_rl.envs.spec import find_game

KLONDIKE = find_game("klondike")
WORLDS, CAP = 24, 200
"""A small budget: each call takes a fraction of a second."""


def positions(deals: range = range(100_001, 100_004)) -> list[KlondikeGame]:
    """Each deal at its start and after the free pass through the stock."""
    games = []
    for deal in deals:
        game = KlondikeGame(KLONDIKE.deal_id(deal))
        games.append(game.copy())
        while game.stock:
            game.push(DRAW_MOVE)
        games.append(game)
    return games


def observations(games: list[KlondikeGame]) -> np.ndarray:
    return np.stack([observe_game(g)[0] for g in games])


def counts(scores: WorldScores) -> list[tuple[int, int, int]]:
    return list(zip(scores.won.tolist(), scores.lost.tolist(), scores.cut.tolist(), strict=True))


def test_the_same_labels_for_any_thread_count_and_batch() -> None:
    batch = observations(positions())
    one = world_scores(batch, seed=3, threads=1, worlds=WORLDS, cap=CAP)
    two = world_scores(batch, seed=3, threads=2, worlds=WORLDS, cap=CAP)
    assert counts(one) == counts(two) and one.states.tolist() == two.states.tolist()
    assert all(w + lo + c == WORLDS for w, lo, c in counts(one))
    assert one.searches == len(batch) * WORLDS
    alone = [counts(world_scores(batch[i:i + 1], seed=3, worlds=WORLDS, cap=CAP))[0] for i in (0, 3, 5)]
    assert alone == [counts(one)[i] for i in (0, 3, 5)]
    backwards = world_scores(batch[::-1], seed=3, worlds=WORLDS, cap=CAP)
    assert counts(backwards)[::-1] == counts(one)
    assert one.share.min() > 0 and one.share.max() < 1  # dense: full deals are neither sure wins nor losses
    assert counts(world_scores(batch, seed=4, worlds=WORLDS, cap=CAP)) != counts(one)  # the seed picks worlds


def test_moving_the_hidden_cards_changes_no_label() -> None:
    """A different deal with the same visible position: the observation, and so every label, is the
    same; at the native seam, the true position (hidden cards where they lie) gets the counts that
    the player's knowledge (hidden cards in card order) gets."""
    game = positions(range(100_005, 100_006))[1]
    other = game.copy()
    for a, b in ((1, 5), (3, 6), (2, 4)):  # the bottom face-down cards of two columns swap places
        other.columns[a][0], other.columns[b][0] = other.columns[b][0], other.columns[a][0]
    assert other.columns != game.columns
    assert np.array_equal(observe_game(game)[0], observe_game(other)[0])
    labels = [counts(world_scores(observations([g]), seed=1, worlds=WORLDS, cap=CAP)) for g in (game, other)]
    assert labels[0] == labels[1]

    knowledge = klondike_knowledge(observe_game(game)[0], 3)
    options = _native.KlondikeWorldScoreOptions(seed=1, worlds=WORLDS, cap=CAP)
    seen = _native.klondike_world_scores([knowledge.position.to_native()], [list(knowledge.unknown)], options)
    for truth in (game, other):
        true = KlondikePosition.from_game(truth).to_native()
        native = _native.klondike_world_scores([true], [list(knowledge.unknown)], options)
        assert (native.won, native.lost, native.cut) == (seen.won, seen.lost, seen.cut)
        assert native.seeds == seen.seeds
    assert [seen.won[0], seen.lost[0], seen.cut[0]] == list(labels[0][0])


def known_positions() -> dict[str, KlondikeGame]:
    """Positions with every card known: won, one move from won, and one the solver proves lost."""
    kings = [[4 * 12 + s] for s in range(4)] + [[], [], []]
    lost_stock = [42, 46, 37, 44, 49, 36, 29, 43, 45, 47, 25, 38, 33, 50, 41]
    return {
        "won": KlondikeGame.from_position([[]] * 7, [0] * 7, [], [], [13, 13, 13, 13]),
        "winnable": KlondikeGame.from_position(kings, [0] * 7, [], [], [12, 12, 12, 12]),
        "lost": KlondikeGame.from_position([[48], [51], [34], [30], [40], [], []], [0] * 7, lost_stock, [],
                                           [9, 6, 7, 10], seen=lost_stock),
    }


def test_positions_with_every_card_known_score_their_verdict() -> None:
    games = known_positions()
    for game in games.values():
        assert klondike_knowledge(observe_game(game)[0], 3).all_known
    verdicts = {name: solve_klondike(KlondikePosition.from_game(g), time_limit=None,
                                     max_states=100_000).status for name, g in games.items() if name != "won"}
    assert verdicts == {"winnable": "winnable", "lost": "not_winnable"}
    scores = world_scores(observations(list(games.values())), worlds=50)
    assert counts(scores) == [(50, 0, 0), (50, 0, 0), (0, 50, 0)]
    assert scores.searches == 3  # one world each: searched once, counted 50 times
    assert scores.states[0] == 0  # already won: no search
    # A full deal after the stock pass with a cap of one state: every world is cut.
    deal = positions(range(100_002, 100_003))[1]
    assert counts(world_scores(observations([deal]), worlds=10, cap=1)) == [(0, 0, 10)]


def test_defaults_and_an_empty_batch() -> None:
    assert (DEFAULT_WORLDS, DEFAULT_CAP) == (200, 600)
    options = _native.KlondikeWorldScoreOptions()
    assert (options.worlds, options.cap, options.surely_won_stops, options.threads) == (200, 600, True, 1)
    empty = world_scores(np.zeros((0, observe_game(KlondikeGame(KLONDIKE.deal_id(1)))[0].size), np.uint8))
    assert len(empty) == 0 and empty.searches == 0


@pytest.mark.parametrize(("options", "words"), [
    ({"worlds": 0}, "worlds must be at least 1"),
    ({"worlds": 2**21}, "worlds must be at least 1 and at most 1048576"),
    ({"cap": 0}, "cap must be at least 1"),
    ({"threads": 0}, "threads must be at least 1 and at most 256"),
    ({"threads": 257}, "threads must be at least 1 and at most 256"),
    ({"draw_count": 2}, "draw_count must be 1 or 3"),
    ({"seed": -1}, "seed must be from 0"),
    ({"worlds": 2.5}, "worlds must be an integer"),
    ({"worlds": True}, "worlds must be an integer"),
    ({"surely_won_stops": "yes"}, "surely_won_stops must be True or False"),
])
def test_bad_options_are_refused(options: dict[str, object], words: str) -> None:
    batch = observations(positions(range(100_001, 100_002)))
    with pytest.raises(MalformedInputError, match=words):
        world_scores(batch, **options)  # type: ignore[arg-type]


def test_bad_observations_are_refused() -> None:
    batch = observations(positions(range(100_001, 100_002)))
    with pytest.raises(MalformedInputError, match="shape"):
        world_scores(batch[:, :-1])
    with pytest.raises(MalformedInputError, match="shape"):
        world_scores(batch[0])
    wrong = batch.copy()
    wrong[1, 0] = 255
    with pytest.raises(MalformedInputError, match="within its range"):
        world_scores(wrong)
    with pytest.raises(ValueError, match="2 positions but 1 lists"):
        knowledge = klondike_knowledge(batch[0], 3)
        _native.klondike_world_scores([knowledge.position.to_native()] * 2, [list(knowledge.unknown)],
                                      _native.KlondikeWorldScoreOptions())
    with pytest.raises(ValueError, match="world scores: position 1: an unknown slot is outside the position"):
        two_lists = [list(knowledge.unknown), [(0, 40)]]
        _native.klondike_world_scores([knowledge.position.to_native()] * 2, two_lists,
                                      _native.KlondikeWorldScoreOptions())
