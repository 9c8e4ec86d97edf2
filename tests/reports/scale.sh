#!/usr/bin/env bash
# tests/reports/scale.sh - `allocspike-report scale` on crafted runs at five spike heights whose
# held memory is a known line of the peak requests in flight: the slopes, intercepts and R² come
# back, a variant without attribution gets no points, the page and scale.json are written, and bad
# input exits 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/expect.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"

# The steps: the peak requests in flight of each run, and tcmalloc's held MB (not on a line).
PEAKS=(500 1000 1500 2000 3000)
NOISY=(3 4.25 4.75 6.5 8.125) # binary fractions: exact in bytes

# held_mb VARIANT STEP : the allocator-held MB at the end of the last recovery.
held_mb() {
	local x
	x=$(awk -v p="${PEAKS[$2]}" 'BEGIN { print p / 1000 }')
	case $1 in
	glibc) awk -v x="$x" 'BEGIN { print 2 + 4 * x }' ;;    # 4 MB per 1,000 in flight
	jemalloc) awk -v x="$x" 'BEGIN { print 1 + 0.5 * x }' ;; # 0.5 MB per 1,000
	tcmalloc) echo "${NOISY[$2]}" ;;
	esac
}

# crafted_run DIR STEP [WORLD] : 1 s rows: warm-up t=1, baseline t=2, spike 1 t=3 (half the peak in
# flight), recovery t=4, spike 2 t=5 (the peak), recovery t=6. Live bytes 10 MB throughout; the
# allocator holds 1 MB beyond them until the last recovery, then held_mb. kresd has no live bytes.
crafted_run() {
	local dir=$1 step=$2 world=${3:-} peak=${PEAKS[$2]}
	mkdir -p "$dir"
	jq -n --arg world "$world" --argjson rate $((1000 * (step + 1))) '{format: 1, status: "completed",
		scenario: "spike", started: "2026-12-01T00:00:00Z", ended: "2026-12-01T00:00:07Z",
		parameters: {schedule: "warmup:1s@100,baseline:1s@100,2*(spike:1s@1000,recovery:1s@100)",
			mode: "parallel", interval_ms: 1000, spike_rate_qps: $rate,
			hierarchy: ({seed: 1} + if $world == "" then {} else {world: $world} end)},
		variants: [
			{name: "glibc", kind: "build", allocator: "glibc", libc: "glibc"},
			{name: "jemalloc", kind: "build", allocator: "jemalloc", libc: "glibc"},
			{name: "tcmalloc", kind: "build", allocator: "tcmalloc", libc: "glibc"},
			{name: "kresd", kind: "preload", allocator: "glibc", libc: "glibc", base: "kresd"}],
		calibration: null}' >"$dir/run.json"
	: >"$dir/events.jsonl"
	local v t phase spike inflight held
	{
		head -n 1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv"
		for v in glibc jemalloc tcmalloc kresd; do
			for t in 1 2 3 4 5 6; do
				case $t in
				1) phase=warmup spike=0 inflight=10 ;;
				2) phase=baseline spike=0 inflight=10 ;;
				3) phase=spike spike=1 inflight=$((peak / 2)) ;;
				4) phase=recovery spike=1 inflight=10 ;;
				5) phase=spike spike=2 inflight=$peak ;;
				6) phase=recovery spike=2 inflight=10 ;;
				esac
				held=1
				((t == 6)) && [[ $v != kresd ]] && held=$(held_mb "$v" "$step")
				awk -v t="$t" -v v="$v" -v phase="$phase" -v spike="$spike" -v inflight="$inflight" \
					-v held="$held" -v attributed="$([[ $v == kresd ]] && echo 0 || echo 1)" '
					function b(mb) { return attributed ? sprintf("%d", mb * 1048576) : "" }
					BEGIN {
						heap = 10 + held; anon = (heap + 3) * 1024
						off = phase == "spike" ? 1000 : 100
						printf "%d,%s,%s,%d,%d,%d,%d,0,%d,0,0,0,2,5,10,%d,%d,,,%.1f,0,1000,%d,%d,,,,%s,%s,,,,,,,,,\n",
							t, v, phase, spike, off, off, off, off, anon + 5000, anon, 0.1 * t,
							8 * 1048576, inflight, b(10), b(heap)
					}'
			done
		done
	} >"$dir/timeline.csv"
}

runs=()
for step in 0 1 2 3 4; do
	world=''
	((step == 4)) && world=internet
	crafted_run "$TEST_TMP/step$step" "$step" "$world"
	runs+=("$TEST_TMP/step$step")
done

out=$TEST_TMP/out/sweep.html
mkdir -p "$TEST_TMP/out"
page=$("$REPORT" scale "${runs[@]}" -o "$out" 2>"$TEST_TMP/scale.err")
check_eq "scale exits 0" 0 "$?"
check_eq "it prints the page's path" "$out" "$page"
J=$TEST_TMP/out/sweep.json
check "scale.json is written beside the page, named after it" test -s "$J"

# tcmalloc's line, worked out here: x = 0.5, 1, 1.5, 2, 3 (thousands), y = NOISY.
read -r slope icpt r2 < <(awk -v ys="${NOISY[*]}" 'BEGIN {
	split("0.5 1 1.5 2 3", x, " "); split(ys, y, " "); n = 5
	for (i = 1; i <= n; i++) { sx += x[i]; sy += y[i] }
	mx = sx / n; my = sy / n
	for (i = 1; i <= n; i++) { sxx += (x[i]-mx)^2; sxy += (x[i]-mx)*(y[i]-my); syy += (y[i]-my)^2 }
	b = sxy / sxx; printf "%.17g %.17g %.17g\n", b, my - b * mx, sxy * sxy / (sxx * syy) }')

expect "$J" '.variant_order' '["glibc","jemalloc","tcmalloc","kresd"]'
expect "$J" '.variants.glibc.slope_mb_per_1000_inflight' 4
expect "$J" '.variants.glibc.intercept_mb' 2
expect "$J" '.variants.glibc.r2' 1
expect "$J" '.variants.jemalloc.slope_mb_per_1000_inflight' 0.5
expect "$J" '.variants.jemalloc.intercept_mb' 1
expect "$J" '.variants.tcmalloc.slope_mb_per_1000_inflight' "$slope"
expect "$J" '.variants.tcmalloc.intercept_mb' "$icpt"
expect "$J" '.variants.tcmalloc.r2' "$r2"
expect "$J" '.variants.glibc.points | length' 5
expect "$J" '.variants.glibc.points[4]' '{"run":4,"peak_inflight":3000,"held_mb":14}'
expect "$J" '.variants.kresd.points' '[]'
expect "$J" '.variants.kresd.slope_mb_per_1000_inflight' null
expect "$J" '.runs | length' 5
expect "$J" '.runs[4].world' '"internet"'
expect "$J" '.runs[0].world' null
expect "$J" '.runs[2].spike_rate_qps' 3000
expect "$J" '.runs[0].status' '"completed"'
expect_done
check "tcmalloc's R² is below 1 (its points are not on a line)" \
	awk -v r="$r2" 'BEGIN { exit !(r > 0.9 && r < 0.999) }'

check "the page has the table of fits" grep -q 'id="fit-table"' "$out"
check "the page has the chart" grep -q 'id="scale-chart"' "$out"
check "the page shows glibc's slope" grep -q '<td>4.00</td>' "$out"
check "the page reads the line at 10,000 in flight" grep -q '<td>42</td>' "$out"
check "the page lists the runs" grep -q 'id="run-table"' "$out"
check "the default page is scale.html in the working directory" \
	bash -c "cd '$TEST_TMP' && '$REPORT' scale '${runs[0]}' '${runs[1]}' >/dev/null && test -s scale.html && test -s scale.json"

# Bad input: one folder, an unknown option, a folder that is not a run, -o without a value.
"$REPORT" scale "${runs[0]}" >/dev/null 2>"$TEST_TMP/one.err"
check_eq "one run folder exits 2" 2 "$?"
check "it says why" grep -q "two run folders" "$TEST_TMP/one.err"
"$REPORT" scale "${runs[@]}" --bogus >/dev/null 2>&1
check_eq "an unknown option exits 2" 2 "$?"
"$REPORT" scale "${runs[0]}" "$TEST_TMP/nothing-here" >/dev/null 2>"$TEST_TMP/missing.err"
check_eq "a folder without a run exits 2" 2 "$?"
check "it names the folder" grep -q "nothing-here" "$TEST_TMP/missing.err"
"$REPORT" scale "${runs[@]}" -o >/dev/null 2>&1
check_eq "-o without a value exits 2" 2 "$?"
"$REPORT" --help | grep -q "allocspike-report scale"
check_eq "--help lists scale" 0 "$?"

finish
