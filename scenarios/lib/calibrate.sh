# scenarios/lib/calibrate.sh - the `auto` spike height: a short resperf-style ramp against every chosen
# variant (fresh processes, in RUN/calibration/, so the measured run starts from clean heaps); the
# capacity of each is the knee of its ramp (`allocspike-report knee`: the highest one-second rate it
# still answered at 90 %); spikes go to the slowest variant's capacity times --spike-multiple.
# --calibrate-max is where the ramp starts looking, not a ceiling: while the slowest variant still
# answers at the top, the ramp is run again to twice the top (calibration/extend-K/).

# At most this many extensions (each one ramp of --calibrate-len, the top doubling each time: 6000 qps
# becomes at most 48000), so a calibration lasts at most 1 + CALIBRATE_EXTENSIONS ramps.
CALIBRATE_EXTENSIONS=3
SC_CALIBRATE_KNEES=

# calibrate_knees DIR : the knee of each variant of DIR's ramp, as allocspike-report knee prints it.
calibrate_knees() {
	local rp
	sc_need rp allocspike-report "to find the capacity knee of the calibration ramp"
	"$rp" knee "$1" || sc_die "allocspike-report knee $1 failed"
}

# calibrate_highest_top : the highest ramp top the calibration can reach (for sizing the query file).
calibrate_highest_top() { echo $((OPT_calibrate_max << CALIBRATE_EXTENSIONS)); }

# calibrate_pass DIR TOP NAMES... : one ramp to TOP against the named variants (fresh processes) in
# DIR; sets SC_CALIBRATE_KNEES to its knees. (Not in $(...): the processes it starts are this shell's.)
calibrate_pass() {
	local dir=$1 top=$2 schedule
	shift 2
	mkdir -p "$dir/logs"
	schedule=$(schedule_calibrate "$top")
	sc_say "calibrating the spike height: $schedule"
	events_push "$dir/events.jsonl"
	local SC_RUNNABLE=("$@") # experiment_drive runs these
	experiment_drive "$dir" "$schedule"
	events_pop
	[[ -s $dir/timeline.csv ]] || sc_die "calibration wrote no timeline ($dir/timeline.csv)"
	SC_CALIBRATE_KNEES=$(calibrate_knees "$dir") || exit 1
}

# calibrate_run RUN_DIR : runs the ramp (extended while needed), sets OPT_spike_rate and records the
# calibration in run.json.
calibrate_run() {
	local top=$OPT_calibrate_max folder=calibration knees all='{}' passes='[]' k v
	local names=("${SC_RUNNABLE[@]}")
	for ((k = 0; ; k++)); do
		((k == 0)) || folder=calibration/extend-$k
		calibrate_pass "$1/$folder" "$top" "${names[@]}"
		knees=$SC_CALIBRATE_KNEES
		# A pass that ramps higher keeps the best knee and peak seen; "at top" is the latest pass's.
		all=$(jq -c --argjson k "$knees" --arg f "$folder" 'reduce $k.variants[] as $v (.;
			.[$v.variant] = ($v + {folder: $f,
				capacity_qps: ([$v.capacity_qps, (.[$v.variant].capacity_qps // 0)] | max),
				peak_answered_qps: ([$v.peak_answered_qps, (.[$v.variant].peak_answered_qps // 0)] | max)}))' <<<"$all")
		passes=$(jq -c --arg f "$folder" --arg s "$(schedule_calibrate "$top")" --argjson t "$top" \
			'. + [{folder: $f, schedule: $s, top_qps: $t}]' <<<"$passes")
		# The slowest variant sets the spikes: extend only while it still kept up at the top.
		jq -e 'to_entries | min_by(.value.capacity_qps) | .value.still_answering_at_top' <<<"$all" >/dev/null ||
			break
		if ((k == CALIBRATE_EXTENSIONS)); then
			sc_say "calibration: every variant still answered at $top qps after $k extensions; its capacity is at least that"
			break
		fi
		mapfile -t names < <(jq -r 'to_entries[] | select(.value.still_answering_at_top) | .key' <<<"$all")
		top=$((top * 2))
		sc_say "calibration: ${names[*]} still answered at the top; ramping again to $top qps"
	done
	while read -r v; do
		events_add "$v" calibration_fallback \
			"peak_answered_qps:=$(jq --arg v "$v" '.[$v].peak_answered_qps' <<<"$all")"
	done < <(jq -r 'to_entries[] | select(.value.fallback and .value.capacity_qps > 0) | .key' <<<"$all")
	local slowest min
	slowest=$(jq -r 'to_entries | min_by(.value.capacity_qps) | .key // empty' <<<"$all")
	[[ -n $slowest ]] || sc_die "calibration: no variant was sampled (see $1/calibration/logs/)"
	min=$(jq --arg v "$slowest" '.[$v].capacity_qps' <<<"$all")
	((min > 0)) || sc_die "calibration: variant $slowest answered nothing (see $1/calibration/logs/$slowest.log)"
	OPT_spike_rate=$(awk -v c="$min" -v m="$OPT_spike_multiple" 'BEGIN { printf "%d", c * m }')
	runjson_update '.calibration = {schedule: $p[0].schedule, window_s: 1,
		capacity_qps: ($a | map_values(.capacity_qps)), peak_answered_qps: ($a | map_values(.peak_answered_qps)),
		still_answering_at_top: ($a | map_values(.still_answering_at_top)),
		slowest: $slowest, capacity_of_slowest_qps: $min, multiple: $m, spike_rate_qps: $rate, folder: "calibration",
		passes: $p}' \
		--argjson a "$all" --argjson p "$passes" --arg slowest "$slowest" \
		--argjson min "$min" --argjson m "$OPT_spike_multiple" --argjson rate "$OPT_spike_rate"
	events_add _scenario calibrated "rate_qps:=$OPT_spike_rate" "capacity_qps:=$min" "slowest=$slowest" \
		"multiple:=$OPT_spike_multiple"
	sc_say "calibrated: slowest variant $slowest answers $min qps; spikes at $OPT_spike_rate qps"
}
