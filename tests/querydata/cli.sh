#!/usr/bin/env bash
# tests/querydata/cli.sh - allocspike-querydata's options and errors; malformed lines reported with their line numbers.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"

printf '%s\n' "# comment" "ok.example.	A" "bad.example.	BOGUS" "" "lonely.example." \
	"x..y.	A" "fine.example.	AAAA" >"$TEST_TMP/q.txt"
"$QD" stats "$TEST_TMP/q.txt" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check_eq "stats exit status with malformed lines" 0 $?
check "line 3 reported" grep -q "q.txt:3: unknown query type" "$TEST_TMP/err"
check "line 5 reported" grep -q "q.txt:5: missing type" "$TEST_TMP/err"
check "line 6 reported" grep -q "q.txt:6: empty label" "$TEST_TMP/err"
check "skipped lines counted" grep -q "queries: 2 (malformed lines skipped: 3)" "$TEST_TMP/out"
gzip -c "$TEST_TMP/q.txt" >"$TEST_TMP/q.gz"
check "stdin and gzip read the same" cmp -s <("$QD" stats --json - <"$TEST_TMP/q.txt" 2>/dev/null | grep -v '"file"') \
	<("$QD" stats --json "$TEST_TMP/q.gz" 2>/dev/null | grep -v '"file"')
"$QD" stats --json --out "$TEST_TMP/stats.json" "$TEST_TMP/q.gz" >"$TEST_TMP/out2" 2>/dev/null
check_eq "stats --out: exit 0" 0 $?
check "stats --out: the same statistics as on stdout" cmp -s "$TEST_TMP/stats.json" \
	<("$QD" stats --json "$TEST_TMP/q.gz" 2>/dev/null)
check "stats --out: nothing on stdout" test ! -s "$TEST_TMP/out2"
check "stats: unwritable --out refused" bash -c "! '$QD' stats --out /nonexistent/dir/s.json '$TEST_TMP/q.txt' 2>/dev/null"

for i in $(seq 1 30); do echo "junk$i.example."; done >"$TEST_TMP/junk.txt"
"$QD" stats "$TEST_TMP/junk.txt" >/dev/null 2>"$TEST_TMP/junk.err"
check_eq "at most 20 malformed lines shown, then a count" 21 "$(wc -l <"$TEST_TMP/junk.err")"
check "the rest counted" grep -q "junk.txt: 10 more malformed lines not shown" "$TEST_TMP/junk.err"

check "missing file: clear error" bash -c "! '$QD' stats '$TEST_TMP/nope.txt' 2>'$TEST_TMP/e1'"
check "error names the file" grep -q "nope.txt: cannot open" "$TEST_TMP/e1"
check "generate needs --seed" bash -c "! '$QD' generate --count 5 2>/dev/null"
check "bad --count refused" bash -c "! '$QD' generate --seed 1 --count 12x 2>'$TEST_TMP/e2'"
check "bad --count names the option" grep -q -- "--count" "$TEST_TMP/e2"
check "extend needs a file" bash -c "! '$QD' extend --count 5 2>/dev/null"
check "unknown subcommand refused" bash -c "! '$QD' frobnicate 2>/dev/null"
check "unwritable -o refused" bash -c "! '$QD' generate --seed 1 --count 5 -o /nonexistent/dir/q.txt 2>/dev/null"
check "--help works" "$QD" --help
finish
