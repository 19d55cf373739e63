#!/usr/bin/env bash
# Every test: installs the real protocol peers (GNU Go, @sabaki/gtp, sgfmill;
# see .ci/peers.sh) and runs the whole suite with the peer tests switched on.
set -euo pipefail
cd "$(dirname "$0")/.."
sh .ci/peers.sh
ODDITY_PEERS=1 cargo test
