#!/usr/bin/env bash
# Issue 34's strength figures on a borrowed many-core machine with no network:
# ours (mcts:c=0.7,endgame=0.3) at 0.1 s a move against OpenSpiel's MCTSBot at 1.0 s,
# Stairs and 27 (basic), seats alternating, one game per dedicated core.
#
#   bash benchmarks/device_strength.sh DEADLINE STAIRS_GAMES TWENTY_SEVEN_GAMES [JOBS [ARGS...]]
#
# DEADLINE: seconds from the start of the benchmark after which no game starts (the
# running ones finish: allow one game's length, about 40 s, beyond it). JOBS: games at
# once, one per core (default: the usable cores less one); ARGS go to the benchmark
# (--allow-load, to try the script on a busy machine). Needs python3 (3.12) with
# numpy, numba, llvmlite and absl-py; OpenSpiel comes from the wheels in .whl/
# (python3 -m pip download ... -d .whl open_spiel==2.0.2 ml-collections), installed
# under /tmp/site without the network. Everything it writes goes to $OUT (or
# /tmp/strength): strength.jsonl (every game as it ends, and the run's conditions),
# strength.json (the table and the conditions) and strength.log. Games already in
# $PREVIOUS (a strength.jsonl of an earlier call, for a run split over several calls)
# are not played again and count in the table.
set -euo pipefail
cd "$(dirname "$0")/.."

deadline=${1:?usage: device_strength.sh DEADLINE STAIRS_GAMES TWENTY_SEVEN_GAMES [JOBS]}
stairs=${2:?stairs games}
twenty_seven=${3:?27 games}
python=${PYTHON:-python3}
jobs=${4:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
shift $(($# < 4 ? $# : 4))
out=${OUT:-/tmp/strength}
mkdir -p "$out"

log=$out/strength.log
source benchmarks/device_env.sh

checkpoint=$out/strength.jsonl
if [ -n "${PREVIOUS:-}" ] && [ -f "$PREVIOUS" ]; then
    cat "$PREVIOUS" >> "$checkpoint"
fi

# the checkpoint keeps every finished game even if this command is cut off
"$python" -m benchmarks.players_openspiel \
    --game stairs --game twenty_seven --games "$stairs,$twenty_seven" \
    --time 0.1 --bot-time 1.0 --ours mcts:c=0.7,endgame=0.3 \
    --jobs "$jobs" --deadline "$deadline" \
    --checkpoint "$checkpoint" --out "$out/strength.json" "$@" 2>&1 | tee -a "$out/strength.log"
