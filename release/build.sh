#!/usr/bin/env bash
# Writes the files of a release into one folder (default target/dist/VERSION):
#
#   oddity-VERSION-x86_64-linux         static binary (musl): any x86_64 Linux
#   oddity-VERSION-x86_64-windows.zip   oddity.exe (MinGW), README.txt, the rules,
#                                       the protocol and the licences
#   oddity-VERSION-web.tar.gz           the static page (web/build.sh)
#   SHA256SUMS                          of these three files
#   CHANGELOG-VERSION.md                the release's section of CHANGELOG.md
#
# Both binaries are release builds with every default feature (the web GUI,
# PNG output), without debug information; they report VERSION and the
# commit (`oddity --version`). Needs, on top of the Rust toolchain, the
# musl and MinGW targets (added here with rustup), Debian's
# gcc-mingw-w64-x86-64 (the linker of the Windows build), zip, and what
# web/tools.sh installs. No C code is compiled, so musl-gcc is not needed.
# release/check.sh then tries the files as a player would.
#
# Usage: release/build.sh VERSION [DIR]
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: release/build.sh VERSION [DIR]" >&2
    exit 2
fi
version=$1
cd "$(dirname "$0")/.."
root=$PWD

cargo_version=$(awk '/^\[workspace.package\]/ { p = 1 } p && /^version = / { gsub(/version = |"/, ""); print; exit }' Cargo.toml)
if [ "$version" != "$cargo_version" ]; then
    echo "release/build.sh: VERSION $version is not the workspace's version ($cargo_version in Cargo.toml)" >&2
    exit 1
fi
if ! grep -q "^## \[$version\]" CHANGELOG.md; then
    echo "release/build.sh: CHANGELOG.md has no section '## [$version]'" >&2
    exit 1
fi
for tool in x86_64-w64-mingw32-gcc zip sha256sum; do
    if ! command -v "$tool" >/dev/null; then
        echo "release/build.sh: $tool is missing (Debian: apt-get install gcc-mingw-w64-x86-64 zip coreutils)" >&2
        exit 1
    fi
done

out=${2:-target/dist/$version}
mkdir -p "$out"
out=$(cd "$out" && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

linux=x86_64-unknown-linux-musl
windows=x86_64-pc-windows-gnu
installed=$(rustup target list --installed)
for t in $linux $windows; do
    grep -qx "$t" <<<"$installed" || rustup target add "$t"
done

# Wall time of each step, for the release notes.
times=()
step() {
    local name=$1 start=$SECONDS
    shift
    echo "release/build.sh: $name" >&2
    "$@"
    times+=("$name $((SECONDS - start)) s")
}

# The release profile, without debug information and with symbols
# stripped: Cargo.toml's release profile keeps line tables for backtraces.
build() {
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true \
        cargo build --release --locked --target "$1" --bin oddity
}
step "Linux binary ($linux)" build $linux
step "Windows binary ($windows)" build $windows

cp "$target_dir/$linux/release/oddity" "$out/oddity-$version-x86_64-linux"
chmod 755 "$out/oddity-$version-x86_64-linux"
reported=$("$out/oddity-$version-x86_64-linux" --version)
echo "release/build.sh: the Linux binary reports: $reported" >&2
case "$reported" in
*" $version ("*", dirty)"* | *"unknown)"*)
    if [ "${ODDITY_RELEASE_DIRTY:-}" != 1 ]; then
        echo "release/build.sh: not built from a clean commit ($reported); commit first, or set ODDITY_RELEASE_DIRTY=1 for a trial" >&2
        exit 1
    fi
    ;;
*" $version ("*) ;;
*)
    echo "release/build.sh: the Linux binary reports '$reported', not version $version" >&2
    exit 1
    ;;
esac

# The zip: oddity.exe, its README, the rules, the protocol and the
# licences, the text files with Windows line endings.
mkdir "$work/windows"
cp "$target_dir/$windows/release/oddity.exe" "$work/windows/"
crlf() { sed 's/$/\r/' "$1" >"$work/windows/$2"; }
sed "s/VERSION/$version/g" release/README-windows.txt >"$work/readme.txt"
crlf "$work/readme.txt" README.txt
crlf docs/rules.md rules.md
crlf protocol.md protocol.md
crlf LICENSE-MIT LICENSE-MIT.txt
crlf LICENSE-APACHE LICENSE-APACHE.txt
touch -d "@$(git log -1 --format=%ct)" "$work/windows"/*
rm -f "$out/oddity-$version-x86_64-windows.zip"
(cd "$work/windows" && zip -q -X -9 "$out/oddity-$version-x86_64-windows.zip" \
    oddity.exe README.txt rules.md protocol.md LICENSE-MIT.txt LICENSE-APACHE.txt)

web() {
    local site="$work/oddity-$version-web"
    bash web/build.sh "$site"
    # Ordered names, one owner and the commit's time: the same files give
    # the same archive.
    tar --sort=name --owner=0 --group=0 --numeric-owner \
        --mtime="@$(git log -1 --format=%ct)" -C "$work" -czf "$out/oddity-$version-web.tar.gz" \
        "oddity-$version-web"
}
step "web page (web/build.sh)" web

awk -v v="$version" '/^## \[/ { p = index($0, "## [" v "]") == 1 } p' CHANGELOG.md >"$out/CHANGELOG-$version.md"

files=("oddity-$version-x86_64-linux" "oddity-$version-x86_64-windows.zip" "oddity-$version-web.tar.gz")
(cd "$out" && sha256sum "${files[@]}" >SHA256SUMS)

echo "release/build.sh: wrote $out" >&2
(cd "$out" && for f in "${files[@]}"; do
    printf '  %-40s %10d bytes\n' "$f" "$(stat -c %s "$f")"
done) >&2
printf '  %s\n' "${times[@]}" >&2
