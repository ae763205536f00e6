#!/usr/bin/env bash
# Builds FerretDB (a MongoDB-wire server in Go, here on PostgreSQL) for the MongoDB tests,
# once, into a cache directory, and prints the binary's path on stdout. Idempotent: a
# working binary in the cache is reused; concurrent runs wait for one build (flock).
#
# Why from source: `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` gives a
# binary that panics at start ("Invalid build/version/version.txt"): the module ships
# without the generated build/version/version.txt. So the module's source is copied out
# of the Go module cache, that file is written, and `go build` runs in the copy.
#
# No Go toolchain: says so on stderr, prints nothing, exits 0 (the MongoDB tests skip).
# Environment: TOCSIN_FERRETDB_CACHE overrides the cache root
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/tocsin).
set -euo pipefail

version=v1.24.2
dir="${TOCSIN_FERRETDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tocsin}/ferretdb-$version"
bin="$dir/ferretdb"

works() { [[ -x $bin ]] && "$bin" --version >/dev/null 2>&1; }

if works; then echo "$bin"; exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  echo "tools/ferretdb.sh: no Go toolchain (go) on PATH, so FerretDB $version cannot be built: the MongoDB tests will skip" >&2
  exit 0
fi

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if works; then echo "$bin"; exit 0; fi # another run built it while this one waited

echo "tools/ferretdb.sh: building FerretDB $version into $dir" >&2
started=$SECONDS
work="$(mktemp -d "$dir/build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# Outside any module, so `go mod download` resolves through the module proxy.
src="$(cd "$work" && go mod download -json "github.com/FerretDB/FerretDB@$version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -d $src ]] || { echo "tools/ferretdb.sh: go mod download gave no source directory" >&2; exit 1; }
cp -R "$src" "$work/src"
chmod -R u+w "$work/src" # the module cache is read-only
printf '%s\n' "$version" >"$work/src/build/version/version.txt"
(cd "$work/src" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false" go build -trimpath -o "$work/ferretdb" ./cmd/ferretdb)
mv -f "$work/ferretdb" "$bin"
works || { echo "tools/ferretdb.sh: the built $bin does not run" >&2; exit 1; }
echo "tools/ferretdb.sh: built in $((SECONDS - started)) s" >&2
echo "$bin"
