"""The commitment planner (native/src/klondike/commit_planner.hpp) and its bot, ``world-bandit``
(solitaire_rl/agents/planner/commitment.py): hidden cards never read, deterministic world
budgets for any number of threads, budgets and cancellation kept, options checked, legal lines
that end at a commitment, whole games played to their end."""

from __future__ import annotations

import time

import pytest

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.planner.commitment import CommitmentBot, Decision, observe_game
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.solver import _native
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import DRAW_MOVE, RECYCLE_MOVE, KlondikeGame
from solitaire_rl.envs.klondike.moves import WASTE_COLUMN, WASTE_FOUNDATION
from solitaire_rl.envs.spec import find_game

KLONDIKE = find_game("klondike")
SMALL = {"cap": 200, "max_worlds": 120, "hopeless_worlds": 60}
"""A small budget: the tests' games take about a second."""


def after_pass(deal: int = 100_003) -> KlondikeGame:
    """Deal ``deal`` after the free pass through the stock (every stock card seen)."""
    game = KlondikeGame(KLONDIKE.deal_id(deal))
    while game.stock:
        game.push(DRAW_MOVE)
    return game


def options(**kw: object) -> _native.KlondikeCommitOptions:
    return _native.KlondikeCommitOptions(**{"cap": 200, "max_worlds": 300, **kw})  # type: ignore[arg-type]


def plan(game: KlondikeGame, opts: _native.KlondikeCommitOptions,
         cancel: _native.CancelToken | None = None) -> _native.KlondikeCommitResult:
    knowledge = klondike_knowledge(observe_game(game)[0], game.draw_count)
    return _native.klondike_commit_plan(knowledge.position.to_native(), list(knowledge.unknown), opts, cancel)


def summary(result: _native.KlondikeCommitResult) -> list[tuple[object, ...]]:
    tallies: list[tuple[object, ...]] = [(tuple(c.line), c.won, c.lost, c.cut) for c in result.candidates]
    return [*tallies, (result.chosen, result.worlds)]


def test_hidden_cards_are_never_read() -> None:
    """Swapping face-down cards between columns (and so what the unseen cards are where) changes
    no decision: the bot sees only the observation."""
    game = after_pass()
    other = game.copy()
    for a, b in ((1, 5), (3, 6), (2, 4)):  # the bottom face-down cards of two columns swap places
        other.columns[a][0], other.columns[b][0] = other.columns[b][0], other.columns[a][0]
    assert other.columns != game.columns
    decisions = []
    for g in (game, other):
        bot = CommitmentBot(KLONDIKE, **SMALL)
        bot.reseed(7)
        steps = []
        for _ in range(3):  # the first planned move and the moves of its line
            observation, mask = observe_game(g)
            decision = bot.step(observation, mask)
            steps.append((decision.move, decision.kind, decision.line, decision.candidates))
            if decision.candidates and decision.chosen_candidate is not None \
                    and decision.chosen_candidate.reveals and len(decision.line) == 1:
                break
            g.push(decision.move)
        decisions.append(steps)
    assert decisions[0] == decisions[1]


@pytest.mark.parametrize("schedule", ["ucb", "halving", "race"])
def test_same_answer_for_one_and_two_threads(schedule: str) -> None:
    game = after_pass()
    kind = getattr(_native.KlondikeCommitSchedule, schedule)
    one = plan(game, options(seed=11, threads=1, schedule=kind))
    two = plan(game, options(seed=11, threads=2, schedule=kind))
    assert len(one.candidates) > 1 and one.worlds > 0
    assert summary(one) == summary(two)
    assert summary(one) == summary(plan(game, options(seed=11, threads=1, schedule=kind)))


def test_world_budget_time_limit_and_cancel() -> None:
    game = after_pass()
    ucb = plan(game, options(max_worlds=200, batch=10))
    first_round = 10 * len(ucb.candidates)
    assert ucb.worlds <= max(200, first_round) + 10
    assert sum(c.won + c.lost + c.cut for c in ucb.candidates) == ucb.worlds
    halving = plan(game, options(max_worlds=200, schedule=_native.KlondikeCommitSchedule.halving))
    assert halving.worlds <= 200 + 10 * len(halving.candidates) + 10
    race = plan(game, options(max_worlds=200, schedule=_native.KlondikeCommitSchedule.race))
    assert race.worlds < 200 + 10 * len(race.candidates)
    leader = race.candidates[race.chosen]
    assert all(c.won <= leader.won for c in race.candidates)
    start = time.perf_counter()
    timed = plan(game, options(max_worlds=0, worlds_per_candidate=10**6, cap=1000, time_limit_s=0.05))
    assert time.perf_counter() - start < 1.0
    assert timed.stop_reason == _native.StopReason.time
    token = _native.CancelToken()
    token.cancel()
    cancelled = plan(game, options(max_worlds=0, worlds_per_candidate=10**6), token)
    assert cancelled.stop_reason == _native.StopReason.cancelled and cancelled.worlds == 0
    assert cancelled.chosen >= 0  # still a move to play


def test_bot_time_limit_and_cancel() -> None:
    """The page's setting: a time limit instead of a world budget, and a cancel token."""
    game = after_pass()
    bot = CommitmentBot(KLONDIKE, max_worlds=None, time_limit=0.1)
    start = time.perf_counter()
    decision = bot.step(*observe_game(game))
    assert time.perf_counter() - start < 1.0 and decision.kind in ("planned", "forced")
    token = _native.CancelToken()
    token.cancel()
    bot.restart_at(game)
    cancelled = bot.step(*observe_game(game), cancel=token)
    assert cancelled.worlds == 0 and observe_game(game)[1][cancelled.action]


@pytest.mark.parametrize(("option", "value"), [
    ("cap", 0), ("worlds_per_candidate", 0), ("max_worlds", -1), ("exploration", -0.5),
    ("exploration", float("nan")), ("batch", 0), ("hopeless_worlds", -1), ("threads", 0), ("threads", 257),
    ("max_closure", 0), ("time_limit_s", float("inf")), ("draw_count", 0), ("race_z", 0.0),
    ("race_min_worlds", 0),
])
def test_options_out_of_range_are_refused(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=option):
        _native.KlondikeCommitOptions(**{option: value})  # type: ignore[arg-type]
    if option != "draw_count":  # the bot takes the draw count from its variant
        with pytest.raises(ValueError):
            CommitmentBot(KLONDIKE, **{option if option != "time_limit_s" else "time_limit": value})  # type: ignore[arg-type]


def test_bad_bot_input_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="Klondike"):
        CommitmentBot(find_game("pyramid"))
    with pytest.raises(MalformedInputError, match="budget"):
        CommitmentBot(KLONDIKE, max_worlds=None)
    with pytest.raises(MalformedInputError, match="schedule"):
        CommitmentBot(KLONDIKE, schedule="thompson")
    bot = CommitmentBot(KLONDIKE, **SMALL)
    with pytest.raises(MalformedInputError, match="Move"):
        bot.inform("draw")  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="KlondikeGame"):
        bot.restart_at("klondike-random-v1-1")  # type: ignore[arg-type]


def test_each_line_is_legal_and_ends_at_its_commitment() -> None:
    game = after_pass()
    result = plan(game, options())
    from solitaire_rl.agents.solver.klondike import native_move

    for candidate in result.candidates:
        walk = game.copy()
        line = [native_move(a) for a in candidate.line]
        for move in line[:-1]:
            seen, hidden = walk.seen, list(walk.hidden)
            walk.push(move)  # push refuses an illegal move
            assert walk.seen == seen and walk.hidden == hidden, "a move before the commitment shows nothing"
        last = line[-1]
        hidden = sum(walk.hidden)
        walk.push(last)
        assert candidate.reveals == (sum(walk.hidden) < hidden)
        assert candidate.reveals or last.kind in (WASTE_COLUMN, WASTE_FOUNDATION)


def test_bot_follows_its_line_then_plans_again() -> None:
    bot = CommitmentBot(KLONDIKE, **SMALL)
    game = KlondikeGame(KLONDIKE.deal_id(100_003))
    kinds = []
    for _ in range(40):
        observation, mask = observe_game(game)
        decision = bot.step(observation, mask)
        assert isinstance(decision, Decision) and mask[decision.action]
        assert decision.line[0] == decision.move
        kinds.append(decision.kind)
        game.push(decision.move)
        if game.outcome() is not None:
            break
    assert kinds[:8] == ["stock-pass"] * 8  # the free pass first: 24 stock cards, 3 a draw
    assert "planned" in kinds
    planned = kinds.index("planned")
    later = ("following", "planned", "forced", "only-move", "endgame-solved")
    assert all(k in later for k in kinds[planned:])


def test_inform_keeps_or_drops_the_line() -> None:
    """A move someone else plays keeps the line when it is the line's next move, else drops it."""
    game = after_pass()
    bot = CommitmentBot(KLONDIKE, **SMALL)
    for _ in range(30):  # up to a decision whose line has more than one move
        observation, mask = observe_game(game)
        bot.restart_at(game)
        decision = bot.step(observation, mask)
        if len(decision.line) > 2:
            break
        game.push(decision.move)
    else:
        pytest.fail("no line of three moves or more")
    line = decision.line
    bot.restart_at(game)
    bot.step(*observe_game(game))  # the same decision again: the bot assumes line[0] is played
    game.push(line[0])
    followed = bot.step(*observe_game(game))
    assert followed.move == line[1] and followed.kind in ("following", "endgame-solved")
    game.push(line[1])
    bot.inform(line[2])  # the person plays the line's next move: the rest is kept
    game.push(line[2])
    if len(line) > 3:
        assert bot.step(*observe_game(game)).move == line[3]
    kept = bot._plan
    bot.inform(RECYCLE_MOVE if kept is not None and kept.moves[0] == DRAW_MOVE else DRAW_MOVE)
    assert bot._plan is None


def test_restart_at_counts_the_positions_met_on_the_way() -> None:
    """Taking a game up mid-way (the page after an undo) counts each earlier position of its line as
    met, as the player saw it then, so the endgame never leads back to one; hidden cards swapped
    change nothing."""
    from solitaire_rl.agents.planner.knowledge import visible_key
    from solitaire_rl.envs.klondike.observer import observe

    game = after_pass()
    game.push(game.legal_moves()[0])
    seen = []
    walk = game.copy()
    while walk.moves_played:
        walk.pop()
        seen.append(visible_key(observe(walk)))
    bot = CommitmentBot(KLONDIKE, **SMALL)
    bot.restart_at(game)
    assert sum(bot.visits.values()) == game.moves_played and set(bot.visits) == set(seen)
    other = game.copy()
    other.columns[1][0], other.columns[5][0] = other.columns[5][0], other.columns[1][0]
    again = CommitmentBot(KLONDIKE, **SMALL)
    again.restart_at(other)
    assert again.visits == bot.visits
    bot.restart_at(KlondikeGame(KLONDIKE.deal_id(100_003)))
    assert not bot.visits  # a game from its start has met nothing yet


def test_whole_games_play_to_their_end() -> None:
    env = KLONDIKE.make_env()
    bot = make_player("world-bandit", KLONDIKE, **SMALL)
    for deal in (100_003, 100_005):
        result = play_episode(env, bot, KLONDIKE.deal_id(deal), KLONDIKE.cards_cleared)
        assert result.outcome in ("win", "dead_end", "no_progress")
        assert len(bot.decision_seconds) == result.steps  # type: ignore[attr-defined]


# ------------------------------------------------------------------ surely won (lonelybot's "sure win")
def _runs() -> list[list[str]]:
    """Four columns K down to A in alternating colours: every card up, nothing in the talon."""
    pairs = (("S", "H"), ("H", "S"), ("C", "D"), ("D", "C"))
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
    return [[r + pair[i % 2] for i, r in enumerate(ranks)] for pair in pairs] + [[], [], []]


def _solve(position: object, surely_won_stops: bool, max_states: int) -> _native.KlondikeResult:
    from solitaire_rl.agents.solver.klondike import as_position
    from solitaire_rl.agents.solver.limits import search_budget

    opts = _native.KlondikeOptions()
    opts.surely_won_stops = surely_won_stops
    budget = search_budget(None, None, max_states)
    return _native.klondike_solve(as_position(position).to_native(), opts, budget.to_native())


def test_a_surely_won_position_ends_the_search_at_once() -> None:
    """Nothing face down and an empty talon: won whatever is played. With ``surely_won_stops``
    the search says so before entering a state; without it, it plays the game out."""
    game = KlondikeGame.from_position(_runs(), [0] * 7, [], [], [0, 0, 0, 0])
    on, off = _solve(game, True, 10_000), _solve(game, False, 10_000)
    assert on.status == off.status == _native.Status.winnable
    assert on.states == 0 < off.states
    assert not _native.KlondikeOptions().surely_won_stops  # off unless asked for


def test_surely_won_stops_never_changes_a_verdict() -> None:
    """Along random games of real deals (every card known to the solver), the verdict with the
    stop is the verdict without it, whenever both are decided."""
    import random

    rng = random.Random(7)
    compared = 0
    for deal in (100_001, 100_004, 100_011):
        game = KlondikeGame(KLONDIKE.deal_id(deal))
        for _ in range(60):
            legal = game.legal_moves()
            if not legal:
                break
            game.push(rng.choice(legal))
            on, off = _solve(game, True, 50_000), _solve(game, False, 50_000)
            if _native.Status.unknown not in (on.status, off.status):
                assert on.status == off.status, (deal, game.history)
                compared += 1
    assert compared > 60
