#!/usr/bin/env bash
# The level ladder measured as the strength figures are, on a borrowed many-core machine
# with no network: in each of Stairs, 27, Ishigaki Race and City of Stairs (2 players)
# `medium` against `hard` and `hard` against `expert`, GAMES games each (default 100,
# seeds from 1000, the stronger level first in the even ones), one game per dedicated
# core (benchmarks/ladder.py):
#
#   bash benchmarks/device_ladder.sh DEADLINE [JOBS]
#
# DEADLINE: seconds from the start after which no game starts (the running ones finish:
# a hard-expert game of City of Stairs takes about a minute more). JOBS: games at once,
# one per core (default: all the usable cores but one). Estimate from the levels' times
# (expert thinks 1.8 s a move, hard 0.25 s, medium 0.05 s; the greedy levels of Ishigaki
# Race and City of Stairs about 0.02 s or less) and the plies of a game (about 40 in
# Stairs and 27, 70 in City of Stairs, 90 in Ishigaki Race): a hard-expert game takes at
# most about 40 s in Stairs and 27 and 65 s in City of Stairs, a medium-hard game 6 s or
# less, so the 800 games take at most about 16,000 core-seconds: about 18 minutes on 15
# cores, likely less (expert's alphabeta often ends its search early: a Stairs
# hard-expert game took 15 s on a busy 2-core machine).
# A shorter DEADLINE plays the same share of every game and step; run again with the
# same OUT and the checkpoint's games are not played again. Writes to $OUT (or /tmp/strength):
# ladder.jsonl (every game with both sides' seconds and simulations per move, each
# run's conditions), ladder.json (the table) and ladder.log. STEPS replaces the steps;
# ARGS adds arguments (they come last: `--steps random:easy` there wins). The ladder does
# not use OpenSpiel: where .whl/ holds no OpenSpiel wheel for this Python (or
# OPENSPIEL=0), the environment of benchmarks/device_env.sh is set without it. To try it
# on a small busy machine:
#
#   GAMES=2 ARGS=--allow-load PYTHON=.venv/bin/python OUT=/tmp/x bash benchmarks/device_ladder.sh 30 1
set -euo pipefail
cd "$(dirname "$0")/.."

deadline=${1:?usage: device_ladder.sh DEADLINE [JOBS]}
python=${PYTHON:-python3}
jobs=${2:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
games=${GAMES:-100}
out=${OUT:-/tmp/strength}
mkdir -p "$out"
log=$out/ladder.log
tag=$("$python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
if [ "${OPENSPIEL:-1}" != 0 ] && compgen -G ".whl/open_spiel-*-$tag-*.whl" >/dev/null; then
    source benchmarks/device_env.sh
else  # device_env.sh without OpenSpiel
    echo "$(nproc) cores, load: $(cat /proc/loadavg); $("$python" --version); no OpenSpiel" |
        tee -a "$log"
    export PYTHONPATH=src:.
    export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/numba-cache}
    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1
    export PYTHONUNBUFFERED=1
fi

# shellcheck disable=SC2086  # ARGS holds several arguments
"$python" -m benchmarks.ladder --game stairs --game twenty_seven --game ishigaki_race \
    --game city_of_stairs --option players=2 --steps "${STEPS:-medium:hard,hard:expert}" \
    --games "$games" --first-seed 1000 --jobs "$jobs" --deadline "$deadline" \
    --checkpoint "$out/ladder.jsonl" --out "$out/ladder.json" ${ARGS:-} 2>&1 |
    tee -a "$log" || echo "benchmarks.ladder ended with status $?" | tee -a "$log"
