"""Expert iteration: self-play data, the policy-value network, its checkpoints and its players."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.expert.checkpoint import (
    WEIGHTS_NAME,
    build_expert_metadata,
    default_expert_checkpoint,
    load_network,
    save_network,
)
from solitaire_rl.agents.expert.player import ExpertNetwork, ExpertPlayer
from solitaire_rl.agents.planner.guide import (
    klondike_afterstate_win_chances,
    pyramid_afterstate_win_chances,
    sampled_game,
)
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.planner.pimc import determinized, unseen_places
from solitaire_rl.agents.ppo import (
    METADATA_NAME,
    CheckpointError,
    CheckpointMismatchError,
    default_checkpoint,
)
from solitaire_rl.agents.registry import make_player, unavailable_reason
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import legal_actions_in, move_of
from solitaire_rl.envs.klondike.layout import DEAL_SLOTS
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.envs.klondike.symmetry import SUIT_SYMMETRIES
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training import expert_fit, selfplay
from tests.position_helpers import choices_while_observations_agree

KLONDIKE = find_game("klondike")
PYRAMID = find_game("pyramid-000")
SMALL = {"max_states": 4_000, "states_per_solve": 500, "max_samples": 4, "tree_iterations": 10,
         "tree_states_per_solve": 200}
CONFIG = selfplay.RunConfig(KLONDIKE.key, "ismcts", seed=1, chunk=2, teacher_options=SMALL)
FIRST = 1_000_000


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("selfplay")
    done = selfplay.run(folder, CONFIG, FIRST, 4, progress=False)
    assert done["shards"] == 2 and done["games"] == 4 and done["cpu_hours"] > 0
    return folder


@pytest.fixture(scope="module")
def checkpoint(run_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = selfplay.load([run_folder])
    net, figures = expert_fit.fit(expert_fit.build(data, KLONDIKE, soft=0.2), KLONDIKE, epochs=1,
                                  arch_sizes=(16, 16, 16), threads=1, augment=True, log=lambda _: None)
    arch = figures.pop("architecture")
    path = tmp_path_factory.mktemp("expert") / "expert.zip"
    return save_network(path, net.state_dict(), build_expert_metadata(KLONDIKE, arch, {"test": True}))


# ------------------------------------------------------------------------------ self-play data
def test_self_play_records_what_the_player_saw_and_what_the_search_said(run_folder: Path) -> None:
    data = selfplay.load([run_folder])
    a = data.arrays
    assert data.games == 4 and list(a["deal"]) == [FIRST, FIRST + 1, FIRST + 2, FIRST + 3]
    assert len(data) == int(a["steps"].sum()) and a["obs"].dtype == np.uint8 and a["obs"].shape[1] == 190
    masks = np.unpackbits(a["mask"], axis=1)[:, :KLONDIKE.num_actions].astype(bool)
    assert masks[np.arange(len(data)), a["action"]].all()  # the teacher's moves are legal
    assert (a["played"] == a["action"]).all()  # the teacher moved itself
    searched = np.flatnonzero(a["samples"] > 0)
    assert searched.size > len(data) // 2
    for k in searched[:50]:
        lo, hi = a["offsets"][k], a["offsets"][k + 1]
        candidates = a["cand_action"][lo:hi]
        assert list(candidates) == list(np.flatnonzero(masks[k]))  # every legal move, in index order
        counts = a["cand_won"][lo:hi].astype(int) + a["cand_lost"][lo:hi] + a["cand_unknown"][lo:hi]
        assert (counts == a["samples"][k]).all()
    # per decision, the game it belongs to and its step; per game, how it ended
    assert (np.bincount(a["game"]) == a["steps"]).all()
    assert set(a["outcome"]) <= {"win", "dead_end", "no_progress", "truncated"}
    assert (a["won"] == (a["outcome"] == "win")).all() and (a["cards_up"] <= 52).all()


def test_a_deal_is_recorded_the_same_whatever_ran_before_it(run_folder: Path) -> None:
    """Seeded per deal with a budget of states: deal N gives the same record alone or in a run."""
    alone = selfplay.play_chunk(CONFIG, [FIRST + 3])
    with np.load(run_folder / selfplay.shard_name([FIRST + 2, FIRST + 3])) as shard:
        in_run = {k: shard[k] for k in shard.files}
    second = in_run["game"] == 1
    assert np.array_equal(alone["obs"], in_run["obs"][second])
    assert np.array_equal(alone["action"], in_run["action"][second])
    assert np.array_equal(alone["samples"], in_run["samples"][second])
    assert alone["won"][0] == in_run["won"][1] and alone["cards_up"][0] == in_run["cards_up"][1]


def test_a_stopped_run_resumes_where_it_was(run_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for name in ("run.json", selfplay.shard_name([FIRST, FIRST + 1])):  # the first shard was written
        (folder / name).write_bytes((run_folder / name).read_bytes())
    (folder / "deals-0001000002-0001000003.tmp.npz").write_bytes(b"half a file")  # killed while writing
    assert selfplay.pending_chunks(folder, FIRST, 4, 2) == [[FIRST + 2, FIRST + 3]]
    done = selfplay.run(folder, CONFIG, FIRST, 4, progress=False)
    assert done["shards"] == 1 and done["games"] == 2
    resumed, whole = selfplay.load([folder]).arrays, selfplay.load([run_folder]).arrays
    assert resumed["deal"].tolist() == whole["deal"].tolist()
    assert selfplay.run(folder, CONFIG, FIRST, 4, progress=False)["shards"] == 0  # nothing left


def test_a_run_is_refused_with_other_settings_outside_train_deals_or_with_a_time_budget(
        run_folder: Path, tmp_path: Path) -> None:
    other = selfplay.RunConfig(KLONDIKE.key, "ismcts", seed=2, chunk=2, teacher_options=SMALL)
    with pytest.raises(MalformedInputError, match="other settings"):
        selfplay.run(run_folder, other, FIRST, 4, progress=False)
    with pytest.raises(MalformedInputError, match="train deals only"):
        selfplay.run(tmp_path / "a", CONFIG, 1, 4, progress=False)  # benchmark deals
    with pytest.raises(MalformedInputError, match="never time"):
        selfplay.make_teacher(selfplay.RunConfig(KLONDIKE.key, "ismcts", teacher_options={"time_limit": 1.0}))
    with pytest.raises(MalformedInputError, match="teacher for klondike"):
        selfplay.make_teacher(selfplay.RunConfig(KLONDIKE.key, "pimc"))
    (tmp_path / "b").mkdir()
    with pytest.raises(MalformedInputError, match="no self-play shard"):
        selfplay.load([tmp_path / "b"])


def test_the_disk_bound_stops_a_run(tmp_path: Path) -> None:
    done = selfplay.run(tmp_path / "run", CONFIG, FIRST, 4, max_mb=1e-6, progress=False)
    assert done["shards"] == 1 and "max-mb" in done["stopped"]


def test_a_dagger_round_moves_with_the_actor_while_the_teacher_labels(checkpoint: Path) -> None:
    config = selfplay.RunConfig(KLONDIKE.key, "ismcts", seed=1, chunk=1, teacher_options=SMALL,
                                actor="expert-net", actor_options={"checkpoint": str(checkpoint)})
    arrays = selfplay.play_chunk(config, [FIRST + 7])
    assert len(arrays["action"]) == int(arrays["steps"][0]) > 0
    assert (arrays["played"] != arrays["action"]).any()  # a 16-unit network disagrees somewhere


def test_pyramid_self_play_records_pimc_searches() -> None:
    config = selfplay.RunConfig("pyramid-000", "pimc", chunk=1, teacher_options={"samples": 4})
    arrays = selfplay.play_chunk(config, [FIRST])
    assert arrays["obs"].dtype == np.float32 and (arrays["samples"] > 0).any()
    assert int(arrays["offsets"][-1]) == len(arrays["cand_action"]) > 0


# ------------------------------------------------------------------ the network and its checkpoint
def test_fitting_targets_the_teachers_moves_and_the_real_outcomes(run_folder: Path) -> None:
    data = selfplay.load([run_folder])
    fit_data = expert_fit.build(data, KLONDIKE, soft=0.25)
    assert np.allclose(fit_data.target.sum(axis=1), 1.0)
    assert (fit_data.target[~fit_data.masks] == 0).all()  # only legal moves are targets
    assert (fit_data.masks.sum(axis=1) > 1).all()  # forced moves teach nothing
    assert set(np.unique(fit_data.won)) <= {0.0, 1.0}
    assert ((fit_data.progress >= 0) & (fit_data.progress <= 1)).all()
    batches = expert_fit.Batches(fit_data, KLONDIKE, augment=True)
    rows = np.arange(min(64, len(fit_data.won)))
    plain = batches.rows(rows)
    for sigma in SUIT_SYMMETRIES:  # a renamed batch keeps its targets on its legal moves
        inputs, masks, target = batches.rows(rows, sigma)
        assert inputs.shape == plain[0].shape and (target[~masks] == 0).all()
        assert (masks.sum(axis=1) == plain[1].sum(axis=1)).all()
    assert (batches.rows(rows, SUIT_SYMMETRIES[0])[0] == plain[0]).all()  # the identity changes nothing
    with pytest.raises(MalformedInputError, match="Klondike option"):
        expert_fit.Batches(fit_data, find_game("pyramid-000"), augment=True)


def test_the_hindsight_target_favours_the_moves_that_win_most_samples(run_folder: Path) -> None:
    data = selfplay.load([run_folder])
    a = data.arrays
    fit_data = expert_fit.build(data, KLONDIKE, soft=1.0, soft_source="won", sharpness=50.0)
    assert np.allclose(fit_data.target.sum(axis=1), 1.0)
    keep = np.flatnonzero(expert_fit.unpack_masks(data, KLONDIKE.num_actions).sum(axis=1) > 1)
    checked = 0
    for row, k in enumerate(keep):
        lo, hi = a["offsets"][k], a["offsets"][k + 1]
        if a["samples"][k] == 0 or hi == lo:
            continue
        won = a["cand_won"][lo:hi]
        best = set(a["cand_action"][lo:hi][won == won.max()].tolist())
        assert int(np.argmax(fit_data.target[row])) in best  # a move winning most samples leads
        checked += 1
    assert checked > 0
    with pytest.raises(MalformedInputError, match="soft-source"):
        expert_fit.build(data, KLONDIKE, soft=0.5, soft_source="votes")


def test_a_fit_can_start_from_the_ppo_checkpoint_and_keeps_its_best_epoch(run_folder: Path) -> None:
    import torch

    from solitaire_rl.agents.expert.network import Architecture, PolicyValueNet

    ppo = default_checkpoint(KLONDIKE)
    data = selfplay.load([run_folder])
    fit_data = expert_fit.build(data, KLONDIKE)
    net = PolicyValueNet(Architecture(709, 33, 22, KLONDIKE.num_actions, 64, 128, 128))
    expert_fit.load_ppo_body(net, ppo, KLONDIKE)
    with zipfile.ZipFile(ppo) as archive:
        state = torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=True)
    assert torch.equal(net.body.scorer[-1].weight, state["mlp_extractor.scorer.1.weight"])
    with pytest.raises(MalformedInputError, match="does not fit --sizes"):
        expert_fit.load_ppo_body(PolicyValueNet(Architecture(709, 33, 22, KLONDIKE.num_actions, 16, 16, 16)),
                                 ppo, KLONDIKE)
    epochs: list[str] = []
    _, figures = expert_fit.fit(fit_data, KLONDIKE, epochs=2, arch_sizes=(64, 128, 128), threads=1,
                                init=ppo, value_weight=0.1, log=epochs.append)
    assert len(epochs) == 2 and figures["policy_epoch"] in (1, 2) and figures["value_epoch"] in (1, 2)

    def logged(name: str) -> list[float]:
        return [float(line.split(f"{name} ")[1].split(",")[0]) for line in epochs]

    # each part keeps its own best epoch: the policy's and the value's lowest validation losses
    assert figures["policy_loss"] == pytest.approx(min(logged("policy_loss")), rel=1e-4)
    sums = [v + p for v, p in zip(logged("value_loss"), logged("progress_loss"), strict=True)]
    assert figures["value_loss"] + figures["progress_loss"] == pytest.approx(min(sums), rel=1e-4)


def test_a_saved_network_loads_and_plays_whole_games(checkpoint: Path) -> None:
    player = make_player("expert-net", KLONDIKE, checkpoint=checkpoint)
    env = KLONDIKE.make_env(max_episode_steps=300)
    for number in (100_001, 100_002):
        result = play_episode(env, player, KLONDIKE.deal_id(number), KLONDIKE.cards_cleared)
        assert result.outcome in {"win", "dead_end", "no_progress", "truncated"}
    choice = player.choose(*_start(101))
    assert "expert network" in choice.reason and "to win" in choice.reason
    assert 0.0 <= player.last_win_chance <= 1.0
    assert unavailable_reason("expert-net", KLONDIKE, checkpoint) is None


def test_the_shipped_networks_load_and_play() -> None:
    for key in ("klondike-draw3", "pyramid-000"):
        variant = find_game(key)
        assert default_expert_checkpoint(variant).is_file()
        player = make_player("expert-net", variant)
        result = play_episode(variant.make_env(), player, variant.deal_id(100_003),
                              variant.cards_cleared)
        assert result.steps > 0


def _card(game: KlondikeGame, place: tuple[int, int]) -> int:
    column, index = place
    return game.stock[index] if column < 0 else game.columns[column][index]


def _start(number: int) -> tuple[np.ndarray, np.ndarray, dict]:
    obs, info = KLONDIKE.make_env().reset(options={"deal": KLONDIKE.deal_id(number)})
    return obs, np.asarray(info["action_mask"], bool), info


def test_bad_or_mismatched_checkpoints_are_refused_with_a_clear_error(checkpoint: Path,
                                                                      tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.zip"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        ExpertPlayer(KLONDIKE, garbage)
    with pytest.raises(CheckpointError, match="no expert checkpoint"):
        ExpertPlayer(KLONDIKE, tmp_path / "missing.zip")
    with pytest.raises(CheckpointError, match="ppo checkpoint"):
        ExpertPlayer(KLONDIKE, default_checkpoint(KLONDIKE))  # a ppo checkpoint is not an expert's
    with pytest.raises(CheckpointMismatchError, match="klondike-draw3, not pyramid-000"):
        ExpertPlayer("pyramid-000", checkpoint)
    assert "klondike-draw3" in (unavailable_reason("expert-net", "pyramid-000", checkpoint) or "")

    def rewritten(name: str, metadata: dict | None = None, weights: bytes | None = None) -> Path:
        with zipfile.ZipFile(checkpoint) as archive:
            record, data = json.loads(archive.read(METADATA_NAME)), archive.read(WEIGHTS_NAME)
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr(METADATA_NAME, json.dumps(metadata(record) if callable(metadata) else record))
            archive.writestr(WEIGHTS_NAME, data if weights is None else weights)
        return path

    stale = rewritten("stale.zip", lambda r: r | {"encoding": r["encoding"] | {"digest": "0" * 16}})
    with pytest.raises(CheckpointMismatchError, match="observation layout"):
        load_network(stale, KLONDIKE)
    wider = rewritten("wider.zip", lambda r: r | {"architecture": r["architecture"] | {"hidden": 32}})
    with pytest.raises(CheckpointError, match="weights do not load"):
        load_network(wider, KLONDIKE)
    broken = rewritten("broken.zip", weights=b"\x00" * 100)
    with pytest.raises(CheckpointError, match="weights do not load"):
        load_network(broken, KLONDIKE)
    other_kind = rewritten("kind.zip", lambda r: r | {"kind": "ppo"})
    with pytest.raises(CheckpointError, match="not an expert network"):
        load_network(other_kind, KLONDIKE)


# ------------------------------------------------------------------------------ hidden cards
def test_the_network_and_the_guided_search_never_read_a_hidden_card(checkpoint: Path) -> None:
    """Two deals differing only in two face-down cards get the same choices while they look alike."""
    cards = list(DealId.parse("klondike-random-v1-8").cards())
    down = [i for i, (col, depth) in enumerate(DEAL_SLOTS) if depth < col]
    other = list(cards)
    other[down[0]], other[down[-1]] = other[down[-1]], other[down[0]]
    assert choices_while_observations_agree(KLONDIKE.key, cards, other,
                                            lambda: ExpertPlayer(KLONDIKE, checkpoint), limit=80) >= 1
    guided = {"seed": 4, "checkpoint": checkpoint, **SMALL}
    assert choices_while_observations_agree(KLONDIKE.key, cards, other,
                                            lambda: make_player("guided-ismcts", KLONDIKE, **guided),
                                            limit=15) >= 1
    valued = guided | {"guide": "value", "guide_rank": "early"}
    assert choices_while_observations_agree(KLONDIKE.key, cards, other,
                                            lambda: make_player("guided-ismcts", KLONDIKE, **valued),
                                            limit=15) >= 1


def test_the_value_guide_rates_each_move_by_the_position_it_leads_to(checkpoint: Path) -> None:
    network = ExpertNetwork(KLONDIKE, checkpoint)
    obs, mask, _ = _start(100_006)
    knowledge = klondike_knowledge(obs)
    actions = np.flatnonzero(mask)
    chances = klondike_afterstate_win_chances(network, knowledge, actions, np.random.default_rng(0),
                                              samples=3)
    assert chances.shape == actions.shape and ((chances >= 0) & (chances <= 1)).all()
    game = knowledge.game
    for k, action in enumerate(actions.tolist()):
        after = game.copy()
        after.push(move_of(game, action))
        if after.seen == game.seen:  # shows nothing new: exactly the network's value there
            after_mask = np.zeros(KLONDIKE.num_actions, bool)
            after_mask[legal_actions_in(after)] = True
            assert chances[k] == pytest.approx(network.policy(observe(after), after_mask)[1])
    # a sampled world keeps every known card where it is and puts the unknown ones on the unknown places
    world = sampled_game(knowledge, np.asarray([_card(game, p) for p in knowledge.unknown][::-1]))
    assert (observe(world) == observe(game)).all() and world.columns != game.columns
    again = klondike_afterstate_win_chances(network, knowledge, actions, np.random.default_rng(0),
                                            samples=3)
    assert (again == chances).all()  # the same samples from the same seed


def test_the_guided_search_plays_with_the_networks_prior(checkpoint: Path) -> None:
    player = make_player("guided-ismcts", KLONDIKE, seed=2, checkpoint=checkpoint, **SMALL)
    result = play_episode(KLONDIKE.make_env(max_episode_steps=60), player, KLONDIKE.deal_id(100_004),
                          KLONDIKE.cards_cleared)
    assert result.steps > 0
    obs, mask, _ = _start(100_005)
    probs, _ = player._expert.policy(obs, mask)
    assert player.priors(player.decision(obs, mask), np.flatnonzero(mask)) == [float(p) for p in probs[mask]]
    assert unavailable_reason("guided-ismcts", "pyramid-000", checkpoint) == (
        "the guided-ismcts player plays Klondike only")


def test_the_guided_search_respects_cancellation_and_its_time_budget(checkpoint: Path) -> None:
    from solitaire_rl.agents.planner import NO_SAMPLE
    from solitaire_rl.agents.solver import _native

    player = make_player("guided-ismcts", KLONDIKE, seed=2, checkpoint=checkpoint, max_states=None,
                         time_limit=0.05, tree_iterations=10**6)
    searched = []
    for number in range(100_006, 100_030):  # deals whose first move needs a search (no safe move)
        obs, mask, _ = _start(number)
        timed = player.plan(obs, mask)
        if player.last_search is not None:
            searched.append((obs, mask))
            assert mask[timed.action]
            assert player.last_search.visits.sum() < 10**6  # stopped by the time limit, not its iterations
    assert searched
    token = _native.CancelToken()
    token.cancel()
    for obs, mask in searched:
        cancelled = player.plan(obs, mask, cancel=token)
        assert mask[cancelled.action] and cancelled.reason.startswith(NO_SAMPLE)


# ------------------------------------------------------------------ Pyramid
@pytest.fixture(scope="module")
def pyramid_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pyramid-selfplay")
    config = selfplay.RunConfig("pyramid-000", "pimc", chunk=3, teacher_options={"samples": 4})
    selfplay.run(folder, config, FIRST, 6, progress=False)
    data = selfplay.load([folder])
    net, figures = expert_fit.fit(expert_fit.build(data, PYRAMID), PYRAMID, epochs=1,
                                  arch_sizes=(16, 16, 16), threads=1, log=lambda _: None)
    meta = build_expert_metadata(PYRAMID, figures.pop("architecture"), {"test": True})
    return save_network(tmp_path_factory.mktemp("pyramid-net") / "expert.zip", net.state_dict(), meta)


def test_the_guided_pimc_gives_its_ties_to_the_network(pyramid_checkpoint: Path) -> None:
    network = ExpertNetwork(PYRAMID, pyramid_checkpoint)
    env = PYRAMID.make_env()
    _, info = env.reset(options={"deal": PYRAMID.deal_id(100_011)})
    game = env.unwrapped.game
    legal = np.flatnonzero(info["action_mask"])
    chances = pyramid_afterstate_win_chances(network, game, legal, np.random.default_rng(1), samples=4)
    assert chances.shape == legal.shape and ((chances >= 0) & (chances <= 1)).all()
    player = make_player("guided-pimc", PYRAMID, seed=3, checkpoint=pyramid_checkpoint, samples=4)
    result = play_episode(env, player, PYRAMID.deal_id(100_012), PYRAMID.cards_cleared)
    assert result.steps > 0
    exact = make_player("guided-pimc", PYRAMID, seed=3, checkpoint=pyramid_checkpoint, samples=4)
    ties = make_player("pimc", PYRAMID, seed=3, samples=4)
    _, info = env.reset(options={"deal": PYRAMID.deal_id(100_013)})
    for p in (exact, ties):
        p.reset(env)
    game, legal = env.unwrapped.game, np.flatnonzero(info["action_mask"])
    values = ties.move_values(game, legal)
    guide = exact.guide(game, legal, values)  # the guide's best is always among pimc's best
    assert set(np.flatnonzero(guide == guide.max())) <= set(np.flatnonzero(values == values.max()))
    assert unavailable_reason("guided-pimc", KLONDIKE, pyramid_checkpoint) == (
        "the guided-pimc player plays Pyramid only")
    assert unavailable_reason("expert-net", PYRAMID, pyramid_checkpoint) is None


def test_the_guided_pimc_never_reads_an_unseen_card(pyramid_checkpoint: Path) -> None:
    env = PYRAMID.make_env()
    obs, info = env.reset(options={"deal": PYRAMID.deal_id(100_014)})
    game = env.unwrapped.game
    hidden = unseen_places(game)
    order = game.stock_order()
    shuffled = list(order)
    for i, card in zip(hidden, [order[i] for i in hidden][::-1], strict=True):
        shuffled[i] = card
    other = determinized(game, shuffled)
    choices = []
    for g in (game, other):
        env.unwrapped.game = g
        player = make_player("guided-pimc", PYRAMID, seed=5, checkpoint=pyramid_checkpoint, samples=3,
                             guide_margin=0.5)
        player.reset(env)
        choices.append(player.choose(obs, np.asarray(info["action_mask"], bool), info))
    assert choices[0] == choices[1]


def test_a_network_loaded_for_another_variant_is_refused(checkpoint: Path) -> None:
    network = ExpertNetwork(KLONDIKE, checkpoint)
    assert make_player("guided-ismcts", KLONDIKE, expert_network=network)._expert is network
    with pytest.raises(MalformedInputError, match="loaded for klondike-draw3, not pyramid-000"):
        make_player("guided-pimc", PYRAMID, expert_network=network)


def test_the_value_guide_without_the_network_is_refused() -> None:
    from solitaire_rl.agents.planner.hop import HopPlayer

    with pytest.raises(MalformedInputError, match="give prior='expert'"):
        HopPlayer(find_game("klondike-draw3"), guide="value")
