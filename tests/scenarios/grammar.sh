#!/bin/bash
# tests/scenarios/grammar.sh - the scenarios' value checks (scenarios/lib/common.sh) give the answers
# of the programs' parser (common/cli_parse.c) on every input of a table: one grammar, two
# implementations held equal (the shell checks run before anything is built).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/common.sh"
TOOL=$ALLOCSPIKE_BIN/allocspike-test-cli-parse
[[ -x $TOOL ]] || skip "allocspike-test-cli-parse is not built"

# same KIND SHELL_ANSWER TEXT [BARE_MS] : the C parser accepts TEXT with the same value, or refuses
# it as the shell check did (empty answer).
same() {
	local kind=$1 shell=$2 text=$3 c
	c=$("$TOOL" "$kind" "$text" ${4:+"$4"} 2>/dev/null)
	check_eq "$kind '$text'${4:+ (bare: $4 ms)}" "$shell" "$c"
}

for t in 500ms 20s 1.5m 2h .5s 5.s 0.25s 90m 168h 20 3x 5min 5sec 8d 20ms5 " 20s" "20 s" -5s 1e3s inf \
	"" s m 0s 0.0001s 169h 0x10s 1.5.5s; do
	same duration "$(sc_duration_ms "$t")" "$t"
done
for t in 100 250ms 2s 1.5 0 10x; do
	same duration "$(sc_duration_ms "$t" 1)" "$t" 1
done
for t in 4096 4M 4m 512k 512K 512KiB 512KB 1G 1GiB 1.5G 64MiB 0.5k lots 4X 4Mi 4mb 4kib -4M "4 M" ""; do
	same size "$(sc_size_bytes "$t")" "$t"
done
for t in 0.03 20 .5 5. 0 nan inf 0x10 1e2 -0.1 1,5 . "" " 1"; do
	sc_is_number "$t" && ans=ok || ans=''
	same number "$ans" "$t"
done
for t in 0 8 65536 8.5 -1 "" +3 1e3; do
	sc_is_uint "$t" && ans=$t || ans=''
	same count "$ans" "$t"
done
finish
