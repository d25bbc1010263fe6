"""Many independent deals on a Ray cluster: the ``--ray ADDRESS`` path of the solver and benchmark CLIs.

:func:`connect` joins a cluster (``auto``: the one ``RAY_ADDRESS`` or ``ray start`` names on this
machine, else a new local instance); :func:`fan_out` calls a function on every item as Ray tasks,
``chunk_size`` items a task, at most ``max_in_flight`` tasks out at once, and yields
``(index, result)`` as tasks complete; :func:`in_order` turns that back into item order.

* A task whose worker (or node) dies is run again by Ray (``max_retries``); if it still cannot
  finish, its items are run one a task, so only an item that itself kills its worker is lost, and
  it comes back as :class:`Failed`, never dropped.
* An item whose call raises comes back as :class:`Failed` with the error; the others go on.
* The function must give an item's result from the item alone (seeds per deal, never per
  worker), so results do not depend on where they ran.

Ray is imported here only, inside these functions: without ``--ray`` nothing imports it.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
DEFAULT_MAX_RETRIES = 3
"""Ray's retries of a task whose worker died (system failures only; an item's own error is not retried)."""


@dataclass(frozen=True)
class Failed:
    """An item that did not give a result: why, as text."""

    error: str


def _host(address: str) -> str:
    return address.removeprefix("ray://").rsplit(":", 1)[0]


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse an address where nothing listens at once (Ray itself would retry for minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"bad Ray address {address!r}: give auto or HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConnectionError(f"nothing answers at {address}: {exc}") from None


def connect(address: str) -> dict[str, float]:
    """Join the Ray cluster at ``address`` (``auto``: the one this machine runs, else a new local
    instance with the dashboard off); return its resources. Raises ``ConnectionError`` if none answers.

    A loopback address (or ``auto`` without ``RAY_ADDRESS``) keeps the driver on 127.0.0.1: Ray would
    otherwise swap loopback for the machine's routable address."""
    if not address:
        raise ValueError("empty Ray address: give auto or HOST:PORT")
    if address != "auto":
        _check_reachable(address)
    target = os.environ.get("RAY_ADDRESS", "auto") if address == "auto" else address
    loopback = target == "auto" or _host(target) in LOOPBACK_HOSTS
    if loopback:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # read when ray is imported
    import ray

    if loopback:  # ray was imported before this call: the same switch, on the module it set
        from ray._private import ray_constants

        ray_constants.ENABLE_RAY_CLUSTER = os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] != "0"

    if not ray.is_initialized():
        ray.init(address=None if address == "auto" else address, include_dashboard=False,
                 logging_level=logging.WARNING, configure_logging=True)
    return ray.cluster_resources()


def _run_chunk(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """One task: ``fn`` on each item; an item whose call raises gives :class:`Failed`."""
    out: list[Any] = []
    for item in items:
        try:
            out.append(fn(item))
        except Exception as exc:
            out.append(Failed(f"{type(exc).__name__}: {exc}"))
    return out


def default_chunk_size(count: int, cpus: int) -> int:
    """About 16 tasks per CPU, 1..1,000 items each: small enough to balance, large enough that the
    per-task cost (about 2 ms on the 2-core development machine) stays small against the items' own time."""
    return max(1, min(1000, count // (16 * max(1, cpus))))


def fan_out(fn: Callable[[T], R], items: Sequence[T], *, chunk_size: int | None = None,
            max_in_flight: int | None = None, max_retries: int = DEFAULT_MAX_RETRIES,
            progress: str | None = "deals") -> Iterator[tuple[int, R | Failed]]:
    """``fn`` on every item as Ray tasks on the connected cluster; ``(index, result)`` pairs in
    completion order. ``max_in_flight`` tasks at most are out at once (default: 2 per CPU);
    ``progress`` names the items on a progress bar on standard error (``None``: no bar)."""
    import ray

    if not ray.is_initialized():
        raise RuntimeError(
            "not connected to a Ray cluster: call solitaire_rl.agents.distributed.connect first"
        )
    cpus = int(ray.cluster_resources().get("CPU", 1))
    size = chunk_size or default_chunk_size(len(items), cpus)
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, not {size}")
    limit = max_in_flight or 2 * cpus
    task = ray.remote(num_cpus=1, max_retries=max_retries, retry_exceptions=False)(_run_chunk)
    fn_ref = ray.put(fn)  # sent once; every task reads it from the object store
    pending = [range(first, min(first + size, len(items))) for first in range(0, len(items), size)]
    pending.reverse()  # taken from the end: first chunks first
    out: dict[Any, range] = {}
    bar = _progress_bar(len(items), progress)
    try:
        while pending or out:
            while pending and len(out) < limit:
                chunk = pending.pop()
                out[task.remote(fn_ref, [items[i] for i in chunk])] = chunk
            (ready,), _ = ray.wait(list(out), num_returns=1)
            chunk = out.pop(ready)
            try:
                results = ray.get(ready)
            except ray.exceptions.RayTaskError as exc:  # the task itself failed (fn did not load)
                results = [Failed(_first_line(exc))] * len(chunk)
            except ray.exceptions.RayError as exc:  # its worker or node died, every retry
                if len(chunk) > 1:  # find the item that kills its worker: one a task
                    pending += [range(i, i + 1) for i in reversed(chunk)]
                    continue
                results = [Failed(f"its worker died {max_retries + 1} times: {_first_line(exc)}")]
            yield from zip(chunk, results, strict=True)
            if bar is not None:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.close()
        for ref in out:
            ray.cancel(ref, force=True)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else 'no message'}"


def _progress_bar(total: int, unit: str | None) -> Any:
    if unit is None:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", file=sys.stderr, mininterval=0.5, dynamic_ncols=True)


def in_order(pairs: Iterator[tuple[int, R]], count: int) -> Iterator[R]:
    """``(index, result)`` pairs for indices ``0..count-1`` in any order -> the results in index order,
    each as soon as every earlier one has come."""
    held: dict[int, R] = {}
    next_index = 0
    for index, result in pairs:
        held[index] = result
        while next_index in held:
            yield held.pop(next_index)
            next_index += 1
    if next_index != count:
        raise RuntimeError(f"{count - next_index} of {count} results never came back")


__all__ = ["DEFAULT_MAX_RETRIES", "Failed", "connect", "default_chunk_size", "fan_out", "in_order"]
