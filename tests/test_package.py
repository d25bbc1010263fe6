"""The installed package: one top-level ``solitaire_rl``, Gymnasium's module prefix, the console command."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from solitaire_rl.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
CONSOLE = Path(sys.executable).parent / "solitaire-rl"


def run_outside(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter from ``tmp_path``, with nothing of the checkout on its path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_wheel_installs_one_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["scikit-build"]["wheel"]["packages"] == ["solitaire_rl"]
    assert config["project"]["scripts"] == {"solitaire-rl": "solitaire_rl.cli:main"}


@pytest.mark.parametrize("name", ["envs", "agents", "training", "play"])
def test_no_generic_top_level_package_is_importable(name: str, tmp_path: Path) -> None:
    run = run_outside(f"import {name}", tmp_path)
    assert run.returncode == 1 and f"No module named '{name}'" in run.stderr


def test_gymnasium_module_prefix_needs_no_import(tmp_path: Path) -> None:
    code = ("import gymnasium\n"
            "for name in ('Solitaire/Pyramid-v0', 'Solitaire/Klondike-v0'):\n"
            "    env = gymnasium.make('solitaire_rl:' + name)\n"
            "    obs, info = env.reset(seed=3)\n"
            "    print(name, env.observation_space.contains(obs), int(info['action_mask'].sum()) > 0)\n")
    run = run_outside(code, tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["Solitaire/Pyramid-v0 True True", "Solitaire/Klondike-v0 True True"]


def test_importing_the_package_registers_the_environments(tmp_path: Path) -> None:
    run = run_outside("import gymnasium, solitaire_rl\n"
                      "print(sorted(k for k in gymnasium.registry if k.startswith('Solitaire/')))", tmp_path)
    assert run.stdout.strip() == "['Solitaire/Klondike-v0', 'Solitaire/Pyramid-v0']", run.stderr


def test_the_console_command_lists_its_commands() -> None:
    run = subprocess.run([str(CONSOLE), "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0
    assert [line.split()[0] for line in run.stdout.splitlines() if line.startswith("  ")] == list(COMMANDS)


def test_an_unknown_command_is_refused_with_the_list() -> None:
    run = subprocess.run([str(CONSOLE), "slove"], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2
    assert "unknown command 'slove'" in run.stderr and "solve" in run.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_console_command_runs(command: str, tmp_path: Path) -> None:
    run = subprocess.run([str(CONSOLE), command, "--help"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=180, check=False)
    assert run.returncode == 0, run.stderr
    assert "usage" in run.stdout.lower() and len(run.stdout.splitlines()) > 3


def test_a_command_runs_its_program(tmp_path: Path) -> None:
    run = subprocess.run([str(CONSOLE), "solve", "pyramid", "pyramid-random-v1-7", "--variant", "001"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=180, check=False)
    module = [sys.executable, "-m", "solitaire_rl.agents.solver"]
    direct = subprocess.run([*module, "pyramid", "pyramid-random-v1-7", "--variant", "001"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=180, check=False)
    assert run.returncode == direct.returncode == 0, run.stderr + direct.stderr
    assert run.stdout.split()[:2] == direct.stdout.split()[:2]  # the deal and its verdict (then times)
