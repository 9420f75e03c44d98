#!/usr/bin/env bash
# 27's opening book on a borrowed many-core machine with no network (issue 34): ours
# mcts:c=0.7,endgame=0.3,book=1 against OpenSpiel's MCTSBot held to the outside
# harness's 3,457 simulations a move, one game per dedicated core, two runs:
#
#   1. paired: ours first with 12,000 iterations a move on seeds 2000-2198 (even), the
#      games docs/agents.md measured without the book and with the earlier books (fixed
#      budgets: each game depends only on its seed, so the machine changes nothing);
#   2. at 0.1 s a move, both seats, seeds from 1000.
#
#   bash benchmarks/device_27_book.sh PAIRED_DEADLINE TIMED_DEADLINE [JOBS]
#
# Each DEADLINE: seconds from the start of that run after which it starts no game (its
# running games finish). Writes to $OUT (or /tmp/strength): book.jsonl (every game with
# its moves, and each run's conditions), book-{paired,timed}.json and book.log.
set -euo pipefail
cd "$(dirname "$0")/.."

paired=${1:?usage: device_27_book.sh PAIRED_DEADLINE TIMED_DEADLINE [JOBS]}
timed=${2:?timed deadline}
python=${PYTHON:-python3}
jobs=${3:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
out=${OUT:-/tmp/strength}
mkdir -p "$out"
log=$out/book.log
source benchmarks/device_env.sh

ours=mcts:c=0.7,endgame=0.3,book=1
"$python" -m benchmarks.players_openspiel --game twenty_seven --games 200 --first-seed 2000 \
    --ours-seat first --ours "$ours" --ours-iterations 12000 --bot-simulations 3457 \
    --jobs "$jobs" --deadline "$paired" --record-moves --checkpoint "$out/book-paired.jsonl" \
    --out "$out/book-paired.json" 2>&1 | tee -a "$log" || true
"$python" -m benchmarks.players_openspiel --game twenty_seven --games 600 --first-seed 1000 \
    --time 0.1 --ours "$ours" --bot-simulations 3457 \
    --jobs "$jobs" --deadline "$timed" --record-moves --checkpoint "$out/book-timed.jsonl" \
    --out "$out/book-timed.json" 2>&1 | tee -a "$log" || true
