#!/usr/bin/env bash
# Builds SeaweedFS's `weed` (an S3-compatible object store in Go) for the S3 attachment
# tests, once, into a cache directory, and prints the binary's path on stdout (see
# go-module-build.sh: idempotent, one build at a time, nothing without Go). About 9
# minutes with an empty Go cache; a 230 MB binary.
#
# Why from source, and why a pseudo-version: SeaweedFS tags its releases "3.x"/"4.x",
# which are no Go semver tags, so the module proxy serves it by commit only; its go.mod
# has replace directives, which `go install pkg@version` refuses. So the module's source
# is copied out of the Go module cache and `go build` runs in the copy.
#
# Environment: TOCSIN_SEAWEEDFS_CACHE overrides the cache root
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/tocsin).
set -euo pipefail

tool=tools/seaweedfs.sh name=SeaweedFS skips='the S3 tests'
module=github.com/seaweedfs/seaweedfs version=v0.0.0-20261109003541-7506e5f91cd6 package=./weed
dir="${TOCSIN_SEAWEEDFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tocsin}/seaweedfs-$version"
bin="$dir/weed"

works() { [[ -x $bin ]] && "$bin" version >/dev/null 2>&1; }
prepare() { :; }

source "$(dirname "$0")/go-module-build.sh"
