"""Speed of the world scores (issue 53's value labels) on one core, against the commitment planner's
world searches at the same cap, in one process.

The positions are those where ``world-bandit`` (at ``--bot-worlds`` a decision) plans a commitment
in its games of the eval deals given (collected first, not timed). Then, each a median over
``--repeats`` (CPU time of this process, one thread):

* labels a second: :func:`solitaire_rl.agents.planner.world_score.world_scores` over all the
  positions in one call, K worlds each (``--worlds``) with the cap (``--cap``);
* capped world searches a second (and states a second) of those calls;
* the same for :func:`solitaire_native.klondike_commit_plan` at each position (``--plan-worlds``
  worlds, the same cap and sure-win stop), and the ratio of the two searches-a-second figures.

    python benchmarks/world_score_speed.py --deals 100001-100004 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from solitaire_rl.agents.planner.commitment import CommitmentBot
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.planner.world_score import DEFAULT_CAP, DEFAULT_WORLDS, world_scores
from solitaire_rl.agents.solver import _native
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.splits import EVAL, parse_deal_numbers

KLONDIKE = find_game("klondike")


def planned_positions(deals: list[int], bot_worlds: int) -> np.ndarray:
    """The observations where world-bandit plans a commitment in its games of ``deals``."""
    env = KLONDIKE.make_env()
    bot = CommitmentBot(KLONDIKE, max_worlds=bot_worlds)
    rows = []
    for deal in deals:
        bot.reseed([0, deal])
        obs, info = env.reset(options={"deal": KLONDIKE.deal_id(deal)})
        bot.reset(env)
        done = False
        while not done and info["action_mask"].any():
            decision = bot.step(obs, info["action_mask"])
            if decision.kind == "planned":
                rows.append(np.asarray(obs, np.uint8))
            obs, _, terminated, truncated, info = env.step(decision.action)
            done = terminated or truncated
    return np.stack(rows)


def label_rates(observations: np.ndarray, worlds: int, cap: int) -> dict[str, float]:
    start = time.process_time()
    scores = world_scores(observations, worlds=worlds, cap=cap, threads=1)
    seconds = time.process_time() - start
    return {"labels": len(scores) / seconds, "searches": scores.searches / seconds,
            "states": float(scores.states.sum()) / seconds}


def plan_rates(observations: np.ndarray, worlds: int, cap: int) -> dict[str, float]:
    options = _native.KlondikeCommitOptions(cap=cap, max_worlds=worlds, worlds_per_candidate=worlds,
                                            hopeless_worlds=0, surely_won_stops=True, threads=1)
    searched = states = 0
    seconds = 0.0
    for observation in observations:
        knowledge = klondike_knowledge(observation, 3)
        position = knowledge.position.to_native()
        start = time.process_time()
        result = _native.klondike_commit_plan(position, list(knowledge.unknown), options)
        seconds += time.process_time() - start
        searched += result.worlds
        states += result.states
    return {"searches": searched / seconds, "states": states / seconds}


def median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="100001-100004", help="eval deals (100001..110000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="K: worlds a label")
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP)
    parser.add_argument("--plan-worlds", type=int, default=1000, help="worlds of each commit_plan call")
    parser.add_argument("--bot-worlds", type=int, default=600, help="the bot's worlds a decision (positions)")
    args = parser.parse_args(argv)
    deals = parse_deal_numbers(args.deals)
    if any(d not in EVAL for d in deals):
        raise SystemExit(f"measure on eval deals only ({EVAL.first}..{EVAL.last})")
    observations = planned_positions(deals, args.bot_worlds)
    labels = [label_rates(observations, args.worlds, args.cap) for _ in range(args.repeats)]
    plans = [plan_rates(observations, args.plan_worlds, args.cap) for _ in range(args.repeats)]
    figures = {"positions": len(observations), "labels_per_s": median(labels, "labels"),
               "label_searches_per_s": median(labels, "searches"),
               "label_states_per_s": median(labels, "states"),
               "plan_searches_per_s": median(plans, "searches"), "plan_states_per_s": median(plans, "states")}
    figures["search_ratio"] = figures["label_searches_per_s"] / figures["plan_searches_per_s"]
    print(f"{len(observations)} positions where world-bandit plans (eval deals {args.deals}), one core, "
          f"median of {args.repeats}:")
    print(f"  world scores, K {args.worlds}, cap {args.cap}: {figures['labels_per_s']:,.1f} labels a second, "
          f"{figures['label_searches_per_s']:,.0f} capped searches a second "
          f"({figures['label_states_per_s']:,.0f} states a second)")
    print(f"  commit_plan, {args.plan_worlds} worlds, cap {args.cap}: {figures['plan_searches_per_s']:,.0f} "
          f"capped searches a second ({figures['plan_states_per_s']:,.0f} states a second)")
    print(f"  ratio of searches a second (world scores / commit_plan): {figures['search_ratio']:.2f}")
    return figures


if __name__ == "__main__":
    main()
