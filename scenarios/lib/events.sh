# scenarios/lib/events.sh - appends the scenario's lines to events.jsonl (docs/run-folder.md).
# t_s counts from the start of the schedule and is negative before it. The start is known only once
# the generator runs, so events made before it wait in a pending file with their wall-clock time and
# are written with their negative t_s when the origin is set (or when the run ends without one).

SC_EVENTS_FILE=
SC_EVENTS_ORIGIN=
SC_EVENTS_SAVED_FILE=
SC_EVENTS_SAVED_ORIGIN=

# events_init FILE : events go to FILE (appended; the generator appends to the same file). FILE and
# its pending file are created new: fails when anything, a link included, is there already.
events_init() {
	SC_EVENTS_FILE=$1
	SC_EVENTS_ORIGIN=
	files_new "$SC_EVENTS_FILE" && files_new "$SC_EVENTS_FILE.pending"
}

# events_add VARIANT EVENT [KEY=TEXT | KEY:=JSON]... : one event. TEXT is written as a JSON string
# (any quote, backslash or newline escaped), JSON as the value it is (numbers, true, null, lists):
# `allocspike-report event` writes the line.
events_add() {
	[[ -n $SC_EVENTS_FILE ]] || return 0
	local variant=$1 event=$2 now line writer
	shift 2
	now=$(sc_now)
	writer=$(sc_program allocspike-report)
	if [[ -z $writer ]]; then
		sc_say "allocspike-report is missing from $(sc_bin_dir): event $event of $variant not recorded"
		return 0
	fi
	if [[ -n $SC_EVENTS_ORIGIN ]]; then
		line=$("$writer" event --t-s "$(bc_sub "$now" "$SC_EVENTS_ORIGIN")" --unix-s "$now" \
			"$variant" "$event" "$@") || {
			sc_say "events_add: event $event not recorded (bad arguments: $*)"
			return 0
		}
		# One short line in one write: appends by the generator and us never interleave.
		printf '%s\n' "$line" >>"$SC_EVENTS_FILE"
	else
		line=$("$writer" event --unix-s "$now" "$variant" "$event" "$@") || {
			sc_say "events_add: event $event not recorded (bad arguments: $*)"
			return 0
		}
		printf '%s\t%s\n' "$now" "$line" >>"$SC_EVENTS_FILE.pending"
	fi
}

# events_origin_set UNIX_S : the schedule started at UNIX_S; pending events are written relative to it.
events_origin_set() {
	SC_EVENTS_ORIGIN=$1
	[[ -s $SC_EVENTS_FILE.pending ]] || return 0
	local t rest
	# The writer escaped the line; only its first key, t_s, is put in front.
	while IFS=$'\t' read -r t rest; do
		printf '{"t_s": %.3f, %s\n' "$(bc_sub "$t" "$SC_EVENTS_ORIGIN")" "${rest#\{}" >>"$SC_EVENTS_FILE"
	done <"$SC_EVENTS_FILE.pending"
	: >"$SC_EVENTS_FILE.pending"
}

# events_origin_clear : the next schedule (serial mode, calibration) starts a new clock.
events_origin_clear() { SC_EVENTS_ORIGIN=; }

# events_close : writes what is still pending (relative to now when no schedule ever started).
events_close() {
	[[ -n $SC_EVENTS_FILE ]] || return 0
	if [[ -s $SC_EVENTS_FILE.pending ]]; then
		events_origin_set "${SC_EVENTS_ORIGIN:-$(sc_now)}"
	fi
	rm -f "$SC_EVENTS_FILE.pending"
}

# bc_sub A B : A - B for decimal numbers (awk; bash has integers only).
bc_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }

# events_push FILE : later events go to FILE with a clock of their own (the calibration's folder, a
# cpu.sh pass); what is pending for the previous file stays pending there until events_pop.
events_push() {
	SC_EVENTS_SAVED_FILE=$SC_EVENTS_FILE
	SC_EVENTS_SAVED_ORIGIN=$SC_EVENTS_ORIGIN
	SC_EVENTS_FILE=$1
	SC_EVENTS_ORIGIN=
	: >>"$SC_EVENTS_FILE"
}

# events_pop : writes what is pending for the pushed file, then back to the previous one.
events_pop() {
	events_close
	SC_EVENTS_FILE=$SC_EVENTS_SAVED_FILE
	SC_EVENTS_ORIGIN=$SC_EVENTS_SAVED_ORIGIN
	SC_EVENTS_SAVED_FILE=
}
