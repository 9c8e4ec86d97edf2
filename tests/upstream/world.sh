#!/bin/bash
# tests/upstream/world.sh - --world: the same seed prints the same world (per-server RTTs, dead
# set, delegation shares), another seed another one; lan is the world without --world; the preset
# sets defaults that other flags change in any order; an internet world serves.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
U="$ALLOCSPIKE_BIN/allocspike-upstream"

"$U" --world internet --seed 9 --print-world >"$TEST_TMP/a" || exit 1
"$U" --seed 9 --print-world --world internet >"$TEST_TMP/b" || exit 1
"$U" --world internet --seed 10 --print-world >"$TEST_TMP/c" || exit 1
check "same seed: identical world" cmp -s "$TEST_TMP/a" "$TEST_TMP/b"
check "another seed: another world" bash -c "! cmp -s '$TEST_TMP/a' '$TEST_TMP/c'"
check_eq "one line per server (4:24:96) plus header and shares" 126 "$(wc -l <"$TEST_TMP/a")"
check_eq "every SLD server has a base RTT" 0 \
	"$(awk '$1 == "server" && $4 == "sld" && $6 <= 0' "$TEST_TMP/a" | wc -l)"
check "some SLD servers are dead" grep -q 'sld rtt_ms [0-9.]* slow [01] dead 1' "$TEST_TMP/a"
check "broken delegations present" \
	awk '$1 == "delegations" && $4 > 0 && $6 > 0 && $8 > 0 && $10 > 0 {ok = 1} END {exit !ok}' "$TEST_TMP/a"

"$U" --seed 9 --print-world >"$TEST_TMP/none" || exit 1
"$U" --seed 9 --world lan --print-world >"$TEST_TMP/lan" || exit 1
check "lan is the world without --world" cmp -s <(tail -n +2 "$TEST_TMP/none") <(tail -n +2 "$TEST_TMP/lan")
check_eq "lan: no base RTTs" 0 "$(awk '$1 == "server" && $6 != "0.0"' "$TEST_TMP/lan" | wc -l)"
check_eq "lan: no lame delegations" "0.0000 0.0000" \
	"$(awk '$1 == "delegations" {print $8, $10}' "$TEST_TMP/lan")"

# a flag before --world still wins over the preset's default
"$U" --dead-share 0.3 --world internet --seed 9 --print-world >"$TEST_TMP/d" || exit 1
dead_default=$(grep -c 'dead 1$' "$TEST_TMP/a")
dead_more=$(grep -c 'dead 1$' "$TEST_TMP/d")
check "--dead-share before --world applies ($dead_more > $dead_default dead)" test "$dead_more" -gt "$dead_default"

"$U" --world moon --print-world >/dev/null 2>"$TEST_TMP/err"
check_eq "unknown world: usage error" 2 $?
check "the error names the worlds" grep -q 'lan|internet|hostile' "$TEST_TMP/err"

if command -v kdig >/dev/null; then
	start_server up "$TEST_TMP/up.ready" "$U" --world internet --block 127.54.31.0/24 --port 0 \
		--no-loss --ready-file "$TEST_TMP/up.ready" >"$TEST_TMP/up.addr" || exit 1
	ADDR=$(cat "$TEST_TMP/up.addr")
	out=$(kdig @"${ADDR%:*}" -p "${ADDR##*:}" +norec +time=3 +retry=0 com. NS)
	check "an internet world serves a referral" grep -q 'status: NOERROR' <<<"$out"
fi
finish
