#!/bin/bash
# resolver/fuzz/fuzz.sh [SECONDS] - builds the libFuzzer target with clang (ASan + UBSan) and runs it:
# first over the checked-in regression inputs, then FUZZ_SECONDS (default 30, at most 60) of fuzzing
# seeded from resolver/fuzz/corpus. A crash input is left in $TEST_TMP; keep it under
# tests/resolver/fuzz-regressions/ once fixed.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v clang >/dev/null || skip "clang not installed"
SECONDS_TO_RUN=${1:-${FUZZ_SECONDS:-30}}
((SECONDS_TO_RUN > 60)) && SECONDS_TO_RUN=60
SRC="$ALLOCSPIKE_SOURCE_DIR"
EXE="$TEST_TMP/fuzz_packet"
modules=()
for f in "$SRC"/resolver/*.c; do
	[[ "$(basename "$f")" == main.c ]] || modules+=("$f")
done
# shellcheck disable=SC2046
if ! clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DRESOLVER_FUZZING -DALLOCSPIKE_VERSION="\"${ALLOCSPIKE_VERSION:?run through ctest}\"" \
	-I"$SRC/resolver" -I"$SRC/common" \
	"$SRC/resolver/fuzz/fuzz_packet.c" "${modules[@]}" "$SRC/common/alloc_info.c" \
	"$SRC/common/chacha_rng.c" "$SRC/common/sockaddr_parse.c" $(pkg-config --cflags --libs ldns libevent jansson) -ldl \
	-o "$EXE" 2>"$TEST_TMP/build.log"; then
	if grep -q "libclang_rt.fuzzer\|fuzzer.*not found\|cannot find.*fuzzer" "$TEST_TMP/build.log"; then
		skip "libFuzzer runtime missing (apt-get install libclang-rt-14-dev)"
	fi
	cat "$TEST_TMP/build.log"
	check "fuzz target builds" false
	finish
fi
check "fuzz target builds" test -x "$EXE"

regressions=()
for f in "$SRC"/tests/resolver/fuzz-regressions/*; do
	[[ $f == *.md ]] || regressions+=("$f")
done
if ((${#regressions[@]})); then
	check "regression inputs pass" "$EXE" "${regressions[@]}"
fi
mkdir -p "$TEST_TMP/corpus"
"$EXE" -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$TEST_TMP/" "$TEST_TMP/corpus" "$SRC/resolver/fuzz/corpus" \
	>"$TEST_TMP/fuzz.log" 2>&1
rc=$?
tail -5 "$TEST_TMP/fuzz.log"
if ((rc != 0)); then
	grep -A30 "ERROR:" "$TEST_TMP/fuzz.log" | head -60
	ls "$TEST_TMP"/crash-* "$TEST_TMP"/leak-* "$TEST_TMP"/timeout-* 2>/dev/null
	KEEP_TEST_TMP=1
fi
check_eq "fuzzing for ${SECONDS_TO_RUN}s found nothing" 0 "$rc"
finish
