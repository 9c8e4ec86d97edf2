#!/bin/bash
# cmake/debian-source.sh - fetches pinned Debian source packages through a private apt setup, unpacks them.
#
# Usage: debian-source.sh CACHE_DIR APT_DIR DEST_DIR PACKAGE=VERSION...
#        debian-source.sh --derive-list [ETC_APT]   (prints the deb-src list it would use; for tests)
#
# Each PACKAGE=VERSION ends up unpacked (Debian patches applied, then autoreconf as Debian's
# debhelper compat 13 does) in DEST_DIR/PACKAGE, with DEST_DIR/PACKAGE.version naming what is there.
# Source packages are downloaded once into CACHE_DIR/PACKAGE_VERSION/ and reused from there, so a
# rebuild needs no network. Downloads go through apt with its own configuration under APT_DIR: a
# deb-src list derived from the mirrors the system already uses (never a host written here), its own
# state and cache folders, the system's keyrings, so apt checks every file against the signed index
# and nothing on the system changes.
set -euo pipefail

etc_apt=/etc/apt
if [[ ${1:-} == --derive-list ]]; then
	derive_only=1
	etc_apt=${2:-/etc/apt}
elif (($# < 4)); then
	echo "usage: $0 CACHE_DIR APT_DIR DEST_DIR PACKAGE=VERSION..." >&2
	exit 2
fi

# debian_source_derive_list: prints a deb822 deb-src list with one stanza per enabled `deb` entry of
# the system's sources (one-line .list files and deb822 .sources files), same URIs, suites,
# components and Signed-By.
debian_source_derive_list() {
	local f
	for f in "$etc_apt/sources.list" "$etc_apt"/sources.list.d/*.list; do
		[[ -r $f ]] || continue
		awk -v file="$f" '
			/^[[:space:]]*(#|$)/ { next }
			$1 == "deb" {
				opts = ""; i = 2
				if ($2 ~ /^\[/) {
					while (i <= NF) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } i++ }
				}
				uri = $i; suite = $(i + 1); comps = ""
				for (j = i + 2; j <= NF; j++) comps = comps " " $j
				signed = ""
				if (match(opts, /signed-by=[^] ]+/))
					signed = substr(opts, RSTART + 10, RLENGTH - 10)
				printf "# from %s\nTypes: deb-src\nURIs: %s\nSuites: %s\nComponents:%s\n", file, uri, suite, comps
				if (signed != "") printf "Signed-By: %s\n", signed
				printf "\n"
			}' "$f"
	done
	for f in "$etc_apt"/sources.list.d/*.sources; do
		[[ -r $f ]] || continue
		# Stanzas are separated by blank lines; continuation lines (leading space) belong to the
		# field above (an inline Signed-By key block). Only stanzas whose Types include deb count.
		awk -v file="$f" '
			function flush() {
				if (n > 0 && is_deb && enabled) {
					printf "# from %s\nTypes: deb-src\n", file
					for (k = 1; k <= n; k++) print keep[k]
					printf "\n"
				}
				n = 0; is_deb = 0; enabled = 1; skipping = 0
			}
			BEGIN { n = 0; is_deb = 0; enabled = 1 }
			/^[[:space:]]*#/ { next }
			/^[[:space:]]*$/ { flush(); next }
			/^[ \t]/ { if (!skipping) keep[++n] = $0; next }
			{
				field = tolower($1); sub(/:$/, "", field); skipping = 0
				if (field == "types") {
					for (k = 2; k <= NF; k++) if ($k == "deb") is_deb = 1
					skipping = 1; next
				}
				if (field == "enabled") { if (tolower($2) == "no") enabled = 0; skipping = 1; next }
				keep[++n] = $0
			}
			END { flush() }' "$f"
	done
}

if [[ -n ${derive_only:-} ]]; then
	debian_source_derive_list
	exit 0
fi

cache=$1 aptdir=$2 dest=$3
shift 3
mkdir -p "$cache" "$aptdir" "$dest"
cache=$(cd "$cache" && pwd) aptdir=$(cd "$aptdir" && pwd) dest=$(cd "$dest" && pwd)

apt_opts=(
	-o "Dir::Etc=$aptdir/etc"
	-o "Dir::Etc::sourcelist=$aptdir/etc/sources.list"
	-o "Dir::Etc::sourceparts=$aptdir/etc/sources.list.d"
	-o "Dir::Etc::trusted=/etc/apt/trusted.gpg"
	-o "Dir::Etc::trustedparts=/etc/apt/trusted.gpg.d"
	-o "Dir::State=$aptdir/state"
	-o "Dir::State::status=$aptdir/state/status"
	-o "Dir::Cache=$aptdir/cache"
	-o "Acquire::Languages=none"
	-o "APT::Get::Only-Source=true"
)

# debian_source_update: writes the private apt setup and downloads the signed source indexes, once
# per invocation.
updated=
debian_source_update() {
	[[ -z $updated ]] || return 0
	mkdir -p "$aptdir/etc/sources.list.d" "$aptdir/etc/preferences.d" "$aptdir/etc/apt.conf.d" \
		"$aptdir/state/lists/partial" "$aptdir/cache/archives/partial"
	: >"$aptdir/etc/sources.list"
	: >"$aptdir/state/status"
	debian_source_derive_list >"$aptdir/etc/sources.list.d/derived.sources"
	if ! grep -q '^Types: deb-src' "$aptdir/etc/sources.list.d/derived.sources"; then
		echo "debian-source: no 'deb' entry found in /etc/apt/sources.list(.d) to derive deb-src lines from" >&2
		exit 1
	fi
	echo "debian-source: updating source indexes (private apt state in $aptdir)"
	apt-get "${apt_opts[@]}" -q update
	updated=1
}

for spec in "$@"; do
	pkg=${spec%%=*} version=${spec#*=}
	if [[ -z $pkg || -z $version || $pkg == "$spec" ]]; then
		echo "debian-source: '$spec': expected PACKAGE=VERSION" >&2
		exit 2
	fi
	if [[ -d $dest/$pkg && $(cat "$dest/$pkg.version" 2>/dev/null) == "$version" ]]; then
		continue
	fi
	store="$cache/${pkg}_$version"
	upstream_version=${version#*:}
	dsc="$store/${pkg}_${upstream_version}.dsc"
	if [[ ! -e $store/.verified ]]; then
		debian_source_update
		rm -rf "$store.partial"
		mkdir -p "$store.partial"
		echo "debian-source: downloading $pkg $version"
		(cd "$store.partial" && apt-get "${apt_opts[@]}" -q source --download-only "$pkg=$version")
		# Reached only when apt verified each file against the signed index.
		date -u +%FT%TZ >"$store.partial/.verified"
		rm -rf "$store"
		mv "$store.partial" "$store"
	else
		echo "debian-source: $pkg $version from cache $store"
	fi
	rm -rf "$dest/$pkg" "$dest/$pkg.version"
	# dpkg-source checks every file against the checksums in the .dsc before unpacking.
	# Its own check of the maintainer's signature needs debian-keyring and is not what we rely on
	# (apt verified the download), so its output is shown only when it fails.
	if ! dpkg-source --no-copy -x "$dsc" "$dest/$pkg" >"$dest/$pkg.unpack.log" 2>&1; then
		cat "$dest/$pkg.unpack.log" >&2
		echo "debian-source: unpacking $dsc failed; delete $store to download it again" >&2
		exit 1
	fi
	# Debian builds these packages with debhelper compat 13, which runs autoreconf; so do we (it
	# also makes the autotools files match Debian's patched Makefile.am).
	(cd "$dest/$pkg" && autoreconf -fi >/dev/null 2>&1) || {
		echo "debian-source: autoreconf failed in $dest/$pkg (apt-get install autoconf automake libtool)" >&2
		exit 1
	}
	echo "$version" >"$dest/$pkg.version"
done
