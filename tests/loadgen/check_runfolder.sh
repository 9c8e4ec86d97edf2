#!/bin/bash
# tests/loadgen/check_runfolder.sh - checks a run folder's timeline.csv and events.jsonl against
# docs/run-folder.md: header columns (from common/timeline_columns.h), cell types, t_s increasing
# per variant (or starting again, for serial runs), one JSON object per events line. Usage: check_runfolder.sh RUN_DIR; exit 0 if valid.
set -u
dir=${1:?usage: check_runfolder.sh RUN_DIR}
src=${ALLOCSPIKE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
errors=0
fail() {
	echo "check_runfolder: $*" >&2
	errors=$((errors + 1))
}

# The one column list, read from the header that defines it.
columns=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\)).*/\1/p' "$src/common/timeline_columns.h" | paste -sd, -)
[[ -n "$columns" ]] || fail "no columns found in $src/common/timeline_columns.h"

tl="$dir/timeline.csv"
if [[ ! -s "$tl" ]]; then
	fail "$tl: missing or empty"
else
	header=$(head -1 "$tl" | tr -d '\r')
	# more columns may be appended after the contract's, never before or between
	[[ "$header" == "$columns" || "$header" == "$columns",* ]] ||
		fail "$tl:1: header is not the contract's columns in order: $header"
	awk -F, -v file="$tl" '
	NR == 1 {
		n = NF
		for (i = 1; i <= NF; i++) {
			col[i] = $i
			if ($i == "alloc_heap_bytes") heap = i
			if ($i == "alloc_free_trimmable_bytes") trim = i
			if ($i == "alloc_free_fragmented_bytes") frag = i
		}
		next
	}
	{
		where = file ":" NR ": "
		if (NF != n) { print where NF " cells, the header has " n; bad++; next }
		if ($1 !~ /^-?[0-9]+(\.[0-9]+)?$/) { print where "t_s \"" $1 "\" is not a number"; bad++ }
		if ($2 == "") { print where "empty variant"; bad++ }
		if ($3 !~ /^(warmup|baseline|spike|recovery|calibrate|zero)$/) { print where "phase \"" $3 "\" unknown"; bad++ }
		if ($4 !~ /^[0-9]+$/) { print where "spike \"" $4 "\" is not a whole number"; bad++ }
		for (i = 5; i <= NF; i++) {
			if ($i == "") continue
			if ($i !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) { print where col[i] " \"" $i "\" is not a number"; bad++; continue }
			if (col[i] ~ /^(offered|sent|answered|timeouts|noerror|nxdomain|servfail|rcode_other)$/ && $i !~ /^[0-9]+$/) {
				print where col[i] " \"" $i "\" is not a count"; bad++
			}
		}
		# memory attribution (docs/allocator-stats.md): the free kinds lie inside the allocator heap
		if (heap && $heap != "" && (($trim != "" && $trim > $heap) || ($frag != "" && $frag > $heap) ||
		    ($trim != "" && $frag != "" && $trim + $frag > $heap))) {
			print where "free trimmable " $trim " + fragmented " $frag " exceed alloc_heap_bytes " $heap; bad++
		}
		# t_s increases per variant; it may start again from its first value: serial runs append
		# one schedule after another, each from t=0
		if (($2 in last) && $1 + 0 <= last[$2] && $1 + 0 > first[$2] + 1e-9) { print where "t_s " $1 " of " $2 " does not follow " last[$2]; bad++ }
		if (!($2 in first)) first[$2] = $1 + 0
		last[$2] = $1 + 0
		rows++
	}
	END {
		if (rows == 0) { print file ": no rows"; bad++ }
		exit bad > 0
	}' "$tl" >&2 || fail "$tl: see above"
fi

ev="$dir/events.jsonl"
if [[ ! -s "$ev" ]]; then
	fail "$ev: missing or empty"
elif ! command -v jq >/dev/null; then
	fail "jq not installed (scripts/packages.txt)"
else
	# one jq for the whole file: a line that is not JSON stops it with its line number
	bad=$(jq -r 'if type == "object" and (.t_s | type == "number") and (.variant | type == "string")
		and (.event | type == "string")
		and (if .event == "phase" then (.phase | type == "string") and (.spike | type == "number") else true end)
		then empty else "line \(input_line_number): not an event with t_s, variant and event: \(tojson)" end' "$ev" 2>&1)
	rc=$?
	[[ $rc == 0 && -z "$bad" ]] || fail "$ev: $bad"
fi
((errors == 0))
