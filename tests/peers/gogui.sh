#!/usr/bin/env bash
# GoGui and gogui-twogtp against oddity's GoGui mode. Run by hand, not in CI:
# GoGui is in no package registry.
#
#   tests/peers/gogui.sh GOGUI_SOURCE [ODDITY] [OUT]
#
# GOGUI_SOURCE is a GoGui 1.6 source checkout (with build.xml); ODDITY the
# binary (default target/release/oddity); OUT the folder for everything made
# (default target/gogui). Needs a JDK and Debian's ant, xsltproc,
# docbook-xsl, docbook-xml (GoGui's documentation build reads its DTD; it
# is only a recommended package of docbook-xsl), librsvg2-bin, xvfb,
# x11-utils, xdotool and imagemagick.
#
# 1. Builds gogui.jar and gogui-twogtp.jar in OUT/src (the icons GoGui's
#    own script draws with Inkscape are drawn with rsvg-convert).
# 2. Plays GAMES (default 2) gogui-twogtp games of each game, oddity
#    against oddity with seats alternating and a third oddity as referee,
#    and prints each game's results file (OUT/twogtp/GAME.dat). Fails if a
#    game has an error or no result. Pair k starts from opening k of five
#    (Black's first stone, OUT/openings). Then `oddity match` plays the same
#    engines from the same openings, for comparison: with engines limited
#    by visits (and their fixed seed) the games are the same.
# 3. Unless SCREENSHOTS=0: GoGui under Xvfb with the engine playing both
#    sides of one game of each game, and a screenshot of the window when
#    GoGui says the game is finished (OUT/gogui-GAME-end.png), and one of
#    the board after closing that message (OUT/gogui-GAME-board.png).
#
# TWOGTP=0 skips step 2. Engines: ENGINE_A and ENGINE_B (default visits 400 and 100, one thread).
set -euo pipefail

src=${1:?usage: tests/peers/gogui.sh GOGUI_SOURCE [ODDITY] [OUT]}
oddity=$(realpath "${2:-target/release/oddity}")
out=$(realpath -m "${3:-target/gogui}")
games=${GAMES:-2}
engine_a=${ENGINE_A:---threads 1 --time 0 --visits 400}
engine_b=${ENGINE_B:---threads 1 --time 0 --visits 100}
# game, board size, GoGui's grid side, openings (Black's first stone, as
# GoGui names it)
boards="xodd 12 12 C3 F6 G7 D9 K4
yodd 8 15 H8 F6 J10 E4 L9
odd 5 9 E5 C3 F6 D5 G7
onyx 12 23 G9 J11 L13 E5 N15"

mkdir -p "$out"
if [ ! -f "$out/src/lib/gogui-twogtp.jar" ]; then
    rm -rf "$out/src"
    cp -r "$src" "$out/src"
    (
        cd "$out/src/src/net/sf/gogui/images"
        for f in *.svg; do
            for s in 16 24 32 48 64; do
                rsvg-convert -w $s -h $s -o "${f%.svg}-${s}x${s}.png" "$f"
            done
        done
        for f in gogui-black gogui-white gogui-setup; do
            rsvg-convert -w 8 -h 8 -o "$f-8x8.png" "$f.svg"
        done
    )
    (cd "$out/src" && ant -q gogui.jar gogui-twogtp.jar)
fi
lib=$out/src/lib

failed=0
[ "${TWOGTP:-1}" != 0 ] && while read -r game size side openings; do
    [ "$game" = xodd ] && echo "== gogui-twogtp, $games game(s) each: A = $engine_a, B = $engine_b"
    mkdir -p "$out/twogtp"
    base="$oddity gtp --gogui --game $game --size $size"
    # The openings: SGF files for twogtp, engine tokens for oddity match.
    rm -rf "$out/openings/$game" "$out/twogtp/$game".*
    mkdir -p "$out/openings/$game"
    : > "$out/openings/$game.txt"
    k=0
    for v in $openings; do
        col=$(printf %s "$v" | tr -d 0-9)
        row=${v#"$col"}
        sgf=$(awk -v c="$col" -v r="$row" -v s="$side" 'BEGIN {
            a = "abcdefghijklmnopqrstuvwxyz"
            print substr(a, index("ABCDEFGHJKLMNOPQRSTUVWXYZ", c), 1) substr(a, s - r + 1, 1) }')
        k=$((k + 1))
        printf '(;FF[4]GM[1]SZ[%s];B[%s])\n' "$side" "$sgf" > "$out/openings/$game/$k.sgf"
        printf 'play b %s\nprintsgf\n' "$v" | $base | sed -n 's/.*;B\[\([^]]*\)\].*/\1/p' \
            >> "$out/openings/$game.txt"
    done
    java -jar "$lib/gogui-twogtp.jar" -auto -alternate -games "$games" \
        -size "$side" -sgffile "$out/twogtp/$game" -openings "$out/openings/$game" \
        -black "$base $engine_a" -white "$base $engine_b" \
        -referee "$base" 2> "$out/twogtp/$game.log"
    echo "-- $game $size (grid $side): $out/twogtp/$game.dat"
    grep -v '^#' "$out/twogtp/$game.dat"
    # Columns: GAME RES_B RES_W RES_R ALT DUP LEN TIME_B TIME_W CPU_B CPU_W ERR ERR_MSG
    if awk '!/^#/ && ($12 != 0 || $4 == "?") { bad = 1 } END { exit !bad }' \
        "$out/twogtp/$game.dat"; then
        echo "!! $game: a game with an error or without a result"
        failed=1
    fi
    # A's score: twogtp gives results as if A were always Black.
    awk '!/^#/ { n++; if ($4 ~ /^B/) a++ }
        END { printf "twogtp: A won %d of %d\n", a, n }' "$out/twogtp/$game.dat"
    "$oddity" match --game "$game" --size "$size" --games "$games" --quiet \
        --openings "$out/openings/$game.txt" \
        --engine "A=$oddity gtp $engine_a --param turns=gogui" \
        --engine "B=$oddity gtp $engine_b --param turns=gogui" | head -2
done <<< "$boards"

if [ "${SCREENSHOTS:-1}" != 0 ]; then
    echo "== GoGui under Xvfb, the engine on both sides"
    display=:${XVFB_DISPLAY:-77}
    Xvfb "$display" -screen 0 1100x900x24 > /dev/null 2>&1 &
    xvfb=$!
    trap 'kill $xvfb 2> /dev/null' EXIT
    until xdpyinfo -display "$display" > /dev/null 2>&1; do sleep 0.2; done
    while read -r game size side _; do
        log=$out/gogui-$game.gtp
        : > "$log"
        # Every command GoGui sends (to the engine and to its ruler) is logged.
        cat > "$out/engine.sh" << EOF
#!/bin/sh
tee -a '$log' | exec '$oddity' gtp --gogui --game $game --size $size $engine_b
EOF
        chmod +x "$out/engine.sh"
        DISPLAY=$display java -jar "$lib/gogui.jar" -computer-both \
            -size "$side" -program "$out/engine.sh" > "$out/gogui-$game.log" 2>&1 &
        gogui=$!
        # GoGui asks its ruler for the result when the game is over.
        for _ in $(seq 1200); do
            grep -q gogui-rules_final_result "$log" && break
            sleep 0.5
        done
        sleep 3 # let the window draw the last move and the dialog
        import -display "$display" -window root -trim +repage "$out/gogui-$game-end.png"
        # The board without the dialog.
        DISPLAY=$display xdotool key Escape
        sleep 1
        import -display "$display" -window root -trim +repage "$out/gogui-$game-board.png"
        echo "-- $game: $(grep -c '^genmove' "$log") genmoves, $out/gogui-$game-end.png"
        kill $gogui
        wait $gogui 2> /dev/null || true
    done <<< "$boards"
fi
exit $failed
