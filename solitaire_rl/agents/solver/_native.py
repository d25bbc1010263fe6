"""The compiled core, ``solitaire_native``, re-exported under one name for the solver modules.

It is built from ``native/`` by the package's own build (``pip install -e .``); its API is typed
by nanobind's stubgen of the module, ``typings/solitaire_native.pyi`` (tests/test_native_stub.py).
Nothing here checks input: the modules using it do, first.
"""

from __future__ import annotations

try:
    from solitaire_native import (
        DEFAULT_MAX_MEMORY_BYTES,
        MIN_MAX_MEMORY_BYTES,
        CancelToken,
        KlondikeActionKind,
        KlondikeCommitCandidate,
        KlondikeCommitOptions,
        KlondikeCommitResult,
        KlondikeCommitSchedule,
        KlondikeHopOptions,
        KlondikeHopResult,
        KlondikeIsmctsOptions,
        KlondikeIsmctsResult,
        KlondikeOptions,
        KlondikePosition,
        KlondikeResult,
        KlondikeWorldScoreOptions,
        KlondikeWorldScores,
        Limits,
        PyramidMoveKind,
        PyramidPimcOptions,
        PyramidPosition,
        PyramidPruneRule,
        PyramidResult,
        SampleTally,
        Status,
        StopReason,
        klondike_commit_plan,
        klondike_forced_move,
        klondike_generated_moves,
        klondike_hop,
        klondike_ismcts,
        klondike_legal_actions,
        klondike_proved_lost_without_search,
        klondike_solve,
        klondike_validate,
        klondike_world_scores,
        pyramid_forced_moves,
        pyramid_legal_moves,
        pyramid_pimc,
        pyramid_prune_rule,
        pyramid_solve,
    )
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "the native solver core 'solitaire_native' is not built: run `pip install -e .` "
        "(it needs a C++17 compiler) from the repository root"
    ) from exc

__all__ = [
    "DEFAULT_MAX_MEMORY_BYTES",
    "MIN_MAX_MEMORY_BYTES",
    "CancelToken",
    "KlondikeActionKind",
    "KlondikeCommitCandidate",
    "KlondikeCommitOptions",
    "KlondikeCommitResult",
    "KlondikeCommitSchedule",
    "KlondikeHopOptions",
    "KlondikeHopResult",
    "KlondikeIsmctsOptions",
    "KlondikeIsmctsResult",
    "KlondikeOptions",
    "KlondikePosition",
    "KlondikeResult",
    "KlondikeWorldScoreOptions",
    "KlondikeWorldScores",
    "Limits",
    "PyramidMoveKind",
    "PyramidPimcOptions",
    "PyramidPosition",
    "PyramidPruneRule",
    "PyramidResult",
    "SampleTally",
    "Status",
    "StopReason",
    "klondike_commit_plan",
    "klondike_forced_move",
    "klondike_generated_moves",
    "klondike_hop",
    "klondike_ismcts",
    "klondike_legal_actions",
    "klondike_proved_lost_without_search",
    "klondike_solve",
    "klondike_validate",
    "klondike_world_scores",
    "pyramid_forced_moves",
    "pyramid_legal_moves",
    "pyramid_pimc",
    "pyramid_prune_rule",
    "pyramid_solve",
]
