#!/bin/bash
# tests/loadgen/check_runfolder.sh - checks a run folder's timeline.csv and events.jsonl against
# docs/run-folder.md: header columns (from common/timeline_columns.h), cell types, t_s increasing
# per variant (or starting again, for serial runs), one JSON object per events line; and when
# phases.csv is there, its counts (sent = answered + timeouts + pending, rcodes = answered, the
# totals per variant equal the timeline's) and its quantiles against latency_hist.csv. Usage: check_runfolder.sh RUN_DIR; exit 0 if valid.
set -u
dir=${1:?usage: check_runfolder.sh RUN_DIR}
src=${ALLOCSPIKE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
errors=0
fail() {
	echo "check_runfolder: $*" >&2
	errors=$((errors + 1))
}

# The one column list, read from the header that defines it.
columns=$(sed -n '/^#define TIMELINE_COLUMNS(X)/,/^[^\\]*$/ s/^[[:space:]]*X(\([a-z0-9_]*\)).*/\1/p' \
	"$src/common/timeline_columns.h" | paste -sd, -)
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

ph="$dir/phases.csv" lh="$dir/latency_hist.csv"
phases_header="variant,phase,spike,sent,answered,timeouts,pending,late_or_foreign,noerror,nxdomain,servfail,rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,lat_p999_ms,lat_max_ms"
if [[ -e "$ph" || -e "$lh" ]]; then
	[[ "$(head -1 "$ph" 2>/dev/null)" == "$phases_header" ]] || fail "$ph:1: not the contract's header"
	[[ "$(head -1 "$lh" 2>/dev/null)" == "variant,phase,spike,upper_us,count" ]] || fail "$lh:1: not the contract's header"
	# Quantile q of an instance lies in the bucket holding its rank ceil(q * answered): above the
	# previous non-empty bucket's upper edge, at most its own (cells are rounded to the microsecond).
	awk -F, -v phfile="$ph" '
	FNR == 1 { file++; next }
	file == 1 { # latency_hist.csv
		key = $1 "," $2 "," $3
		if ($4 !~ /^[0-9]+(\.[0-9]+)?$/ || $5 !~ /^[1-9][0-9]*$/) { print FILENAME ":" FNR ": bad bucket row"; bad++; next }
		if ((key in nb) && $4 + 0 <= up[key, nb[key]]) { print FILENAME ":" FNR ": upper_us not increasing"; bad++ }
		nb[key]++; up[key, nb[key]] = $4 + 0; cnt[key, nb[key]] = $5 + 0; total[key] += $5
		next
	}
	file == 2 { # phases.csv
		where = FILENAME ":" FNR ": "; key = $1 "," $2 "," $3
		if (NF != 17) { print where NF " cells, not 17"; bad++; next }
		for (i = 3; i <= 12; i++) if ($i !~ /^[0-9]+$/) { print where "cell " i " \"" $i "\" is not a count"; bad++ }
		if ($4 != $5 + $6 + $7) { print where "sent " $4 " != answered + timeouts + pending"; bad++ }
		if ($5 != $9 + $10 + $11 + $12) { print where "the rcodes do not add up to answered " $5; bad++ }
		if ($5 + 0 != total[key] + 0) { print where "answered " $5 " but " total[key] + 0 " in latency_hist.csv"; bad++ }
		if ($5 == 0) {
			if ($13 $14 $15 $16 $17 != "") { print where "latency cells without answers"; bad++ }
		} else {
			split("0.5 0.9 0.99 0.999", q, " ")
			for (j = 1; j <= 4; j++) {
				rank = q[j] * $5; if (rank > int(rank)) rank = int(rank) + 1; if (rank < 1) rank = 1
				seen = 0
				for (b = 1; b <= nb[key]; b++) { seen += cnt[key, b]; if (seen >= rank) break }
				cell = $(12 + j) * 1000; lo = b > 1 ? up[key, b - 1] : 0
				if (!(cell > lo - 0.5 && cell <= up[key, b] + 0.5)) { print where "quantile " q[j] " " $(12 + j) " ms not in its bucket (" lo ", " up[key, b] "] us"; bad++ }
				if (j > 1 && $(12 + j) + 0 < $(11 + j) + 0) { print where "quantiles not increasing"; bad++ }
			}
			if ($17 * 1000 > up[key, nb[key]] + 0.5 || $17 + 0 < $16 + 0) { print where "lat_max_ms " $17 " outside the top bucket"; bad++ }
		}
		for (i = 4; i <= 12; i++) if (i != 7) sum[$1, i] += $i
		variants[$1] = 1
		next
	}
	FNR == 1 { next }
	{ # timeline.csv: the same queries, counted by when answers arrived
		if ($2 in variants) { ts[$2, 4] += $6; ts[$2, 5] += $7; ts[$2, 6] += $8; ts[$2, 8] += $33
			ts[$2, 9] += $9; ts[$2, 10] += $10; ts[$2, 11] += $11; ts[$2, 12] += $12 }
	}
	END {
		split("sent answered timeouts - late_or_foreign noerror nxdomain servfail rcode_other", name, " ")
		for (v in variants) for (i = 4; i <= 12; i++) if (i != 7 && sum[v, i] != ts[v, i] + 0)
			{ print phfile ": " v ": " name[i - 3] " " sum[v, i] " in all phases, " ts[v, i] + 0 " in timeline.csv"; bad++ }
		exit bad > 0
	}' "$lh" "$ph" "$dir/timeline.csv" >&2 || fail "$ph: see above"
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
