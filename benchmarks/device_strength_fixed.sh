#!/usr/bin/env bash
# Issue 34 on a borrowed many-core machine with no network, the bot held to the outside
# harness's simulations a move (Stairs 1,669, 27 3,457) instead of 1.0 s: ours at 0.1 s
# a move, one game per dedicated core, three runs one after the other:
#
#   1. 27 (basic), ours mcts:c=0.7,endgame=0.3,book=1 (the opening book), both seats;
#   2. 27 (basic), ours mcts:c=0.7,endgame=0.3 (no book), as first player only (as
#      second the two players are the same: the book has white's positions only);
#   3. Stairs, ours mcts:c=0.7,endgame=0.3, both seats.
#
#   bash benchmarks/device_strength_fixed.sh BOOK_DEADLINE PLAIN_DEADLINE STAIRS_DEADLINE [JOBS]
#
# Each DEADLINE: seconds from the start of that run after which it starts no game (its
# running games finish: some 10-15 s more, and about 20 s go to loading and warming up
# first). JOBS: games at once (default: the usable cores less one). Needs python3
# (3.12) with numpy, numba, llvmlite and absl-py; OpenSpiel comes from the wheels in
# .whl/, installed under /tmp/site without the network. Writes to $OUT (or
# /tmp/strength): fixed.jsonl (every game, with its moves, and each run's conditions),
# fixed-{book,plain,stairs}.json (each run's table) and fixed.log; at the end the table
# of all the games (python -m benchmarks.strength fixed.jsonl prints it again).
set -euo pipefail
cd "$(dirname "$0")/.."

book=${1:?usage: device_strength_fixed.sh BOOK_DEADLINE PLAIN_DEADLINE STAIRS_DEADLINE [JOBS]}
plain=${2:?plain 27 deadline}
stairs=${3:?stairs deadline}
python=${PYTHON:-python3}
jobs=${4:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
out=${OUT:-/tmp/strength}
mkdir -p "$out"
log=$out/fixed.log

source benchmarks/device_env.sh

checkpoint=$out/fixed.jsonl
run() {  # NAME DEADLINE ARGS...: one run of the benchmark, its games kept in the checkpoint
    local name=$1 deadline=$2
    shift 2
    "$python" -m benchmarks.players_openspiel --time 0.1 --jobs "$jobs" --first-seed 1000 \
        --deadline "$deadline" --record-moves --checkpoint "$checkpoint" \
        --out "$out/fixed-$name.json" "$@" 2>&1 | tee -a "$log" || true
}

run book "$book" --game twenty_seven --games 600 --bot-simulations 3457 \
    --ours mcts:c=0.7,endgame=0.3,book=1
run plain "$plain" --game twenty_seven --games 600 --ours-seat first --bot-simulations 3457 \
    --ours mcts:c=0.7,endgame=0.3
run stairs "$stairs" --game stairs --games 600 --bot-simulations 1669 \
    --ours mcts:c=0.7,endgame=0.3
"$python" -m benchmarks.strength "$checkpoint" --out "$out/fixed.json" | tee -a "$log"
