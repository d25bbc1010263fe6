"""Training: the deal split, settings, the mask-caching vector env, and tiny real training runs."""

from __future__ import annotations

import copy
import csv
import itertools
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.ppo import METADATA_NAME, PpoPlayer, read_metadata
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.native_batch import spawn_seeds
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.config import Args, load_config, parse_args
from solitaire_rl.training.ship import choose_checkpoint, held_out_win_rate
from solitaire_rl.training.splits import (
    BENCHMARK,
    EVAL,
    SPLITS,
    TRAIN,
    DealSplitWrapper,
    parse_deal_numbers,
    split_of,
)
from solitaire_rl.training.train import main, metric_name
from solitaire_rl.training.vec_env import InProcessVecEnv, MaskCachingSubprocVecEnv, make_env_fn

PYRAMID = find_game("pyramid-000")
FLAT = find_encoding("pyramid-flat", "pyramid")


# ------------------------------------------------------------------------------- the split
def test_splits_are_disjoint_and_cover_the_documented_numbers() -> None:
    assert (BENCHMARK.first, BENCHMARK.last) == (1, 100_000)
    assert (EVAL.first, EVAL.last) == (100_001, 110_000)
    assert (TRAIN.first, TRAIN.last) == (1_000_000, 2**31 - 1)
    ranges = sorted(SPLITS.values(), key=lambda s: s.first)
    assert all(a.last < b.first for a, b in itertools.pairwise(ranges))
    assert split_of(1000) == "benchmark" and split_of(100_001) == "eval" and split_of(500_000) is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_training_wrapper_never_deals_outside_the_training_split(seed: int) -> None:
    env = DealSplitWrapper(PYRAMID.make_env(), "pyramid", TRAIN)
    _, info = env.reset(seed=seed)
    numbers = [info["deal_number"]] + [env.reset()[1]["deal_number"] for _ in range(5)]
    assert all(n in TRAIN for n in numbers)
    assert info["deal_id"] == f"pyramid-random-v1-{numbers[0]}"


def test_the_training_wrapper_is_reproducible_and_refuses_other_deals() -> None:
    def numbers(seed: int) -> list[int]:
        env = DealSplitWrapper(PYRAMID.make_env(), "pyramid", TRAIN)
        return [env.reset(seed=seed)[1]["deal_number"]] + [env.reset()[1]["deal_number"] for _ in range(3)]

    assert numbers(5) == numbers(5) != numbers(6)
    env = DealSplitWrapper(PYRAMID.make_env(), "pyramid", TRAIN)
    for deal in ("pyramid-random-v1-42", "pyramid-random-v1-100500", "klondike-random-v1-2000000"):
        with pytest.raises(MalformedInputError, match="train split"):
            env.reset(options={"deal": deal})
    assert env.reset(options={"deal": "pyramid-random-v1-2000000"})[1]["deal_number"] == 2_000_000


def test_the_eval_wrapper_deals_its_fixed_list_in_turn_and_reports_success() -> None:
    env = DealSplitWrapper(PYRAMID.make_env(), "pyramid", EVAL, EVAL.numbers(3))
    assert [env.reset()[1]["deal_number"] for _ in range(4)] == [100_001, 100_002, 100_003, 100_001]
    with pytest.raises(MalformedInputError, match="not in the eval split"):
        DealSplitWrapper(PYRAMID.make_env(), "pyramid", EVAL, [5])
    _, info = env.reset()
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    assert info["is_success"] == (info.get("outcome") == "win")


def test_parse_deal_numbers() -> None:
    assert parse_deal_numbers("1-5") == [1, 2, 3, 4, 5]
    assert parse_deal_numbers("7, 1-2,7") == [1, 2, 7]
    for bad in ("", "5-1", "a-b", "1-"):
        with pytest.raises(MalformedInputError):
            parse_deal_numbers(bad)


# ------------------------------------------------------------------------------- settings
def test_args_from_flags_and_a_config_file(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('game = "pyramid-001"\nn_envs = 4\nbatch_size = 256\n'
                      'net_arch = [64, 32]\nent_coef = 0.02\n')
    args = parse_args(["--config", str(config), "--ent-coef", "0.05"])
    assert (args.game, args.n_envs, args.net_arch, args.ent_coef) == ("pyramid-001", 4, (64, 32), 0.05)
    assert args.variant_spec().key == "pyramid-001" and args.encoding_name() == "pyramid-flat"
    assert parse_args(["klondike", f"--config={config}"]).variant_spec().key == "klondike-draw3"
    name = Args(game="pyramid", exp_name="x", seed=3).run_name(now=1700000000)
    assert name == "pyramid-000__x__3__1700000000"


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("n_env = 4\n")
    with pytest.raises(MalformedInputError, match="unknown setting"):
        load_config(config)
    config.write_text("n_envs = [\n")
    with pytest.raises(MalformedInputError, match="not valid TOML"):
        load_config(config)
    with pytest.raises(MalformedInputError, match="exceeds the rollout size"):
        parse_args(["pyramid", "--n-envs", "2", "--n-steps", "64", "--batch-size", "256"])
    with pytest.raises(MalformedInputError, match="unknown game"):
        parse_args(["solitaire"])


def test_the_old_shaped_reward_spelling_still_works_and_warns(tmp_path: Path) -> None:
    assert parse_args(["pyramid", "--no-reward-shaping"]).reward_shaping is False
    with pytest.warns(DeprecationWarning, match="command line: shaped_reward is deprecated, use reward"):
        assert parse_args(["pyramid", "--no-shaped-reward"]).reward_shaping is False
    config = tmp_path / "old.toml"
    config.write_text('game = "pyramid"\nshaped_reward = false\n')
    with pytest.warns(DeprecationWarning, match="shaped_reward is deprecated"):
        assert parse_args(["--config", str(config)]).reward_shaping is False
    config.write_text('game = "pyramid"\nshaped_reward = false\nreward_shaping = true\n')
    with pytest.warns(DeprecationWarning), pytest.raises(MalformedInputError, match="both shaped_reward and"):
        load_config(config)


def test_shipped_configs_parse() -> None:
    configs = sorted(Path("solitaire_rl/training/configs").glob("*.toml"))
    assert {c.stem for c in configs} >= {"pyramid-000", "pyramid-001", "klondike-draw3"}
    for config in configs:
        assert parse_args(["--config", str(config)]).variant_spec().key == config.stem


def test_metric_names_use_cleanrl_prefixes() -> None:
    assert metric_name("train/value_loss") == "losses/value_loss"
    assert metric_name("rollout/ep_rew_mean") == "charts/episodic_return"
    assert metric_name("rollout/success_rate") == "charts/win_rate"
    assert metric_name("time/fps") == "charts/SPS"
    assert metric_name("eval/mean_reward") == "eval/win_rate"


# ------------------------------------------------------------------------------ vector env
def test_cached_masks_equal_the_envs_own_masks_through_resets() -> None:
    fns = [make_env_fn(PYRAMID, FLAT, TRAIN, reward_shaping=False) for _ in range(2)]
    vec = MaskCachingSubprocVecEnv(fns)
    try:
        vec.seed(3)
        vec.reset()
        rng = np.random.default_rng(0)
        dones_seen = 0
        for _ in range(150):
            cached = np.stack(vec.env_method("action_masks"))
            asked = np.stack(SubprocVecEnv.env_method(vec, "action_masks"))
            assert np.array_equal(cached, asked)
            actions = [int(rng.choice(np.flatnonzero(m))) for m in cached]
            _, _, dones, _ = vec.step(np.array(actions))
            dones_seen += int(dones.sum())
        assert dones_seen > 0
    finally:
        vec.close()


def test_in_process_vec_env_steps_as_dummy_vec_env_and_keeps_handed_out_infos() -> None:
    fns = [make_env_fn(PYRAMID, FLAT, TRAIN, reward_shaping=False) for _ in range(3)]
    ours, theirs = InProcessVecEnv(fns), DummyVecEnv(fns)
    assert ours.seed(5) == spawn_seeds(5, 3)  # stable-baselines3's own: 5 + i
    theirs._seeds = list(spawn_seeds(5, 3))  # the same deals in both
    assert np.array_equal(ours.reset(), theirs.reset())
    rng = np.random.default_rng(1)
    handed_out: list[tuple[list[dict], list[dict]]] = []
    dones_seen = 0
    for _ in range(200):
        cached = np.stack(ours.env_method("action_masks"))
        assert np.array_equal(cached, np.stack(DummyVecEnv.env_method(ours, "action_masks")))
        assert np.array_equal(cached, np.stack(theirs.env_method("action_masks")))
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in cached])
        obs, rewards, dones, infos = ours.step(actions)
        obs2, rewards2, dones2, infos2 = theirs.step(actions)
        assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2)
        assert np.array_equal(dones, dones2)
        handed_out.append((infos, copy.deepcopy(infos2)))
        dones_seen += int(dones.sum())
    assert dones_seen > 0
    for infos, expected in handed_out:  # what a step returned is unchanged by the later steps
        for info, other in zip(infos, expected, strict=True):
            assert info.keys() == other.keys()
            for key, value in info.items():
                if isinstance(value, np.ndarray):
                    assert np.array_equal(value, other[key]), key
                elif key == "episode":  # Monitor's record; "t" is the wall time
                    assert (value["r"], value["l"]) == (other[key]["r"], other[key]["l"])
                else:
                    assert value == other[key], key


# --------------------------------------------------------------------------- training runs
def tiny_args(tmp_path: Path, **overrides: object) -> Args:
    values: dict[str, object] = dict(
        game="pyramid", total_timesteps=2048, n_envs=2, n_steps=256, batch_size=256, n_epochs=2,
        net_arch=(32, 32), eval_freq=1024, eval_deals=4, checkpoint_freq=1024, runs_dir=tmp_path,
        progress_bar=False, seed=3,
    )
    values.update(overrides)
    return Args(**values)  # type: ignore[arg-type]


def test_the_evaluation_before_the_first_update_is_recorded_in_best_zip(tmp_path: Path) -> None:
    result = main(tiny_args(tmp_path, total_timesteps=512, eval_freq=10_000, checkpoint_freq=0))
    best = read_metadata(result.run_dir / "best.zip")["training"]
    assert best["timesteps"] == 0  # the only evaluation ran before learning began
    assert best["eval_win_rate"] == pytest.approx(result.eval_win_rate)
    assert choose_checkpoint(result.run_dir).name == "final.zip"  # a tie goes to the final one


@pytest.mark.parametrize("sample", [False, True])
def test_the_evaluation_samples_actions_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        sample: bool) -> None:
    from sb3_contrib import MaskablePPO

    from solitaire_rl.training import evaluation

    asked: list[bool] = []
    predict = MaskablePPO.predict

    def recording_predict(self: MaskablePPO, *args: object, deterministic: bool = False, **kwargs: object):
        asked.append(deterministic)
        return predict(self, *args, deterministic=deterministic, **kwargs)

    monkeypatch.setattr(MaskablePPO, "predict", recording_predict)
    main(tiny_args(tmp_path, total_timesteps=512, eval_freq=10_000, checkpoint_freq=0, eval_sample=sample,
                   eval_env="python"))
    assert asked and set(asked) == {not sample}  # every evaluation move, and only those
    batched: list[bool] = []
    on_batch = evaluation.evaluate_on_batch

    def recording_batch(*args: object, **kwargs: object) -> evaluation.EvalResult:
        batched.append(bool(args[4]))
        return on_batch(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(evaluation, "evaluate_on_batch", recording_batch)
    main(tiny_args(tmp_path / "native", total_timesteps=512, eval_freq=10_000, checkpoint_freq=0,
                   eval_sample=sample))
    assert batched == [not sample]


@pytest.mark.parametrize("game", ["pyramid", "pyramid-001", "klondike"])
def test_the_batched_evaluation_equals_the_one_env_evaluation_on_the_same_deals(game: str) -> None:
    """Deal by deal, the native batch's returns and lengths are those of sb3-contrib's
    evaluate_policy on the trainer's old Python evaluation env (most probable actions)."""
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    from solitaire_rl.agents.encodings import DEFAULT_ENCODING
    from solitaire_rl.training.evaluation import evaluate_on_batch
    from solitaire_rl.training.native_vec_env import NativeKlondikeVecEnv, NativePyramidVecEnv
    from solitaire_rl.training.train import new_model

    variant = find_game(game)
    scoring = "klondike-actions" if variant.game == "klondike" else "pyramid-actions-relaxed"
    plain = DEFAULT_ENCODING[variant.game]
    for encoding_name, net_arch in ((plain, ["32", "32"]), (scoring, ["16", "32", "32"])):
        encoding = find_encoding(encoding_name, variant.game)
        vec = (NativeKlondikeVecEnv(2, encoding=encoding) if variant.game == "klondike"
               else NativePyramidVecEnv(2, encoding=encoding, **variant.env_kwargs))
        args = parse_args([game, "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--net-arch",
                           *net_arch, "--encoding", encoding_name, "--seed", "5"])
        model = new_model(args, vec, encoding)
        deals = EVAL.numbers(2 if variant.game == "klondike" else 16)  # Klondike games run to the step limit
        python = DummyVecEnv([make_env_fn(variant, encoding, EVAL, False, deals)])
        returns, lengths = evaluate_policy(model, python, n_eval_episodes=len(deals), deterministic=True,
                                           return_episode_rewards=True)
        result = evaluate_on_batch(model.policy, variant, encoding, deals)
        assert result.deals == tuple(deals)
        assert result.lengths.tolist() == list(lengths) and result.returns.tolist() == list(returns)
        assert result.win_rate == float(np.mean(returns))
    with pytest.raises(MalformedInputError, match="eval split"):
        evaluate_on_batch(model.policy, variant, encoding, [5])


def test_masked_fill_masking_is_sb3_contribs_distribution() -> None:
    """The same distribution as sb3-contrib's (log-probabilities and entropies to float rounding, the
    same most probable action); installed by the trainer, not saved with the model."""
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    from solitaire_rl.training.masking import MaskedFillCategoricalDistribution

    torch.manual_seed(0)
    logits = torch.randn(256, 590) * 4
    masks = np.random.default_rng(0).random((256, 590)) < 0.03
    masks[:, 7] = True
    masks[0] = False
    masks[0, 589] = True  # one legal action
    ours, theirs = MaskedFillCategoricalDistribution(590), MaskableCategoricalDistribution(590)
    for dist in (ours, theirs):
        dist.proba_distribution(logits)
        dist.apply_masking(masks)
    actions = torch.as_tensor(np.array([np.random.default_rng(i).choice(np.flatnonzero(m))
                                        for i, m in enumerate(masks)]))
    assert torch.allclose(ours.log_prob(actions), theirs.log_prob(actions), atol=1e-5)
    assert torch.allclose(ours.entropy(), theirs.entropy(), atol=1e-5)
    assert torch.equal(ours.mode(), theirs.mode()) and int(ours.mode()[0]) == 589
    assert bool(masks[np.arange(256), ours.sample().numpy()].all())  # samples only legal actions
    ours.apply_masking(None)
    theirs.apply_masking(None)
    assert torch.allclose(ours.log_prob(actions), theirs.log_prob(actions), atol=1e-5)
    with pytest.raises(RuntimeError, match="proba_distribution"):
        MaskedFillCategoricalDistribution(3).apply_masking(None)


def test_the_trainer_masks_by_masked_fill_unless_told(tmp_path: Path) -> None:
    from solitaire_rl.training.masking import MaskedFillCategoricalDistribution

    result = main(tiny_args(tmp_path, total_timesteps=512, eval_freq=0, checkpoint_freq=0))
    loaded = MaskablePPO.load(result.final_checkpoint)
    assert not isinstance(loaded.policy.action_dist, MaskedFillCategoricalDistribution)  # not saved
    from solitaire_rl.training.train import new_model

    env = DummyVecEnv([make_env_fn(find_game("pyramid"), find_encoding("pyramid-flat", "pyramid"), TRAIN,
                                   False)])
    for masking, fast in (("masked_fill", True), ("sb3", False)):
        args = tiny_args(tmp_path, masking=masking)
        model = new_model(args, env, find_encoding("pyramid-flat", "pyramid"))
        assert isinstance(model.policy.action_dist, MaskedFillCategoricalDistribution) == fast


@pytest.mark.parametrize("kind", ["native", "dummy"])
def test_training_envs_of_two_seeds_share_no_deal_stream(kind: str) -> None:
    from solitaire_rl.training.native_vec_env import NativePyramidVecEnv

    variant = find_game("pyramid")
    encoding = find_encoding("pyramid-flat", "pyramid")
    dealt = []
    for seed in (1, 2):
        env = (NativePyramidVecEnv(16, encoding=encoding, split=TRAIN) if kind == "native"
               else InProcessVecEnv([make_env_fn(variant, encoding, TRAIN, False) for _ in range(16)]))
        env.seed(seed)
        env.reset()
        dealt.append({info["deal_number"] for info in env.reset_infos})
        assert len(dealt[-1]) == 16
    assert not dealt[0] & dealt[1]


def test_a_tiny_training_run_leaves_a_checkpoint_that_loads_and_plays(tmp_path: Path) -> None:
    shipped = tmp_path / "ship" / "pyramid-000.zip"
    result = main(tiny_args(tmp_path, save_to=shipped))
    run = result.run_dir
    assert run.name.startswith("pyramid-000__ppo__3__")
    assert result.timesteps == 2048 and result.steps_per_second > 0
    assert result.eval_win_rate is not None and 0 <= result.eval_win_rate <= 1
    assert json.loads((run / "args.json").read_text())["net_arch"] == [32, 32]
    saved = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert saved == ["pyramid-000_1024.zip", "pyramid-000_2048.zip"]
    assert (run / "best.zip").is_file() and any(run.glob("events.out.tfevents.*"))
    header = next(csv.reader((run / "progress.csv").open()))
    assert "losses/value_loss" in header and "charts/SPS" in header and "eval/win_rate" in header
    assert not [k for k in header if k.startswith(("train/", "rollout/", "time/"))]

    metadata = read_metadata(result.final_checkpoint)
    assert metadata["variant"] == "pyramid-000" and metadata["num_actions"] == 467
    assert metadata["encoding"] == FLAT.record(PYRAMID.make_env().observation_space)
    assert metadata["training"]["timesteps"] == 2048 and metadata["training"]["seed"] == 3
    assert metadata["optimizer_state"] is True
    assert read_metadata(shipped)["optimizer_state"] is False
    assert shipped.stat().st_size < 0.6 * result.final_checkpoint.stat().st_size
    env = PYRAMID.make_env()
    for path in (result.final_checkpoint, shipped):
        player = PpoPlayer(PYRAMID, path)
        games = [play_episode(env, player, PYRAMID.deal_id(n), PYRAMID.cards_cleared) for n in (1, 2, 3)]
        assert all(game.steps > 0 for game in games)
    rates = [float(row["eval/win_rate"]) for row in csv.DictReader((run / "progress.csv").open())
             if row["eval/win_rate"]]
    assert len(rates) == 3  # before the first update, at 1024 and at 2048 steps
    assert held_out_win_rate(run / "best.zip") == pytest.approx(max(rates))  # the first one too
    chosen = choose_checkpoint(run)
    assert read_metadata(shipped)["training"]["shipped_from"] == chosen.name
    if chosen.name == "best.zip":  # shipped only when its held-out win rate beat the final one's
        assert held_out_win_rate(chosen) > held_out_win_rate(result.final_checkpoint)
    chosen_net = PpoPlayer(PYRAMID, chosen).model.policy.parameters()
    shipped_net = PpoPlayer(PYRAMID, shipped).model.policy.parameters()
    assert all(torch.equal(a, b) for a, b in zip(chosen_net, shipped_net, strict=True))

    resumed = main(tiny_args(tmp_path, total_timesteps=3072, resume=result.final_checkpoint,
                             eval_freq=0, checkpoint_freq=0, ent_coef=0.0123, n_epochs=3, anneal_lr=False,
                             learning_rate=7e-5))
    assert resumed.timesteps == 3072
    assert read_metadata(resumed.final_checkpoint)["training"]["timesteps"] == 3072
    model = MaskablePPO.load(resumed.final_checkpoint)  # learnt with the resumed run's settings
    assert (model.ent_coef, model.n_epochs, model.learning_rate) == (0.0123, 3, 7e-5)


def test_the_same_seed_reproduces_a_run(tmp_path: Path) -> None:
    def weights(seed: int, folder: str) -> list[torch.Tensor]:
        args = tiny_args(tmp_path / folder, vec_env="dummy", total_timesteps=1024, eval_freq=0,
                         checkpoint_freq=0, seed=seed, tensorboard=False)
        path = main(args).final_checkpoint
        with zipfile.ZipFile(path) as archive, archive.open("policy.pth") as handle:
            state = torch.load(handle, weights_only=True)
        return [state[k] for k in sorted(state)]

    first, again, other = weights(5, "a"), weights(5, "b"), weights(6, "c")
    assert all(torch.equal(x, y) for x, y in zip(first, again, strict=True))
    assert not all(torch.equal(x, y) for x, y in zip(first, other, strict=True))


def test_resuming_a_checkpoint_of_another_variant_fails_clearly(tmp_path: Path) -> None:
    result = main(tiny_args(tmp_path, vec_env="dummy", total_timesteps=512, eval_freq=0, checkpoint_freq=0,
                            tensorboard=False))
    with pytest.raises(MalformedInputError, match="trained on pyramid-000, not pyramid-001"):
        main(tiny_args(tmp_path, game="pyramid-001", vec_env="dummy", resume=result.final_checkpoint))
    with zipfile.ZipFile(result.final_checkpoint) as archive:
        assert METADATA_NAME in archive.namelist()


def test_a_tiny_klondike_run_uses_the_compact_encoding(tmp_path: Path) -> None:
    klondike = find_game("klondike")
    result = main(tiny_args(tmp_path, game="klondike", vec_env="dummy", total_timesteps=512, n_steps=128,
                            batch_size=128, eval_freq=0, checkpoint_freq=0, tensorboard=False))
    metadata = read_metadata(result.final_checkpoint)
    assert metadata["variant"] == "klondike-draw3"
    assert metadata["encoding"]["name"] == "klondike-compact" and metadata["encoding"]["size"] == 709
    player = PpoPlayer(klondike, result.final_checkpoint)
    env = klondike.make_env(max_episode_steps=40)
    outcome = play_episode(env, player, klondike.deal_id(1), klondike.cards_cleared)
    assert outcome.steps > 0


def test_the_wall_clock_limit_stops_learning_and_still_saves(tmp_path: Path) -> None:
    result = main(tiny_args(tmp_path, vec_env="dummy", total_timesteps=1_000_000, time_limit_minutes=0.002,
                            eval_freq=0, checkpoint_freq=0, tensorboard=False))
    assert 0 < result.timesteps < 1_000_000
    assert read_metadata(result.final_checkpoint)["training"]["timesteps"] == result.timesteps


def test_shipping_takes_the_checkpoint_with_the_better_held_out_win_rate(tmp_path: Path) -> None:
    from stable_baselines3.common.vec_env import DummyVecEnv

    from solitaire_rl.agents.ppo import build_metadata, save_checkpoint
    from solitaire_rl.training.ship import ship
    from solitaire_rl.training.train import new_model

    args = tiny_args(tmp_path)
    env = DummyVecEnv([make_env_fn(PYRAMID, FLAT, TRAIN, True)])
    metadata = build_metadata(PYRAMID, FLAT, env.observation_space, {"seed": 3})
    models = {name: new_model(args, env, FLAT) for name in ("final", "best")}
    run = tmp_path / "run"
    for rates, expected in (((0.30, 0.40), "best"), ((0.40, 0.40), "final"), ((0.45, None), "final")):
        for (name, model), rate in zip(models.items(), rates, strict=True):
            (run / f"{name}.zip").unlink(missing_ok=True)
            if rate is not None:
                save_checkpoint(model, run / f"{name}.zip", {**metadata, "training": {"eval_win_rate": rate}})
        shipped = ship(run, tmp_path / "ship.zip")
        assert read_metadata(shipped)["training"]["shipped_from"] == f"{expected}.zip"
        assert read_metadata(shipped)["optimizer_state"] is False
        weights = PpoPlayer(PYRAMID, shipped).model.policy.parameters()
        source = models[expected].policy.parameters()
        assert all(torch.equal(a, b) for a, b in zip(weights, source, strict=True))
    (run / "final.zip").unlink()
    with pytest.raises(MalformedInputError, match=r"no final\.zip"):
        ship(run, tmp_path / "ship.zip")
    save_checkpoint(models["best"], run / "best.zip", {**metadata, "training": {"eval_win_rate": 0.2}})
    shipped = ship(run, tmp_path / "ship.zip", "best.zip")  # a run stopped early: no final.zip
    assert read_metadata(shipped)["training"]["shipped_from"] == "best.zip"
    weights = PpoPlayer(PYRAMID, shipped).model.policy.parameters()
    assert all(torch.equal(a, b) for a, b in zip(weights, models["best"].policy.parameters(), strict=True))
    with pytest.raises(MalformedInputError, match=r"no checkpoint final\.zip"):
        ship(run, tmp_path / "ship.zip", "final.zip")
