#!/usr/bin/env bash
# tests/reports/test_report_check_untrusted.sh - check and advise on run folders that cannot be
# trusted (docs/check.md, "Limits" and "What check reads"): expressions nested or long enough to
# exhaust a stack are refused, every variant of a 70-variant run is gated, forged summary.json and
# advice.json change nothing, a run without run.json is refused, run-folder strings reach the
# terminal escaped, and a stdout that cannot be written is a failure.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"
run=$TEST_TMP/known
known_run "$run"

# gate WANT_RC DIR EXPR : check exits WANT_RC; stdout and stderr are kept in $OUT.
gate() {
	OUT=$("$REPORT" check "$2" --fail-if "$3" 2>&1)
	check_eq "check ${3:0:60} exits" "$1" "$?"
}

# --- limits: refused with the column, never a crash ---
# the inputs that crashed it (SIGSEGV): refused by their length
gate 2 "$run" "$(printf '(%.0s' {1..3000})spike_count > 1$(printf ')%.0s' {1..3000})"
check "3000 parentheses: refused, the column named" grep -qF 'column 4097: the expression is 6015 bytes long' <<<"$OUT"
gate 2 "$run" "$(printf '!%.0s' {1..40000})run.complete"
check "40000 '!': refused, the column named" grep -qF 'column 4097:' <<<"$OUT"
# within the length, by their depth
gate 2 "$run" "$(printf '(%.0s' {1..1000})spike_count > 1$(printf ')%.0s' {1..1000})"
check "1000 parentheses: the column of the 65th" grep -qF 'column 65: nested deeper than 64 levels' <<<"$OUT"
gate 2 "$run" "$(printf '!%.0s' {1..4000})run.complete"
check "4000 '!': refused at the 65th" grep -qF 'column 65: nested deeper than 64 levels' <<<"$OUT"
gate 2 "$run" "$(printf 'not %.0s' {1..1000})run.complete"
check "1000 'not': refused at the 65th" grep -qF 'column 257: nested deeper' <<<"$OUT"
gate 2 "$run" "spike_count > $(printf -- '-%.0s' {1..3000})1"
check "3000 '-': refused" grep -qF 'column 79: nested deeper than 64 levels' <<<"$OUT"
gate 2 "$run" "$(printf 'max(%.0s' {1..500})final_anon_kb$(printf ')%.0s' {1..500}) > 1"
check "500 nested calls: refused at the 65th" grep -qF 'column 257: nested deeper than 64 levels' <<<"$OUT"
gate 1 "$run" "$(printf '(%.0s' {1..64})spike_count == 3$(printf ')%.0s' {1..64})"
check "64 levels are evaluated" grep -q '^✗ FAIL' <<<"$OUT"
gate 2 "$run" "spike_count > 1 $(printf '+ 1 %.0s' {1..1100})"
check "an expression over 4096 bytes: refused with the column" \
	grep -qF 'column 4097: the expression is 4416 bytes long, longer than the limit of 4096' <<<"$OUT"
gate 0 "$run" "spike_count > 1 $(printf '+ 1 %.0s' {1..1000})"

# --- every variant is gated: 70 variants, only the 70th high ---
many=$TEST_TMP/many
mkdir -p "$many"
: >"$many/events.jsonl"
names=$(for i in $(seq -w 1 70); do echo "v$i"; done)
jq -Rn '{format: 1, status: "completed", variants: [inputs | {name: ., kind: "build", allocator: "glibc"}]}' \
	<<<"$names" >"$many/run.json"
{
	crafted_header
	for t in 1 2 3 4; do
		case $t in 1) p=baseline s=0 ;; 2) p=spike s=1 ;; *) p=recovery s=1 ;; esac
		for v in $names; do
			anon=1000
			[[ $v == v70 ]] && anon=200000
			echo "t_s=$t variant=$v phase=$p spike=$s offered=100 sent=100 answered=100 rss_kb=$((anon + 100)) anon_kb=$anon"
		done
	done | crafted_rows
} >"$many/timeline.csv"
gate 1 "$many" 'any(final_anon_kb) > 100000'
check "the 70th variant is named" grep -qF 'holds for v70: 200000 > 100000' <<<"$OUT"
gate 0 "$many" 'all(final_anon_kb) > 100000'
gate 1 "$many" 'max(final_anon_kb) > 100000'
gate 1 "$many" 'final_anon_kb[v70] > 100000'
gate 1 "$many" 'not (max(final_anon_kb) < 100000) and min(final_anon_kb) == 1000'
list=$("$REPORT" check "$many" "$run" --list 2>&1)
check_eq "advice over a 70-variant run and another: --list exits 0" 0 "$?"

# --- the figures come from the raw run: forged summary.json and advice.json change nothing ---
gate 1 "$run" 'final_anon_kb[alpha] > 20000'
want_valid=$("$REPORT" check "$run" --fail-if 'not validity.valid' >/dev/null 2>&1; echo $?)
jq -n '{format: 1, variant_order: ["alpha", "beta"], validity: {valid: true},
	variants: {alpha: {final_anon_kb: 1}, beta: {final_anon_kb: 1}}}' >"$run/summary.json"
cp "$run/summary.json" "$run/advice.json"
gate 1 "$run" 'final_anon_kb[alpha] > 20000'
check "a forged summary.json: the figure is the timeline's" grep -qF '22528 > 20000' <<<"$OUT"
check_eq "a forged summary.json: not validity.valid as before" "$want_valid" \
	"$("$REPORT" check "$run" --fail-if 'not validity.valid' >/dev/null 2>&1; echo $?)"
gate 1 "$TEST_TMP/known" 'final_anon_kb[alpha] > 20000'

# advise: the same advice with a forged summary.json as without one
adv=$TEST_TMP/adv
mkdir -p "$adv"
rm "$run/summary.json" "$run/advice.json"
"$REPORT" advise "$run" -o "$adv" >/dev/null 2>&1
check_eq "advise of the raw run exits 0" 0 "$?"
honest=$(jq -S .variants "$adv/advice.json")
jq -n '{format: 1, variant_order: ["alpha", "beta"], variants: {alpha: {cpu_s_per_million_answered: 1,
	spikes: [{spike: 1, end_anon_kb: 1, peak_anon_kb: 1}]}, beta: {}}}' >"$run/summary.json"
"$REPORT" advise "$run" -o "$adv" >/dev/null 2>&1
check_eq "advise with a forged summary.json exits 0" 0 "$?"
check_eq "advise: a forged summary.json changes no figure" "$honest" "$(jq -S .variants "$adv/advice.json")"

# check over several runs gates on their advice, computed from the runs
gate 1 "$run" 'advisor.held_after_spikes_mb[alpha] > 0'
OUT=$("$REPORT" check "$run" "$run" --fail-if 'held_after_spikes_mb[alpha] > 0' 2>&1)
check_eq "check over two runs: the advice's figure" 1 "$?"

# a run folder without run.json, or with a dangling link, is refused, advice.json or not
noj=$TEST_TMP/norun
cp -r "$run" "$noj"
rm "$noj/run.json"
cp "$adv/advice.json" "$noj/advice.json"
gate 2 "$noj" 'held_after_spikes_mb[alpha] > 0'
check "the refusal names run.json" grep -qF "$noj/run.json" <<<"$OUT"
ln -s "$TEST_TMP/nowhere.json" "$noj/run.json"
gate 2 "$noj" 'held_after_spikes_mb[alpha] > 0'
check "a dangling link: the refusal names run.json" grep -qF "$noj/run.json" <<<"$OUT"
"$REPORT" advise "$noj" -o "$adv" >/dev/null 2>"$TEST_TMP/err"
check_eq "advise of a folder without run.json exits 2" 2 "$?"
check "advise names run.json" grep -qF "$noj/run.json" "$TEST_TMP/err"

# --- run-folder strings reach the terminal escaped ---
evil=$TEST_TMP/evil
cp -r "$run" "$evil"
rm -f "$evil/summary.json"
name=$'alpha\e[1A\e[2K'
sed -i "s/^\([0-9.]*\),alpha,/\1,$name,/" "$evil/timeline.csv"
jq -c --arg n "$name" 'if .variant == "alpha" then .variant = $n else . end' "$evil/events.jsonl" >"$TEST_TMP/e" &&
	mv "$TEST_TMP/e" "$evil/events.jsonl"
jq --arg n "$name" --arg s $'completed\e[2K' '.status = $s | .variants[0].name = $n' "$evil/run.json" >"$TEST_TMP/r" &&
	mv "$TEST_TMP/r" "$evil/run.json"
for expr in 'any(final_anon_kb) > 20000' 'final_anon_kb[alpha] > 1' 'nosuch_figure > 1'; do
	OUT=$("$REPORT" check "$evil" --fail-if "$expr" 2>&1)
	check "check ${expr}: no escape character reaches the terminal" bash -c '! grep -q $'"'"'\e'"'"' <<<"$1"' _ "$OUT"
done
# the reader refuses such a name (docs/run-folder.md, "Limits"), naming the byte, not printing it
OUT=$("$REPORT" check "$evil" --fail-if 'any(final_anon_kb) > 20000' 2>&1)
check "the variant's name is refused, its byte named" grep -qF 'byte 0x1b at position 6 of a name' <<<"$OUT"
# a run's status is free text: it reaches the terminal escaped
status=$TEST_TMP/status
cp -r "$run" "$status"
rm -f "$status/summary.json"
jq --arg s $'completed\e[2K' '.status = $s' "$status/run.json" >"$TEST_TMP/r" && mv "$TEST_TMP/r" "$status/run.json"
OUT=$("$REPORT" check "$status" --fail-if 'any(final_anon_kb) > 20000' 2>&1)
check "check with an escape in the status: none reaches the terminal" bash -c '! grep -q $'"'"'\e'"'"' <<<"$1"' _ "$OUT"
check "the run's status is shown escaped" grep -qF 'status is "completed\x1b[2K"' <<<"$OUT"
OUT=$("$REPORT" check "$evil" --list 2>&1)
check "--list: no escape character" bash -c '! grep -q $'"'"'\e'"'"' <<<"$1"' _ "$OUT"
OUT=$("$REPORT" advise "$evil" -o "$adv" 2>&1)
check "advise: no escape character" bash -c '! grep -q $'"'"'\e'"'"' <<<"$1"' _ "$OUT"

# --- a stdout that cannot be written is a failure (exit 1) ---
if [[ -w /dev/full ]]; then
	"$REPORT" check "$run" --list >/dev/full 2>"$TEST_TMP/err"
	check_eq "check --list >/dev/full exits 1" 1 "$?"
	check "it says so" grep -qF 'cannot write standard output' "$TEST_TMP/err"
	"$REPORT" check "$run" --fail-if 'spike_count > 5' >/dev/full 2>/dev/null
	check_eq "a passing check >/dev/full exits 1" 1 "$?"
	"$REPORT" --help >/dev/full 2>/dev/null
	check_eq "--help >/dev/full exits 1" 1 "$?"
fi
finish
