#!/usr/bin/env bash
# Issue 34's levels against OpenSpiel at equal time, on a borrowed many-core machine with
# no network: `hard` (0.25 s a move) and, where the time allows, `expert` (1.8 s) against
# MCTSBot in Stairs and 27 (one game per dedicated core, seats alternating), `hard` and
# `expert` in Ishigaki Race for 3 players (MCTSBot in the other seats) and `hard` in City
# of Stairs against ISMCTSBot (2 players).
#
#   bash benchmarks/device_levels.sh HARD_DEADLINE EXPERT_DEADLINE OTHER_GAMES [JOBS]
#
# HARD_DEADLINE, EXPERT_DEADLINE: seconds from the start of each Stairs/27 run after
# which it starts no game (0 leaves the expert runs out). OTHER_GAMES: games of each
# Ishigaki Race and City of Stairs run. Writes to $OUT (or /tmp/strength):
# levels-*.jsonl and levels-*.json, and levels.log.
set -euo pipefail
cd "$(dirname "$0")/.."

hard=${1:?usage: device_levels.sh HARD_DEADLINE EXPERT_DEADLINE OTHER_GAMES [JOBS]}
expert=${2:?expert deadline}
other=${3:?games of the other runs}
python=${PYTHON:-python3}
jobs=${4:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
out=${OUT:-/tmp/strength}
mkdir -p "$out"
log=$out/levels.log
source benchmarks/device_env.sh

two_player() {  # LEVEL TIME DEADLINE: the level against MCTSBot in Stairs and 27
    "$python" -m benchmarks.players_openspiel --game stairs --game twenty_seven \
        --games 400,400 --ours "$1" --time "$2" --jobs "$jobs" --deadline "$3" \
        --checkpoint "$out/levels-$1.jsonl" --out "$out/levels-$1.json" 2>&1 | tee -a "$log" || true
}
two_player hard 0.25 "$hard"
"$python" -m benchmarks.ishigaki_openspiel --players 3 --games "$other" --time 0.25 \
    --ours hard --jobs "$jobs" --out "$out/levels-ishigaki-hard.json" 2>&1 | tee -a "$log" || true
"$python" -m benchmarks.city_ismcts --games "$other" --time 0.25 --ours hard --jobs "$jobs" \
    --out "$out/levels-city-hard.json" 2>&1 | tee -a "$log" || true
if [ "$expert" -gt 0 ]; then
    two_player expert 1.8 "$expert"
    "$python" -m benchmarks.ishigaki_openspiel --players 3 --games "$other" --time 1.8 \
        --ours expert --jobs "$jobs" --out "$out/levels-ishigaki-expert.json" 2>&1 | tee -a "$log" || true
fi
