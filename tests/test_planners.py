"""The planners: ``hop`` (Klondike) and ``pimc`` (Pyramid) and their native sample-and-solve loops."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.planner.hop import HopPlayer, PlannedLine, hop_values, tree_values
from solitaire_rl.agents.planner.knowledge import klondike_knowledge, visible_key
from solitaire_rl.agents.registry import make_player, unavailable_reason
from solitaire_rl.agents.solver import _native, solve_klondike
from solitaire_rl.agents.solver.klondike import KlondikePosition
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, move_of
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.envs.spec import find_game
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor

KLONDIKE = find_game("klondike")
SMALL = {"max_states": 60_000, "states_per_solve": 4_000, "max_samples": 8}


def random_positions(deals: range, steps: int, seed: int) -> list[KlondikeGame]:
    """Positions ``0..steps`` random moves into each deal."""
    rng = random.Random(seed)
    out = []
    for number in deals:
        game = KlondikeGame(f"klondike-random-v1-{number}")
        for _ in range(rng.randrange(steps + 1)):
            if game.outcome() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        if game.outcome() is None:
            out.append(game)
    return out


def with_hidden_cards_moved(game: KlondikeGame, seed: int) -> KlondikeGame:
    """The same position as the player sees it, the face-down and unseen stock cards shuffled."""
    other = game.copy()
    places = [(c, i) for c in range(7) for i in range(game.hidden[c])]
    places += [(-1, i) for i, card in enumerate(game.stock) if not (game.seen >> card) & 1]
    cards = [game.stock[i] if c < 0 else game.columns[c][i] for c, i in places]
    random.Random(seed).shuffle(cards)
    for (c, i), card in zip(places, cards, strict=True):
        if c < 0:
            other.stock[i] = card
        else:
            other.columns[c][i] = card
    assert (observe(other) == observe(game)).all()
    return other


def legal_of(game: KlondikeGame) -> np.ndarray:
    return np.asarray(sorted({ACTION_INDEX[m] for m in game.legal_moves()}))


# ------------------------------------------------------------------------------ knowledge
def test_the_known_position_holds_the_seen_cards_where_they_are_and_the_rest_as_unknowns() -> None:
    for game in random_positions(range(1, 13), 60, seed=1):
        knowledge = klondike_knowledge(observe(game))
        true = KlondikePosition.from_game(game)
        assert knowledge.position.face_up == true.face_up and knowledge.position.waste == true.waste
        assert knowledge.position.foundations == true.foundations
        unknown_true = sorted(true.stock[i] if c < 0 else true.face_down[c][i] for c, i in knowledge.unknown)
        unknown_here = [knowledge.position.stock[i] if c < 0 else knowledge.position.face_down[c][i]
                        for c, i in knowledge.unknown]
        assert unknown_here == sorted(unknown_here) == unknown_true  # the set, in card order: no places
        seen_stock = [i for i, card in enumerate(true.stock) if (game.seen >> card) & 1]
        assert all(knowledge.position.stock[i] == true.stock[i] for i in seen_stock)
        assert len(knowledge.unknown) == game.face_down_count() + len(game.unseen_stock())


def test_columns_without_face_down_cards_are_interchangeable_in_the_visible_key() -> None:
    rest = [["AH"], ["2H"], ["3H"], ["4H"]]  # clubs and diamonds are up; the other cards in the stock
    kings = KlondikeGame.from_position([["KS", "QH"], [], ["KH"], *rest], [0] * 7, stock=None,
                                       foundations=(13, 13, 0, 0))
    moved = KlondikeGame.from_position([[], ["KS", "QH"], ["KH"], *rest], [0] * 7, stock=None,
                                       foundations=(13, 13, 0, 0))
    assert visible_key(observe(kings)) == visible_key(observe(moved))
    assert (observe(kings) != observe(moved)).any()


# ------------------------------------------------------------------------------ the native loop
def test_with_nothing_unknown_the_values_are_the_solvers_verdicts_after_each_move() -> None:
    """A differential check of the native loop (its replayer, its shared root solve) against the
    Python engine and one solve per afterstate."""
    checked = 0
    budget = 20_000
    for game in random_positions(range(20, 32), 40, seed=2):
        game.seen = (1 << 52) - 1
        known = KlondikeGame.from_position(game.columns, game.hidden, game.stock, game.waste,
                                           game.foundations, seen=range(52))
        knowledge = klondike_knowledge(observe(known))
        knowledge = type(knowledge)(KlondikePosition.from_game(game), (), knowledge.game)
        legal = legal_of(game)
        values = hop_values(knowledge, legal, max_samples=1, max_states=None, states_per_solve=budget)
        for action, value in zip(legal, values.values, strict=True):
            after = game.copy()
            after.push(move_of(after, int(action)))
            status = "winnable" if after.is_won() else solve_klondike(after, time_limit=None,
                                                                      max_states=budget).status
            # an afterstate on the line found from the position before is known won without a search
            if status == "unknown":
                assert value >= 0.5
            else:
                assert value == {"winnable": 1.0, "not_winnable": 0.0}[status]
        checked += 1
    assert checked >= 8


def test_each_samples_winning_line_is_legal_until_it_shows_an_unknown_card() -> None:
    """The lines the loop hands back: one per kept sample, empty where the sample was not won;
    up to the first move that shows an unknown card, every move of a line is legal in what the
    player sees (it touches known cards only); with nothing unknown, a line wins the game."""
    lines_checked = 0
    for game in random_positions(range(40, 52), 30, seed=5):
        knowledge = klondike_knowledge(observe(game))
        values = hop_values(knowledge, legal_of(game), seed=3, **SMALL)
        assert len(values.lines) == values.samples
        for line in values.lines:
            walk = knowledge.game.copy()
            for move in line:
                assert move in walk.legal_moves()
                before = walk.seen
                walk.push(move)
                if walk.seen != before:
                    break
            lines_checked += bool(line)
    assert lines_checked >= 20
    won_lines = 0
    for game in random_positions(range(20, 26), 30, seed=2):
        known = KlondikeGame.from_position(game.columns, game.hidden, game.stock, game.waste,
                                           game.foundations, seen=range(52))
        knowledge = klondike_knowledge(observe(known))
        knowledge = type(knowledge)(KlondikePosition.from_game(game), (), knowledge.game)
        values = hop_values(knowledge, legal_of(game), max_samples=1, max_states=None,
                            states_per_solve=50_000)
        if values.lines[0]:
            walk = game.copy()
            for move in values.lines[0]:
                walk.push(move)
            assert walk.is_won()
            won_lines += 1
    assert won_lines >= 2


def test_the_player_follows_a_sampled_line_until_it_shows_a_card() -> None:
    """After a move that starts a sample's winning line, the rest of that line is the plan (a
    tie-break of its own); the plan ends at a move that turns up an unknown card, and a card just
    brought down from its foundation is not put straight back up."""
    game, first = next((g, m) for g in random_positions(range(60, 90), 60, seed=9) for m in g.legal_moves()
                       if not _shows_a_card(g, m) and any(_shows_a_card(g, o) for o in g.legal_moves()))
    player = HopPlayer(KLONDIKE, seed=0, **SMALL)
    moves = game.legal_moves()
    after = game.copy()
    after.push(first)
    follow_up = after.legal_moves()[0]
    player.follow(game, ACTION_INDEX[first], ((), (first, follow_up, Move(0))))
    assert player.planned_line == PlannedLine((follow_up, Move(0)), visible_key(observe(after)))
    player.follow(after, ACTION_INDEX[follow_up], ())  # the plan's own next move: its rest stays
    line = player.planned_line
    if _shows_a_card(after, follow_up):
        assert line is None
    else:
        assert line is not None and line.moves == (Move(0),)
    showing = next(m for m in moves if _shows_a_card(game, m))
    player.follow(game, ACTION_INDEX[showing], ((showing, follow_up),))
    assert player.planned_line is None
    player._last_move = Move.foundation_to_column(2, 4)
    assert player._just_came_down(Move.column_to_foundation(4))
    assert not player._just_came_down(Move.column_to_foundation(3))


def _shows_a_card(game: KlondikeGame, move: Move) -> bool:
    after = game.copy()
    after.push(move)
    return after.seen != game.seen


def test_the_tally_is_reproducible_and_does_not_depend_on_the_threads() -> None:
    game = random_positions(range(7, 8), 0, seed=0)[0]
    knowledge = klondike_knowledge(observe(game))
    legal = legal_of(game)
    runs = [hop_values(knowledge, legal, seed=11, threads=t, max_states=80_000) for t in (1, 2, 1)]
    for run in runs[1:]:
        assert run.samples == runs[0].samples and run.states == runs[0].states
        assert (run.won == runs[0].won).all() and (run.first == runs[0].first).all()
    other = hop_values(knowledge, legal, seed=12, max_states=80_000)
    assert other.samples >= 1


def test_budgets_and_cancellation_are_respected() -> None:
    game = KlondikeGame("klondike-random-v1-3")
    knowledge = klondike_knowledge(observe(game))
    legal = legal_of(game)
    capped = hop_values(knowledge, legal, max_samples=5, max_states=None)
    assert capped.samples == 5 and capped.stop_reason is None
    budget = 30_000
    by_states = hop_values(knowledge, legal, max_samples=64, max_states=budget)
    assert by_states.stop_reason == "states" and by_states.states >= budget
    fewer = hop_values(knowledge, legal, max_samples=by_states.samples - 1, max_states=None)
    assert fewer.states < budget, "the samples kept are the shortest prefix that spends the budget"
    token = _native.CancelToken()
    token.cancel()
    cancelled = hop_values(knowledge, legal, max_states=None, cancel=token)
    assert cancelled.samples == 0 and cancelled.stop_reason == "cancelled"
    timed = hop_values(knowledge, legal, max_samples=10**6, max_states=None, time_limit=0.05)
    assert timed.stop_reason == "time" and timed.samples < 10**6


def test_the_tree_search_is_reproducible_and_respects_its_budgets() -> None:
    game = KlondikeGame("klondike-random-v1-3")
    knowledge = klondike_knowledge(observe(game))
    legal = legal_of(game)
    runs = [tree_values(knowledge, legal, seed=4, iterations=60) for _ in range(2)]
    assert runs[0].iterations == 60 and int(runs[0].visits.sum()) == 60
    assert (runs[0].visits == runs[1].visits).all() and (runs[0].value_sum == runs[1].value_sum).all()
    assert ((runs[0].values >= 0) & (runs[0].values <= 1)).all()
    by_states = tree_values(knowledge, legal, iterations=10**6, max_states=20_000)
    assert by_states.states >= 20_000 and by_states.iterations < 10**6
    token = _native.CancelToken()
    token.cancel()
    assert tree_values(knowledge, legal, iterations=100, cancel=token).iterations == 0
    timed = tree_values(knowledge, legal, iterations=10**7, states_per_solve=1, time_limit=0.05)
    assert timed.iterations < 10**7 and timed.seconds < 5


def test_with_nothing_unknown_a_lost_move_is_worth_nothing_in_the_tree() -> None:
    """Every position below a lost one is lost, so the tree's value of a proved loss is 0; a move
    to a won position somewhere below is worth more."""
    checked = 0
    for game in random_positions(range(20, 60), 60, seed=2):
        known = KlondikeGame.from_position(game.columns, game.hidden, game.stock, game.waste,
                                           game.foundations, seen=range(52))
        knowledge = klondike_knowledge(observe(known))
        knowledge = type(knowledge)(KlondikePosition.from_game(game), (), knowledge.game)
        legal = legal_of(game)
        verdicts = []
        for action in legal:
            after = game.copy()
            after.push(move_of(after, int(action)))
            verdicts.append("winnable" if after.is_won() else
                            solve_klondike(after, time_limit=None, max_states=50_000).status)
        if "not_winnable" not in verdicts:
            continue
        tree = tree_values(knowledge, legal, iterations=80, states_per_solve=50_000)
        for verdict, value, visits in zip(verdicts, tree.values, tree.visits, strict=True):
            assert visits >= 1
            if verdict == "not_winnable":
                assert value == 0.0
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("options", "bad", "message"), [
    ("KlondikeHopOptions", {"max_samples": 0}, "hop: max_samples must be at least 1"),
    ("KlondikeHopOptions", {"threads": 0}, "hop: threads must be at least 1"),
    ("KlondikeHopOptions", {"threads": 257}, "at most 256"),
    ("KlondikeHopOptions", {"draw_count": 0}, "hop: draw_count"),
    ("KlondikeHopOptions", {"states_per_solve": 0}, "hop: states_per_solve"),
    ("KlondikeHopOptions", {"time_limit_s": float("nan")}, "hop: time_limit_s must be a finite"),
    ("KlondikeIsmctsOptions", {"max_iterations": 0}, "ismcts: max_iterations"),
    ("KlondikeIsmctsOptions", {"max_depth": 0}, "ismcts: max_depth"),
    ("KlondikeIsmctsOptions", {"exploration": -0.1}, "ismcts: exploration"),
    ("KlondikeIsmctsOptions", {"exploration": float("inf")}, "ismcts: exploration"),
    ("KlondikeIsmctsOptions", {"time_limit_s": float("inf")}, "ismcts: time_limit_s"),
    ("PyramidPimcOptions", {"max_samples": 2**20 + 1}, "pimc: max_samples"),
    ("PyramidPimcOptions", {"states_per_solve": 0}, "pimc: states_per_solve"),
    ("PyramidPimcOptions", {"threads": -1}, "pimc: threads"),
])
def test_the_native_planners_options_are_checked_when_built(options: str, bad: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        getattr(_native, options)(**bad)


def test_the_native_planners_options_are_keywords_with_defaults_and_read_only() -> None:
    hop = _native.KlondikeHopOptions(seed=7, max_samples=8, time_limit_s=0.5)
    assert (hop.draw_count, hop.seed, hop.states_per_solve, hop.max_samples, hop.max_states, hop.time_limit_s,
            hop.threads) == (3, 7, 2_000, 8, 0, 0.5, 1)
    tree = _native.KlondikeIsmctsOptions()
    assert (tree.max_iterations, tree.exploration, tree.max_depth, tree.states_per_solve) == (400, 0.5, 8,
                                                                                              2_000)
    pimc = _native.PyramidPimcOptions(threads=2)
    assert (pimc.seed, pimc.states_per_solve, pimc.max_samples, pimc.threads) == (0, 20_000, 32, 2)
    with pytest.raises(TypeError):
        _native.KlondikeHopOptions(3)  # type: ignore[misc]  # keywords only
    with pytest.raises(TypeError):
        _native.KlondikeHopOptions(seed=-1)  # a seed is 0 .. 2**64 - 1
    with pytest.raises(AttributeError):
        hop.seed = 3  # type: ignore[misc]


def test_bad_requests_are_refused_with_a_clear_error() -> None:
    game = KlondikeGame("klondike-random-v1-3")
    knowledge = klondike_knowledge(observe(game))
    position = knowledge.position.to_native()
    hop = _native.KlondikeHopOptions(states_per_solve=100, max_samples=1)
    with pytest.raises(ValueError, match="not legal"):
        _native.klondike_hop(position, list(knowledge.unknown), [(2, -1, -1, 1, -1)], hop)
    with pytest.raises(ValueError, match="outside"):
        _native.klondike_hop(position, [(0, 5)], [(0, -1, -1, 3, -1)], hop)
    with pytest.raises(ValueError, match="twice"):
        _native.klondike_hop(position, [(-1, 0), (-1, 0)], [(0, -1, -1, 3, -1)], hop)
    tree = _native.KlondikeIsmctsOptions(states_per_solve=100, max_iterations=10)
    with pytest.raises(ValueError, match="ismcts: a candidate is not legal"):
        _native.klondike_ismcts(position, list(knowledge.unknown), [(2, -1, -1, 1, -1)], tree)
    with pytest.raises(MalformedInputError, match="search"):
        HopPlayer(KLONDIKE, search="uct")
    with pytest.raises(MalformedInputError, match="the hop player plays Klondike, not pyramid"):
        HopPlayer(find_game("pyramid"))
    with pytest.raises(MalformedInputError, match="the ismcts player plays Klondike, not pyramid"):
        make_player("ismcts", find_game("pyramid"))
    with pytest.raises(MalformedInputError, match="budget"):
        HopPlayer(KLONDIKE, max_states=None, time_limit=None)
    assert unavailable_reason("hop", "pyramid-000") == "the hop player plays Klondike only"
    assert unavailable_reason("hop", "klondike") is None


# ------------------------------------------------------------------------------ the hop player
@pytest.mark.parametrize("search", ["hop", "tree"])
def test_the_choice_does_not_depend_on_the_hidden_cards(search: str) -> None:
    for k, game in enumerate(random_positions(range(30, 36), 50, seed=3)):
        other = with_hidden_cards_moved(game, seed=k)
        choices = []
        for g in (game, other):
            player = HopPlayer(KLONDIKE, seed=5, search=search, tree_iterations=40, **SMALL)
            player.recall(g)
            obs = observe(g)
            mask = np.zeros(590, bool)
            mask[legal_of(g)] = True
            choices.append(player.choose(obs, mask, {}).action)
        assert choices[0] == choices[1]


def test_it_plays_whole_games_with_legal_moves_and_reproducibly() -> None:
    env = KLONDIKE.make_env()
    rows = []
    for _ in range(2):
        player = make_player("hop", KLONDIKE, seed=3, **SMALL)  # play_episode fails on an illegal move
        rows.append([play_episode(env, player, KLONDIKE.deal_id(n), KLONDIKE.cards_cleared)
                     for n in (4, 5, 7)])
    assert [(r.outcome, r.steps, r.cards_cleared) for r in rows[0]] == [
        (r.outcome, r.steps, r.cards_cleared) for r in rows[1]]
    assert all(r.outcome in ("win", "no_progress", "dead_end", "truncated") for r in rows[0])


def test_following_the_planners_hints_from_the_deal_ends_within_a_bounded_number_of_moves() -> None:
    advisor = KlondikeHintAdvisor(planner_time=30.0, planner_states=40_000)
    for number in (2, 5, 11):
        game = KlondikeGame(f"klondike-random-v1-{number}")
        for _ in range(400):
            hint = advisor.hint(game)
            if hint is None or hint["kind"] != "move":
                break
            assert hint["hint_source"] == "planner" and hint["agent"] == "hop" and hint["reason"]
            game.push(Move.parse(hint["move"]))
        assert game.outcome() is not None or hint is None or hint["kind"] in ("no_progress", "looping")
