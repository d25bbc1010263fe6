"""The way out of a loop: the shortest known-card line to progress, and the hint that takes it."""

from __future__ import annotations

import random
import re

import pytest

from solitaire_rl.agents.planner.escape import way_to_progress
from solitaire_rl.agents.planner.hop import LOOP_VISITS
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.envs.cards import parse_card
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.play.server.klondike_advice import WAY_OUT_WORDS, KlondikeHintAdvisor
from tests.test_planners import with_hidden_cards_moved


def stuck_positions(deals: range, seed: int) -> list[KlondikeGame]:
    """Positions along random games where no legal move makes progress (the game not over)."""
    rng = random.Random(seed)
    out = []
    for number in deals:
        game = KlondikeGame(f"klondike-random-v1-{number}")
        for _ in range(200):
            moves = game.legal_moves()
            if game.outcome() is not None:
                break
            if not any(game.is_progress(m) for m in moves):
                out.append(game.copy())
            game.push(rng.choice(moves))
    return out


def stand_in(game: KlondikeGame) -> KlondikeGame:
    return klondike_knowledge(observe(game), game.draw_count).game


def test_a_way_out_exists_exactly_when_the_engine_says_progress_is_possible() -> None:
    positions = stuck_positions(range(1, 9), seed=1)
    assert len(positions) > 300
    found = 0
    for k, game in enumerate(positions):
        line = way_to_progress(stand_in(game))
        assert (line is not None) == game.progress_possible(), game.history
        if line is None:
            continue
        found += 1
        walk = game.copy()
        for move in line[:-1]:  # every move but the last makes no progress, and all are legal
            assert move in walk.legal_moves() and not walk.is_progress(move)
            walk.push(move)
        assert line[-1] in walk.legal_moves() and walk.is_progress(line[-1])
        if k % 10 == 0:  # the hidden cards play no part
            assert way_to_progress(stand_in(with_hidden_cards_moved(game, seed=k))) == line
    assert found > 100


def test_none_when_over_or_out_of_budget() -> None:
    won = KlondikeGame.from_position([[]] * 7, [0] * 7, foundations=(13, 13, 13, 13))
    assert won.outcome() is not None and way_to_progress(won) is None
    game = loop_position()
    assert way_to_progress(game, max_positions=1) is None
    assert way_to_progress(game, time_limit=0.0) is None
    line = way_to_progress(game)
    assert line is not None and line[-1] == Move.parse("waste>f")
    assert set(line[:-1]) <= {Move.parse("draw"), Move.parse("recycle")}


def loop_position() -> KlondikeGame:
    """Every stock card seen, the Ace of clubs in the stock, no face-up card that can move: draws,
    then the Ace goes up; nothing else makes progress."""
    tops = ["KS", "9D", "7D", "9C", "7S", "JD", "JH"]
    stock = ["2D", "3D", "4D", "AC", "5D", "6D"]
    placed = {parse_card(c) for c in tops + stock} | {parse_card(c) for c in ("AH", "2H", "3H")}
    rest = iter(c for c in range(52) if c not in placed)
    columns = [[parse_card(tops[0])]] + [[next(rest) for _ in range(6)] + [parse_card(t)] for t in tops[1:]]
    game = KlondikeGame.from_position(columns, [0] + [6] * 6, stock=[parse_card(c) for c in stock],
                                      foundations=(0, 0, 3, 0), seen=[parse_card(c) for c in stock])
    assert not any(game.is_progress(m) for m in game.legal_moves()) and game.progress_possible()
    return game


def test_a_hint_in_a_loop_shows_the_way_out_instead_of_giving_up() -> None:
    game = loop_position()
    for _ in range(LOOP_VISITS):  # round the stock: the same position again and again
        while game.stock:
            game.push(Move.parse("draw"))
        game.push(Move.parse("recycle"))
    advisor = KlondikeHintAdvisor(planner_time=5.0, planner_states=20_000)
    played = []
    for _ in range(6):
        hint = advisor.hint(game)
        assert hint is not None and hint["kind"] == "move", hint
        if not played:  # worded from the planner's typed answer (a way out), in both languages
            assert (hint["reason_en"], hint["reason_ja"]) == WAY_OUT_WORDS
        played.append(hint["move"])
        game.push(Move.parse(hint["move"]))
        if game.best[0] == 1:  # the Ace of clubs is up
            break
    else:
        pytest.fail(f"the hints {played} did not lead out of the loop")
    assert played[0] == "draw"


def test_the_way_out_reason_is_plain_words_in_both_languages() -> None:
    en, ja = WAY_OUT_WORDS
    assert "position has come up before" in en and ">" not in en
    assert ja.startswith("この局面は前にも出ています") and not re.search("[A-Za-z>]", ja)
