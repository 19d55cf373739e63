#!/usr/bin/env bash
# Every test: installs the real protocol peers (GNU Go, @sabaki/gtp, sgfmill;
# see .ci/peers.sh), builds the static page with the engine in WebAssembly
# (web/build.sh, for tests/web_browser.rs) and runs the whole suite with the
# peer tests switched on,
# then prints the totals over all test binaries of the workspace (the
# application and the library crates under crates/).
set -euo pipefail
cd "$(dirname "$0")/.."
sh .ci/peers.sh
bash web/build.sh target/web-site
export ODDITY_WEB_DIR="$PWD/target/web-site"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
ODDITY_PEERS=1 cargo test --workspace 2>&1 | tee "$log" || status=$?
awk '/^test result:/ { passed += $4; failed += $6 }
     END { printf "%d passed, %d failed\n", passed, failed }' "$log"
exit "$status"
