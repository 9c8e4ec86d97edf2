#!/usr/bin/env bash
# tests/reports/summary_paths.sh - every key path summary.json had before the report's figures were
# renamed (summary_paths_v1.txt, written by the report of that time over the same three runs) is
# still there: a renamed figure keeps its old name as an alias (summary.json "aliases").
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/attributed_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v jq >/dev/null || skip "jq not installed"

cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$TEST_TMP/fixture"
known_run "$TEST_TMP/known"
attributed_run "$TEST_TMP/attributed"
for r in fixture known attributed; do
	"$REPORT" "$TEST_TMP/$r" >/dev/null
done
now=$(jq -r -f "$ALLOCSPIKE_SOURCE_DIR/tests/reports/summary_paths.jq" "$TEST_TMP"/{fixture,known,attributed}/summary.json | sort -u)
gone=$(comm -23 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/summary_paths_v1.txt" <(echo "$now"))
check "every key path of summary.json v1 is still there${gone:+ (gone: $(head -5 <<<"$gone" | tr '\n' ' '))}" test -z "$gone"
aliases=$(jq -r '.aliases | keys[]' "$TEST_TMP/known/summary.json")
check "summary.json lists its aliases" test -n "$aliases"
for a in $aliases; do
	path=${a/spikes.N./spikes.N.}
	check "alias $a is a key path" grep -qx "variants.NAME.$path" <<<"$now"
done
finish
