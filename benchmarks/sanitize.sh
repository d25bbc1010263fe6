#!/usr/bin/env bash
# The native core under AddressSanitizer + UndefinedBehaviorSanitizer (docs/hardening.md).
#
#   benchmarks/sanitize.sh build              # configure + build into build/asan (never touches build/)
#   benchmarks/sanitize.sh native [ROUNDS]    # the C++ tests (native/src/klondike/tests), ROUNDS 150
#   benchmarks/sanitize.sh pytest [ARGS...]   # the native-reaching Python tests (or ARGS) on the build
#   benchmarks/sanitize.sh python ARGS...     # any python command on the build
#   benchmarks/sanitize.sh all                # build, native, pytest
#
# The Python side runs the ordinary interpreter with libasan preloaded and PYTHONPATH on the
# sanitizer build of solitaire_native (build/asan/py), which wins over the editable install. A
# sanitizer report aborts the process (exit status not 0). Leak checking is off: CPython keeps
# its interned objects to the end on purpose.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${SANITIZE_BUILD_DIR:-$ROOT/build/asan}"
SANITIZERS="${SANITIZERS:-address,undefined}"
PY="${PYTHON:-python}"
# The Python tests that reach native code and load no torch (torch's own libraries are not built
# for a preloaded ASan runtime).
NATIVE_TESTS=(
  tests/test_native_fuzz.py
  tests/test_native_fuzz_targets.py
  tests/test_native_core.py
  tests/test_native_movegen.py
  tests/test_native_policy_inputs.py
  tests/test_native_policy_inputs_pyramid.py
  tests/test_native_vec_klondike.py
  tests/test_native_vec_pyramid.py
  tests/test_pyramid_solver.py
  tests/test_klondike_solver.py
  tests/test_pimc.py
)

build() {
  mkdir -p "$BUILD/py"
  # nanobind for the configure step, in the build folder (pip's isolated build env is gone).
  if ! PYTHONPATH="$BUILD/pydeps" "$PY" -c "import nanobind" 2>/dev/null; then
    "$PY" -m pip install --quiet --target "$BUILD/pydeps" "nanobind>=2.0"
  fi
  # Ninja when there is one (a folder configured before keeps its own generator), else make.
  local generator=()
  if [ ! -f "$BUILD/cmake/CMakeCache.txt" ]; then
    if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); else generator=(-G "Unix Makefiles"); fi
  fi
  PYTHONPATH="$BUILD/pydeps" cmake -S "$ROOT" -B "$BUILD/cmake" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOLITAIRE_SANITIZE="$SANITIZERS" -DSOLITAIRE_NATIVE_TOOLS=ON \
    -DPython_EXECUTABLE="$("$PY" -c 'import sys; print(sys.executable)')" \
    -Dnanobind_DIR="$(PYTHONPATH="$BUILD/pydeps" "$PY" -m nanobind --cmake_dir)"
  cmake --build "$BUILD/cmake" -j "${JOBS:-1}"
  cp "$BUILD"/cmake/solitaire_native*.so "$BUILD/py/"
  # sitecustomize runs after the .pth files: it drops the editable install's redirect of
  # solitaire_native so that the sanitizer build on PYTHONPATH is the one imported.
  cat > "$BUILD/py/sitecustomize.py" <<'PYEOF'
import sys

for _finder in sys.meta_path:
    _known = getattr(_finder, "known_wheel_files", None)
    if isinstance(_known, dict):
        _known.pop("solitaire_native", None)
PYEOF
}

run_python() {
  local asan ubsan
  asan="$(g++ -print-file-name=libasan.so)"
  ubsan="$(g++ -print-file-name=libubsan.so)"
  LD_PRELOAD="$asan:$ubsan" \
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
  PYTHONPATH="$BUILD/py:$ROOT${PYTHONPATH:+:$PYTHONPATH}" \
  SOLITAIRE_SANITIZED=1 \
    "$PY" "$@"
}

check_built() {
  ls "$BUILD"/py/solitaire_native*.so >/dev/null 2>&1 || { echo "run: $0 build" >&2; exit 2; }
}

cmd="${1:-all}"
shift || true
case "$cmd" in
  build) build ;;
  native)
    check_built
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      "$BUILD/cmake/klondike_solver_test" "$ROOT/native/src/klondike/tests/data" "${1:-150}"
    ;;
  pytest)
    check_built
    cd "$ROOT"
    if [ $# -eq 0 ]; then set -- "${NATIVE_TESTS[@]}"; fi
    run_python -m pytest -q -p no:cacheprovider "$@"
    ;;
  python) check_built; cd "$ROOT"; run_python "$@" ;;
  all)
    build
    "$0" native
    "$0" pytest
    ;;
  *) echo "unknown command $cmd (build, native, pytest, python, all)" >&2; exit 2 ;;
esac
