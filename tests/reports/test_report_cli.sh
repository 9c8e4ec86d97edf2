#!/usr/bin/env bash
# tests/reports/test_report_cli.sh - allocspike-report's command line keeps what --help says:
# scale takes --out, an unreadable run folder is exit 2 for every subcommand, and a standard
# output that cannot be written is exit 1 for every subcommand.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"
known_run "$TEST_TMP/a"
known_run "$TEST_TMP/b"

# scale --out FILE, as --help documents it (and -o, its short form)
check "--help documents scale --out" grep -qF 'scale RUN_DIR RUN_DIR... [--out FILE]' <("$REPORT" --help)
out=$("$REPORT" scale "$TEST_TMP/a" "$TEST_TMP/b" --out "$TEST_TMP/s.html" 2>"$TEST_TMP/err")
check_eq "scale --out exits 0" 0 "$?"
check_eq "scale --out prints the page's path" "$TEST_TMP/s.html" "$out"
check "scale --out writes the page" test -s "$TEST_TMP/s.html"
check "scale --out writes scale.json beside it" test -s "$TEST_TMP/s.json"
"$REPORT" scale "$TEST_TMP/a" "$TEST_TMP/b" -o "$TEST_TMP/t.html" >/dev/null 2>&1
check_eq "scale -o exits 0" 0 "$?"

# an unreadable run folder: exit 2 (usage or unreadable input), naming it
for cmd in knee harness "warmup --cap-bytes 100" check report scale advise; do
	case $cmd in
	check) args=(check "$TEST_TMP/none" --fail-if 'spike_count > 1') ;;
	report) args=("$TEST_TMP/none") ;;
	scale) args=(scale "$TEST_TMP/none" "$TEST_TMP/a" -o "$TEST_TMP/u.html") ;;
	advise) args=(advise "$TEST_TMP/none" -o "$TEST_TMP") ;;
	warmup*) args=(warmup "$TEST_TMP/none" --cap-bytes 100) ;;
	*) args=("$cmd" "$TEST_TMP/none") ;;
	esac
	"$REPORT" "${args[@]}" >/dev/null 2>"$TEST_TMP/err"
	check_eq "$cmd of a missing folder exits 2" 2 "$?"
	check "$cmd names the folder" grep -qF "$TEST_TMP/none" "$TEST_TMP/err"
done

# standard output that cannot be written: exit 1, said on stderr, for every subcommand
[[ -w /dev/full ]] || skip "no /dev/full"
for cmd in "--help" "check --list" "check --fail-if" knee harness warmup event report compare scale advise; do
	case $cmd in
	--help) args=(--help) ;;
	"check --list") args=(check "$TEST_TMP/a" --list) ;;
	"check --fail-if") args=(check "$TEST_TMP/a" --fail-if 'spike_count > 5') ;;
	warmup) args=(warmup "$TEST_TMP/a" --cap-bytes 100) ;;
	event) args=(event alpha started) ;;
	report) args=("$TEST_TMP/a") ;;
	compare) args=(compare "$TEST_TMP/a" "$TEST_TMP/b" --out "$TEST_TMP/c.html") ;;
	scale) args=(scale "$TEST_TMP/a" "$TEST_TMP/b" --out "$TEST_TMP/s.html") ;;
	advise) args=(advise "$TEST_TMP/a" --out "$TEST_TMP") ;;
	*) args=("$cmd" "$TEST_TMP/a") ;;
	esac
	"$REPORT" "${args[@]}" >/dev/full 2>"$TEST_TMP/err"
	check_eq "$cmd >/dev/full exits 1" 1 "$?"
	check "$cmd >/dev/full says so" grep -qF 'allocspike-report: cannot write standard output' "$TEST_TMP/err"
done
# check with both --fail-if and --list: one line saying so and the command's forms, not the whole usage
"$REPORT" check "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" --fail-if 'x > 1' --list \
	>/dev/null 2>"$TEST_TMP/both.err"
check_eq "check --fail-if with --list: usage status" 2 "$?"
check "says --list takes no --fail-if" grep -q -- '--list takes no --fail-if' "$TEST_TMP/both.err"
check_eq "and shows check's two forms only" 3 "$(wc -l <"$TEST_TMP/both.err")"

finish
