#!/bin/sh
# Installs what web/build.sh needs on top of the stable Rust toolchain:
#   the wasm32-unknown-unknown target;
#   the nightly toolchain $ODDITY_NIGHTLY (pinned) with rust-src, since
#     WebAssembly threads need the standard library rebuilt with atomics
#     (-Z build-std);
#   wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in
#     Cargo.lock, built from crates.io source (about 240 s of CPU time:
#     four minutes on two idle cores; kept once installed).
# Safe to run again: what is installed is kept. Sourced by web/build.sh.
set -eu
ODDITY_NIGHTLY=nightly-2026-05-20

rustup target list --installed | grep -qx wasm32-unknown-unknown ||
    rustup target add wasm32-unknown-unknown
rustup run "$ODDITY_NIGHTLY" rustc --version >/dev/null 2>&1 &&
    [ -d "$(rustup run "$ODDITY_NIGHTLY" rustc --print sysroot)/lib/rustlib/src/rust/library" ] ||
    rustup toolchain install "$ODDITY_NIGHTLY" --profile minimal --component rust-src

wasm_bindgen_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wasm_bindgen_version" ]; then
    # --locked fails when the registry no longer has a locked dependency
    # (webpki-roots 1.0.11 of wasm-bindgen-cli 0.2.130 is missing from
    # the crates.io index these machines reach); then the newest
    # compatible dependencies are taken. The CLI itself is the exact
    # version either way. The first try's messages are shown only if the
    # second fails too.
    locked_log=$(mktemp)
    if ! cargo install --quiet --locked wasm-bindgen-cli --version "=$wasm_bindgen_version" \
        --bin wasm-bindgen 2>"$locked_log"; then
        echo "web/tools.sh: wasm-bindgen-cli's locked dependencies are not all in the registry;" \
            "installing it with the newest compatible ones" >&2
        cargo install --quiet wasm-bindgen-cli --version "=$wasm_bindgen_version" --bin wasm-bindgen || {
            echo "web/tools.sh: the install with --locked said:" >&2
            cat "$locked_log" >&2
            rm -f "$locked_log"
            exit 1
        }
    fi
    rm -f "$locked_log"
fi
