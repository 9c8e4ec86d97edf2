#!/bin/bash
# tests/controller/drive.sh - a served run's `drive` (docs/controller.md, "One schedule over rows:
# drive"): one schedule over a group of rows as one held request. Stand-in rows (one never ready), a
# stand-in generator and a stand-in process run during the schedule: the row never ready said,
# stopped and left out while the other is driven; a wrap before a row, the during process given a
# word per ready row (its preloaded sampler, its control socket), the generator's targets, the
# answer, everything stopped after (requested exits); stop-child; no row ready (`none`); a drive
# held while another is asked (refused) and answered after stop-all; a drive whose client went
# dropped; serial: a group per row, each on a new clock, the rest left after a failed generator; the
# refusals of bad words (place= among them). Then `calibrate` ("The calibration"), with a stand-in generator writing the
# ramp a row of a given capacity gives: its passes (each a serial drive) extended until the slowest
# stops keeping up, recorded and said; the bound on extensions; no row ready; two refusals.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
served_controller_test
BIN=$TEST_TMP/bin R=$TEST_TMP/run
mapfile -t setup < <(stand_in_rows "$TEST_TMP" alpha beta gamma) # three build rows
touch never-ready-gamma
# A stand-in process run during the schedule: its words, then until stopped.
printf '#!/bin/bash\nprintf "%%s\\n" "$@" >"${0%%/bin/*}/args-during"\nexec sleep 300\n' >"$BIN/during"
chmod +x "$BIN/during"
LG=$BIN/allocspike-loadgen
stand_in_loadgen "$LG" 0 0

SOCK=$TEST_TMP/ctl/run.sock
ask() { "$RUN" ask "$SOCK" "$@"; }
serve_begin "$SOCK" drive "$R"
ask runjson-set .variants '[{"name":"alpha"},{"name":"beta"},{"name":"gamma"}]' >/dev/null
ask runjson-set .parameters.options '{"interval_ms":"50","timeout_ms":"","clients":"0","client_count":"1","tcp_share":"0","dot_share":"0","tcp_idle":"5s"}' >/dev/null
ask rows-setup "${setup[@]}" >/dev/null

# the refusals: each said, nothing started
drive() { ask drive "$R" S "$LG" "$R/q" "" "" "$@"; }
refused() { # WHAT PATTERN DRIVE-WORDS...
	local what=$1 pattern=$2
	shift 2
	drive "$@" 2>err.txt
	check "$what: refused" grep -q -- "$pattern" err.txt
}
refused "no rows" "drive DIR SCHEDULE LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT" 1s --
refused "no --" "drive DIR SCHEDULE" 1s alpha
refused "a TIMEOUT that is no duration" "drive TIMEOUT" soon -- alpha
refused "an unknown option" "'color=red' is no option (wrap=ROW:WORDS" 1s color=red -- alpha
refused "a wrap of a row not driven" "wrap=ROW:WORDS of one of the rows given" 1s wrap=gamma:env -- alpha
refused "a wrap without words" "wrap=ROW:WORDS" 1s wrap=alpha: -- alpha
refused "a during without its command" "during=NAME, LOG and COMMAND" 1s "during=_poll"$'\n'"$R/logs/poll.log" -- alpha
refused "a stop-child that is no duration" "drive stop-child" 1s stop-child=x -- alpha
refused "a row that is no name" "drive: ROW:" 1s -- ../alpha
refused "a place without words" "place=WORDS, allocspike-run place's options one a line" 1s place= -- alpha
refused "a place with serial" "place= goes without serial, during= and stop-child=" 1s \
	"place=--hosts"$'\n'"h" serial -- alpha
check_eq "nothing started by the refusals" '{"started":0,"running":0}' "$(ask stats)"

# gamma never ready: said, stopped, left out; alpha driven with its wrap, the during process given
# alpha's sampler (its wrap's ALLOCSPIKE_SAMPLER_SOCKET) and control socket, stopped through its child
wrap=$(printf '%s\n' env ALLOCSPIKE_SAMPLER_SOCKET=/tmp/alpha.sizes.sock DRIVE_MARK=1)
during=$(printf '%s\n' _poll "$R/logs/poll.log" "$BIN/during" out 0.5)
out=$(drive 1s "wrap=alpha:$wrap" "during=$during" stop-child=1s -- gamma alpha)
check "drive: ok ORIGIN STATUS and the row driven" grep -qE '^ok [0-9]+\.250000 0 alpha$' <<<"$out"
check "the row never ready: said" grep -q "variant gamma did not become ready (see $R/logs/gamma.log); the run goes on without it" controller.err
check "its failed exit recorded, asked" jq -se 'any(.[]; .variant == "gamma" and .event == "exited" and .requested == true)' "$R/events.jsonl"
check "the wrap before the row: its environment" grep -qx DRIVE_MARK=1 env-alpha
check_eq "the during process: its words and one per ready row" \
	"out 0.5 alpha=/tmp/alpha.sizes.sock,$TEST_TMP/ctl/alpha.sock" "$(paste -sd' ' args-during)"
check "the generator against the ready row alone" grep -q -- "^name=alpha,addr=127.0.0.1:5353," <(grep -A1 -x -- --target args-loadgen | tail -1)
check_eq "one target" 1 "$(grep -cx -- --target args-loadgen)"
check "said: the generator running" grep -q "drive: generator running: S" controller.err
for name in alpha _poll; do
	check "$name stopped after the generator, asked" jq -se --arg n "$name" \
		'any(.[]; .variant == $n and .event == "exited" and .requested == true)' "$R/events.jsonl"
done
check_eq "nothing left running" 0 "$(ask stats | jq .running)"
check "the generator's exit recorded" jq -se 'any(.[]; .variant == "_loadgen" and .event == "exited" and .code == 0)' "$R/events.jsonl"

# no row ready: the answer says so
check_eq "no row ready: none" none "$(drive 0.3s -- gamma)"

# a drive held (the generator holds): a second one refused; stop-all (finish's) answers it with the
# generator's signal
ask drive "$R" hold "$LG" "$R/q" "" "" 5s -- alpha >held.txt &
held=$!
wait_until 10 grep -qx -- hold args-loadgen 2>/dev/null
drive 1s -- alpha 2>err.txt
check "a second drive while one runs: refused" grep -q "drive: one is running" err.txt
ask stop-all >/dev/null
wait "$held"
check "stop-all answers the held drive: SIGTERM's status" grep -qE '^ok [0-9.]+ 143 alpha$' held.txt
check_eq "a drive after it: taken again" none "$(drive 0.3s -- gamma)"

# the client gone while its drive waits for its rows (the scenario's Ctrl-C: procs_finish kills its
# ask): the drive dropped, the next one taken; what it started is stopped by the run's end (finish's
# stop-all)
"$RUN" ask "$SOCK" drive "$R" S "$LG" "$R/q" "" "" 30s -- gamma >/dev/null 2>&1 &
asker=$!
gamma_pid=$(wait_until 10 bash -c "jq -se '[.[] | select(.variant == \"gamma\" and .event == \"started\")] | length == 4' '$R/events.jsonl' >/dev/null" &&
	jq -s '[.[] | select(.variant == "gamma" and .event == "started")] | last | .pid' "$R/events.jsonl")
kill -KILL "$asker"
wait "$asker" 2>/dev/null
check "a drive after one whose client went: taken" grep -qE '^ok [0-9.]+ 0 alpha$' <<<"$(drive 5s -- alpha)"
ask stop-all >/dev/null
check "the dropped drive's row stopped by stop-all" jq -se --argjson p "${gamma_pid:-0}" \
	'any(.[]; .variant == "gamma" and .event == "exited" and .pid == $p and .requested)' "$R/events.jsonl"

# serial: one row at a time (gamma never ready left out, the next taken), each started on a new
# clock (its `started` event near t=0, not after the row before it); the answer names every row driven
out=$(drive 1s serial -- alpha gamma beta)
check "serial: ok ORIGIN STATUS and the rows driven" grep -qE '^ok [0-9]+\.250000 0 alpha beta$' <<<"$out"
check "serial: alpha stopped before beta started" jq -se '
	([.[] | select(.variant == "alpha" and .event == "exited")] | last | .unix_s) <=
	([.[] | select(.variant == "beta" and .event == "started")] | last | .unix_s)' "$R/events.jsonl"
for name in alpha beta; do
	check "serial: $name started on its own clock" jq -se --arg n "$name" \
		'[.[] | select(.variant == $n and .event == "started")] | last | .t_s < 1' "$R/events.jsonl"
done
check_eq "serial: beta's generator against beta alone" "name=beta" \
	"$(grep -A1 -x -- --target args-loadgen | tail -1 | cut -d, -f1)"
# a generator that fails ends a serial drive: its status answered, the rows after it not driven
stand_in_loadgen "$BIN/lg-fail" 0 3
out=$(ask drive "$R" S "$BIN/lg-fail" "$R/q" "" "" 1s serial -- alpha beta)
check "serial: a failed generator's status, the rows after it left" grep -qE '^ok [0-9.]+ 3 alpha$' <<<"$out"
check_eq "nothing left running" 0 "$(ask stats | jq .running)"

# --- calibrate: the calibration's passes, each a drive ---
# A stand-in generator: the ramp a row of its capacity gives (capacities).
printf '%s\n' alpha=15000 beta=40000 >capacities
stand_in_ramp_loadgen "$BIN/lg-ramp"
ask runjson-set .parameters.options '{"interval_ms":"50","timeout_ms":"","clients":"0","client_count":"1","tcp_share":"0","dot_share":"0","tcp_idle":"5s","calibrate_len":"10s","baseline_rate":"300"}' >/dev/null
calibrate() { ask calibrate "$R" 1.2 3 6000 "$BIN/lg-ramp" "$R/q" "" "" "$@"; }
calibrate 1s -- 2>err.txt
check "calibrate without rows: the form said" grep -q "calibrate RUN MULTIPLE EXTENSIONS TOP LOADGEN" err.txt
ask calibrate "$R" many 3 6000 "$BIN/lg-ramp" "$R/q" "" "" 1s -- alpha 2>err.txt
check "calibrate with a MULTIPLE that is no number: refused" grep -q "error: calibrate: MULTIPLE" err.txt
check "nothing ramped by the refusals" test ! -e schedules
# alpha keeps up to 15000, beta to 40000: ramped to 6000 (both), 12000 (both), 24000 (both: alpha stops
# keeping up there), each pass in its folder with its own events, gamma never ready left out
wrap=$(printf '%s\n' env CAL_MARK=1)
out=$(calibrate 1s "wrap=gamma:$wrap" serial -- alpha beta gamma)
read -r word rate capacity slowest limit <<<"$out"
check_eq "calibrate: decided" rate "$word"
check_eq "calibrate: the slowest" alpha "$slowest"
check "its capacity past 12000, at most 15000: $capacity" test "${capacity:-0}" -gt 12000 -a "${capacity:-0}" -le 15000
check_eq "spikes at 1.2 x its capacity" "$(awk -v k="${capacity:-0}" 'BEGIN { printf "%d", k * 1.2 }')" "$rate"
check_eq "ramps: 6000, 12000, 24000, serial: one generator per row" \
	"6000 6000 12000 12000 24000 24000" "$(sed 's/.*\.\.//' schedules | paste -sd' ')"
check_eq "passes recorded" '["calibration","calibration/extend-1","calibration/extend-2"]' "$(jq -c '[.calibration.passes[].folder]' "$R/run.json")"
check "the schedule made from run.json's options" jq_true '.calibration.schedule == "calibrate:10s@300..6000"' "$R/run.json"
for f in calibration calibration/extend-1 calibration/extend-2; do
	check "$f: its timeline and its own events" jq -se 'any(.[]; .variant == "alpha" and .event == "started")' "$R/$f/events.jsonl"
done
check "the calibrated event in the run's events" jq -se 'any(.[]; .event == "calibrated" and .variant == "_scenario")' "$R/events.jsonl"
check "said: each ramp" grep -q "drive: calibrating the spike height: calibrate:10s@300..24000" controller.err
check "said: the extension" grep -q "drive: calibration: alpha beta still answered at the top; ramping again to 12000 qps" controller.err
check "gamma left out of the first pass, not ramped again" test ! -e "$R/calibration/extend-1/logs/gamma.log"
check_eq "nothing left running" 0 "$(ask stats | jq .running)"
# bounded: rows that never stop keeping up end after EXTENSIONS passes, said
printf '%s\n' alpha=10000000 >capacities
rm -rf "$R/calibration" schedules
out=$(calibrate 1s -- alpha)
check "at the limit: said in the answer" grep -qE '^rate [0-9]+ [0-9]+ alpha at-limit$' <<<"$out"
check_eq "1 + EXTENSIONS ramps" 4 "$(wc -l <schedules)"
check "said: its capacity is at least the top" grep -q "drive: calibration: every variant still answered at 48000 qps after 3 extensions" controller.err
# no row ready: an error, said
rm -rf "$R/calibration"
calibrate 0.3s -- gamma 2>err.txt
check "no row ready: refused, said" grep -q "error: calibrate: no variant became ready (see $R/calibration/logs/)" err.txt

ask shutdown >/dev/null
finish
