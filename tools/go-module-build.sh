# Sourced by tools/ferretdb.sh and tools/seaweedfs.sh: builds a Go command from its
# module's source, once, into a cache directory, and prints the binary's path on stdout.
# Idempotent: a working binary in the cache is reused; concurrent runs wait for one build
# (flock). No Go toolchain: says so on stderr, prints nothing, exits 0 (its tests skip).
#
# The caller sets: tool (its script's name), name (for messages), module, version,
# package (the command's directory in the module), dir (the cache directory), bin (the
# binary's path), skips (which tests skip without it); and defines works (does $bin run?)
# and prepare (runs in the copied source before `go build`; may do nothing).
#
# Why from source rather than `go install`: the module cache copy is read-only and some
# modules need a step before they build (see each caller).

if works; then echo "$bin"; exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  echo "$tool: no Go toolchain (go) on PATH, so $name $version cannot be built: $skips will skip" >&2
  exit 0
fi

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
if works; then echo "$bin"; exit 0; fi # another run built it while this one waited

echo "$tool: building $name $version into $dir" >&2
started=$SECONDS
work="$(mktemp -d "$dir/build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# Outside any module, so `go mod download` resolves through the module proxy.
src="$(cd "$work" && go mod download -json "$module@$version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -d $src ]] || { echo "$tool: go mod download gave no source directory" >&2; exit 1; }
cp -R "$src" "$work/src"
chmod -R u+w "$work/src" # the module cache is read-only
(cd "$work/src" && prepare)
(cd "$work/src" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false" go build -trimpath -o "$work/out" "$package")
mv -f "$work/out" "$bin"
works || { echo "$tool: the built $bin does not run" >&2; exit 1; }
echo "$tool: built in $((SECONDS - started)) s" >&2
echo "$bin"
