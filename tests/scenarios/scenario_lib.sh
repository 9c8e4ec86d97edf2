# tests/scenarios/scenario_lib.sh - helpers of the scenario tests: skipping when a program is not built,
# choosing the variants that are built, a short schedule, and the checks on a finished run folder.
# Sourced after tests/lib.sh.

SPIKE=$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh
# Runs register here only (scenarios/README.md, "Processes"): tests never clean up each other's runs.
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state

# scenario_standin FILE : writes the head of a stand-in scenario into FILE: spike.sh's options read
# and checked through scenarios/lib/experiment.sh. The test appends what runs in place of a run.
scenario_standin() {
	cat >"$1" <<STANDIN
#!/bin/bash
set -uo pipefail
SC_PROG=spike
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/experiment.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/spike_experiment.sh"
scenario_options() { spike_options; }
opts_read "\$@"
# standin_conduct ARGS... : the run begun by its controller with the rest of this script as its
# steps (allocspike-run conduct -- COMMAND, no report); in the steps, SC_RUN is the run's folder.
standin_conduct() {
	[[ -n \${ALLOCSPIKE_CONTROL:-} ]] || exec "\$(sc_bin_dir)/allocspike-run" conduct --scenario "\$SC_PROG" \\
		--report none --out "\$OPT_out" -- bash "\$0" "\$@"
	SC_RUN=\$ALLOCSPIKE_RUN_DIR
}
STANDIN
}

# standin_calibrate DIR STAND LOADGEN QUERIES ROW... : the run's controller's `calibrate` (served by
# served_begin) over stand-in rows (stand_in_rows STAND), the generator LOADGEN replaying QUERIES,
# spikes at 1.2 x the knee, --calibrate-max 6000 and at most 3 extensions (as the spike steps'); the
# spike rate it decides into CALIBRATED.
standin_calibrate() {
	local dir=$1 stand=$2 lg=$3 queries=$4 setup=()
	shift 4
	mapfile -t setup < <(stand_in_rows "$stand" "$@")
	procs_ask rows-setup "${setup[@]}" >/dev/null || return 1
	procs_ask calibrate "$dir" 1.2 3 6000 "$lg" "$queries" "" "" 5s -- "$@" || return 1
	read -r _ CALIBRATED _ <<<"$REPLY"
}

# scenario_require_programs : skips (77) naming every program the scenario needs that is not built.
scenario_require_programs() {
	local p missing=()
	for p in allocspike-upstream allocspike-loadgen allocspike-querydata allocspike-report allocspike-run; do
		[[ -x $ALLOCSPIKE_BIN/$p ]] || missing+=("$p")
	done
	[[ -n $(scenario_built_variants 1) ]] || missing+=("allocspike-resolver-<any default variant>")
	((${#missing[@]} == 0)) || skip "not built yet: ${missing[*]} (in $ALLOCSPIKE_BIN)"
}

# scenario_built_variants N : up to N default variants (variants.tsv) whose binaries are built, comma-separated.
scenario_built_variants() {
	local n=$1 names=() name kind allocator libc library base env default note
	while IFS=$'\t' read -r name kind allocator libc library base env default note; do
		[[ $kind == build && $default == yes && -x $ALLOCSPIKE_BIN/allocspike-resolver-$name ]] || continue
		((${#names[@]} < n)) && names+=("$name")
	done < <(variants_rows)
	(
		IFS=,
		echo "${names[*]}"
	)
}

# scenario_short_flags BLOCK : a schedule of about half a minute at a fixed spike rate (no calibration).
scenario_short_flags() {
	echo --hierarchy-block "$1" --warmup-len 4s --warmup-rate 400 --baseline-len 2s --baseline-rate 200 \
		--spikes 2 --spike-len 5s --recovery-len 5s --spike-rate 1000 --cache-size 4M --no-build
}

# scenario_pids DIR : every pid the run (and its calibration) started, from the `started` events.
scenario_pids() {
	cat "$1"/events.jsonl "$1"/calibration/events.jsonl 2>/dev/null |
		jq -r 'select(.event == "started") | .pid' 2>/dev/null | sort -u
}

# scenario_leftovers DIR : processes of the run still alive (by pid, or naming the run folder).
scenario_leftovers() {
	local pid
	for pid in $(scenario_pids "$1"); do
		kill -0 "$pid" 2>/dev/null && echo "pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
	done
	pgrep -a -f -- "$1/" | grep -v -e "^$$ " -e pgrep || true
}

# scenario_wait_for DESCRIPTION SECONDS COMMAND... : polls COMMAND every 0.2 s until it succeeds.
scenario_wait_for() {
	local what=$1 limit=$2 i
	shift 2
	for ((i = 0; i < limit * 5; i++)); do
		"$@" && return 0
		sleep 0.2
	done
	echo "FAIL waited ${limit}s for $what"
	return 1
}

# scenario_in_spike DIR : true once the generator's timeline has a row of a spike phase.
scenario_in_spike() { [[ -s $1/timeline.csv ]] && grep -q '^[^,]*,[^,]*,spike,' "$1/timeline.csv"; }

# scenario_check_folder DIR STATUS : the files of a run folder and its status.
scenario_check_folder() {
	local dir=$1 f
	for f in run.json events.jsonl timeline.csv summary.json report.html; do
		check "$f exists" test -s "$dir/$f"
	done
	check_eq "run.json status" "$2" "$(jq -r .status "$dir/run.json" 2>/dev/null)"
	check "events.jsonl is JSON lines" jq_true -s "length > 0" "$dir/events.jsonl"
	check "no process of the run left" test -z "$(scenario_leftovers "$dir")"
}

# scenario_missing_samples DIR VARIANTS : "variant t_s" for each interval of the generator's clock
# (its _loadgen rows) where a variant has no memory sample.
scenario_missing_samples() {
	awk -F, -v want="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		if ($col["variant"] == "_loadgen") ticks[$col["t_s"]] = 1
		else if ($col["rss_kb"] != "") have[$col["variant"], $col["t_s"]] = 1
	}
	END {
		n = split(want, vs, ",")
		for (t in ticks) for (k = 1; k <= n; k++) if (!((vs[k], t) in have)) print vs[k], t
	}' "$1/timeline.csv"
}

# scenario_spikes_unanswered DIR VARIANTS : "variant spike" for each spike in which a variant got no answer.
scenario_spikes_unanswered() {
	awk -F, -v want="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["phase"] == "spike" {
		spikes[$col["spike"]] = 1
		ans[$col["variant"], $col["spike"]] += $col["answered"]
	}
	END {
		n = split(want, vs, ",")
		for (s in spikes) for (k = 1; k <= n; k++) if (ans[vs[k], s] + 0 == 0) print vs[k], s
	}' "$1/timeline.csv"
}
