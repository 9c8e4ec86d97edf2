# scenarios/lib/harness.sh - tells a saturated harness from a saturated resolver: from the hierarchy's
# CPU in timeline.csv, a `harness_saturated` event for each stretch of one-second windows where it used
# 90 % of a core or more (it is single-threaded; the generator records its own such events), and the
# CPU share (mean and maximum) of both in run.json.

# harness_scan RUN_DIR : appends the events and records parameters.harness_cpu in run.json.
harness_scan() {
	local dir=$1 tl=$1/timeline.csv out
	[[ -s $tl ]] || return 0
	out=$(awk -F, -v limit=0.9 '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		v = $col["variant"]
		if (v != "_loadgen" && v != "_upstream") next
		t = $col["t_s"] + 0
		if ($col["cpu_user_s"] == "") next
		c = $col["cpu_user_s"] + $col["cpu_sys_s"]
		if ((v in pt) && t > pt[v]) {
			w = int(t - 1e-6)
			key = v SUBSEP seg[v] SUBSEP w
			if (!(key in dt)) { keys[++nk] = key }
			dt[key] += t - pt[v]; dc[key] += c - pc[v]
		} else if (v in pt) {
			seg[v]++  # the clock restarted: a serial run or a new generator
		}
		pt[v] = t; pc[v] = c
	}
	END {
		for (k = 1; k <= nk; k++) {
			split(keys[k], p, SUBSEP); v = p[1]; s = p[2]; w = p[3]
			share = dt[keys[k]] > 0 ? dc[keys[k]] / dt[keys[k]] : 0
			sum[v] += share; cnt[v]++; if (share > mx[v]) mx[v] = share
			if (share >= limit && v == "_upstream") {
				if (!(open[v] && lastw[v] == w - 1 && lasts[v] == s)) {
					if (open[v]) printf "E %s %s %.3f %d\n", v, start[v], peak[v], lastw[v] - start[v] + 1
					open[v] = 1; start[v] = w; peak[v] = 0
				}
				if (share > peak[v]) peak[v] = share
				lastw[v] = w; lasts[v] = s
			}
		}
		for (v in open) if (open[v]) printf "E %s %s %.3f %d\n", v, start[v], peak[v], lastw[v] - start[v] + 1
		for (v in cnt) printf "S %s %.3f %.3f\n", v, sum[v] / cnt[v], mx[v]
	}' "$tl")
	local kind v a b c summary='{}'
	while read -r kind v a b c; do
		[[ -n $kind ]] || continue # a header-only timeline gives no line at all
		if [[ $kind == E ]]; then
			printf '{"t_s": %s, "variant": "%s", "event": "harness_saturated", "cpu_share": %s, "duration_s": %s}\n' \
				"$a" "$v" "$b" "$c" >>"$dir/events.jsonl"
			sc_say "harness saturated: $v used ${b} of a core for ${c}s from t=${a}s"
		else
			summary=$(jq -c --arg v "$v" --argjson m "$a" --argjson x "$b" '.[$v] = {cpu_share_mean: $m, cpu_share_max: $x}' <<<"$summary")
		fi
	done <<<"$out"
	runjson_update '.parameters.harness_cpu = $s' --argjson s "$summary"
}
