# scenarios/lib/calibrate.sh - the `auto` spike height: a short resperf-style ramp against every chosen
# variant (fresh processes, in RUN/calibration/, so the measured run starts from clean heaps), the
# capacity of each = the highest rate it still answered at 90 % (calibrate_capacities); spikes go to
# the slowest variant's capacity times --spike-multiple.

# calibrate_capacities TIMELINE : "variant capacity_qps peak_answered_qps last_window_share" lines.
# The capacity is the knee of the ramp: the highest offered rate (one-second windows) that the variant
# still answered at 90 % or more in that window and the one before. The plain maximum of answered
# per second (resperf's figure) is printed beside it: under overload, answers of a backlog arrive in
# bursts and overstate what the variant sustains for the length of a spike.
calibrate_capacities() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		v = $col["variant"]
		if (v ~ /^_/) next
		w = int(($col["t_s"] - 1e-6) / 1.0)
		ans[v, w] += $col["answered"]; off[v, w] += $col["offered"]
		if (!(v in seen)) { seen[v] = 1; order[++n] = v; first[v] = w }
		# After the schedule the generator keeps writing rows (offered 0) while answers drain.
		if ($col["offered"] > 0 && w > last[v]) last[v] = w
	}
	END {
		for (k = 1; k <= n; k++) {
			v = order[k]; knee = 0; peak = 0
			for (w = first[v]; w <= last[v]; w++) {
				if (ans[v, w] > peak) peak = ans[v, w]
				ok = off[v, w] > 0 && ans[v, w] >= 0.9 * off[v, w]
				okprev = w == first[v] || (off[v, w - 1] > 0 && ans[v, w - 1] >= 0.9 * off[v, w - 1])
				if (ok && okprev && off[v, w] > knee) knee = off[v, w]
			}
			lw = last[v]
			share = (off[v, lw] > 0) ? ans[v, lw] / off[v, lw] : 0
			printf "%s %d %d %.3f\n", v, knee, peak, share
		}
	}' "$1"
}

# calibrate_run RUN_DIR : runs the ramp, sets OPT_spike_rate and records the calibration.
calibrate_run() {
	local cdir=$1/calibration schedule
	mkdir -p "$cdir/logs"
	schedule=$(schedule_calibrate)
	sc_say "calibrating the spike height: $schedule"
	events_push "$cdir/events.jsonl"
	experiment_drive "$cdir" "$schedule"
	events_pop
	[[ -s $cdir/timeline.csv ]] || sc_die "calibration wrote no timeline ($cdir/timeline.csv)"
	local v cap peak share min='' slowest='' caps='{}' tops='{}' peaks='{}'
	while read -r v cap peak share; do
		# A cold cache can keep every window under 90 % (unbound, quick runs): then the most it
		# answered in a second is the best estimate there is; said in an event, not hidden.
		if ((cap == 0)); then
			cap=$(awk -v p="$peak" 'BEGIN { printf "%d", p }')
			((cap == 0)) || events_add _scenario calibration_fallback "variant=\"$v\"" "peak_answered_qps=$cap"
		fi
		peaks=$(jq -c --arg v "$v" --argjson p "$peak" '.[$v] = $p' <<<"$peaks")
		caps=$(jq -c --arg v "$v" --argjson c "$cap" '.[$v] = $c' <<<"$caps")
		# Still answering 95 % at the top of the ramp: the capacity is at least this, not at most.
		tops=$(jq -c --arg v "$v" --argjson t "$(awk -v s="$share" 'BEGIN { print (s >= 0.95) ? "true" : "false" }')" \
			'.[$v] = $t' <<<"$tops")
		if [[ -z $min ]] || ((cap < min)); then
			min=$cap
			slowest=$v
		fi
	done < <(calibrate_capacities "$cdir/timeline.csv")
	[[ -n $min ]] || sc_die "calibration: no variant was sampled (see $cdir/logs/)"
	((min > 0)) || sc_die "calibration: variant $slowest answered nothing (see $cdir/logs/$slowest.log)"
	OPT_spike_rate=$(awk -v c="$min" -v m="$OPT_spike_multiple" 'BEGIN { printf "%d", c * m }')
	runjson_update '.calibration = {schedule: $s, window_s: 1, capacity_qps: $caps, peak_answered_qps: $peaks,
		still_answering_at_top: $tops,
		slowest: $slowest, capacity_of_slowest_qps: $min, multiple: $m, spike_rate_qps: $rate, folder: "calibration"}' \
		--arg s "$schedule" --argjson caps "$caps" --argjson peaks "$peaks" --argjson tops "$tops" --arg slowest "$slowest" \
		--argjson min "$min" --argjson m "$OPT_spike_multiple" --argjson rate "$OPT_spike_rate"
	events_add _scenario calibrated "rate_qps=$OPT_spike_rate" "capacity_qps=$min" "slowest=\"$slowest\"" \
		"multiple=$OPT_spike_multiple"
	sc_say "calibrated: slowest variant $slowest answers $min qps; spikes at $OPT_spike_rate qps"
}
