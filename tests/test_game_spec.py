"""One GameSpec per variant (solitaire_rl.envs.spec): every registered spec round-trips its own deal
IDs, moves and knowledge, and the agents' side of each is registered (solitaire_rl.agents.games)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from solitaire_rl.agents.games import AgentSide, agent_side, register_agent_side
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.planner.pimc import unseen_places
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.spec import (
    GAME_SPECS,
    KLONDIKE_DRAW1,
    KLONDIKE_DRAW3,
    PYRAMID_000,
    PYRAMID_001,
    TRAINED_SPECS,
    GameSpec,
    find_game,
    game_names,
    klondike_spec,
    spec_of,
    specs_of,
)

SPECS = list(GAME_SPECS.values())


def played(spec: GameSpec, deal: int, moves: int) -> list:
    """The positions of a game of ``spec`` whose moves are drawn at random (seeded), first included."""
    rng = np.random.default_rng(deal)
    game = spec.new_game(spec.deal_id(deal))
    positions = [game.copy()]
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[int(rng.integers(len(legal)))])
        positions.append(game.copy())
    return positions


def test_the_registry_names_each_variant_once_with_its_game_first() -> None:
    assert list(GAME_SPECS) == ["pyramid-000", "pyramid-001", "klondike-draw3", "klondike-draw1"]
    assert list(TRAINED_SPECS) == ["pyramid-000", "pyramid-001", "klondike-draw3"]
    assert game_names() == ("pyramid", "klondike")
    assert [s.key for s in specs_of("pyramid")] == ["pyramid-000", "pyramid-001"]
    assert all(key == spec.key for key, spec in GAME_SPECS.items())


def test_a_spec_is_found_by_key_by_game_and_variant_and_by_game_alone() -> None:
    assert find_game("pyramid") is PYRAMID_000 and find_game("Klondike ") is KLONDIKE_DRAW3
    assert find_game("pyramid", "001") is PYRAMID_001 and find_game("klondike-draw1") is KLONDIKE_DRAW1
    assert klondike_spec(1) is KLONDIKE_DRAW1 and klondike_spec(3) is KLONDIKE_DRAW3
    assert eval(repr(PYRAMID_001)) is PYRAMID_001  # the repr pastes back
    assert {PYRAMID_000: 1}[find_game("pyramid-000")] == 1 and PYRAMID_000 != PYRAMID_001


def test_bad_names_are_refused_clearly() -> None:
    with pytest.raises(MalformedInputError, match="unknown game or variant 'pyramid-002'"):
        find_game("pyramid", "002")
    trained = r"choose one of pyramid-000, pyramid-001, klondike-draw3 \("
    with pytest.raises(MalformedInputError, match=trained):
        find_game("klondike-draw1", trained=True)
    with pytest.raises(MalformedInputError, match="draw_count must be 1 or 3, not 2"):
        klondike_spec(2)
    with pytest.raises(MalformedInputError, match="draw_count must be 1 or 3, not True"):
        klondike_spec(True)
    with pytest.raises(MalformedInputError, match="not 3"):
        find_game(3)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError, match="expected a PyramidGame or a KlondikeGame, not str"):
        spec_of("pyramid-random-v1-1")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_spec_round_trips_its_deal_ids(spec: GameSpec) -> None:
    for number in (0, 7, 2**31 - 1):
        text = spec.deal_id(number)
        assert str(DealId.parse(text)) == text == f"{spec.game}-random-v1-{number}"
        deal = spec.parse_deal(text)
        game = spec.new_game(text)
        assert deal.label == text and game.deal.cards == deal.cards
        assert spec.new_game(deal.code).deal.cards == deal.cards  # its deal code names the same cards
        assert spec_of(game) is spec and spec.owns(game)
    assert spec.deal_id(5, kind="winnable") == f"{spec.game}-winnable-v1-5"
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(MalformedInputError, match="a deal number is a whole number"):
            spec.deal_id(bad)  # type: ignore[arg-type]
    other = "klondike" if spec.game == "pyramid" else "pyramid"
    with pytest.raises(MalformedInputError, match=f"is a {other} deal"):
        spec.new_game(f"{other}-random-v1-1")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_spec_copies_a_position_of_its_own_and_refuses_another_variants(spec: GameSpec) -> None:
    game = played(spec, 3, 12)[-1]
    copy = spec.new_game(game)
    assert copy is not game and copy.key() == game.key() and copy.history == game.history
    for other in SPECS:
        if other is not spec:
            with pytest.raises(MalformedInputError, match=f"expected a {other.key} game"):
                other.new_game(game)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_spec_round_trips_its_moves_through_text_and_actions(spec: GameSpec) -> None:
    seen = 0
    for game in played(spec, 11, 40):
        for move in game.legal_moves():
            assert spec.parse_move(spec.move_text(move)) == move
            assert spec.parse_move(move) is move
            action = spec.action_of(move)
            assert 0 <= action < spec.num_actions and spec.move_of(game, action) == move
            seen += 1
    assert seen > 40
    with pytest.raises(MalformedInputError):
        spec.parse_move("r9c9+nowhere")
    with pytest.raises(MalformedInputError, match=f"a {spec.title} move is text"):
        spec.parse_move(7)
    with pytest.raises(MalformedInputError, match="is not an action"):
        spec.move_of(game, spec.num_actions)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_spec_sees_what_its_environment_shows(spec: GameSpec) -> None:
    """The spec's observation, mask and progress are the env's after the same moves; its count of
    unknown cards is what the planners' knowledge of the observation leaves unknown."""
    env = spec.make_env()
    deal = spec.deal_id(21)
    obs, info = env.reset(options={"deal": deal})
    game = spec.new_game(deal)
    rng = np.random.default_rng(21)
    for _ in range(30):
        assert np.array_equal(spec.observe(game), obs)
        assert np.array_equal(spec.legal_mask(game), info["action_mask"])
        assert spec.cleared_in(game) == spec.cards_cleared(info)
        if isinstance(game, PyramidGame):
            assert spec.unknown_count(game) == len(unseen_places(game))
        else:
            knowledge = klondike_knowledge(obs, spec.env_kwargs["draw_count"])
            assert spec.unknown_count(game) == len(knowledge.unknown)
        legal = np.flatnonzero(info["action_mask"])
        if not legal.size:
            break
        action = int(legal[int(rng.integers(legal.size))])
        game.push(spec.move_of(game, action))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert obs.dtype == spec.obs_dtype and spec.observation_space().contains(obs)
    assert env.action_space.n == spec.num_actions  # type: ignore[attr-defined]
    env.close()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_spec_reads_progress_from_infos_old_and_new(spec: GameSpec) -> None:
    assert spec.cards_cleared({"cards_cleared": 5}) == 5
    old = {"cards_left": 20} if spec.game == "pyramid" else {"cards_up": 8}
    assert spec.cards_cleared(old) == 8
    with pytest.raises(MalformedInputError, match="no 'cards_cleared'"):
        spec.cards_cleared({})


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_specs_native_batch_deals_what_its_game_deals(spec: GameSpec) -> None:
    batch = spec.make_batch(2, split="any")
    deals = [spec.deal_id(4), spec.deal_id(9)]
    batch.reset([0, 1], None, deals)
    for i, deal in enumerate(deals):
        assert np.array_equal(batch.obs[i], spec.observe(spec.new_game(deal)))
        assert np.array_equal(batch.mask[i], spec.legal_mask(spec.new_game(deal)))
    assert batch.obs.dtype == spec.obs_dtype and batch.num_actions == spec.num_actions


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_the_vocabularies_start_from_the_games_outcomes(spec: GameSpec) -> None:
    game = spec.new_game(spec.deal_id(1))
    assert spec.outcomes[0] == "win" and game.outcome() is None
    assert set(spec.outcomes) <= set(spec.chances) and "checking" in spec.verdicts
    assert spec.has_stock_passes == (spec.max_passes is not None)


def test_the_rules_fields_say_what_differs() -> None:
    assert PYRAMID_000.max_passes == 3 and KLONDIKE_DRAW3.max_passes is None
    assert not PYRAMID_001.hides_tableau and KLONDIKE_DRAW1.hides_tableau
    assert KLONDIKE_DRAW3.positions_repeat and not PYRAMID_000.positions_repeat
    assert len(KLONDIKE_DRAW3.suit_symmetries) == 8 and PYRAMID_000.suit_symmetries == ()
    assert isinstance(PYRAMID_000.new_game("pyramid-random-v1-1"), PyramidGame)
    assert KLONDIKE_DRAW1.new_game("klondike-random-v1-1").draw_count == 1
    assert isinstance(KLONDIKE_DRAW3.new_game("klondike-random-v1-1"), KlondikeGame)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_spec_has_its_agent_side(spec: GameSpec) -> None:
    side = agent_side(spec)
    game = spec.new_game(spec.deal_id(2))
    heuristic = side.heuristic()
    heuristic.reset()
    mask = spec.legal_mask(game)
    assert mask[heuristic.choose(spec.observe(game), mask).action]
    from solitaire_rl.agents.solver import SearchLimits

    assert side.solve(game, SearchLimits(max_states=2_000, time_limit=None)).status in (
        "winnable", "not_winnable", "unknown")
    moves = game.legal_moves()
    tally = side.sampled_tally(game, moves, samples=2, states_per_solve=500, max_states=5_000, seed=1)
    assert len(tally.won) == len(moves)


def test_an_agent_side_is_registered_for_a_spec_class_only() -> None:
    with pytest.raises(MalformedInputError, match="registered for a GameSpec class"):
        register_agent_side(PYRAMID_000, agent_side(PYRAMID_000))  # type: ignore[arg-type]

    class Other(GameSpec):
        pass

    other = Other(game="other", name="x", title="Other", env_id="-", max_cleared=1, num_actions=1,
                  obs_dtype=np.int8, max_passes=None, hides_tableau=False, positions_repeat=False,
                  outcomes=(), verdicts=(), chances=())
    with pytest.raises(MalformedInputError, match="no solver or planner is registered for other-x"):
        agent_side(other)
    assert isinstance(agent_side(KLONDIKE_DRAW1), AgentSide)


GAME_NAMES = frozenset({"pyramid", "klondike"})
SPEC_MODULES = {"solitaire_rl/envs/spec.py", "solitaire_rl/agents/games.py"}
"""Where a game's name may be compared: the spec and the agents' table on it. No other exception."""


def _names_a_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value.lower() in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


def branches_on_a_game_name(source: str) -> list[int]:
    """The lines of ``source`` that compare a value with a game's name (``== "klondike"``,
    ``!= "pyramid"``, ``in ("pyramid", "klondike")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            tests = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)
            if any(isinstance(op, tests) for op in node.ops) and any(_names_a_game(o) for o in operands):
                found.append(node.lineno)
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            found.append(node.lineno)
    return found


def test_no_code_outside_the_spec_branches_on_a_game_name() -> None:
    root = Path(__file__).resolve().parents[1]
    modules = sorted((root / "solitaire_rl").rglob("*.py"))
    assert len(modules) > 100
    found = {}
    for path in modules:
        name = str(path.relative_to(root))
        if name not in SPEC_MODULES:
            lines = branches_on_a_game_name(path.read_text(encoding="utf-8"))
            if lines:
                found[name] = lines
    assert found == {}


def test_the_scan_sees_each_form_of_a_game_test() -> None:
    source = ('if game == "klondike": pass\nif "Pyramid" != v.game: pass\nok = g in ("pyramid", "x")\n'
              'match g:\n    case "klondike": pass\nfine = g in GAMES and g == "000"\n')
    assert branches_on_a_game_name(source) == [1, 2, 3, 5]


def test_the_play_pages_words_cover_each_games_vocabularies() -> None:
    """Each key a spec's verdict and chance estimate may say has its words on the play server (and no
    other key): the vocabularies are the spec's, the words the page's."""
    from solitaire_rl.play.server import klondike_advice, pyramid_advice, pyramid_chance

    texts = {"pyramid": (pyramid_advice.VERDICT_TEXT, pyramid_chance.CHANCE_TEXT),
             "klondike": (klondike_advice.VERDICT_TEXT, klondike_advice.CHANCE_TEXT)}
    for spec in SPECS:
        verdicts, chances = texts[spec.game]
        assert set(verdicts) == set(spec.verdicts) and set(chances) == set(spec.chances), spec.key
