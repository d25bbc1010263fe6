"""The Klondike endgame once every card is known (issue 37), in the agents layer
(:mod:`solitaire_rl.agents.planner.endgame`): the solver's winning line with every stretch that
comes back to a table cut out and no way back to a position met while another first move wins, and
the bots that follow it (``world-bandit``, ``hop``)."""

from __future__ import annotations

import pytest

from solitaire_rl.agents.planner.commitment import CommitmentBot, observe_game
from solitaire_rl.agents.planner.endgame import endgame_line, pushed, seen_key, without_loops
from solitaire_rl.agents.planner.hop import HopPlayer
from solitaire_rl.agents.planner.revisits import table_key
from solitaire_rl.agents.solver.klondike import solve_klondike
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.spec import klondike_spec
from tests.test_play_klondike_api import known_endgame


def met_along(game: KlondikeGame) -> set[bytes]:
    """What the player saw at every position of ``game``'s line of play (:func:`seen_key`)."""
    walk = game.copy()
    met = {seen_key(walk)}
    while walk.moves_played:
        walk.pop()
        met.add(seen_key(walk))
    return met


def card_down(game: KlondikeGame) -> Move:
    """The first move that brings a card down from its foundation."""
    return next(m for m in game.legal_moves() if str(m).startswith("f"))


def test_without_loops_cuts_a_stretch_that_undoes_itself() -> None:
    """A card brought down from its foundation and sent straight back, then the winning line: the
    two moves are cut; a line through a position met says so."""
    game = known_endgame("klondike-random-v1-9")
    line = endgame_line(game, met_along(game))
    assert line is not None
    down = card_down(game)
    after = pushed(game, down)
    back = next(m for m in after.legal_moves() if table_key(pushed(after, m)) == table_key(game))
    assert without_loops(game, [down, back, *line], set()) == (line, False)
    assert without_loops(game, line, {seen_key(pushed(game, line[0]))}) == (line, True)


def test_a_line_that_does_not_win_once_cut_is_kept_whole() -> None:
    game = known_endgame("klondike-random-v1-9")
    down = card_down(game)
    back = next(m for m in pushed(game, down).legal_moves()
                if table_key(pushed(pushed(game, down), m)) == table_key(game))
    assert without_loops(game, [down, back], set()) == ((down, back), False)  # cut, it would not win


@pytest.mark.parametrize("deal", ["klondike-random-v1-9", "klondike-random-v1-17"])
def test_after_a_card_came_down_the_line_does_not_put_it_straight_back(deal: str) -> None:
    """The solver's own line puts the card back up (to the position the game came from); the
    endgame line wins without ever coming back to a position met, nor to one of its own."""
    game = known_endgame(deal)
    came_from = table_key(game)
    game.push(card_down(game))
    raw = solve_klondike(game, time_limit=10.0).line
    assert raw is not None and table_key(pushed(game, raw[0])) == came_from  # the shuttle of issue 37
    line = endgame_line(game, met_along(game))
    assert line is not None
    walk = game.copy()
    tables = {came_from, table_key(walk)}
    for move in line:
        walk.push(move)
        assert table_key(walk) not in tables, move
        tables.add(table_key(walk))
    assert walk.is_won()


def test_the_other_first_moves_are_tried_within_the_state_budget() -> None:
    """With no states left after the solver's own line, that line is the answer (loops cut out):
    the budget is in states, so the answer is the same on every machine."""
    game = known_endgame("klondike-random-v1-9")
    game.push(card_down(game))
    first = solve_klondike(game, time_limit=None, max_states=500_000)
    assert first.line is not None
    met = met_along(game)
    assert endgame_line(game, met, max_states=first.states) == without_loops(game, first.line, met)[0]
    assert endgame_line(game, met, max_states=1) is None  # the solver finds nothing in one state
    assert endgame_line(game, met) == endgame_line(game, met)


@pytest.mark.parametrize("deal", ["klondike-random-v1-9", "klondike-random-v1-17"])
@pytest.mark.parametrize("name", ["world-bandit", "hop"])
def test_a_bot_that_saw_the_card_come_down_wins_without_revisiting_a_position(name: str, deal: str) -> None:
    """The bot answers at the first position where every card is known, then someone else brings a
    card down from its foundation (where the solver's own line would put it straight back): the bot's
    moves from there win, and no table of the game comes up twice."""
    game = known_endgame(deal)
    variant = klondike_spec(3)
    bot: CommitmentBot | HopPlayer = (CommitmentBot(variant, max_worlds=100) if name == "world-bandit"
                                      else HopPlayer(variant))
    bot.restart_at(game)
    bot.step(*observe_game(game))
    met = {table_key(game)}
    down = card_down(game)
    game.push(down)
    met.add(table_key(game))
    if isinstance(bot, CommitmentBot):
        bot.inform(down)
    else:
        bot.restart_at(game)  # hop is taken up where the game stands (every position of its line met)
    for _ in range(200):
        if isinstance(bot, CommitmentBot):
            decision = bot.step(*observe_game(game))
            assert decision.kind == "endgame-solved"
            move = decision.move
        else:
            answer = bot.step(*observe_game(game))
            assert answer.kind == "endgame-solved" and answer.choice is not None
            move = move_of(game, answer.choice.action)
        game.push(move)
        assert table_key(game) not in met, f"{move} goes back to a position met before"
        met.add(table_key(game))
        if game.is_won():
            break
    assert game.is_won()
