#!/bin/sh
# Installs the real GTP peers used by `cargo test --test gtp_peers`:
#   GNU Go 3.8 (Debian package gnugo, /usr/games/gnugo),
#   @sabaki/gtp 3.0.0 (npm) into $ODDITY_PEERS_DIR/node (default target/peers),
#   sgfmill 1.1.1 (PyPI) for python3;
# and, for `cargo test --test gui_browser`, Debian's chromium and
# chromium-driver with selenium (PyPI).
# Safe to run again: installed peers are kept.
set -eu
cd "$(dirname "$0")/.."
PEERS="${ODDITY_PEERS_DIR:-$PWD/target/peers}"

if ! [ -x /usr/games/gnugo ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gnugo
fi

mkdir -p "$PEERS/node"
if ! [ -d "$PEERS/node/node_modules/@sabaki/gtp" ]; then
    npm install --prefix "$PEERS/node" --no-audit --no-fund --silent @sabaki/gtp@3.0.0
fi

if ! python3 -c "import sgfmill" 2>/dev/null; then
    python3 -m pip install --quiet sgfmill==1.1.1
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver
fi

if ! python3 -c "import selenium" 2>/dev/null; then
    python3 -m pip install --quiet selenium==4.51.0
fi
echo "peers ready: /usr/games/gnugo, $PEERS/node/node_modules/@sabaki/gtp, sgfmill, chromium, selenium"
