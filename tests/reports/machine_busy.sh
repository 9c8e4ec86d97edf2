#!/usr/bin/env bash
# tests/reports/machine_busy.sh - summary.json machine_busy and the page's sentence: the CPU of every
# sampled process in the one-second windows wholly in a spike, over run.json's cores; the warning
# about pile-ups from a 95th percentile of 0.9 on; null for a serial run, a run read by agents and
# one without cores. Crafted rows: 100 ms intervals, two variants and the two harness rows.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/expect.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"
command -v jq >/dev/null || skip "jq not installed"

# crafted_run DIR CORES MODE BUSY : 2 s of baseline, 4 s of spike 1, 2 s of recovery, every 100 ms;
# in the spike glibc and jemalloc each use BUSY x 0.3 core, the
# generator BUSY x 0.1 and the hierarchy BUSY x 0.3 (together BUSY cores); outside it 0.1 core each.
crafted_run() {
	local dir=$1 cores=$2 mode=$3 busy=$4
	mkdir -p "$dir"
	jq -n --argjson cores "$cores" --arg mode "$mode" '{format: 1, status: "completed", scenario: "spike",
		parameters: {interval_ms: 100, mode: $mode},
		machine: (if $cores > 0 then {cores: $cores} else {} end),
		variants: [{name: "glibc", kind: "build", allocator: "glibc", libc: "glibc"},
		           {name: "jemalloc", kind: "build", allocator: "jemalloc", libc: "glibc"}]}' >"$dir/run.json"
	: >"$dir/events.jsonl"
	{
		crafted_header
		awk -v busy="$busy" 'BEGIN {
			n = split("glibc jemalloc _loadgen _upstream", who, " ")
			split("0.3 0.3 0.1 0.3", part, " ")
			for (k = 1; k <= 80; k++) {
				t = k / 10
				if (t <= 2) { phase = "baseline"; spike = 0 } else if (t <= 6) { phase = "spike"; spike = 1 } else { phase = "recovery"; spike = 1 }
				for (i = 1; i <= n; i++) {
					cpu[i] += (phase == "spike" ? busy * part[i] : 0.1) / 10
					printf "t_s=%.3f variant=%s phase=%s spike=%d offered=10 sent=10 answered=10 rss_kb=30000 anon_kb=20000 cpu_user_s=%.4f cpu_sys_s=0\n", t, who[i], phase, spike, cpu[i]
				}
			}
		}' | crafted_rows
	} >"$dir/timeline.csv"
}

# report RUN : the report of RUN; S is its summary.json, P its page.
report() {
	"$REPORT" "$1" >/dev/null 2>"$TEST_TMP/err" || cat "$TEST_TMP/err"
	S=$1/summary.json P=$1/report.html
}

# --- 1.9 of 2 cores in the spike: 95 %, and the page says what that does to the pile-ups ---
crafted_run "$TEST_TMP/busy" 2 parallel 1.9
report "$TEST_TMP/busy"
expect "$S" '.machine_busy.cores' 2
expect "$S" '.machine_busy.processes' 4
# the windows ending at 3, 4, 5 and 6 s; the one ending at 2 s is the baseline's
expect "$S" '.machine_busy.windows' 4
expect "$S" '.machine_busy.spikes_mean' 0.95
expect "$S" '.machine_busy.spikes_p95' 0.95
expect_done
check "the page states the busy share" grep -q "kept the machine's 2 cores 95 % busy on average, 95 % at the 95th percentile" "$P"
check "the page says the pile-ups were the machine's" grep -q "piles requests up at every variant at once" "$P"

# --- 1 core of 2: half busy, no warning ---
crafted_run "$TEST_TMP/half" 2 parallel 1.0
report "$TEST_TMP/half"
expect "$S" '.machine_busy.spikes_mean' 0.5
expect "$S" '.machine_busy.spikes_p95' 0.5
expect_done
check "half busy: stated" grep -q "cores 50 % busy on average" "$TEST_TMP/half/report.html"
check "half busy: no warning" bash -c "! grep -q 'piles requests up' '$TEST_TMP/half/report.html'"

# --- more than the cores (ticks landing late): at most 1 ---
crafted_run "$TEST_TMP/over" 1 parallel 1.5
report "$TEST_TMP/over"
expect "$S" '.machine_busy.spikes_p95' 1
expect_done

# --- null where it would mislead: serial, no cores, a variant read by an agent ---
crafted_run "$TEST_TMP/serial" 2 serial 1.9
report "$TEST_TMP/serial"
expect "$S" '.machine_busy' null
expect_done
crafted_run "$TEST_TMP/nocores" 0 parallel 1.9
report "$TEST_TMP/nocores"
expect "$S" '.machine_busy' null
expect_done
check "no figure, no sentence" bash -c "! grep -q 'id=\"machine-busy\"' '$TEST_TMP/nocores/report.html'"
crafted_run "$TEST_TMP/agent" 2 parallel 1.9
mkdir -p "$TEST_TMP/agent/agents"
echo '{"t_start_ns": 1000000000, "up": 1, "rss_bytes": 1000}' >"$TEST_TMP/agent/agents/glibc.jsonl"
report "$TEST_TMP/agent"
expect "$S" '.machine_busy' null
expect_done
# --- compare: runs that kept the machine busy say why their pile-ups differ; half-busy ones do not ---
# (a spike needs a pile-up to compare: requests in flight at the spike's last row)
"$REPORT" compare "$TEST_TMP/busy" "$TEST_TMP/over" --out "$TEST_TMP/cmp-busy.html" >/dev/null 2>"$TEST_TMP/err" || cat "$TEST_TMP/err"
check "compare of busy runs: the range and why" grep -q "These runs kept the machine 95-100 % busy at the 95th percentile" "$TEST_TMP/cmp-busy.html"
"$REPORT" compare "$TEST_TMP/half" "$TEST_TMP/half" --out "$TEST_TMP/cmp-half.html" >/dev/null 2>"$TEST_TMP/err" || cat "$TEST_TMP/err"
check "compare of half-busy runs: no such sentence" bash -c "test -s '$TEST_TMP/cmp-half.html' && ! grep -q 'These runs kept the machine' '$TEST_TMP/cmp-half.html'"
finish
