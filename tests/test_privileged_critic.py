"""The privileged critic (issue 53): the policy never reads a hidden card, the critic does; training,
resuming, refusing and playing its checkpoints."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from checkpoint_helpers import rewrite_metadata
from gymnasium.vector import AutoresetMode

from solitaire_rl.agents.action_scoring_policy import ActionScoringPolicy
from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.ppo import CheckpointMismatchError, PpoPlayer, load_model, read_metadata
from solitaire_rl.agents.ppo_privileged import PrivilegedPpoPlayer
from solitaire_rl.agents.privileged_policy import (
    PrivilegedActionScorer,
    PrivilegedActionScoringPolicy,
    transfer_plain_weights,
)
from solitaire_rl.agents.registry import make_player, unavailable_reason
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.native_batch import NativeBatch
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.config import Args, parse_args
from solitaire_rl.training.native_vec_env import NativeVecEnv
from solitaire_rl.training.privileged import KLONDIKE_CARD_WIDTH, privileged_view
from solitaire_rl.training.privileged_model import policy_class_and_kwargs
from solitaire_rl.training.privileged_vec_env import PrivilegedVecEnv
from solitaire_rl.training.ship import ship
from solitaire_rl.training.train import main

KLONDIKE, PYRAMID, PYRAMID_001 = find_game("klondike"), find_game("pyramid-000"), find_game("pyramid-001")
ENCODING = {"klondike": "klondike-actions", "pyramid": "pyramid-actions-relaxed"}
SHIPPED = Path(__file__).resolve().parent.parent / "solitaire_rl" / "agents" / "checkpoints"


def same_view_other_hidden(variant: GameSpec) -> tuple[NativeBatch, dict[str, Any], dict[str, Any]]:
    """A two-game batch holding one position twice, two hidden cards swapped in the second."""
    batch = variant.make_batch(2, autoreset=AutoresetMode.DISABLED)
    batch.reset([0, 1], None, [variant.deal_id(1_000_007), variant.deal_id(1_000_007)])
    state = batch.get_state(0)
    other = copy.deepcopy(state)
    if variant.game == "klondike":  # the bottom face-down cards of columns 6 and 7
        columns = other["columns"]
        columns[5][0], columns[6][0] = columns[6][0], columns[5][0]
    else:  # two unseen stock cards of different ranks
        ranks, seen = other["stock_ranks"], other["seen"]
        unseen = [s for s in range(24) if not (seen >> s) & 1]
        a = unseen[0]
        b = next(s for s in unseen if ranks[s] != ranks[a])
        ranks[a], ranks[b] = ranks[b], ranks[a]
    batch.set_state(1, other)
    return batch, state, other


def policy_for(variant: GameSpec) -> PrivilegedActionScoringPolicy:
    encoding = find_encoding(ENCODING[variant.game], variant.game)
    view = privileged_view(variant.game)
    env = PrivilegedVecEnv(NativeVecEnv(variant, 2, encoding=encoding))
    _, kwargs = policy_class_and_kwargs(encoding, view)
    torch.manual_seed(0)
    return PrivilegedActionScoringPolicy(env.observation_space, env.action_space, lambda _: 1e-3,
                                         net_arch=[16, 16, 16], **kwargs)


def inputs_of(variant: GameSpec, batch: NativeBatch, states: list[dict[str, Any]]) -> np.ndarray:
    encoding = find_encoding(ENCODING[variant.game], variant.game)
    encoded = encoding.encode_batch(batch.obs, batch.mask)
    return np.concatenate([encoded, privileged_view(variant.game).vectors(states)], axis=1)


@pytest.mark.parametrize("variant", [KLONDIKE, PYRAMID, PYRAMID_001], ids=lambda v: v.key)
def test_moving_hidden_cards_changes_no_action_probability_but_the_critic_input(variant: GameSpec) -> None:
    batch, state, other = same_view_other_hidden(variant)
    assert np.array_equal(batch.obs[0], batch.obs[1]) and np.array_equal(batch.mask[0], batch.mask[1])
    features = inputs_of(variant, batch, [state, other])
    size = privileged_view(variant.game).size
    assert np.array_equal(features[0, :-size], features[1, :-size])
    assert not np.array_equal(features[0, -size:], features[1, -size:])
    policy = policy_for(variant)
    with torch.no_grad():
        tensor = torch.as_tensor(features)
        probs = policy.get_distribution(tensor, action_masks=batch.mask.astype(bool)).distribution.probs
        values = policy.predict_values(tensor)
    assert torch.equal(probs[0], probs[1])  # bit for bit
    assert values[0].item() != values[1].item()


@pytest.mark.parametrize("variant", [KLONDIKE, PYRAMID], ids=lambda v: v.key)
def test_no_actor_parameter_receives_the_privileged_input(variant: GameSpec) -> None:
    batch, state, other = same_view_other_hidden(variant)
    features = torch.as_tensor(inputs_of(variant, batch, [state, other]), dtype=torch.float32)
    policy = policy_for(variant)
    extractor = policy.mlp_extractor
    assert isinstance(extractor, PrivilegedActionScorer)
    size = extractor.privileged_size
    noise = features.clone()
    noise[:, -size:] = torch.rand(2, size)
    seen: list[list[torch.Tensor]] = [[], []]
    for run, inputs in enumerate((features, noise)):  # every actor layer's input, once per run
        hooks = [module.register_forward_pre_hook(
            lambda _m, args, run=run: seen[run].append(args[0].detach().clone()))
            for module in (*extractor.context, *extractor.scorer)]
        try:
            inputs.requires_grad_(True)
            logits = extractor.forward_actor(inputs)
            (logits * torch.linspace(-1, 1, logits.shape[1])).sum().backward()
        finally:
            for hook in hooks:
                hook.remove()
        grad = inputs.grad
        assert grad is not None
        assert torch.count_nonzero(grad[:, -size:]) == 0 and torch.count_nonzero(grad[:, :-size]) > 0
    assert seen[0][0].shape[1] == extractor.flat_size
    assert len(seen[0]) == len(seen[1]) and all(torch.equal(a, b) for a, b in zip(*seen, strict=True))
    features.grad = None
    policy.predict_values(features).sum().backward()
    assert features.grad is not None and torch.count_nonzero(features.grad[:, -size:]) > 0


def test_the_klondike_vector_holds_the_face_down_cards_and_the_unseen_stock_in_order() -> None:
    batch = KLONDIKE.make_batch(1, autoreset=AutoresetMode.DISABLED)
    batch.reset([0], None, [KLONDIKE.deal_id(1_000_011)])
    rng = np.random.default_rng(0)
    view = privileged_view("klondike")
    for _ in range(60):
        game = batch.game(0)  # type: ignore[attr-defined]
        rows = view.vector(batch.get_state(0)).reshape(52, KLONDIKE_CARD_WIDTH)
        down = {card: (c, game.hidden[c] - 1 - k) for c, col in enumerate(game.columns)
                for k, card in enumerate(col[: game.hidden[c]])}
        unseen = game.unseen_stock()  # top first
        assert set(np.flatnonzero(rows.any(axis=1))) == set(down) | set(unseen)
        for card, (column, depth) in down.items():
            assert rows[card, column] == 1 and rows[card, :7].sum() == 1 and rows[card, 7] == 0
            assert rows[card, 8] == pytest.approx(depth / 6)
        stock_top_first = game.stock[::-1]
        for card in unseen:
            assert rows[card, 7] == 1 and rows[card, 8] == pytest.approx(stock_top_first.index(card) / 23)
        legal = np.flatnonzero(batch.mask[0])
        batch.step(np.array([rng.choice(legal)]))
        if batch.terminated[0] or batch.truncated[0]:
            break


@pytest.mark.parametrize("variant", [KLONDIKE, PYRAMID], ids=lambda v: v.key)
def test_a_truncated_games_last_observation_carries_its_own_hidden_cards(variant: GameSpec) -> None:
    encoding = find_encoding(ENCODING[variant.game], variant.game)
    env = PrivilegedVecEnv(NativeVecEnv(variant, 3, encoding=encoding, max_episode_steps=6))
    reference = variant.make_batch(3, max_episode_steps=None, autoreset=AutoresetMode.DISABLED)
    env.seed(4)
    reference.reset([0, 1, 2], [*env.venv._seeds], None)
    observations = env.reset()
    view = privileged_view(variant.game)
    assert np.array_equal(observations[:, env.observation_size:], view.vectors(
        [reference.get_state(i) for i in range(3)]))
    rng = np.random.default_rng(1)
    for step in range(6):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in reference.mask])
        observations, _, dones, infos = env.step(actions)
        reference.step(actions)
        expected = view.vectors([reference.get_state(i) for i in range(3)])
        if step < 5:
            assert not dones.any() and np.array_equal(observations[:, env.observation_size:], expected)
    assert dones.all()
    for i in range(3):
        final = infos[i]["terminal_observation"]
        assert infos[i]["TimeLimit.truncated"] and np.array_equal(final[env.observation_size:], expected[i])
        assert np.array_equal(final[: env.observation_size], encoding.encode_batch(
            reference.obs[i:i + 1], reference.mask[i:i + 1])[0])


def test_privileged_settings_that_cannot_work_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="action-scoring encoding"):
        parse_args(["pyramid", "--privileged-critic"])  # pyramid-flat: an MLP policy
    with pytest.raises(MalformedInputError, match="vec_env native or auto"):
        parse_args(["klondike", "--encoding", "klondike-actions", "--privileged-critic",
                    "--vec-env", "dummy"])
    with pytest.raises(MalformedInputError, match="give it or resume, not both"):
        parse_args(["klondike", "--init-from", "x.zip", "--resume", "y.zip"])
    args = parse_args(["pyramid-001", "--encoding", "pyramid-actions", "--privileged-critic"])
    assert args.privileged_critic and args.vec_env_kind() == "native"


def tiny(tmp_path: Path, **overrides: object) -> Args:
    values: dict[str, object] = dict(
        game="pyramid", encoding="pyramid-actions", total_timesteps=512, n_envs=2, n_steps=128,
        batch_size=128, n_epochs=1, net_arch=(16, 16, 16), eval_freq=256, eval_deals=3, checkpoint_freq=0,
        runs_dir=tmp_path, progress_bar=False, tensorboard=False, seed=3, privileged_critic=True)
    values.update(overrides)
    return Args(**values)  # type: ignore[arg-type]


def test_a_privileged_run_resumes_is_refused_as_ppo_and_its_actor_plays(tmp_path: Path) -> None:
    plain = main(tiny(tmp_path / "plain", privileged_critic=False, eval_freq=0)).final_checkpoint
    result = main(tiny(tmp_path / "privileged", init_from=plain, imitation_episodes=3))  # init_from wins
    assert not (result.run_dir / "imitation.json").exists()
    path = result.final_checkpoint
    metadata = read_metadata(path)
    assert metadata["privileged"] == privileged_view("pyramid").record()
    assert metadata["encoding"]["size"] == find_encoding("pyramid-actions", "pyramid").size
    assert result.eval_win_rate is not None and (result.run_dir / "best.zip").is_file()

    with pytest.raises(CheckpointMismatchError, match=r"privileged critic.*play it as ppo-privileged"):
        PpoPlayer(PYRAMID, path)
    assert "ppo-privileged" in str(unavailable_reason("ppo", PYRAMID, path))
    with pytest.raises(CheckpointMismatchError, match=r"plain MaskablePPO checkpoint.*play it as ppo"):
        PrivilegedPpoPlayer(PYRAMID, plain)
    with pytest.raises(CheckpointMismatchError, match="trained on pyramid-000, not pyramid-001"):
        PrivilegedPpoPlayer(PYRAMID_001, path)
    wrong_size = rewrite_metadata(path, tmp_path / "size.zip",
                                  lambda r: r["encoding"].__setitem__("size", 999))
    with pytest.raises(CheckpointMismatchError, match="999 values"):
        PrivilegedPpoPlayer(PYRAMID, wrong_size)
    with pytest.raises(MalformedInputError, match="privileged critic: resume it with --privileged-critic"):
        main(tiny(tmp_path / "again", privileged_critic=False, resume=path))
    with pytest.raises(MalformedInputError, match="plain critic: resume it without --privileged-critic"):
        main(tiny(tmp_path / "again", resume=plain))
    resumed = main(tiny(tmp_path / "again", resume=path, total_timesteps=768, eval_freq=0))
    assert resumed.timesteps == 768 and "privileged" in read_metadata(resumed.final_checkpoint)

    shipped = ship(result.run_dir, tmp_path / "shipped.zip")
    assert read_metadata(shipped)["privileged"] == metadata["privileged"]
    assert not read_metadata(shipped)["optimizer_state"]
    player = make_player("ppo-privileged", PYRAMID, checkpoint=shipped, deterministic=True)
    assert isinstance(player, PrivilegedPpoPlayer)
    assert not hasattr(player, "model")  # the actor alone: no critic, no stable-baselines3 model
    model, _ = _full_model(path)
    env = PYRAMID.make_env()
    obs, info = env.reset(options={"deal": PYRAMID.deal_id(5)})
    encoding = find_encoding("pyramid-actions", "pyramid")
    for _ in range(5):
        mask = np.asarray(info["action_mask"], np.bool_)
        hidden = np.zeros(privileged_view("pyramid").size, np.float32)
        full = np.concatenate([encoding.encode(obs, mask), hidden])
        with torch.no_grad():
            tensor, _ = model.policy.obs_to_tensor(full)
            expected = model.policy.get_distribution(tensor, action_masks=mask[None]).distribution.probs[0]
        assert np.allclose(player.action_probabilities(obs, mask), expected.numpy(), atol=1e-6)
        obs, _, done, _, info = env.step(player.act(obs, mask, info))
        if done:
            break
    game = play_episode(PYRAMID.make_env(), player, PYRAMID.deal_id(9), PYRAMID.cards_cleared)
    assert game.steps > 0


def _full_model(path: Path) -> tuple[Any, dict[str, Any]]:
    """The whole MaskablePPO model of a privileged checkpoint (critic too), as training resumes it."""
    return load_model(path, PYRAMID, privileged=True)


def test_a_plain_model_loaded_for_resuming_refuses_a_privileged_checkpoint(tmp_path: Path) -> None:
    path = main(tiny(tmp_path, eval_freq=0)).final_checkpoint
    with pytest.raises(CheckpointMismatchError, match="play it as ppo-privileged"):
        load_model(path, PYRAMID)


@pytest.mark.parametrize("key", ["klondike-draw3", "pyramid-000"])
def test_the_shipped_privileged_checkpoint_loads_and_plays(key: str) -> None:
    variant = find_game(key)
    assert (SHIPPED / f"{key}-privileged.zip").is_file()
    assert unavailable_reason("ppo-privileged", variant) is None
    assert unavailable_reason("ppo", variant) is None  # ppo is still its own checkpoint
    player = make_player("ppo-privileged", variant, seed=0)
    game = play_episode(variant.make_env(), player, variant.deal_id(100_001), variant.cards_cleared)
    assert game.steps > 0
    assert read_metadata(SHIPPED / f"{key}.zip").get("privileged") is None


def test_a_privileged_policy_starts_with_the_plain_policys_moves_and_values() -> None:
    batch, state, other = same_view_other_hidden(PYRAMID)
    features = torch.as_tensor(inputs_of(PYRAMID, batch, [state, other]))
    privileged = policy_for(PYRAMID)
    encoding = find_encoding(ENCODING["pyramid"], "pyramid")
    plain_env = NativeVecEnv(PYRAMID, 2, encoding=encoding)
    _, kwargs = policy_class_and_kwargs(encoding, None)
    plain = ActionScoringPolicy(plain_env.observation_space, plain_env.action_space, lambda _: 1e-3,
                                net_arch=[16, 16, 16], **kwargs)
    transfer_plain_weights(plain, privileged)
    size = privileged_view("pyramid").size
    masks = batch.mask.astype(bool)
    with torch.no_grad():
        mine = privileged.get_distribution(features, action_masks=masks).distribution.probs
        theirs = plain.get_distribution(features[:, :-size], action_masks=masks).distribution.probs
        assert torch.equal(mine, theirs)
        assert torch.allclose(privileged.predict_values(features), plain.predict_values(features[:, :-size]))
    with pytest.raises(ValueError, match="not the same network"):
        transfer_plain_weights(_without_value_net(plain), privileged)


def _without_value_net(policy: ActionScoringPolicy) -> ActionScoringPolicy:
    policy.value_net = torch.nn.Identity()  # type: ignore[assignment]
    return policy


def test_the_warm_start_of_a_privileged_run_is_the_plain_runs(tmp_path: Path) -> None:
    runs = [main(tiny(tmp_path / kind, privileged_critic=kind == "privileged", imitation_episodes=2,
                      total_timesteps=256, eval_freq=0)).run_dir for kind in ("plain", "privileged")]
    records = [json.loads((run / "imitation.json").read_text()) for run in runs]
    for record in records:
        record.pop("seconds")
    assert records[0] == records[1] and records[0]["steps"] > 0


def test_world_labels_fit_the_critics_own_head_and_leave_the_actor_alone(tmp_path: Path) -> None:
    from solitaire_rl.training.world_labels import LabelConfig, run
    from solitaire_rl.training.world_score_fit import WorldScoreFit, load_world_scores

    folder = tmp_path / "labels"
    config = LabelConfig(chunk=1, max_worlds=60, bot_options={"cap": 150, "hopeless_worlds": 30},
                         label_worlds=8, label_cap=100)
    run(folder, config, 1_000_017, 1, progress=False)
    encoding, view = find_encoding("klondike-actions", "klondike"), privileged_view("klondike")
    data = load_world_scores(folder, KLONDIKE, encoding, view)
    assert len(data) > 0 and data.inputs.shape[1] == encoding.size + view.size
    assert ((data.targets >= 0) & (data.targets <= 1)).all() and data.cpu_hours > 0
    assert (data.inputs[:, -view.size:] != 0).any(axis=1).all()  # a commitment hides something
    with pytest.raises(MalformedInputError, match="not pyramid-000's"):
        load_world_scores(folder, PYRAMID, encoding, view)
    with pytest.raises(MalformedInputError, match="add privileged_critic"):
        parse_args(["klondike", "--encoding", "klondike-actions", "--world-labels", str(folder)])

    args = tiny(tmp_path / "run", game="klondike", encoding="klondike-actions", world_labels=folder,
                world_label_steps=3, world_label_batch=8, eval_freq=0)
    result = main(args)
    assert read_metadata(result.final_checkpoint)["world_labels"]["rows"] == len(data)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(result.final_checkpoint,
                             custom_objects={"policy_class": PrivilegedActionScoringPolicy})
    extractor = model.policy.mlp_extractor
    assert isinstance(extractor, PrivilegedActionScorer) and extractor.world_head is not None
    actor = [p.detach().clone() for p in (*extractor.context.parameters(), *extractor.scorer.parameters())]
    head = extractor.world_head.weight.detach().clone()
    from stable_baselines3.common.logger import configure

    model.set_logger(configure(None, []))
    for group in model.policy.optimizer.param_groups:  # the run ended with its rate annealed to 0
        group["lr"] = 1e-3
    fit = WorldScoreFit(data, coef=1.0, steps=2, batch_size=8, seed=0)
    fit.init_callback(model)
    fit.on_rollout_end()
    assert not torch.equal(head, extractor.world_head.weight)
    after = [*extractor.context.parameters(), *extractor.scorer.parameters()]
    assert all(torch.equal(a, b) for a, b in zip(actor, after, strict=True))
    assert PrivilegedPpoPlayer(KLONDIKE, result.final_checkpoint).actor is not None  # plays without the head
