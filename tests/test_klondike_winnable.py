"""Winnable Klondike deals ``klondike-winnable-v1-N`` (issue 37): deterministic, proved, replayed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import gymnasium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_rl
import solitaire_rl.agents.solver  # noqa: F401  (registers the winnable deal types)
from solitaire_rl.agents.solver import solve_klondike
from solitaire_rl.agents.solver.klondike_winnable import (
    LIMITS,
    MAX_NUMBER,
    MAX_STATES,
    candidate_cards,
    solve_candidate,
    winnable_cards,
    winnable_deal,
)
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE
from solitaire_rl.envs.cards import FULL_DECK
from solitaire_rl.envs.deals import DealId, resolve_deal
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import WIN, KlondikeGame
from solitaire_rl.envs.rng import shuffled


def test_the_rule_first_candidate_proved_within_the_cap() -> None:
    for number in range(6):
        k, cards, _ = winnable_deal(number)
        assert cards == tuple(shuffled(FULL_DECK, f"klondike-winnable-v1-{number}/{k}"))
        assert sorted(cards) == list(FULL_DECK)
        for earlier in range(k):  # every earlier candidate was lost or undecided within the cap
            assert solve_candidate(candidate_cards(number, earlier)).status in (NOT_WINNABLE, UNKNOWN)
        assert solve_candidate(cards).status == WINNABLE


def test_deterministic_and_independent_of_the_cache() -> None:
    first = [winnable_cards(n) for n in range(10)]
    winnable_deal.cache_clear()
    assert [winnable_cards(n) for n in range(10)] == first
    assert len(set(first)) == 10


PINNED_K = [0, 0, 1, 0, 0, 1, 0, 1]
PINNED_7 = (15, 14, 27, 18, 33, 23, 13, 6)
PINNED_0_99 = "c8f56a9de21f7ed852c75cefcf06e0d649cba3df301aac901cf2cfea1f2cae32"
"""SHA-256 of the cards of numbers 0..99, one byte a card."""


def test_pinned_deals() -> None:
    """Version 1's deals never change. A change of the rule, or of the native search that changes
    its state counts (and so which candidates the cap skips), fails here: it needs a new version."""
    assert [winnable_deal(n)[0] for n in range(8)] == PINNED_K
    assert DealId.parse("klondike-winnable-v1-7").cards()[:8] == PINNED_7
    digest = hashlib.sha256(bytes(c for n in range(100) for c in winnable_cards(n))).hexdigest()
    assert digest == PINNED_0_99



def test_an_undecided_candidate_is_skipped() -> None:
    """Some candidates exceed the state cap: they are passed over, never an error."""
    skipped = [(n, k) for n in range(40) for k in range(winnable_deal(n)[0])
               if solve_candidate(candidate_cards(n, k)).status == UNKNOWN]
    assert skipped, "expected at least one undecided candidate among 40 numbers"
    n, k = skipped[0]
    result = solve_klondike(KlondikeGame(list(candidate_cards(n, k))), limits=LIMITS)
    assert result.status == UNKNOWN and result.reason == "states" and result.states >= MAX_STATES


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=MAX_NUMBER))
def test_every_deal_replays_to_a_win(number: int) -> None:
    _, cards, line = winnable_deal(number)
    game = KlondikeGame(f"klondike-winnable-v1-{number}")
    assert game.deal is not None and game.deal.cards == cards and game.draw_count == 3
    for move in line:
        game.push(move)
    assert game.outcome() == WIN


@pytest.mark.parametrize("number", [-1, MAX_NUMBER + 1, 10**23, 1.5, "3", True, None])
def test_bad_numbers_are_refused(number: object) -> None:
    with pytest.raises(MalformedInputError, match="winnable deal number"):
        winnable_cards(number)  # type: ignore[arg-type]


def test_registered_id_parses() -> None:
    deal_id = DealId.parse(" Klondike-Winnable-V1-12 ")
    assert str(deal_id) == "klondike-winnable-v1-12" and deal_id.kind == "winnable"
    deal = resolve_deal("klondike-winnable-v1-12", "klondike")
    assert deal.label == "klondike-winnable-v1-12" and deal.cards == winnable_cards(12)
    with pytest.raises(MalformedInputError, match="winnable deal number"):
        resolve_deal("klondike-winnable-v1-" + "9" * 23, "klondike")
    with pytest.raises(MalformedInputError, match="unknown deal ID"):
        DealId.parse("klondike-winnable-v2-1")
    with pytest.raises(MalformedInputError, match="not klondike"):
        resolve_deal("pyramid-winnable-v1-1", "klondike")


def test_env_reset_deals_the_winnable_cards() -> None:
    env = gymnasium.make("Solitaire/Klondike-v0", split="any")  # a winnable deal is of no split
    _, info = env.reset(options={"deal": "klondike-winnable-v1-7"})
    assert info["deal_id"] == "klondike-winnable-v1-7"
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert game.deal.cards == winnable_cards(7)
    assert game.key() == KlondikeGame(list(winnable_cards(7))).key()
    with pytest.raises(MalformedInputError, match="winnable deal number"):
        env.reset(options={"deal": "klondike-winnable-v1-" + "9" * 23})
    assert env.unwrapped.game.deal.label == "klondike-winnable-v1-7"  # type: ignore[attr-defined]  # unchanged
    env.close()


def test_the_benchmark_plays_winnable_deals(tmp_path: Path) -> None:
    from solitaire_rl.training.benchmark import Args, cli, command_line, main

    out = tmp_path / "rows.json"
    args = Args(game="klondike", deal_type="winnable", deals="1-3", agents="solver", workers=1, analyse=False,
                json=str(out))
    rows, summaries, notes = main(args)
    assert [r.deal_id for r in rows] == [f"klondike-winnable-v1-{n}" for n in (1, 2, 3)]
    assert all(r.won and r.verdict == WINNABLE for r in rows) and summaries[0].win_rate == 1.0
    assert "--deal-type winnable" in command_line(args) and not any("training deals" in n for n in notes)
    assert json.loads(out.read_text())["deal_type"] == "winnable"
    assert "--deal-type" not in command_line(Args(game="klondike"))
    with pytest.raises(SystemExit):
        cli(["klondike", "--deal-type", "daily", "--deals", "1"])
