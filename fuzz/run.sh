#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 10: the short runs of
# CI), from the seeds in fuzz/corpus/TARGET/seed-*. Installs cargo-fuzz
# when it is missing. Works on the stable toolchain: no sanitizer is asked
# for (the code is safe Rust; panics, overflows, hangs and debug assertions
# are what the fuzzer finds). With --release the targets are built
# optimised, for long runs (docs/fuzzing.md).
#
#   bash fuzz/run.sh [SECONDS] [--release]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-10}
profile=${2:---dev}
if ! command -v cargo-fuzz >/dev/null; then
    cargo install cargo-fuzz --locked --version 0.13.2
fi
cargo fmt --check
cargo fuzz build -s none "$profile"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for target in $(cargo fuzz list); do
    mkdir -p "corpus/$target"
    status=0
    cargo fuzz run -s none "$profile" "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=20 -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log"
        echo "fuzz: $target FAILED after ${runs:-?} inputs (the input is under fuzz/artifacts/$target)"
        exit 1
    fi
    echo "fuzz: $target: ${runs:-?} inputs in ${seconds} s, nothing found"
done
