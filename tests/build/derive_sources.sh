#!/bin/bash
# tests/build/derive_sources.sh - cmake/debian-source.sh derives a deb-src list from the system's apt
# sources (one-line and deb822 formats) that apt itself parses: same URIs, suites, components and
# keys, nothing from disabled or commented entries. Uses made-up .invalid hosts; no network.
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"

etc="$TEST_TMP/etc" apt="$TEST_TMP/apt"
mkdir -p "$etc/sources.list.d" "$apt/etc/sources.list.d" "$apt/state/lists/partial" "$apt/cache/archives/partial"
cat >"$etc/sources.list" <<'LIST'
# a comment
deb [arch=amd64 signed-by=/usr/share/keyrings/one.gpg] http://one.invalid/debian bookworm main contrib
# deb http://commented.invalid/debian bookworm main
deb-src http://srconly.invalid/debian bookworm main
LIST
cat >"$etc/sources.list.d/a.sources" <<'LIST'
Types: deb deb-src
URIs: http://two.invalid/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 mQINBFyy
 -----END PGP PUBLIC KEY BLOCK-----

Types: deb
Enabled: no
URIs: http://disabled.invalid/debian
Suites: bookworm
Components: main
LIST
echo 'deb http://ignored.invalid/debian bookworm main' >"$etc/sources.list.d/x.list.disabled"

list="$apt/etc/sources.list.d/derived.sources"
check "derivation succeeds" bash -c 'bash "$1/cmake/debian-source.sh" --derive-list "$2" >"$3"' _ \
	"$ALLOCSPIKE_SOURCE_DIR" "$etc" "$list"
cat "$list"
check_eq "deb-src stanzas" 2 "$(grep -c '^Types: deb-src$' "$list")"
check "one-line entry: options' signed-by kept" grep -q '^Signed-By: /usr/share/keyrings/one.gpg$' "$list"
check "one-line entry: all components" grep -q '^Components: main contrib$' "$list"
check "deb822 entry: both suites" grep -q '^Suites: bookworm bookworm-updates$' "$list"
check "deb822 entry: inline key block kept" grep -q '^ -----END PGP PUBLIC KEY BLOCK-----$' "$list"
for host in commented disabled ignored srconly; do
	check "nothing from $host.invalid" bash -c '! grep -q "$1" "$2"' _ "$host.invalid" "$list"
done

# apt itself reads the list (no download: --print-uris). CI once saw it print no URI while other
# tests ran beside it; it is asked up to three times, and what it printed is shown if it never does.
: >"$apt/state/status"
for attempt in 1 2 3; do
	uris=$(apt-get -o "Dir::Etc=$apt/etc" -o Dir::Etc::sourcelist=/dev/null \
		-o "Dir::Etc::sourceparts=$apt/etc/sources.list.d" -o "Dir::State=$apt/state" \
		-o "Dir::State::status=$apt/state/status" -o "Dir::Cache=$apt/cache" update --print-uris 2>&1 || true)
	grep -q "/source/Sources" <<<"$uris" && break
	sleep 1
done
grep -q "/source/Sources" <<<"$uris" || printf 'apt-get printed, on attempt %s:\n%s\n' "$attempt" "$uris"
check "apt asks for one.invalid contrib sources" grep -q "one.invalid/debian/dists/bookworm/contrib/source/Sources" <<<"$uris"
check "apt asks for two.invalid bookworm-updates sources" grep -q "two.invalid/debian/dists/bookworm-updates/main/source/Sources" <<<"$uris"
finish
