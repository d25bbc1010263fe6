"""Checkpoint fixtures shared by the agent, benchmark and play tests."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire_rl.agents.ppo import METADATA_NAME


def rewrite_metadata(source: Path, target: Path, change: Callable[[dict[str, Any]], object]) -> Path:
    """Copy a checkpoint with its metadata record changed by ``change(record)``; return ``target``."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.namelist():
            data = old.read(item)
            if item == METADATA_NAME:
                record = json.loads(data)
                change(record)
                data = json.dumps(record).encode()
            new.writestr(item, data)
    return target


def chosen_by_sampling(record: dict[str, Any]) -> None:
    """Mark a metadata record as a checkpoint that training chose by sampled evaluation."""
    record["training"].setdefault("args", {})["eval_sample"] = True


__all__ = ["chosen_by_sampling", "rewrite_metadata"]
