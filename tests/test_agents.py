"""Players: legal moves only, the greedy heuristic's documented rules, the solver, the registry."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from solitaire_rl.agents.base import Choice, Player, legal_actions, play_episode
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.agents.greedy.pyramid import PyramidView, partners_short, score_pyramid_action
from solitaire_rl.agents.random_agent import RandomPlayer
from solitaire_rl.agents.registry import AGENT_NAMES, make_player, unavailable_reason
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.pyramid.actions import DRAW_ACTION, move_to_action
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.moves import Move
from solitaire_rl.envs.spec import TRAINED_SPECS, find_game
from tests.checkpoint_helpers import chosen_by_sampling, rewrite_metadata
from tests.position_helpers import choices_while_observations_agree

PYRAMID_VARIANTS = [TRAINED_SPECS["pyramid-000"], TRAINED_SPECS["pyramid-001"]]
OUTCOMES = {"win", "dead_end", "truncated"}


def solver_available() -> bool:
    return unavailable_reason("solver", "pyramid") is None


@pytest.fixture(params=PYRAMID_VARIANTS, ids=lambda v: v.key)
def variant(request: pytest.FixtureRequest):
    return request.param


class Recorder(Player):
    """Wraps a player and checks every choice against the mask it was given."""

    name = "recorder"

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.choices: list[tuple[int, bool]] = []

    def reset(self, env) -> None:
        self.inner.reset(env)

    def choose(self, observation, mask, info) -> Choice:
        choice = self.inner.choose(observation, mask, info)
        assert np.array_equal(mask, np.asarray(info["action_mask"], bool))
        self.choices.append((choice.action, bool(mask[choice.action])))
        return choice


@pytest.mark.parametrize("name", ["random", "greedy", "solver"])
def test_players_play_legal_moves_only_over_many_deals(name: str, variant) -> None:
    if name == "solver" and not solver_available():
        pytest.skip(unavailable_reason("solver", "pyramid"))
    player = Recorder(make_player(name, variant, **({"seed": 7} if name == "random" else {})))
    env = variant.make_env()
    for number in range(1, 41):
        result = play_episode(env, player, variant.deal_id(number), variant.cards_cleared)
        assert result.outcome in OUTCOMES and result.won == (result.outcome == "win")
        assert 0 <= result.cards_cleared <= NUM_PYRAMID and result.steps > 0
        assert result.won == (result.cards_cleared == NUM_PYRAMID)
    assert player.choices and all(legal for _, legal in player.choices)


def test_play_episode_refuses_a_player_that_picks_a_masked_action() -> None:
    class Cheater(Player):
        name = "cheater"

        def choose(self, observation, mask, info) -> Choice:
            return Choice(int(np.flatnonzero(~mask)[0]))

    variant = find_game("pyramid")
    with pytest.raises(IllegalMoveError, match="cheater"):
        play_episode(variant.make_env(), Cheater(), variant.deal_id(1), variant.cards_cleared)


def test_random_player_is_uniform_over_legal_actions_and_seeded() -> None:
    mask = np.zeros(467, bool)
    mask[[3, 100, 466]] = True
    player = RandomPlayer(seed=1)
    picks = [player.act(np.zeros(1), mask, {}) for _ in range(3000)]
    counts = {a: picks.count(a) for a in (3, 100, 466)}
    assert sum(counts.values()) == 3000
    assert all(850 < c < 1150 for c in counts.values()), counts
    again = RandomPlayer(seed=1)
    assert [again.act(np.zeros(1), mask, {}) for _ in range(3000)] == picks
    with pytest.raises(IllegalMoveError):
        player.act(np.zeros(1), np.zeros(467, bool), {})


def test_legal_actions_lists_the_mask() -> None:
    mask = np.array([False, True, False, True])
    assert legal_actions(mask).tolist() == [1, 3]


# ------------------------------------------------------------------------- greedy, Pyramid
# The bottom row: AC 6C KC 7D AD 5C 8D. Usable pairs: 6C+7D (r7c2+r7c4, once KC is gone, uncovers
# r6c2 and r6c3), 5C+8D (r7c6+r7c7, uncovers r6c6); KC alone. The stock top AH pairs with nothing.
SCENARIO = {"r7c1": "AC", "r7c2": "6C", "r7c3": "KC", "r7c4": "7D", "r7c5": "AD", "r7c6": "5C", "r7c7": "8D"}


def first_choices(deal: str, variant, steps: int) -> list[Choice]:
    env = variant.make_env()
    obs, info = env.reset(options={"deal": deal})
    player = GreedyPlayer(variant)
    choices = []
    for _ in range(steps):
        choice = player.choose(obs, np.asarray(info["action_mask"], bool), info)
        choices.append(choice)
        obs, _, _, _, info = env.step(choice.action)
    return choices


def test_greedy_removes_a_king_at_once_then_the_pair_uncovering_two_cards(variant, build_deal) -> None:
    deal = build_deal(SCENARIO, ["AH"])
    king, pair = first_choices(deal, variant, 2)
    assert king.action == move_to_action(Move.parse("r7c3")) and "King" in king.reason
    assert pair.action == move_to_action(Move.parse("r7c2+r7c4")) and "uncovers 2" in pair.reason


# The apex QC lies under every other pyramid card, so the pyramid aces (AC AD AH, rows 2-3) can
# never pair with it: it needs the one ace outside the pyramid, AS. The stock deals AS then QS;
# the bottom row holds no pair and no King.
SCARCE = {"r1c1": "QC", "r2c1": "AC", "r2c2": "AD", "r3c1": "AH",
          "r7c1": "2C", "r7c2": "2D", "r7c3": "2H", "r7c4": "3C", "r7c5": "3D", "r7c6": "3H", "r7c7": "4C"}


def test_greedy_keeps_the_last_partner_a_pyramid_card_needs(build_deal) -> None:
    variant = find_game("pyramid-000")
    draw, second = first_choices(build_deal(SCARCE, ["AS", "QS"]), variant, 2)
    assert draw.action == DRAW_ACTION
    assert second.action == DRAW_ACTION  # not stock+waste (QS+AS): the apex QC would lose its last partner
    env = variant.make_env()
    obs, _ = env.reset(options={"deal": build_deal(SCARCE, ["AS", "QS"])})
    obs, *_ = env.step(DRAW_ACTION)
    score, reason = score_pyramid_action(PyramidView.decode(obs), move_to_action(Move.parse("stock+waste")))
    assert score < 0 and "scarce" in reason


def test_greedy_plays_the_same_stock_pair_when_no_pyramid_card_needs_it(build_deal) -> None:
    variant = find_game("pyramid-000")
    plain = {**SCARCE, "r1c1": "KH"}  # a King at the apex needs no partner
    _, pair = first_choices(build_deal(plain, ["AS", "QS"]), variant, 2)
    assert pair.action == move_to_action(Move.parse("stock+waste"))


def test_partners_short_counts_cards_that_can_get_no_partner() -> None:
    ranks = tuple([12] + [1] * 3 + [13] * 24)  # a Q at the apex, three aces on it, Kings elsewhere
    left = [0] + [4] * 13
    assert partners_short(ranks, 0, left) == 0  # one ace and three queens remain outside
    left[1] = 3  # the outside ace is gone
    assert partners_short(ranks, 0, left) == 1


@pytest.mark.parametrize("number", [3, 11, 29])
def test_greedy_never_reads_unseen_stock_cards(variant, number: int) -> None:
    """Two deals that differ only in stock cards not yet seen get the same choices while the
    observations agree (the heuristic reads only the observation)."""
    cards = list(DealId.parse(f"pyramid-random-v1-{number}").cards())
    other = cards[:NUM_PYRAMID + 1] + list(reversed(cards[NUM_PYRAMID + 1:]))
    compared = choices_while_observations_agree(variant.key, cards, other, lambda: GreedyPlayer(variant))
    assert compared >= 1


# ------------------------------------------------------------------------------ solver
@pytest.mark.skipif(not solver_available(), reason="the exact solver is not available")
def test_solver_player_wins_exactly_the_deals_it_proves_winnable(variant) -> None:
    player = make_player("solver", variant)
    assert player.sees_hidden_cards
    env = variant.make_env()
    verdicts = []
    for number in range(1, 21):
        result = play_episode(env, player, variant.deal_id(number), variant.cards_cleared)
        verdicts.append(player.result.status)
        assert result.won == (player.result.status == "winnable")
    assert "winnable" in verdicts and "not_winnable" in verdicts


# ---------------------------------------------------------------------------- registry
def test_registry_names_and_errors() -> None:
    assert AGENT_NAMES == ("random", "greedy", "ppo", "solver", "pimc", "hop", "ismcts", "expert-net",
                           "guided-ismcts", "guided-pimc", "world-bandit", "ppo-privileged",
                           "expert-sampled")
    tree = make_player("ismcts", "klondike", seed=0)
    assert tree.name == "ismcts" and tree.search == "tree"  # type: ignore[attr-defined]
    assert unavailable_reason("ismcts", "pyramid-001") == "the ismcts player plays Klondike only"
    assert isinstance(make_player("greedy", "pyramid-001"), GreedyPlayer)
    with pytest.raises(MalformedInputError, match="unknown agent"):
        make_player("alphazero", "pyramid")
    with pytest.raises(MalformedInputError, match="unknown game or variant"):
        make_player("random", "spider")
    assert unavailable_reason("random", "pyramid") is None
    assert "no checkpoint" in unavailable_reason("ppo", "pyramid", checkpoint="/nonexistent/x.zip")


def test_importing_agents_loads_neither_torch_nor_the_native_solver() -> None:
    code = (
        "import sys, solitaire_rl.agents, solitaire_rl.agents.registry, solitaire_rl.agents.greedy,"
        " solitaire_rl.agents.ppo, solitaire_rl.agents.base, solitaire_rl.agents.games,"
        " solitaire_rl.envs.spec;"
        "print([m for m in ('torch', 'sb3_contrib', 'solitaire_native') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_find_game_accepts_games_and_keys() -> None:
    assert find_game("pyramid").key == "pyramid-000"
    assert find_game("Pyramid", "001").key == "pyramid-001"
    assert find_game("klondike").key == "klondike-draw3"
    assert find_game("pyramid-001").env_kwargs == {"stock_top_playable": False}


# --------------------------------------------------------------------------------- ppo
@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory: pytest.TempPathFactory):
    """An untrained MaskablePPO policy for pyramid-000 saved with its metadata (no learning needed:
    what is tested is the masking and the metadata checks)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from solitaire_rl.agents.encodings import find_encoding
    from solitaire_rl.agents.ppo import build_metadata, save_checkpoint

    variant = find_game("pyramid-000")
    env = DummyVecEnv([variant.make_env])
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [16]},
                        seed=0, device="cpu")
    metadata = build_metadata(variant, find_encoding("pyramid-flat", "pyramid"), env.observation_space,
                              {"run_name": "test"})
    path = save_checkpoint(model, tmp_path_factory.mktemp("ppo") / "tiny", metadata)
    env.close()
    return path, metadata, model


@pytest.mark.parametrize("deterministic", [True, False])
def test_ppo_player_never_picks_a_masked_action(tiny_checkpoint, deterministic: bool) -> None:
    from solitaire_rl.agents.ppo import PpoPlayer

    path, _, model = tiny_checkpoint
    variant = find_game("pyramid-000")
    player = PpoPlayer(variant, path, deterministic=deterministic, seed=1)
    recorder = Recorder(player)
    env = variant.make_env()
    for number in range(1, 6):
        play_episode(env, recorder, variant.deal_id(number), variant.cards_cleared)
    assert recorder.choices and all(legal for _, legal in recorder.choices)
    obs, info = env.reset(options={"deal": variant.deal_id(7)})
    mask = np.asarray(info["action_mask"], bool)
    probs = player.action_probabilities(obs, mask)
    assert probs.sum() == pytest.approx(1.0, abs=1e-5) and not probs[~mask].any()
    if deterministic:
        predicted, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert player.choose(obs, mask, info).action == int(predicted)
        assert "likely" in player.choose(obs, mask, info).reason


def test_ppo_player_plays_as_its_checkpoint_was_chosen(tiny_checkpoint, tmp_path) -> None:
    """By default a checkpoint chosen by sampled evaluation samples, any other one plays its most
    probable move; an explicit ``deterministic`` overrides both, and an odd record means argmax."""
    from solitaire_rl.agents.ppo import PpoPlayer, read_metadata

    path, _, model = tiny_checkpoint
    sampled = rewrite_metadata(path, tmp_path / "sampled.zip", chosen_by_sampling)
    odd = rewrite_metadata(path, tmp_path / "odd.zip",
                           lambda m: m["training"].update(args={"eval_sample": "yes"}))
    assert read_metadata(sampled)["training"]["args"]["eval_sample"] is True
    variant = find_game("pyramid-000")
    env = variant.make_env()
    obs, info = env.reset(options={"deal": variant.deal_id(7)})
    mask = np.asarray(info["action_mask"], bool)
    predicted = int(model.predict(obs, action_masks=mask, deterministic=True)[0])

    def picks(checkpoint, **options) -> set[int]:
        player = PpoPlayer(variant, checkpoint, **options)
        chosen = set()
        for seed in range(40):
            player.reseed(seed)
            chosen.add(player.choose(obs, mask, info).action)
        return chosen

    assert picks(path) == picks(odd) == picks(sampled, deterministic=True) == {predicted}
    sampled_picks = picks(sampled)
    assert len(sampled_picks) > 1 and all(mask[a] for a in sampled_picks)
    assert sampled_picks == picks(path, deterministic=False)


def test_the_shipped_klondike_agent_samples_and_the_pyramid_agents_do_not() -> None:
    """The shipped Klondike checkpoint was chosen by sampled evaluation (its most probable move
    cycles), so by default it samples; the Pyramid ones play their most probable move."""
    from solitaire_rl.agents.ppo import PpoPlayer

    assert not PpoPlayer("klondike").deterministic
    assert PpoPlayer("pyramid-000").deterministic and PpoPlayer("pyramid-001").deterministic


def test_loading_a_checkpoint_that_does_not_match_fails_clearly(tiny_checkpoint, tmp_path) -> None:
    from solitaire_rl.agents.ppo import CheckpointError, CheckpointMismatchError, PpoPlayer

    path, _, model = tiny_checkpoint
    with pytest.raises(CheckpointMismatchError, match="trained on pyramid-000, not pyramid-001"):
        PpoPlayer("pyramid-001", path)
    with pytest.raises(CheckpointMismatchError, match="trained on pyramid-000, not klondike-draw3"):
        PpoPlayer("klondike", path)
    cases = {
        "digest": (lambda m: m["encoding"].update(digest="0" * 16), "observation changed since training"),
        "version": (lambda m: m["encoding"].update(version=0), "pyramid-flat v0, this code has v1"),
        "name": (lambda m: m["encoding"].update(name="pyramid-images"), "unknown observation encoding"),
        "actions": (lambda m: m.update(num_actions=466), "466 actions but the pyramid-000 env.* has 467"),
    }
    for name, (change, message) in cases.items():
        bad = tmp_path / f"{name}.zip"
        rewrite_metadata(path, bad, change)
        with pytest.raises(MalformedInputError, match=message):
            PpoPlayer("pyramid-000", bad)
    plain = tmp_path / "plain.zip"
    model.save(plain)
    with pytest.raises(CheckpointError, match=r"not saved by solitaire_rl\.training\.train"):
        PpoPlayer("pyramid-000", plain)
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        PpoPlayer("pyramid-000", garbage)
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        PpoPlayer("pyramid-000", tmp_path / "missing.zip")


def test_ppo_loads_the_shipped_checkpoint_by_default(tiny_checkpoint, tmp_path, monkeypatch) -> None:
    import shutil

    import solitaire_rl.agents.ppo
    from solitaire_rl.agents.ppo import CheckpointError, PpoPlayer

    monkeypatch.setattr(solitaire_rl.agents.ppo, "CHECKPOINT_DIR", tmp_path)
    with pytest.raises(CheckpointError, match="no shipped checkpoint for pyramid-000"):
        PpoPlayer("pyramid-000")
    shutil.copyfile(tiny_checkpoint[0], tmp_path / "pyramid-000.zip")
    assert PpoPlayer("pyramid-000").checkpoint == tmp_path / "pyramid-000.zip"
    assert unavailable_reason("ppo", "pyramid-000") is None
