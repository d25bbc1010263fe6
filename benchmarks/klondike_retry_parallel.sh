#!/bin/bash
# Retry the deals left unknown by klondike_solver_native.py with a longer limit, across every core
# of a machine (the long measurement of the Klondike issue; any many-core machine will do).
#
#   python benchmarks/klondike_native_input.py unknowns benchmarks/results/klondike_draw3_*.csv > lines.txt
#   g++ -O3 -mpopcnt -std=c++17 -static -Inative/src native/src/klondike/*.cpp native/tools/klondike_solve_main.cpp \
#       -o klondike_solve
#   OUT=some/folder bash benchmarks/klondike_retry_parallel.sh ./klondike_solve lines.txt 20 285
#   python benchmarks/klondike_solver_native.py --name draw3_1001-6000 --time 20 --python-check \
#       --merge some/folder/retry.tsv --clock cpu-16-core-xeon        # and the other result files
#
# Arguments: driver binary, position lines, CPU seconds per deal, wall seconds for the whole run
# (each worker stops then; the deals it has not finished stay unknown). The workers append one
# line per deal, as each finishes, to $OUT/retry.tsv.
set -u
binary=$1 lines=$2 limit=$3 wall=$4
workers=$(nproc)
work=$(mktemp -d)
split -n "r/$workers" -d "$lines" "$work/part_"
for part in "$work"/part_*; do
  ( timeout "$wall" "$binary" --draw 3 --time "$limit" --cpu-time --memory 6000 --check --line \
      < "$part" >> "$OUT/retry.tsv" 2>/dev/null ) &
done
wait
rm -rf "$work"
cut -f2 "$OUT/retry.tsv" | sort | uniq -c
