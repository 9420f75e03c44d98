#!/usr/bin/env bash
# Issue 34's match as the issue states it, on a borrowed many-core machine with no
# network: ours at 0.1 s a move against OpenSpiel's MCTSBot at 1.0 s a move (not held to
# a number of simulations), seats alternating (seeds from 1000), one game per dedicated
# core, 200 games of Stairs and then 200 of 27 (basic):
#
#   bash benchmarks/device_timed.sh STAIRS_DEADLINE TWENTY_SEVEN_DEADLINE [JOBS]
#
# Each DEADLINE: seconds from the start of that game's run after which it starts no game
# (its running games finish: about 15 s more); 0 leaves that game out. On 15 cores
# each run needs about 150 s for its 200 games (Stairs about 11 s a game and 27 about
# 10 s at these budgets, measured on the borrowed machine with the bot at its mean
# simulations). Players: Stairs `mcts:c=0.35,endgame=0.6,endgame_hold=1,reuse=1` (STAIRS to
# change), 27 `mcts:c=0.7,endgame=0.3,book=1` (TWENTY_SEVEN); docs/agents.md says why
# each. Writes to $OUT (or /tmp/strength): timed-{stairs,twenty_seven}.jsonl (every
# game with its moves, both sides' simulations and seconds per move, each run's
# conditions), timed-*.json (the tables) and timed.log. GAMES=2 ARGS=--allow-load
# tries the script on a busy machine. FIRST_SEED (default 1000) moves the seeds;
# FIXED_STAIRS=DEADLINE plays Stairs once more after both, the bot held to the outside
# harness's 1,669 simulations a move (timed-stairs-fixed.*; the bot on our engine runs
# fewer at 1.0 s, so the two Stairs runs bracket the outside condition).
#
# OpenSpiel travels as wheels for that machine's Python (3.12), made here beforehand:
#   echo /.whl/ >> .git/info/exclude; python3 -m pip download --no-deps --only-binary=:all: \
#       --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 \
#       --platform manylinux_2_17_x86_64 -d .whl open_spiel==2.0.2 ml-collections==1.1.0
# and the call carries .whl (2026-11-27: 190 s, 170 s and FIXED_STAIRS=235 took 377 s of
# a 16-core machine's time for 600 games, numba compiling included).
set -euo pipefail
cd "$(dirname "$0")/.."

stairs_deadline=${1:?usage: device_timed.sh STAIRS_DEADLINE TWENTY_SEVEN_DEADLINE [JOBS]}
twenty_seven_deadline=${2:?usage: device_timed.sh STAIRS_DEADLINE TWENTY_SEVEN_DEADLINE [JOBS]}
python=${PYTHON:-python3}
jobs=${3:-$(($("$python" -c 'import os; print(len(os.sched_getaffinity(0)))') - 1))}
games=${GAMES:-200}
out=${OUT:-/tmp/strength}
mkdir -p "$out"
log=$out/timed.log
source benchmarks/device_env.sh

first_seed=${FIRST_SEED:-1000}
stairs_player=${STAIRS:-mcts:c=0.35,endgame=0.6,endgame_hold=1,reuse=1}

run() {  # GAME DEADLINE PLAYER NAME BOT...: one run's games, kept in its checkpoint
    local game=$1 deadline=$2 player=$3 name=$4
    shift 4
    [ "$deadline" = 0 ] && return 0
    "$python" -c "import stairgames; from stairgames.agents import make_agent
make_agent('$player', 0, game=stairgames.load('$game'))" 2>&1 | tee -a "$log"  # compiled once
    "$python" -m benchmarks.players_openspiel --game "$game" --games "$games" \
        --first-seed "$first_seed" --time 0.1 "$@" --ours "$player" --jobs "$jobs" \
        --deadline "$deadline" --record-moves --checkpoint "$out/$name.jsonl" \
        --out "$out/$name.json" ${ARGS:-} 2>&1 | tee -a "$log" || true
}

run stairs "$stairs_deadline" "$stairs_player" timed-stairs --bot-time 1
run twenty_seven "$twenty_seven_deadline" "${TWENTY_SEVEN:-mcts:c=0.7,endgame=0.3,book=1}" \
    timed-twenty_seven --bot-time 1
run stairs "${FIXED_STAIRS:-0}" "$stairs_player" timed-stairs-fixed --bot-simulations 1669
