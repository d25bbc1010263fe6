"""Resumable chunked runs on disk: the pieces :mod:`~solitaire_rl.training.selfplay` and
:mod:`~solitaire_rl.training.world_labels` share.

A run plays train deals in chunks of consecutive numbers, one compressed ``.npz`` shard a chunk
(``deals-FIRST-LAST.npz``), each written whole (a temporary file renamed), its bytes depending on
its arrays alone; a folder holds one run at a time (an advisory lock). What a run's manifest
records, and how a shard is checked when read, is each run's own.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import os
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.training.splits import TRAIN

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def shard_name(deals: Sequence[int]) -> str:
    """The file name of the shard of ``deals`` (consecutive numbers)."""
    return f"deals-{deals[0]:010d}-{deals[-1]:010d}.npz"


def shard_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """A compressed ``.npz`` of ``arrays`` whose bytes depend on the arrays alone (entries in name
    order, a fixed date): what ``numpy.load`` reads."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(arrays[name]), allow_pickle=False)
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, buffer.getvalue())
    return out.getvalue()


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole: a reader never meets half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one run at a time (another run is refused, not queued)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise MalformedInputError(f"another run is writing {folder}") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def train_chunks(first: int, count: int, chunk: int, what: str) -> list[list[int]]:
    """Train deals ``first .. first + count - 1`` in chunks of ``chunk``, aligned to ``first``;
    ``what`` starts the refusal of other deals ("self-play plays")."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise MalformedInputError(f"deals must be a positive count, not {count!r}")
    if first not in TRAIN or first + count - 1 not in TRAIN:
        raise MalformedInputError(f"{what} on train deals only ({TRAIN.first:,}..{TRAIN.last:,})")
    return [list(range(s, min(s + chunk, first + count))) for s in range(first, first + count, chunk)]


__all__ = ["digest", "locked", "shard_bytes", "shard_name", "train_chunks", "write_atomically"]
