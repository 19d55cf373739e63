#!/bin/bash
# Plays balance study cells from a queue file until a deadline.
#
#   docs/balance/run-cells.sh ODDITY QUEUE OUTDIR SLOTS SECONDS
#
# QUEUE: one cell a line, `NAME ARGS...` (the arguments of `oddity balance`
# without --results); `#` starts a comment. Cells start in the order of the
# file, SLOTS at a time, each on one core (--concurrency 1, engines with one
# thread); every cell is stopped cleanly (SIGINT) SECONDS after this script
# started, with its finished games kept in OUTDIR/NAME.jsonl. Running the
# script again with the same OUTDIR resumes every cell.
set -u
oddity=$1 queue=$2 out=$3 slots=$4 seconds=$5
deadline=$(( $(date +%s) + seconds ))
mkdir -p "$out"
run_cell() {
    local name=$1; shift
    local left=$(( deadline - $(date +%s) ))
    [ "$left" -gt 5 ] || return 0
    timeout --foreground -s INT -k 20 "$left" nice -n 5 "$oddity" balance "$@" \
        --results "$out/$name.jsonl" --quiet >> "$out/$name.log" 2>&1
    echo "$(date -u +%T) $name: $(tail -n 1 "$out/$name.log")"
}
while read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    [ $(( deadline - $(date +%s) )) -gt 5 ] || break
    while [ "$(jobs -rp | wc -l)" -ge "$slots" ]; do wait -n; done
    # shellcheck disable=SC2086
    run_cell "$name" $args &
done < "$queue"
wait
