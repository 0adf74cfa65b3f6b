#!/usr/bin/env bash
# The baseline table of docs/poldr-yardstick.md: Podium at `go movetime 100` against the MCTS
# yardstick at 10,000 simulations a move (and against random movers), one match per row, one game
# at a time, each row's games in its own records file under OUT.
#
#     scripts/yardstick_baseline.sh PODIUM OUT [SLICE_SECONDS] [ROW...]
#
# PODIUM: the podium binary measured (it is also the referee). OUT: a folder for the records.
# The rows are played in turn, SLICE_SECONDS each (default 600) before the next row gets its
# turn, round after round until every row has its games: so every row has some games early, and a
# stop (Ctrl-C, SIGTERM, a machine stopped) loses at most the game under way. Run the script again
# with the same arguments to go on: each row's match resumes from its records (arbiter.py
# --resume). ROW... plays only the rows named (default: all, in the order below).
#
# --timemargin 3600000: the arbiter gives every engine the same `go movetime 100`; Podium keeps to
# it (the records' move_info has each move's time), while the yardstick ignores the clock and
# runs its simulations, which take longer than 100 ms: the margin keeps that from being a time
# forfeit.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,19p' "$0" >&2
    exit 2
fi
PODIUM=$(realpath "$1")
OUT=$2
SLICE=${3:-600}
shift $(( $# >= 3 ? 3 : 2 ))
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
SIMS=10000
POD="name=podium cmd=$PODIUM"
MCTS1="name=mcts10k cmd=python3 $HERE/mcts_player.py --simulations $SIMS"
MCTS2="name=mcts10k-b cmd=python3 $HERE/mcts_player.py --simulations $SIMS"
RAND1="name=random cmd=python3 $HERE/random_mover.py --podium $PODIUM"
RAND2="name=random-b cmd=python3 $HERE/random_mover.py --podium $PODIUM"

# row name | players size bricks random-plies games | opponents (mcts or random)
ROWS=(
    "p2-5x5-start|2 5 16 0 60|mcts"
    "p2-5x5-rp2|2 5 16 2 60|mcts"
    "p3-5x5-start|3 5 16 0 60|mcts"
    "p3-5x5-rp2|3 5 16 2 60|mcts"
    "p2-5x5-start-random|2 5 16 0 60|random"
    "p2-6x6-start-random|2 6 16 0 60|random"
    "p3-5x5-start-random|3 5 16 0 60|random"
    "p3-5x5-rp2-random|3 5 16 2 60|random"
    "p2-6x6-start|2 6 16 0 60|mcts"
    "p2-6x6-rp2|2 6 16 2 60|mcts"
    "p2-7x7-start|2 7 24 0 60|mcts"
    "p2-7x7-rp2|2 7 24 2 60|mcts"
    "p3-7x7-start|3 7 24 0 60|mcts"
    "p3-7x7-rp2|3 7 24 2 60|mcts"
    "p2-9x9-start|2 9 40 0 60|mcts"
    "p2-9x9-rp2|2 9 40 2 60|mcts"
)

wanted() {
    [ ${#SELECTED[@]} -eq 0 ] && return 0
    local row
    for row in "${SELECTED[@]}"; do [ "$row" = "$1" ] && return 0; done
    return 1
}
SELECTED=("$@")

# Games recorded in a records file (its lines less the settings line).
recorded() { [ -f "$1" ] && echo $(( $(wc -l < "$1") - 1 )) || echo 0; }

while :; do
    left=0
    for row in "${ROWS[@]}"; do
        IFS='|' read -r name setup opponents <<< "$row"
        wanted "$name" || continue
        read -r players size bricks plies games <<< "$setup"
        records="$OUT/$name.jsonl"
        [ "$(recorded "$records")" -ge "$games" ] && continue
        left=1
        echo "== $(date -u +%FT%TZ) $name: $(recorded "$records") of $games games so far" >&2
        if [ -s "$records" ]; then
            command=(python3 "$HERE/arbiter.py" --resume "$records" --concurrency 1)
        else
            if [ "$opponents" = mcts ]; then one=$MCTS1 two=$MCTS2; else one=$RAND1 two=$RAND2; fi
            engines=(--engine $POD --engine ${one%% cmd=*} "cmd=${one#* cmd=}")
            [ "$players" = 3 ] && engines+=(--engine ${two%% cmd=*} "cmd=${two#* cmd=}")
            command=(python3 "$HERE/arbiter.py" --game poldr --players "$players" --size "$size"
                     --bricks "$bricks" --random-plies "$plies" --games "$games" --concurrency 1
                     --movetime 100 --timemargin 3600000 --seed 37 --records "$records" "${engines[@]}")
        fi
        echo "   ${command[*]}" >&2
        before=$(recorded "$records")
        status=0
        timeout -s TERM "$SLICE" nice -n 10 "${command[@]}" >> "$OUT/$name.log" 2>&1 || status=$?
        if [ "$status" != 0 ] && [ "$status" != 124 ] && [ "$(recorded "$records")" = "$before" ]; then
            echo "   $name: the arbiter failed (exit $status) without a game; see $OUT/$name.log" >&2
            tail -5 "$OUT/$name.log" >&2
            exit 1
        fi
    done
    [ "$left" = 0 ] && break
done
echo "== $(date -u +%FT%TZ) every row has its games" >&2
