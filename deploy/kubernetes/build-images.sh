#!/bin/bash
# deploy/kubernetes/build-images.sh - builds the two images the manifests run, with podman, from a
# build's bin/ folder; nothing is fetched (both start FROM scratch).
#   PREFIX/resolver-musl:TAG  the musl resolver alone: it is static, the image is the one file
#   PREFIX/tools:TAG          allocspike-agent, -upstream and -loadgen (glibc builds) with the shared
#                             libraries they load, and dash as /bin/sh for the Job's shard arithmetic
# Usage: build-images.sh [--bin DIR] [--prefix PREFIX] [--tag TAG]
#   --bin     the build's bin/ folder (default: build/bin of this checkout)
#   --prefix  image name prefix (default localhost/allocspike: what the manifests name; give your
#             registry's to push, e.g. REGISTRY/team/allocspike)
#   --tag     image tag (default: the version the programs print, as in the manifests)
# Prints one line per image: NAME SIZE_BYTES.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/bin prefix=localhost/allocspike tag=
usage() {
	sed -n '2,/^# Prints/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}
while (($#)); do
	case $1 in
	--bin) bin=${2:?--bin needs a folder} && shift 2 ;;
	--prefix) prefix=${2:?--prefix needs a name} && shift 2 ;;
	--tag) tag=${2:?--tag needs a tag} && shift 2 ;;
	-h | --help) usage ;;
	*) echo "build-images.sh: unknown argument '$1'" >&2 && usage ;;
	esac
done
command -v podman >/dev/null || {
	echo "build-images.sh: podman is not installed (scripts/packages.txt)" >&2
	exit 1
}
for p in allocspike-resolver-musl allocspike-agent allocspike-upstream allocspike-loadgen; do
	[[ -x $bin/$p ]] || {
		echo "build-images.sh: $bin/$p is missing: build first (scripts/build.sh)" >&2
		exit 1
	}
done
[[ -n $tag ]] || tag=$("$bin/allocspike-agent" --version | awk '{ print $2 }')
ctx=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-images.XXXXXX")
trap 'rm -rf "$ctx"' EXIT

# copy_with_libraries DEST PROGRAM... : each program into DEST/bin, and every shared library it
# loads (and the dynamic loader) at its own path under DEST, as ldd resolves them on this host.
copy_with_libraries() {
	local dest=$1 p lib
	shift
	mkdir -p "$dest/bin"
	for p in "$@"; do
		cp "$p" "$dest/bin/"
		for lib in $(ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$dest$(dirname "$lib")"
			cp -L "$lib" "$dest$lib"
		done
	done
}

# build NAME CONTEXT : builds CONTEXT/Containerfile as PREFIX/NAME:TAG, prints its name and size.
build() {
	local image=$prefix/$1:$tag
	podman build --quiet --network none --tag "$image" --file "$2/Containerfile" "$2" >/dev/null
	echo "$image $(podman image inspect --format '{{.Size}}' "$image")"
}

# The resolver: the static musl build is the whole image; the Pod gives its arguments.
mkdir -p "$ctx/resolver"
cp "$bin/allocspike-resolver-musl" "$ctx/resolver/"
cat >"$ctx/resolver/Containerfile" <<'EOF'
FROM scratch
COPY allocspike-resolver-musl /bin/allocspike-resolver-musl
ENTRYPOINT ["/bin/allocspike-resolver-musl"]
EOF
build resolver-musl "$ctx/resolver"

# The tools: glibc builds, so their libraries come along (the same ones the build linked).
copy_with_libraries "$ctx/tools/root" "$bin/allocspike-agent" "$bin/allocspike-upstream" \
	"$bin/allocspike-loadgen" /bin/dash
ln -s dash "$ctx/tools/root/bin/sh"
cat >"$ctx/tools/Containerfile" <<'EOF'
FROM scratch
COPY root/ /
EOF
build tools "$ctx/tools"
