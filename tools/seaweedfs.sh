#!/usr/bin/env bash
# Builds SeaweedFS's `weed` (an S3-compatible object store in Go) for the S3 attachment
# tests, once, into a cache directory, and prints the binary's path on stdout. Idempotent:
# a working binary in the cache is reused; concurrent runs wait for one build (flock).
#
# Why from source, and why a pseudo-version: SeaweedFS tags its releases "3.x", which
# are no Go semver tags, so the module proxy serves it by commit only; its go.mod has
# replace directives, which `go install pkg@version` refuses. So the module's source is
# copied out of the Go module cache and `go build` runs in the copy.
#
# No Go toolchain: says so on stderr, prints nothing, exits 0 (the S3 tests skip).
# Environment: TOCSIN_SEAWEEDFS_CACHE overrides the cache root
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/tocsin).
set -euo pipefail

version=v0.0.0-20261109003541-7506e5f91cd6
dir="${TOCSIN_SEAWEEDFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tocsin}/seaweedfs-$version"
bin="$dir/weed"

works() { [[ -x $bin ]] && "$bin" version >/dev/null 2>&1; }

if works; then echo "$bin"; exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  echo "tools/seaweedfs.sh: no Go toolchain (go) on PATH, so SeaweedFS $version cannot be built: the S3 tests will skip" >&2
  exit 0
fi

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if works; then echo "$bin"; exit 0; fi # another run built it while this one waited

echo "tools/seaweedfs.sh: building SeaweedFS $version into $dir" >&2
started=$SECONDS
work="$(mktemp -d "$dir/build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# Outside any module, so `go mod download` resolves through the module proxy.
src="$(cd "$work" && go mod download -json "github.com/seaweedfs/seaweedfs@$version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -d $src ]] || { echo "tools/seaweedfs.sh: go mod download gave no source directory" >&2; exit 1; }
cp -R "$src" "$work/src"
chmod -R u+w "$work/src" # the module cache is read-only
(cd "$work/src" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false" go build -trimpath -o "$work/weed" ./weed)
mv -f "$work/weed" "$bin"
works || { echo "tools/seaweedfs.sh: the built $bin does not run" >&2; exit 1; }
echo "tools/seaweedfs.sh: built in $((SECONDS - started)) s" >&2
echo "$bin"
