#!/usr/bin/env bash
# tests/reports/high_water.sh - the spike figures that want the most requests in flight take the
# stats' high-water marks (inflight_max, live_bytes_max) where a run recorded them, and the samples
# where it did not (empty cells, or a run written before the columns): one crafted spike whose
# sampled peak (100 in flight, 11 MB live) is a quarter of its marks (400, 14 MB).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/expect.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"
command -v jq >/dev/null || skip "jq not installed"

MB=1048576
# crafted_run DIR MARKS : 1 s rows of one variant: baseline, spike 1, two recovery rows; live
# 10 MB and 10 in flight outside the spike; the allocator's heap 12 MB before, 16 at the peak, 15
# after (5 MB held). MARKS=1 fills the high-water columns, 0 leaves them empty.
crafted_run() {
	local dir=$1 marks=$2
	mkdir -p "$dir"
	jq -n '{format: 1, status: "completed", scenario: "spike",
		parameters: {interval_ms: 1000},
		variants: [{name: "glibc", kind: "build", allocator: "glibc", libc: "glibc"}]}' >"$dir/run.json"
	: >"$dir/events.jsonl"
	{
		crafted_header
		{
			echo "t_s=1 phase=baseline spike=0 inflight=10 im=10 live=$((10 * MB)) lm=$((10 * MB)) heap=$((12 * MB))"
			echo "t_s=2 phase=spike spike=1 inflight=100 im=400 live=$((11 * MB)) lm=$((14 * MB)) heap=$((16 * MB))"
			echo "t_s=3 phase=recovery spike=1 inflight=10 im=20 live=$((10 * MB)) lm=$((11 * MB)) heap=$((15 * MB))"
			echo "t_s=4 phase=recovery spike=1 inflight=10 im=10 live=$((10 * MB)) lm=$((10 * MB)) heap=$((15 * MB))"
		} | awk -v marks="$marks" '{
			printf "variant=glibc offered=100 sent=100 answered=100 rss_kb=30000 anon_kb=20000"
			for (i = 1; i <= NF; i++) {
				k = substr($i, 1, index($i, "=") - 1); v = substr($i, index($i, "=") + 1)
				if (k == "im") { if (marks) printf " inflight_max=%s", v }
				else if (k == "lm") { if (marks) printf " live_bytes_max=%s", v }
				else if (k == "live") printf " live_bytes=%s", v
				else if (k == "heap") printf " alloc_heap_bytes=%s alloc_resident_bytes=%s", v, v
				else printf " %s", $i
			}
			print ""
		}' | crafted_rows
	} >"$dir/timeline.csv"
}

# report RUN : the report of RUN; S is its summary.json.
report() {
	"$REPORT" "$1" >/dev/null 2>"$TEST_TMP/err" || cat "$TEST_TMP/err"
	S=$1/summary.json
}

# --- with the marks: the peak is 400 in flight holding 14 MB ---
crafted_run "$TEST_TMP/marks" 1
report "$TEST_TMP/marks"
expect "$S" '.variants.glibc.spikes[0].before_inflight' 10
expect "$S" '.variants.glibc.spikes[0].peak_inflight' 400
expect "$S" '.variants.glibc.spikes[0].highest_inflight' 400
expect "$S" '.variants.glibc.spikes[0].end_held_mb_per_1000_highest_inflight' 12.5
expect "$S" '.variants.glibc.spikes[0].live_bytes_per_inflight' "$(awk -v b=$((4 * MB)) 'BEGIN { printf "%.17g", b / 390 }')"
expect_done

# --- the same run with the marks' cells empty: the samples, 100 in flight holding 11 MB ---
crafted_run "$TEST_TMP/empty" 0
report "$TEST_TMP/empty"
expect "$S" '.variants.glibc.spikes[0].peak_inflight' 100
expect "$S" '.variants.glibc.spikes[0].highest_inflight' 100
expect "$S" '.variants.glibc.spikes[0].end_held_mb_per_1000_highest_inflight' 50
expect "$S" '.variants.glibc.spikes[0].live_bytes_per_inflight' "$(awk -v b=$MB 'BEGIN { printf "%.17g", b / 90 }')"
expect_done

# --- a run written before the columns (its header ends at request_list_overwritten): the same ---
run=$TEST_TMP/old
crafted_run "$run" 0
n=$(($(crafted_header | tr ',' '\n' | grep -nx request_list_overwritten | cut -d: -f1)))
cut -d, -f1-"$n" "$run/timeline.csv" >"$run/timeline.old" && mv "$run/timeline.old" "$run/timeline.csv"
check "the old run has no high-water column" bash -c "! head -1 '$run/timeline.csv' | grep -q inflight_max"
report "$run"
expect "$S" '.variants.glibc.spikes[0].peak_inflight' 100
expect "$S" '.variants.glibc.spikes[0].end_held_mb_per_1000_highest_inflight' 50
expect_done
finish
