#!/bin/bash
# tests/controller/options.sh - allocspike-run options, the scenarios' one option parser
# (docs/controller.md, "A scenario's options"), through the scenarios themselves: each scenario's
# --help byte for byte, run.json's options object, and every usage error's message and status, all
# as the shell parser of scenarios/lib/options.sh gave them (fixtures under options/, made from
# main at 03aa72d: help-*.txt, json-expected.jsonl for json-cases.tsv, errors.txt for
# error-cases.txt, less the shell's own "bad array subscript" line of case 35; help-tune.txt and
# help-scale.txt were made when their options moved here; spike.sh's --hosts and --token-file lines
# and the two empty options in every json-expected.jsonl line were added with them); then what it had not: the values in ms and bytes, the names given,
# --quick, renamed options, a value with a newline, the controller's own usage.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN=$ALLOCSPIKE_BIN/allocspike-run
[[ -x $RUN ]] || skip "allocspike-run is not built"
F=$ALLOCSPIKE_SOURCE_DIR/tests/controller/options
S=$ALLOCSPIKE_SOURCE_DIR/scenarios

# A controller that stops the scenario once its options are read: the real `options` answer kept
# in $TEST_TMP/options.out, status 99 in place of 0, so nothing runs after the parse.
bin=$TEST_TMP/bin
mkdir -p "$bin"
cat >"$bin/allocspike-run" <<STOP
#!/bin/bash
[[ \$1 == options ]] || exec "$RUN" "\$@"
"$RUN" "\$@" >"$TEST_TMP/options.out"
st=\$?
[[ \$st != 0 ]] || ! grep -qx help "$TEST_TMP/options.out" || { cat "$TEST_TMP/options.out"; exit 0; }
[[ \$st == 0 ]] || exit \$st
exit 99
STOP
chmod +x "$bin/allocspike-run"

# scenario NAME ARGS... : the scenario up to its options read (stdout, stderr as given).
scenario() {
	local name=$1
	shift
	SC_ROOT=/ROOT ALLOCSPIKE_BIN=$bin bash "$S/$name.sh" "$@" </dev/null
}
# value NAME : NAME's value in the last answer.
value() { awk -F'\t' -v n="$1" '$1 == "opt" && $2 == n { print $3 }' "$TEST_TMP/options.out"; }

for s in spike ramp steady cpu footprint serve tune scale; do
	scenario "$s" --help >"$TEST_TMP/help.txt" 2>&1
	check_eq "$s --help: status" 0 $?
	check "$s --help: the text kept in tests/controller/options/help-$s.txt" diff "$F/help-$s.txt" "$TEST_TMP/help.txt"
done
scenario ramp --rate 5000 --calibrate-len 90s --help >"$TEST_TMP/help.txt" 2>&1
check "ramp --help after values: the values are the defaults shown" diff "$F/help-ramp-given.txt" "$TEST_TMP/help.txt"

n=0
while IFS=$'\t' read -r s args; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the case's words
	scenario "$s" $args >/dev/null 2>&1
	check_eq "json case $n ($s $args): status" 99 $?
	check_eq "json case $n: run.json's options" "$(sed -n "${n}p" "$F/json-expected.jsonl")" \
		"$(sed -n 's/^json\t//p' "$TEST_TMP/options.out")"
done <"$F/json-cases.tsv"

n=0
while IFS='|' read -r -a words; do
	n=$((n + 1))
	got=$(scenario "${words[@]}" 2>&1 >/dev/null)
	st=$?
	want=$(awk -v n="== $n" '$0 == n { on = 1; next } /^== / { on = 0 } on' "$F/errors.txt")
	check_eq "error case $n (${words[*]})" "$want" "$(printf 'status %s\n%s' "$st" "$got")"
done <"$F/error-cases.txt"

# what the shell reads: every value, durations in ms, sizes in bytes, numbers in thousandths, the
# names given
scenario spike --spike-len 1.5m --warmup-len=500ms --cache-size 512k --interval-ms 2s --variants glibc \
	--spike-multiple 0.8375 >/dev/null 2>&1
check_eq "0.8375 in thousandths, rounded" 838 "$(value spike_multiple_milli)"
check_eq "the default loss, 0.03, in thousandths" 30 "$(value loss_milli)"
check_eq "1.5m in ms" 90000 "$(value spike_len_ms)"
check_eq "500ms in ms" 500 "$(value warmup_len_ms)"
check_eq "20s in ms" 20000 "$(value baseline_len_ms)"
check_eq "512k in bytes" 524288 "$(value cache_size_bytes)"
check_eq "an ms option with a unit: whole ms" 2000 "$(value interval_ms)"
check_eq "the names given" "cache_size interval_ms spike_len spike_multiple variants warmup_len" \
	"$(awk -F'\t' '$1 == "set" { print $2 }' "$TEST_TMP/options.out" | sort | paste -sd' ')"
check_eq "warm-up rate: twice the baseline" 600 "$(value warmup_rate)"
# --quick: the preset only where not given
scenario spike --quick --spike-len 9s >/dev/null 2>&1
check_eq "--quick: 3 spikes" 3 "$(value spikes)"
check_eq "--quick: the spike length given stays" 9s "$(value spike_len)"
check_eq "--quick: cache 2M" 2097152 "$(value cache_size_bytes)"
check_eq "--quick: warm-up 1500 qps" 1500 "$(value warmup_rate)"
scenario cpu --quick >/dev/null 2>&1
check_eq "cpu --quick: its own count" 1000 "$(value count)"
scenario cpu --quick --count 7 >/dev/null 2>&1
check_eq "cpu --quick --count 7" 7 "$(value count)"
# the latency: M alone (the shell parser stopped on it: an unbound variable), the flat world's
scenario spike --latency-ms 5 >/dev/null 2>&1
check_eq "--latency-ms 5: P99 10 x M" 5,50 "$(value latency_ms)"
scenario spike --world flat --latency-ms 7 >/dev/null 2>&1
check_eq "flat --latency-ms 7: fixed" 7,7 "$(value latency_ms)"
scenario spike --world flat >/dev/null 2>&1
check_eq "flat: its own delay" 20,20 "$(value latency_ms)"
check_eq "flat: no loss" 0 "$(value loss)"
# renamed: the warning, and the value under the new name
out=$(scenario serve --layout=kresd 2>&1 >/dev/null)
check_eq "renamed: the warning" "serve: warning: --layout is now --memory-layout; the old name goes in the next release" "$out"
check_eq "renamed: the value" kresd "$(value memory_layout)"
# a value with spaces is fine; one with a newline or another control character is refused
scenario spike --queries "$TEST_TMP/bin/allocspike-run" --hierarchy-block 127.1.0.0/16 >/dev/null 2>&1
check_eq "a readable file" "$TEST_TMP/bin/allocspike-run" "$(value queries)"
out=$(scenario spike --variants $'a\nb' 2>&1)
check_eq "a newline: status" 2 $?
check "a newline: said" grep -qF -- "spike: --variants: the value holds a control character (a newline" <<<"$out"
# the controller's own command line: a name not in the table is the scenario's mistake
out=$("$RUN" options --scenario x --uses "spikes nope" -- 2>&1)
check_eq "--uses with an unknown name: status" 2 $?
check "--uses with an unknown name: said" grep -qF "'nope'" <<<"$out"
out=$("$RUN" options --scenario x --default nope=1 -- 2>&1)
check_eq "--default with an unknown name: status" 2 $?
out=$("$RUN" options --scenario x 2>&1)
check_eq "no --: status" 2 $?
# tune.sh's and scale.sh's settings: the rest handed back in order, as the shell passed it on (an old name not
# taken passes without a warning: spike.sh gives it), lists checked item by item, refusals, and a
# plan's options kept out of run.json
out=$("$RUN" options --scenario x --uses steps --lists steps --pass-rest -- --spike-len=5s 20 --steps 0.5,2 --layout heap 2>"$TEST_TMP/err")
check_eq "--pass-rest: status" 0 $?
check_eq "--pass-rest: the rest in order, --name=value as two words" $'--spike-len\n5s\n20\n--layout\nheap' "$(sed -n 's/^rest\t//p' <<<"$out")"
check_eq "--pass-rest: no warning for an option passed on" "" "$(cat "$TEST_TMP/err")"
check_eq "--lists: the list's value" 0.5,2 "$(awk -F'\t' '$1 == "opt" && $2 == "steps" { print $3 }' <<<"$out")"
check "a plan's options are not in run.json" bash -c "! grep '^json' <<<\"\$1\" | grep -q steps" _ "$out"
out=$("$RUN" options --scenario x --uses steps --lists steps -- --steps 0.5,,2 2>&1)
check_eq "--lists: an empty item, status" 2 $?
check "--lists: the empty item said" grep -qF -- "x: --steps: '' is not a number above 0" <<<"$out"
out=$("$RUN" options --scenario x --uses steps --refuse "repeat=a reason" -- --repeat=2 2>&1)
check_eq "--refuse: status" 2 $?
check "--refuse: the reason" grep -qxF -- "x: --repeat is not taken: a reason" <<<"$out"
out=$("$RUN" options --scenario x --uses "allocator variants" --one-of allocator,variants -- 2>&1)
check_eq "--one-of: neither, status" 2 $?
check "--one-of: neither, said" grep -qxF -- "x: --allocator or --variants is needed" <<<"$out"
out=$("$RUN" options --scenario x --uses "allocator variants" --one-of allocator,variants -- --allocator a --variants b 2>&1)
check "--one-of: both, said" grep -qxF -- "x: --allocator and --variants exclude each other" <<<"$out"
"$RUN" options --scenario x -- >/dev/null
check_eq "without --uses, every option of a run (no plan's): its defaults pass" 0 $?
out=$("$RUN" options --scenario x --uses steps -- --steps 1 --spike-len 5s 2>&1)
check_eq "without --pass-rest an option not taken is refused" 2 $?
"$RUN" options --help | grep -q -- "--scenario NAME"
check_eq "options --help" 0 $?
finish
