#!/usr/bin/env bash
# Writes the static page to DIR: `oddity gui`'s page (crates/oddity-gui/src/page/) with
# its session in the tab (web/static/tab.js), the engine's worker and the
# two WebAssembly modules, ready for any static host (see README, "Play in
# your browser"). Installs its tools first (web/tools.sh).
#
#   pkg/          one thread, for every browser
#   pkg-threads/  WebAssembly threads (the search on every core), used
#                 where the page is cross-origin isolated (COOP and COEP)
#   sw.js         the service worker: the site cached for use offline, and
#                 COOP/COEP added where the host sends none
#   manifest.webmanifest, icon*.{svg,png}: the app to install
#   _headers      COOP/COEP for hosts that read such a file
#
# Usage: web/build.sh DIR
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: web/build.sh DIR" >&2
    exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
. web/tools.sh

target=target/web
wasm=wasm32-unknown-unknown
# The solver's recursion runs on the calling thread's stack (1 MiB unless
# set); the pool's threads only search the tree.
stack="-C link-arg=-zstack-size=8388608"

RUSTFLAGS="$stack" cargo build --profile web -p oddity-web --target $wasm \
    --target-dir "$target/plain"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" \
    "$target/plain/$wasm/web/oddity_web.wasm"

# Threads share one imported memory, each with its own thread-local
# storage (the exports wasm-bindgen's thread start-up calls). Shared memory
# needs a declared maximum: the 4 GiB a wasm32 memory can address (the
# page's memory setting bounds what the engine takes).
shared="-C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=4294967296"
for name in __wasm_init_tls __tls_size __tls_align __tls_base; do
    shared="$shared -C link-arg=--export=$name"
done
# rustc warns that `atomics` is an unstable target feature (true; the
# nightly is pinned), and cargo then counts that warning, as a duplicate,
# for every crate of the workspace: both are left out, and one line says
# so. Other warnings, and cargo's counts of them, pass.
without_atomics_warnings() {
    awk '
        /^warning: unstable feature specified for `-Ctarget-feature`: `atomics`$/ { skip = 1; left++; fresh++; next }
        skip && (/^ *[|=]/ || /^$/) { skip = !/^$/; next }
        { skip = 0 }
        /^warning: `[^`]*` .*generated [0-9]+ warnings?/ {
            n = $0; sub(/.* generated /, "", n); n += 0
            d = 0; if (/ duplicates?\)$/) { d = $0; sub(/.*\(/, "", d); d += 0 }
            if (!other && n - d <= fresh && (d == 0 || !others)) { fresh -= n - d; next }
            other = 0; fresh = 0; print; fflush(); next
        }
        /^warning: / { other++; others++ }
        { print; fflush() }
        END { if (left) print "web/build.sh: left out rustc'"'"'s warning that `atomics` is an unstable target feature, and cargo'"'"'s counts of it" }'
}
RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals $stack $shared" \
    cargo "+$ODDITY_NIGHTLY" build -Z build-std=panic_abort,std --profile web -p oddity-web \
    --features threads --target $wasm --target-dir "$target/threads" 2>&1 | without_atomics_warnings >&2
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg-threads" \
    "$target/threads/$wasm/web/oddity_web.wasm"
# The thread pool's workers start the module with the two arguments that
# wasm-bindgen now warns of in the console; one object says the same.
helper=$(find "$out/pkg-threads/snippets" -name workerHelpers.no-bundler.js)
sed -i 's/await pkg\.default(data\.module, data\.memory);/await pkg.default({ module_or_path: data.module, memory: data.memory });/' "$helper"
grep -q 'module_or_path: data.module' "$helper"

# The same page as `oddity gui`'s, told that its session runs in the tab,
# with its icon and its manifest (an app to install).
sed -e 's/<html lang="en" data-session="server">/<html lang="en" data-session="tab">/' \
    -e 's|<link rel="icon" href="data:,">|<link rel="icon" href="icon.svg" type="image/svg+xml"><link rel="manifest" href="manifest.webmanifest"><meta name="theme-color" content="#3b2f1e">|' \
    crates/oddity-gui/src/page/index.html >"$out/index.html"
grep -q 'data-session="tab"' "$out/index.html"
grep -q 'rel="manifest"' "$out/index.html"
cp crates/oddity-gui/src/page/app.js crates/oddity-gui/src/page/style.css web/static/* "$out/"
python3 web/icons.py "$out"

# The service worker caches every file of this build under a version that
# changes with any of them, so that a browser installs each new build.
files=$(cd "$out" && find . -type f ! -name sw.js ! -name _headers | sed 's|^\./||' | LC_ALL=C sort)
version=$(cd "$out" && sha256sum $files | sha256sum | cut -c1-16)
list=$(printf '"%s", ' $files)
sed -e "s|^const VERSION = \"unbuilt\";|const VERSION = \"$version\";|" \
    -e "s|^const FILES = \[\];|const FILES = [${list%, }];|" web/static/sw.js >"$out/sw.js"
grep -q "^const VERSION = \"$version\";" "$out/sw.js"
echo "web/build.sh: wrote $out" >&2
