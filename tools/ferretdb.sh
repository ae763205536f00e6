#!/usr/bin/env bash
# Builds FerretDB (a MongoDB-wire server in Go, here on PostgreSQL) for the MongoDB tests,
# once, into a cache directory, and prints the binary's path on stdout (see
# go-module-build.sh: idempotent, one build at a time, nothing without Go).
#
# Why from source: `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` gives a
# binary that panics at start ("Invalid build/version/version.txt"): the module ships
# without the generated build/version/version.txt. So the module's source is copied out
# of the Go module cache, that file is written, and `go build` runs in the copy.
#
# Environment: TOCSIN_FERRETDB_CACHE overrides the cache root
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/tocsin).
set -euo pipefail

tool=tools/ferretdb.sh name=FerretDB skips='the MongoDB tests'
module=github.com/FerretDB/FerretDB version=v1.24.2 package=./cmd/ferretdb
dir="${TOCSIN_FERRETDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tocsin}/ferretdb-$version"
bin="$dir/ferretdb"

works() { [[ -x $bin ]] && "$bin" --version >/dev/null 2>&1; }
prepare() { printf '%s\n' "$version" >build/version/version.txt; }

source "$(dirname "$0")/go-module-build.sh"
