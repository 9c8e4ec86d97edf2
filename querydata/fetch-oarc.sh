#!/usr/bin/env bash
# querydata/fetch-oarc.sh - fetches DNS-OARC's sample query files (10 xz parts of 1M queries), checks their SHA-256.
#
# The parts come from DNS-OARC's public repository DNS-OARC/sample-query-data. The first time a
# part is downloaded its SHA-256 is written to DEST/SHA256SUMS; afterwards every present or
# re-downloaded part is checked against that record (no digest is written here from memory).
# Prints the path of each part (or of its decompressed copy with --decompress), one per line.
set -euo pipefail

readonly OARC_BASE_URL="https://github.com/DNS-OARC/sample-query-data/raw/main"
readonly OARC_PREFIX="queryfile-example-10million-201202_part"

usage() {
	cat <<EOF
usage: fetch-oarc.sh [--dest DIR] [--parts LIST] [--from DIR|URL] [--decompress]

  --dest DIR      where the parts go (default: \${XDG_CACHE_HOME:-~/.cache}/allocspike/oarc)
  --parts LIST    which parts: 1..10, comma-separated, ranges allowed (1-3,7), or 'all' (default 1)
  --from DIR|URL  take the parts from a local folder or another base URL instead of
                  $OARC_BASE_URL
  --decompress    also write the plain file beside each part (once; our tools read .xz directly)

Each part holds 1,000,000 queries (dnsperf format). allocspike-loadgen and
allocspike-querydata read the .xz files as they are.
EOF
}

die() {
	echo "fetch-oarc.sh: $*" >&2
	exit 1
}

# usage_error MESSAGE : bad usage, status 2 (the project's rule, docs/cli.md)
usage_error() {
	echo "fetch-oarc.sh: $*" >&2
	exit 2
}

# value OPTION ARGS... : the option's value, or a usage error when there is none
value() {
	(($# >= 2)) && [[ -n $2 ]] || usage_error "$1 needs a value"
	printf '%s' "$2"
}

dest="${XDG_CACHE_HOME:-$HOME/.cache}/allocspike/oarc"
parts_spec=1
from=""
decompress=0
while (($#)); do
	case "$1" in
	--dest) dest=$(value "$@") || exit 2; shift 2 ;;
	--parts) parts_spec=$(value "$@") || exit 2; shift 2 ;;
	--from) from=$(value "$@") || exit 2; shift 2 ;;
	--decompress) decompress=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; usage_error "unknown option '$1'" ;;
	esac
done

# parse_parts LIST : prints the part numbers, one per line, or fails naming the bad item.
parse_parts() {
	local item a b i
	[[ "$1" == all ]] && { seq 1 10; return; }
	IFS=, read -ra items <<<"$1"
	for item in "${items[@]}"; do
		if [[ "$item" =~ ^([0-9]+)-([0-9]+)$ ]]; then
			a=$((10#${BASH_REMATCH[1]})) b=$((10#${BASH_REMATCH[2]}))
		elif [[ "$item" =~ ^[0-9]+$ ]]; then
			a=$((10#$item)) b=$a
		else
			usage_error "--parts: '$item' is not a part number or range"
		fi
		((a >= 1 && b <= 10 && a <= b)) || usage_error "--parts: '$item' is outside 1..10"
		for ((i = a; i <= b; i++)); do echo "$i"; done
	done
}

command -v sha256sum >/dev/null || die "sha256sum not found (coreutils)"
parts_list=$(parse_parts "$parts_spec") || exit $?
mapfile -t parts <<<"$parts_list"
mkdir -p "$dest" || die "cannot create $dest"
sums="$dest/SHA256SUMS"
touch "$sums"

manual_help() {
	cat >&2 <<EOF
fetch-oarc.sh: could not get $1 from ${from:-$OARC_BASE_URL}.
Without network, place the files by hand: on a machine with access, download
  $OARC_BASE_URL/$1
(all parts: ${OARC_PREFIX}01.xz .. ${OARC_PREFIX}10.xz), copy them into
  $dest/
or into any folder DIR and run: fetch-oarc.sh --from DIR --parts ...
The first run records their SHA-256 in $sums and later runs check it.
EOF
}

# fetch_one NAME TARGET : copies or downloads NAME into TARGET.
fetch_one() {
	local name=$1 target=$2
	if [[ -n "$from" && "$from" != *://* ]]; then
		[[ -r "$from/$name" ]] || { manual_help "$name"; die "$from/$name: not found"; }
		cp -- "$from/$name" "$target"
		return
	fi
	local url="${from:-$OARC_BASE_URL}/$name"
	if command -v curl >/dev/null; then
		curl -fsSL --connect-timeout 15 --retry 2 -o "$target" "$url" && return
	elif command -v wget >/dev/null; then
		wget -q --timeout=15 -O "$target" "$url" && return
	else
		manual_help "$name"
		die "neither curl nor wget is installed"
	fi
	rm -f "$target"
	manual_help "$name"
	die "download failed: $url"
}

# check_sum NAME : verifies DEST/NAME against its record, or records it the first time.
check_sum() {
	local name=$1 actual recorded
	actual=$(sha256sum "$dest/$name" | cut -d' ' -f1)
	recorded=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$sums" | head -1)
	if [[ -z "$recorded" ]]; then
		printf '%s  %s\n' "$actual" "$name" >>"$sums"
		echo "fetch-oarc.sh: recorded SHA-256 of $name: $actual" >&2
	elif [[ "$recorded" != "$actual" ]]; then
		die "$dest/$name: SHA-256 $actual does not match the one recorded in $sums ($recorded); delete the file to fetch it again, or the line in $sums if the source really changed"
	fi
}

for p in "${parts[@]}"; do
	name=$(printf '%s%02d.xz' "$OARC_PREFIX" "$p")
	if [[ ! -s "$dest/$name" ]]; then
		echo "fetch-oarc.sh: fetching $name" >&2
		fetch_one "$name" "$dest/$name.tmp.$$"
		xz -t "$dest/$name.tmp.$$" 2>/dev/null || {
			rm -f "$dest/$name.tmp.$$"
			die "$name: what arrived is not a valid xz file"
		}
		mv -f "$dest/$name.tmp.$$" "$dest/$name"
	fi
	check_sum "$name"
	if ((decompress)); then
		plain="$dest/${name%.xz}"
		if [[ ! -s "$plain" ]]; then
			xz -dc "$dest/$name" >"$plain.tmp.$$" && mv -f "$plain.tmp.$$" "$plain" ||
				{ rm -f "$plain.tmp.$$"; die "cannot decompress $name"; }
		fi
		echo "$plain"
	else
		echo "$dest/$name"
	fi
done
