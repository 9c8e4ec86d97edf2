#!/bin/bash
# tests/scenarios/tuning_rows.sh - every row of variants.tsv with allocator settings really applies
# them: its binary, run with the row's environment, reports each setting back in --version --json
# (allocator_settings), kresd rows through the allocator probe, and `allocspike-run settings`
# refuses settings that did not take.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
SETTINGS=("$ALLOCSPIKE_BIN/allocspike-run" settings)

# version ROW_BINARY ENV_CELL : the binary's --version --json under the cell's environment.
version() {
	local pairs=()
	[[ $2 == - ]] || read -r -a pairs <<<"$2"
	timeout 10 env "${pairs[@]}" "$ALLOCSPIKE_BIN/allocspike-resolver-$1" --version --json 2>/dev/null
}

# The gate of a daemon row's probe (the served controller's row-ready judges it as rows-check --row
# does) refuses a row on a version report whose settings differ from its env cell, and names the
# setting; no program needed.
SC_PROG=tuning_rows
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/experiment.sh"
opts_defaults
variants_load "$ALLOCSPIKE_SOURCE_DIR/variants.tsv"
gate() {
	"$ALLOCSPIKE_BIN/allocspike-run" rows-check --table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" \
		--row jemalloc-decay0 --version-json "$1" | cut -f4
	return "${PIPESTATUS[0]}"
}
out=$(gate '{"allocator": "jemalloc", "allocator_settings": {"opt.dirty_decay_ms": 10000, "opt.muzzy_decay_ms": 0}}')
check_eq "a row whose setting did not take is not run" 1 "$?"
check "the scenario says which setting" grep -qF "variant jemalloc-decay0: opt.dirty_decay_ms=0 did not take: the allocator reports 10000; not run" <<<"$out"
gate '{"allocator": "jemalloc", "allocator_settings": {"opt.dirty_decay_ms": 0, "opt.muzzy_decay_ms": 0}}' >/dev/null
check_eq "the same row with its settings taken runs" 0 "$?"
tested=0
while IFS=$'\t' read -r name k allocator libc library base env default note; do
	[[ $k == build || $k == env ]] || continue
	bin=$name
	[[ $k == env ]] && bin=$base
	[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-$bin ]] || continue
	v=$(version "$bin" "$env")
	check_eq "$name: its binary reports allocator $allocator" "$allocator" "$(jq -r .allocator <<<"$v")"
	[[ $env == - ]] && continue
	check "$name: every setting of '$env' takes" "${SETTINGS[@]}" check "$env" "$v"
	# Each setting is reported by the allocator, so the check compared real values.
	while read -r setting want; do
		check "$name: the allocator reports $setting" jq -e --arg s "$setting" '.allocator_settings | has($s)' <<<"$v" >/dev/null
	done < <("${SETTINGS[@]}" expected "$env")
	tested=$((tested + 1))
done < <(variants_rows)
((tested > 0)) || skip "no resolver binary of a row with settings is built"

# kresd rows: the probe inside the daemon reports the settings (kresd --version runs its
# constructors and exits: enough for the probe).
if command -v kresd >/dev/null && [[ -e $ALLOCSPIKE_BUILD_DIR/lib/liballocspike-alloc-probe.so ]]; then
	while IFS=$'\t' read -r name k allocator libc library base env default note; do
		[[ $k == preload && $base == kresd && $env != - ]] || continue
		preload=$(bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/lib/preload.sh" ld-preload \
			--build "$ALLOCSPIKE_BUILD_DIR" "$library") || continue
		read -r -a pairs <<<"$env"
		rm -f "$TEST_TMP/alloc.json"
		timeout 20 env "${pairs[@]}" LD_PRELOAD="$preload" ALLOCSPIKE_ALLOC_PROBE="$TEST_TMP/alloc.json" \
			kresd --version >/dev/null 2>&1
		check_eq "$name: the probe reports allocator $allocator" "$allocator" "$(jq -r .allocator "$TEST_TMP/alloc.json")"
		check "$name: every setting of '$env' takes in kresd" "${SETTINGS[@]}" check "$env" "$(cat "$TEST_TMP/alloc.json")"
	done < <(variants_rows)
fi

# Refusals: a setting the allocator ignored, a value it did not take, one it cannot show.
refused() {
	local bin=$1 cell=$2 expect=$3 out
	[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-$bin ]] || return 0
	out=$("${SETTINGS[@]}" check "$cell" "$(version "$bin" "$cell")")
	check_eq "$bin with '$cell' is refused" 1 "$?"
	check "the refusal says why ($expect)" grep -qF "$expect" <<<"$out"
}
refused glibc "GLIBC_TUNABLES=glibc.malloc.trim_threshold=lots" "did not take"
refused glibc "GLIBC_TUNABLES=glibc.malloc.arena_max=0" "cannot be shown to take"
refused glibc "MALLOC_CONF=narenas:1" "does not report opt.narenas"
refused jemalloc "MALLOC_CONF=dirty_decay_ms:-7" "did not take"
refused jemalloc "GLIBC_TUNABLES=glibc.malloc.top_pad=4096" "does not report glibc.malloc.top_pad"
refused tcmalloc "TCMALLOC_RELEASE_RATE=ten" "did not take"
refused mimalloc "MIMALLOC_DECOMMIT_DELAY=soon" "did not take"
refused tcmalloc "ALLOCSPIKE_TRIM_INTERVAL_MS=1000" "does not report ALLOCSPIKE_TRIM_INTERVAL_MS"

# --trim-interval: refused at start where the allocator cannot give memory back on demand.
for bin in tcmalloc mimalloc; do
	[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-$bin ]] || continue
	timeout 10 "$ALLOCSPIKE_BIN/allocspike-resolver-$bin" --listen 127.0.0.1:0 --root 127.0.0.1 \
		--trim-interval 100 >/dev/null 2>"$TEST_TMP/trim.err"
	check_eq "$bin refuses --trim-interval" 2 "$?"
	check "$bin says why" grep -qF "$bin has no call that returns free memory" "$TEST_TMP/trim.err"
done
ALLOCSPIKE_TRIM_INTERVAL_MS=soon timeout 10 "$ALLOCSPIKE_BIN/allocspike-resolver-glibc" \
	--listen 127.0.0.1:0 --root 127.0.0.1 >/dev/null 2>"$TEST_TMP/trim.err"
check_eq "a bad ALLOCSPIKE_TRIM_INTERVAL_MS stops the resolver" 2 "$?"
check "it names the variable" grep -qF "ALLOCSPIKE_TRIM_INTERVAL_MS='soon'" "$TEST_TMP/trim.err"
check_eq "a malformed version report is refused" 1 "$(
	"${SETTINGS[@]}" check "TCMALLOC_RELEASE_RATE=10" "not json" >/dev/null
	echo $?
)"
check_eq "a row without settings passes" 0 "$(
	"${SETTINGS[@]}" check - '{}'
	echo $?
)"
finish
