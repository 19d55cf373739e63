#!/usr/bin/env bash
# Tries the files of release/build.sh as a player would; run before every
# release (it is not part of .ci/run: the cross builds and Wine would take
# CI past its time).
#
#   checksums    sha256sum -c SHA256SUMS
#   Linux        the binary copied alone into an empty folder and run with
#                PATH=/usr/bin:/bin and nothing else in the environment:
#                `file` and `ldd` show it static; `--version`; a GTP session
#                plays a whole game of Odd 5, replayed in a fresh engine to
#                the same final_score; `oddity gui` serves its page (fetched
#                over loopback); `oddity render` writes the game's end as PNG
#   Windows      the zip unpacked into a folder with a space in its name,
#                oddity.exe run under Wine (a private WINEPREFIX): its
#                version, GTP commands ending in CRLF, then `oddity match`
#                of the Linux binary against it, one seat-swapped pair of
#                games of each of Xodd, Yodd, Odd and Onyx, every game
#                ended by the rules and its winner recounted by replaying
#                its turns in a fresh engine
#   web          the archive unpacked and served by `python3 -m http.server`
#                on loopback, played in headless Chromium
#                (release/check_web.py): one turn by a click, then a whole
#                game, screenshots kept
#
# Needs file, curl, unzip, Wine (Debian: wine, wine64), MinGW (Debian:
# gcc-mingw-w64-x86-64, for release/bcryptprimitives.c where Wine lacks
# that DLL), Chromium with chromedriver and Python's selenium
# (.ci/peers.sh). Work files and
# screenshots go to target/release-check (or $ODDITY_CHECK_DIR).
#
# Usage: release/check.sh DIR [VERSION]   (VERSION: from DIR's name)
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: release/check.sh DIR [VERSION]" >&2
    exit 2
fi
if ! [ -f "$1/SHA256SUMS" ]; then
    echo "release/check.sh: $1 is not a folder written by release/build.sh (no SHA256SUMS)" >&2
    exit 1
fi
dist=$(cd "$1" && pwd)
version=${2:-$(basename "$dist")}
cd "$(dirname "$0")/.."
root=$PWD
check=${ODDITY_CHECK_DIR:-$root/target/release-check}
mkdir -p "$check"
check=$(cd "$check" && pwd)
for tool in file curl unzip wine x86_64-w64-mingw32-gcc chromium chromedriver; do
    command -v "$tool" >/dev/null || {
        echo "release/check.sh: $tool is missing" >&2
        exit 1
    }
done

linux_file=oddity-$version-x86_64-linux
windows_zip=oddity-$version-x86_64-windows.zip
web_tar=oddity-$version-web.tar.gz
say() { echo "== $*"; }
times=()
timed() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    times+=("$name: $((SECONDS - start)) s")
}

checksums() {
    say "checksums"
    (cd "$dist" && sha256sum -c SHA256SUMS)
    ls -l "$dist"
}

linux() {
    local home="$check/linux"
    rm -rf "$home"
    mkdir -p "$home"
    cp "$dist/$linux_file" "$home/oddity"
    # A player's shell: nothing of this machine's toolchains on PATH.
    run() { (cd "$home" && exec env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 "$@"); }
    say "Linux: file and ldd"
    local kind
    kind=$(run file -b oddity)
    echo "$kind"
    case "$kind" in
    *"static-pie linked"* | *"statically linked"*) ;;
    *)
        echo "not a static executable" >&2
        exit 1
        ;;
    esac
    if run ldd ./oddity 2>&1 | grep '=>'; then
        echo "ldd lists shared libraries" >&2
        exit 1
    fi
    run ldd ./oddity 2>&1 || true
    say "Linux: oddity --version"
    run ./oddity --version | tee "$check/linux-version.txt"
    grep -q "^oddity $version (" "$check/linux-version.txt"

    say "Linux: a GTP session plays a whole game of Odd 5"
    run /usr/bin/python3 "$root/release/check_play.py" game "./oddity gtp --threads 1 --visits 300" \
        odd 5 "$home/odd5.txt"

    say "Linux: oddity render writes the game's end as PNG"
    run ./oddity render --game odd --size 5 --moves "$(cat "$home/odd5.txt")" --out odd5.png
    run file -b odd5.png | tee "$check/render.txt"
    grep -q '^PNG image data' "$check/render.txt"
    cp "$home/odd5.png" "$check/linux-odd5.png"

    say "Linux: oddity gui serves its page on loopback"
    (cd "$home" && exec env -i PATH=/usr/bin:/bin HOME="$home" ./oddity gui) >"$home/gui.out" 2>"$home/gui.err" &
    local gui=$! url=""
    for _ in $(seq 300); do
        url=$(sed -n 's/^oddity gui: open //p' "$home/gui.out")
        [ -n "$url" ] && break
        kill -0 $gui 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        cat "$home/gui.err" >&2
        echo "oddity gui printed no address" >&2
        exit 1
    fi
    echo "oddity gui: $url"
    curl -sS --max-time 30 "$url" >"$home/page.html"
    kill $gui
    wait $gui || true
    grep -q '<html lang="en" data-session="server">' "$home/page.html"
    echo "fetched the page: $(wc -c <"$home/page.html") bytes, $(grep -o '<title>[^<]*</title>' "$home/page.html")"
}

windows() {
    local dir="$check/windows/Program Files/oddity"
    rm -rf "$check/windows"
    mkdir -p "$dir"
    unzip -q "$dist/$windows_zip" -d "$dir"
    say "Windows: the zip"
    unzip -l "$dist/$windows_zip"
    if ! grep -q $'\r$' "$dir/README.txt"; then
        echo "README.txt does not have Windows line endings" >&2
        exit 1
    fi
    export WINEPREFIX="$check/wine" WINEDEBUG=-all
    mkdir -p "$WINEPREFIX"
    local wine exe="$dir/oddity.exe"
    wine=$(command -v wine64 || command -v wine)
    # The prefix is made once (about a minute) and kept.
    [ -f "$WINEPREFIX/system.reg" ] || "$wine" wineboot -i
    # Rust's standard library takes random numbers from
    # bcryptprimitives.dll, which Windows has since Windows 10 and Wine
    # before 9.0 lacks: a prefix without it gets a small stand-in.
    local system32="$WINEPREFIX/drive_c/windows/system32"
    if ! [ -f "$system32/bcryptprimitives.dll" ]; then
        x86_64-w64-mingw32-gcc -O2 -shared -o "$system32/bcryptprimitives.dll" \
            release/bcryptprimitives.c -lbcrypt
        echo "Wine has no bcryptprimitives.dll: built a stand-in (release/bcryptprimitives.c)"
    fi
    say "Windows: oddity.exe --version under $("$wine" --version)"
    "$wine" "$exe" --version | tr -d '\r' | tee "$check/windows-version.txt"
    grep -q "^oddity $version (" "$check/windows-version.txt"
    # The same commit as the Linux binary.
    [ "$(sed 's/.*(//' "$check/windows-version.txt")" = "$(sed 's/.*(//' "$check/linux-version.txt")" ]

    say "Windows: GTP commands ending in CRLF"
    printf 'oddity-game xodd\r\nboardsize 4\r\nplay b B:B2\r\ngenmove w\r\nshowboard\r\nquit\r\n' |
        "$wine" "$exe" gtp --threads 1 --visits 100 >"$check/windows-crlf.txt"
    tr -d '\r' <"$check/windows-crlf.txt"
    if grep -q '^?' "$check/windows-crlf.txt" || [ "$(grep -c '^=' "$check/windows-crlf.txt")" -ne 6 ]; then
        echo "a command ending in CRLF was not answered with =" >&2
        exit 1
    fi

    say "Windows: oddity gui serves its page on loopback"
    (cd "$dir" && exec "$wine" oddity.exe gui) >"$check/windows/gui.out" 2>"$check/windows/gui.err" &
    local gui=$! url=""
    for _ in $(seq 600); do
        url=$(sed -n 's/^oddity gui: open //p' "$check/windows/gui.out" | tr -d '\r')
        [ -n "$url" ] && break
        kill -0 $gui 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        cat "$check/windows/gui.err" >&2
        echo "oddity.exe gui printed no address" >&2
        exit 1
    fi
    tr -d '\r' <"$check/windows/gui.err"
    curl -sS --max-time 30 "$url" >"$check/windows/page.html"
    kill $gui
    wait $gui || true
    grep -q '<html lang="en" data-session="server">' "$check/windows/page.html"
    echo "fetched $url: $(wc -c <"$check/windows/page.html") bytes"

    # One seat-swapped pair per game; the Windows engine's command holds
    # the path with its space, quoted as a shell would.
    local linux_bin="$check/linux/oddity" g size
    for g in xodd:8 yodd:5 odd:5 onyx:8; do
        size=${g#*:}
        g=${g%:*}
        say "Windows: oddity match, Linux against Windows, $g $size"
        rm -f "$check/match-$g.jsonl" "$check/match-$g.sgf"
        "$linux_bin" match --game "$g" --size "$size" --games 2 --quiet \
            --engine "linux=oddity gtp --threads 1 --visits 200" \
            --engine "windows=$wine '$exe' gtp --threads 1 --visits 200" \
            --log-dir "$check/logs-$g" --results "$check/match-$g.jsonl"
        python3 release/check_play.py recount "$linux_bin gtp --threads 1" "$check/match-$g.jsonl"
    done
}

web() {
    local site="$check/web"
    rm -rf "$site"
    mkdir -p "$site"
    tar -xzf "$dist/$web_tar" -C "$site"
    site="$site/oddity-$version-web"
    say "web: the archive unpacked"
    ls -l "$site"
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >"$check/http.log" 2>&1 &
    local server=$!
    for _ in $(seq 100); do
        curl -s -o /dev/null "http://127.0.0.1:$port/" && break
        sleep 0.1
    done
    say "web: served by python3 -m http.server on http://127.0.0.1:$port/, played in Chromium"
    local rc=0
    python3 release/check_web.py "http://127.0.0.1:$port/" "$check/screenshots" || rc=$?
    kill $server
    wait $server 2>/dev/null || true
    [ $rc -eq 0 ]
    echo "screenshots: $check/screenshots/web-turn.png, web-end.png"
}

timed checksums checksums
timed Linux linux
timed Windows windows
timed web web
say "release/check.sh: every check passed for $dist"
printf '  %s\n' "${times[@]}"
