#!/usr/bin/env bash
# Issue 34, Stairs only, on a borrowed many-core machine with no network: ours at 0.1 s
# a move against OpenSpiel's MCTSBot, seats alternating (seeds from 1000), one game per
# dedicated core, two runs one after the other for each player of PLAYERS:
#
#   1. the bot held to the outside harness's 1,669 simulations a move;
#   2. the bot at 1.0 s a move (the issue's match).
#
#   bash benchmarks/device_stairs.sh FIXED_DEADLINE TIMED_DEADLINE [JOBS]
#   PLAYERS="mcts:c=0.7,endgame=0.3 mcts:c=0.7,endgame=0.3,endgame_hold=1" \
#       bash benchmarks/device_stairs.sh 150 0      # several players, run 1 only
#
# Each DEADLINE: seconds from the start of that run after which it starts no game (its
# running games finish: some 15 s more, and about 20 s go to loading and warming up
# first); 0 leaves that run out. Every run covers the same 600 seeds, so the players
# meet the bot on the same seeds (the 1.0 s runs repeat no game move for move: the
# budgets are time). JOBS: games at once (default: the usable cores less one).
# PLAYERS: our players, space-separated (default: the issue's player with the solver
# holding its share, docs/agents.md "Why Stairs was lost"). Needs python3 (3.12) with
# numpy, numba, llvmlite and absl-py; OpenSpiel comes from the wheels in .whl/,
# installed under /tmp/site (or $SITE) without the network. Writes to $OUT (or /tmp/strength):
# stairs-fixed.jsonl and stairs-timed.jsonl (every game, with its moves, and each
# run's conditions), stairs-{fixed,timed}-N.json (each run's table, N counting the
# players), stairs.log; at the end the tables of all the games (python -m
# benchmarks.strength FILE prints them again). ARGS: more arguments for every run
# (ARGS=--allow-load to try the script on a busy machine; GAMES=2 plays fewer seeds).
set -euo pipefail
cd "$(dirname "$0")/.."

fixed=${1:?usage: device_stairs.sh FIXED_DEADLINE TIMED_DEADLINE [JOBS]}
timed=${2:?usage: device_stairs.sh FIXED_DEADLINE TIMED_DEADLINE [JOBS]}
python=${PYTHON:-python3}
jobs=${3:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
players=${PLAYERS:-mcts:c=0.7,endgame=0.6,endgame_hold=1}
games=${GAMES:-600}
out=${OUT:-/tmp/strength}
mkdir -p "$out"
log=$out/stairs.log

echo "$(nproc) cores, load: $(cat /proc/loadavg); $("$python" --version)" | tee -a "$log"
site=${SITE:-/tmp/site}  # where the wheels go (SITE=/nowhere where python has OpenSpiel)
if ! PYTHONPATH=$site "$python" -c 'import pyspiel' 2>/dev/null; then
    if "$python" -m pip --version >/dev/null 2>&1; then
        "$python" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target "$site" .whl/*.whl
    else  # a wheel is a zip file to unpack where Python looks
        for wheel in .whl/*.whl; do "$python" -m zipfile -e "$wheel" "$site"; done
    fi
fi
export PYTHONPATH=$site:src:.
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1
export PYTHONUNBUFFERED=1

run() {  # KIND N DEADLINE ARGS...: one run, its games kept in KIND's checkpoint
    local kind=$1 number=$2 deadline=$3
    shift 3
    "$python" -m benchmarks.players_openspiel --game stairs --games "$games" --time 0.1 \
        --jobs "$jobs" --first-seed 1000 --deadline "$deadline" --record-moves \
        --checkpoint "$out/stairs-$kind.jsonl" --out "$out/stairs-$kind-$number.json" ${ARGS:-} "$@" \
        2>&1 | tee -a "$log" || true
}

# compile the players' kernels once (a fresh machine's first run would pay it from its deadline)
"$python" -c 'import stairgames; from stairgames.agents import make_agent
make_agent("mcts:c=0.7,endgame=0.3", 0, game=stairgames.load("stairs"))' 2>&1 | tee -a "$log"

number=0
for player in $players; do
    number=$((number + 1))
    if [ "$fixed" != 0 ]; then
        run fixed "$number" "$fixed" --bot-simulations 1669 --ours "$player"
    fi
    if [ "$timed" != 0 ]; then
        run timed "$number" "$timed" --bot-time 1 --ours "$player"
    fi
done
for kind in fixed timed; do
    if [ -s "$out/stairs-$kind.jsonl" ]; then
        "$python" -m benchmarks.strength "$out/stairs-$kind.jsonl" --out "$out/stairs-$kind.json" \
            | tee -a "$log"
    fi
done
