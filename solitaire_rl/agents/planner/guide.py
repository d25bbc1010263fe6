"""The expert network's view of a move: the chance of a win after it, under hidden cards.

:func:`klondike_afterstate_win_chances` (and :func:`pyramid_afterstate_win_chances`) ask the
value head of the expert network (:mod:`solitaire_rl.agents.expert`)
how likely a win is from the position each candidate move leads to, as the player would see it.
A move that shows a card not known before (a face-down card turned, stock cards drawn for the
first time) leads to one of several positions; the chance is then averaged over samples of the
unknown cards, the same kind of samples the hindsight planner solves, so the luck that the
solver's samples ignore (each is solved as if every card were known) is priced in. The network
sees only what a player would see in each sampled position; no hidden card is read.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solitaire_rl.agents.planner.knowledge import KlondikeKnowledge
from solitaire_rl.envs.cards import NUM_CARDS
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import legal_actions_in, move_of
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES as PYRAMID_MOVES
from solitaire_rl.envs.pyramid.actions import fill_action_mask
from solitaire_rl.envs.pyramid.game import PyramidGame
from solitaire_rl.envs.pyramid.observation import observe as pyramid_observe

DEFAULT_GUIDE_SAMPLES = 8
"""Samples of the unknown cards per move that shows a card."""


def sampled_game(knowledge: KlondikeKnowledge, cards: np.ndarray) -> KlondikeGame:
    """``knowledge``'s game with ``cards`` on its unknown places, in their order."""
    game = knowledge.game
    columns = [list(col) for col in game.columns]
    stock = list(game.stock)
    for (column, index), card in zip(knowledge.unknown, cards.tolist(), strict=True):
        if column < 0:
            stock[index] = card
        else:
            columns[column][index] = card
    seen = [c for c in range(NUM_CARDS) if (game.seen >> c) & 1]
    return KlondikeGame.from_position(
        columns, list(game.hidden), stock, list(game.waste), list(game.foundations),
        draw_count=game.draw_count, best=list(game.best), recycles=game.recycles, seen=seen)


def klondike_afterstate_win_chances(network: Any, knowledge: KlondikeKnowledge, actions: np.ndarray,
                           rng: np.random.Generator, samples: int = DEFAULT_GUIDE_SAMPLES) -> np.ndarray:
    """Per action, the network's chance of a win from the position it leads to (a mean over
    ``samples`` draws of the unknown cards when the move shows one). ``network``: an
    :class:`solitaire_rl.agents.expert.player.ExpertNetwork`."""
    game = knowledge.game
    unknown_cards = np.asarray([_card_at(game, place) for place in knowledge.unknown], np.int64)
    worlds = [sampled_game(knowledge, rng.permutation(unknown_cards)) for _ in range(samples)]
    observations, masks, owner, decided = [], [], [], []
    for k, action in enumerate(np.asarray(actions).tolist()):
        shown = game.copy()
        shown.push(move_of(game, int(action)))
        afters = [shown]
        if shown.seen != game.seen:  # the move shows cards: their samples instead
            afters = []
            for world in worlds:
                after = world.copy()
                after.push(move_of(world, int(action)))
                afters.append(after)
        for after in afters:
            legal = legal_actions_in(after)
            if not legal:  # decided: won when every card is up
                decided.append((k, float(sum(after.foundations) == NUM_CARDS)))
                continue
            mask = np.zeros(network.num_actions, np.bool_)
            mask[legal] = True
            observations.append(observe(after))
            masks.append(mask)
            owner.append(k)
    return _means(network, len(actions), observations, masks, owner, decided)


def pyramid_afterstate_win_chances(network: Any, game: PyramidGame, actions: np.ndarray,
                                   rng: np.random.Generator,
                                   samples: int = DEFAULT_GUIDE_SAMPLES) -> np.ndarray:
    """As :func:`klondike_afterstate_win_chances` for Pyramid: a draw that turns up a stock card
    never seen leads to a mean over ``samples`` shuffles of the unseen cards over their places."""
    from solitaire_rl.agents.planner.pimc import determinized, unseen_places

    order = game.stock_order()
    hidden = unseen_places(game)
    worlds = []
    for _ in range(samples if hidden else 0):
        shuffled = list(order)
        for place, card in zip(hidden, rng.permutation([order[i] for i in hidden]).tolist(), strict=True):
            shuffled[place] = card
        worlds.append(determinized(game, shuffled))
    observations, masks, owner, decided = [], [], [], []
    for k, action in enumerate(np.asarray(actions).tolist()):
        move = PYRAMID_MOVES[int(action)]
        shown = game.copy()
        shown.push(move)
        afters = [shown]
        if shown.seen != game.seen:
            afters = []
            for world in worlds:
                after = world.copy()
                after.push(move)
                afters.append(after)
        for after in afters:
            legal = after.legal_moves()
            if not legal:
                decided.append((k, float(after.is_won())))
                continue
            observations.append(pyramid_observe(after))
            masks.append(fill_action_mask(legal, np.zeros(network.num_actions, np.bool_)))
            owner.append(k)
    return _means(network, len(actions), observations, masks, owner, decided)


def _means(network: Any, count: int, observations: list[np.ndarray], masks: list[np.ndarray],
           owner: list[int], decided: list[tuple[int, float]]) -> np.ndarray:
    """Per action, the mean of the network's values of its positions and the decided ends."""
    totals = np.zeros(count)
    counts = np.zeros(count)
    if observations:
        _, value = network.evaluate(np.stack(observations), np.stack(masks))
        np.add.at(totals, owner, value)
        np.add.at(counts, owner, 1)
    for k, value_k in decided:
        totals[k] += value_k
        counts[k] += 1
    return totals / np.maximum(counts, 1)


def _card_at(game: KlondikeGame, place: tuple[int, int]) -> int:
    column, index = place
    return int(game.stock[index] if column < 0 else game.columns[column][index])


__all__ = ["DEFAULT_GUIDE_SAMPLES", "klondike_afterstate_win_chances", "pyramid_afterstate_win_chances",
           "sampled_game"]
