"""Where a MaskablePPO iteration spends its time: for ``benchmarks/ppo_steps.py --phases``.

:class:`PhaseClock` wraps, for as long as it is entered, the calls a training iteration is made of
and adds up their wall time (CPU time too, of this process):

* ``env step``: ``VecEnv.step`` as the rollout calls it (the native batch, the encoding, and for a
  privileged critic the hidden-card vectors; nested steps of a wrapper count once);
* ``action masks``: sb3-contrib's ``get_action_masks`` in the rollout;
* ``policy forward``: the policy's forward in the rollout (actor, critic, masked sampling);
* ``update``: ``MaskablePPO.train``, the epochs of minibatch forward, backward and Adam steps;
* ``rollout other``: the rest of ``collect_rollouts`` (tensors, the rollout buffer, callbacks,
  returns and advantages);
* ``other``: ``learn`` outside both (logging, the progress bar, setup).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import sb3_contrib.ppo_mask.ppo_mask as ppo_mask
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.vec_env import VecEnv

PHASES = ("env step", "action masks", "policy forward", "rollout other", "update", "other")


class PhaseClock:
    """Wall and CPU seconds per phase of the PPO iterations run while it is entered (see the module)."""

    def __init__(self) -> None:
        self.wall = dict.fromkeys((*PHASES, "rollout", "learn"), 0.0)
        self.cpu = dict(self.wall)
        self._depth: dict[str, int] = {}

    def _timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            depth = self._depth.get(name, 0)
            self._depth[name] = depth + 1
            start, cpu = time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self._depth[name] = depth
                if depth == 0:  # a wrapper's step calls the wrapped one's: count the outer one
                    self.wall[name] += time.perf_counter() - start
                    self.cpu[name] += time.process_time() - cpu

        return timed

    @contextmanager
    def running(self) -> Iterator[PhaseClock]:
        """Time the phases while inside; the methods are restored after."""
        patched = [(VecEnv, "step", "env step"), (ppo_mask, "get_action_masks", "action masks"),
                   (MaskableActorCriticPolicy, "forward", "policy forward"),
                   (MaskablePPO, "collect_rollouts", "rollout"), (MaskablePPO, "train", "update"),
                   (MaskablePPO, "learn", "learn")]
        saved = [(owner, attribute, getattr(owner, attribute)) for owner, attribute, _ in patched]
        for owner, attribute, name in patched:
            setattr(owner, attribute, self._timed(name, getattr(owner, attribute)))
        try:
            yield self
        finally:
            for owner, attribute, original in saved:
                setattr(owner, attribute, original)

    def shares(self, clock: str = "wall") -> dict[str, float]:
        """Each phase's seconds (of ``wall`` or ``cpu`` time), the remainders computed."""
        t = self.wall if clock == "wall" else self.cpu
        inside = t["env step"] + t["action masks"] + t["policy forward"]
        out = {name: t[name] for name in ("env step", "action masks", "policy forward", "update")}
        out["rollout other"] = t["rollout"] - inside
        out["other"] = t["learn"] - t["rollout"] - t["update"]
        return out


__all__ = ["PHASES", "PhaseClock"]
