# scenarios/lib/calibrate.sh - the `auto` spike height: a short resperf-style ramp against every chosen
# variant (fresh processes, in RUN/calibration/, so the measured run starts from clean heaps); the
# capacity of each is the knee of its ramp (`allocspike-report knee`: the highest one-second rate it
# still answered at 90 %); spikes go to the slowest variant's capacity times --spike-multiple, as
# `allocspike-report calibration` decides over the passes.
# --calibrate-max is where the ramp starts looking, not a ceiling: while the slowest variant still
# answers at the top, the ramp is run again to twice the top (calibration/extend-K/).

# At most this many extensions (each one ramp of --calibrate-len, the top doubling each time: 6000 qps
# becomes at most 48000), so a calibration lasts at most 1 + CALIBRATE_EXTENSIONS ramps.
CALIBRATE_EXTENSIONS=3

# calibrate_knees DIR : the knee of each variant of DIR's ramp, as allocspike-report knee prints it.
calibrate_knees() {
	local rp
	sc_need rp allocspike-report "to find the capacity knee of the calibration ramp"
	"$rp" knee "$1" || sc_die "allocspike-report knee $1 failed"
}

# calibrate_decide RUN_DIR : what the passes so far decide (`allocspike-report calibration`: the
# capacities merged over the passes, the slowest, the spike rate, whether to ramp again).
calibrate_decide() {
	local rp
	sc_need rp allocspike-report "to decide the calibration"
	"$rp" calibration "$1" --multiple "$OPT_spike_multiple" --extensions "$CALIBRATE_EXTENSIONS" ||
		sc_die "allocspike-report calibration $1 failed"
}

# calibrate_pass DIR TOP NAMES... : one ramp to TOP against the named variants (fresh processes) in
# DIR. (Not in $(...): the processes it starts are this shell's.)
calibrate_pass() {
	local dir=$1 top=$2 schedule
	shift 2
	mkdir -p "$dir/logs"
	schedule=$(schedule_make calibrate "$top")
	sc_say "calibrating the spike height: $schedule"
	events_push "$dir/events.jsonl"
	local SC_RUNNABLE=("$@") # experiment_drive runs these
	experiment_drive "$dir" "$schedule"
	events_pop
	[[ -s $dir/timeline.csv ]] || sc_die "calibration wrote no timeline ($dir/timeline.csv)"
}

# calibrate_run RUN_DIR : runs the ramp (extended while needed), sets OPT_spike_rate and records the
# calibration in run.json.
calibrate_run() {
	local top=$OPT_calibrate_max folder=calibration decision passes='[]' k v
	local names=("${SC_RUNNABLE[@]}")
	for ((k = 0; ; k++)); do
		((k == 0)) || folder=calibration/extend-$k
		calibrate_pass "$1/$folder" "$top" "${names[@]}"
		passes=$(jq -c --arg f "$folder" --arg s "$(schedule_make calibrate "$top")" --argjson t "$top" \
			'. + [{folder: $f, schedule: $s, top_qps: $t}]' <<<"$passes")
		decision=$(calibrate_decide "$1") || exit 1
		[[ $(jq -r .extend <<<"$decision") == true ]] || break
		mapfile -t names < <(jq -r '.still_answering_at_top[]' <<<"$decision")
		top=$((top * 2))
		sc_say "calibration: ${names[*]} still answered at the top; ramping again to $top qps"
	done
	[[ $(jq -r .at_extension_limit <<<"$decision") != true ]] ||
		sc_say "calibration: every variant still answered at $top qps after $k extensions; its capacity is at least that"
	while read -r v; do
		events_add "$v" calibration_fallback \
			"peak_answered_qps:=$(jq --arg v "$v" '.variants[$v].peak_answered_qps' <<<"$decision")"
	done < <(jq -r '.fallbacks[]' <<<"$decision")
	local slowest min
	slowest=$(jq -r .slowest <<<"$decision")
	min=$(jq .capacity_of_slowest_qps <<<"$decision")
	((min > 0)) || sc_die "calibration: variant $slowest answered nothing (see $1/calibration/logs/$slowest.log)"
	OPT_spike_rate=$(jq .spike_rate_qps <<<"$decision")
	runjson_set .calibration "$(jq -c -n '{schedule: $p[0].schedule, window_s: 1,
		capacity_qps: ($d.variants | map_values(.capacity_qps)),
		peak_answered_qps: ($d.variants | map_values(.peak_answered_qps)),
		still_answering_at_top: ($d.variants | map_values(.still_answering_at_top)),
		slowest: $d.slowest, capacity_of_slowest_qps: $d.capacity_of_slowest_qps, multiple: $m,
		spike_rate_qps: $d.spike_rate_qps, folder: "calibration", passes: $p}' \
		--argjson d "$decision" --argjson p "$passes" --argjson m "$OPT_spike_multiple")"
	events_add _scenario calibrated "rate_qps:=$OPT_spike_rate" "capacity_qps:=$min" "slowest=$slowest" \
		"multiple:=$OPT_spike_multiple"
	sc_say "calibrated: slowest variant $slowest answers $min qps; spikes at $OPT_spike_rate qps"
}
