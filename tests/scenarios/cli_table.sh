#!/bin/bash
# tests/scenarios/cli_table.sh - every program and every scenario, table-driven: an unknown flag and a
# malformed value (a duration where the program has one) exit 2 with the option named; nothing runs.
# Also: the per-scenario --help lists only what the scenario uses, and the resolver says what is
# missing. (docs/cli.md)
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
B=$ALLOCSPIKE_BIN
S=$ALLOCSPIKE_SOURCE_DIR/scenarios
cd "$TEST_TMP"
echo "example.com A" >q.txt
resolver=
for exe in "$B"/allocspike-resolver-*; do
	[[ -x $exe ]] && { resolver=$exe; break; }
done
[[ -n $resolver && -x $B/allocspike-loadgen && -x $B/allocspike-report ]] || skip "programs not built"

# Each row: EXPECTED_STATUS|TEXT_ON_STDERR|COMMAND... (words split on blanks).
table=$(
	cat <<ROWS
2|--no-such-flag|$B/allocspike-loadgen --no-such-flag
2|-l: '10x' is not a duration|$B/allocspike-loadgen -d q.txt -s 127.0.0.1 -Q 10 -l 10x
2|--interval-ms: '1.5q' is not a duration|$B/allocspike-loadgen -d q.txt -s 127.0.0.1 -Q 10 --interval-ms 1.5q
2|--schedule: schedule column 11|$B/allocspike-loadgen -d q.txt -s 127.0.0.1 --schedule baseline:1@10
2|no-such-flag|$B/allocspike-upstream --no-such-flag
2|--attempt-window: '5x' is not a duration|$B/allocspike-upstream --attempt-window 5x
2|--latency-ms: 'fast' is not a duration|$B/allocspike-upstream --latency-ms fast
2|--servers '4:24:96x': expected R:T:S|$B/allocspike-upstream --servers 4:24:96x
2|no-such-flag|$resolver --no-such-flag
2|--upstream-timeout-ms: '5x' is not a duration|$resolver --listen 127.0.0.1:0 --root 127.0.0.1 --upstream-timeout-ms 5x
2|--cache-size: 'lots' is not a size|$resolver --listen 127.0.0.1:0 --root 127.0.0.1 --cache-size lots
2|give --root ADDR[:PORT] or --root-hints FILE|$resolver --listen 127.0.0.1:0
2|--listen ADDR:PORT is required|$resolver --root 127.0.0.1
2|usage:|$B/allocspike-report --no-such-flag
2|unexpected argument|$B/allocspike-report compare --no-such-flag
2|two or more run folders|$B/allocspike-report compare $ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal --out c.html
2|give the new runs after --baseline OLD|$B/allocspike-report compare --baseline $ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal --out c.html
2|--baseline is given twice|$B/allocspike-report check $ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal --fail-if spike_count>1 --baseline x --baseline y
2|--margin-mb: 'x' is not a number|$B/allocspike-report advise $ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal --margin-mb x
2|unexpected argument|$B/allocspike-report check $ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal --no-such-flag
2|no-such-flag|$B/allocspike-querydata generate --no-such-flag
2|--count: 'x' is not a whole number|$B/allocspike-querydata generate --seed 1 --count x
ROWS
)
for s in spike ramp steady cpu footprint; do
	table+=$'\n'"2|unknown option '--no-such-flag'|bash $S/$s.sh --no-such-flag"
	table+=$'\n'"2|--interval-ms: '10x' is not a duration|bash $S/$s.sh --interval-ms 10x"
	table+=$'\n'"2|needs a value|bash $S/$s.sh --interval-ms"
done
for s in spike ramp steady footprint; do
	table+=$'\n'"2|--warmup-len: '20' is not a duration|bash $S/$s.sh --warmup-len 20"
	table+=$'\n'"2|--warmup-len: '1.5q' is not a duration|bash $S/$s.sh --warmup-len 1.5q"
done
# serve.sh and tune.sh; old names still read, with a warning naming the new one; options of another
# scenario are refused, not ignored
table+=$'\n'$(
	cat <<ROWS
2|unknown option '--no-such-flag'|bash $S/serve.sh --no-such-flag
2|--port: '99999' is out of range|bash $S/serve.sh --port 99999
2|warning: --layout is now --memory-layout|bash $S/serve.sh --layout tree
2|warning: --block is now --hierarchy-block|bash $S/serve.sh --block 10.0.0.0
0|warning: --output is now --out|$B/allocspike-querydata generate --seed 1 --count 3 --output q2.txt
2|--no-such-flag|bash $S/tune.sh --allocator glibc --no-such-flag
2|unknown option '--no-such-flag'|bash $S/scale.sh --no-such-flag
2|--plan needs --schedule|$B/allocspike-loadgen --plan
2|--schedule: schedule column 1|$B/allocspike-loadgen --plan --schedule x
2|--spike-len: '20' is not a duration|bash $S/tune.sh --allocator glibc --spike-len 20
2|'--count' does not apply to spike.sh|bash $S/spike.sh --count 5
2|'--rate' does not apply to spike.sh|bash $S/spike.sh --rate 5
2|'--tools' does not apply to spike.sh|bash $S/spike.sh --tools perf
2|'--spikes' does not apply to steady.sh|bash $S/steady.sh --spikes 3
2|'--warmup-len' does not apply to cpu.sh|bash $S/cpu.sh --warmup-len 20s
ROWS
)

while IFS='|' read -r want said cmd; do
	[[ -n $cmd ]] || continue
	# shellcheck disable=SC2086 # the command's words
	timeout 20 $cmd </dev/null >out.txt 2>err.txt
	rc=$?
	check_eq "$cmd: status" "$want" "$rc"
	check "$cmd: says \"$said\" ($(head -c 160 err.txt | tr '\n' ' '))" grep -qF -- "$said" err.txt
done <<<"$table"

# per-scenario --help: only the scenario's options, with its true defaults
help=$(bash "$S/spike.sh" --help)
check "querydata's old --output wrote its file" test -s q2.txt
check "spike --help lists --spike-len" grep -q -- '--spike-len' <<<"$help"
check "spike --help lists --query-seed" grep -q -- '--query-seed' <<<"$help"
check "spike --help lists --world" grep -q -- '--world NAME' <<<"$help"
for opt in --count --rate --tools --variant --port; do
	check "spike --help does not list $opt" bash -c "! grep -qE -- '^ +$opt ' <<<\"\$1\"" _ "$help"
done
help=$(bash "$S/ramp.sh" --help)
check "ramp: the header's ramp length is the list's" grep -q -- '--calibrate-len DUR .*(default: 60s)' <<<"$help"
check "ramp: header says 60s" grep -q 'over --calibrate-len (default' <<<"$help"
check "ramp: header and list agree" bash -c "grep -A1 'over --calibrate-len (default' <<<\"\$1\" | grep -q '60s'" _ "$help"
help=$(bash "$S/cpu.sh" --help)
check "cpu --help lists --tools" grep -q -- '--tools' <<<"$help"
check "cpu --help does not list --spikes" bash -c "! grep -qE -- '^ +--spikes ' <<<\"\$1\"" _ "$help"
# the help wraps at a width, where depends on the checkout's path: read it as one line
help=$(bash "$S/steady.sh" --help | tr -s ' \n' ' ')
check "steady: --out default is the folder made" grep -qE -- "runs/<UTC ?YYYYmmdd-HHMMSS>-steady" <<<"$help"
finish
