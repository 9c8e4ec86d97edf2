# scenarios/lib/procs.sh - every process a run starts is a child of the run's controller
# (allocspike-run supervise --serve, started by procs_begin under this script's death signal),
# which starts each in its own process group tied to its own life, records it with its start time in
# processes.tsv before any signal, reaps it (its `started` and `exited` events are the controller's:
# events.sh), and stops it on its one stop path; this file asks it (allocspike-run ask:
# docs/controller.md, "A served run"). The scenario names each process (a variant, _upstream,
# _loadgen, _querydata); the controller keeps the rest: PIDs, start times, exits. The run's beginning
# and end are the controller's too (begin, finish: the run folder, its registration and the cleanup
# of what killed runs left).

SC_PROCS_RUN=       # allocspike-run, its socket, its PID and start time once procs_begin ran
SC_PROCS_SOCKET=
SC_PROCS_CONTROLLER=
SC_PROCS_CONTROLLER_START=
SC_PROCS_ASKER=     # a request under way (allocspike-run ask, in the background)
SC_PROCS_HURRY=0    # 1 after a signal during the final stop: no more grace periods
SC_PROCS_SIGNALS=0  # signals received during the final stop
SC_PROCS_STATUS= # the run's final status, once procs_finish ran

# procs_stat_field PID N : field N (counted after the command name, state = 1) of /proc/PID/stat.
procs_stat_field() {
	local stat fields
	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	read -r -a fields <<<"${stat##*) }"
	[[ -n ${fields[$2 - 1]:-} ]] || return 1
	echo "${fields[$2 - 1]}"
}

# procs_start_time PID : when PID started (clock ticks after boot); fails when there is no PID.
procs_start_time() { procs_stat_field "$1" 20; }

# procs_same PID START : true while PID is still the process that started at START (no PID reuse).
procs_same() { [[ -n $2 && $(procs_start_time "$1") == "$2" ]]; }

# procs_ask REQUEST WORD... : the controller's answer in REPLY; fails when it is an error (said on
# stderr) or none came. Waited for in the background, so that a signal's trap runs at once; waited
# for again when a trap (procs_hurry) cut the wait short.
procs_ask() {
	local seen st
	[[ -n $SC_PROCS_SOCKET ]] || return 1
	"$SC_PROCS_RUN" ask "$SC_PROCS_SOCKET" "$@" </dev/null >"$SC_PROCS_SOCKET.reply" &
	SC_PROCS_ASKER=$!
	while :; do
		seen=$SC_PROCS_SIGNALS st=0
		wait "$SC_PROCS_ASKER" || st=$?
		((st > 128 && seen != SC_PROCS_SIGNALS)) && kill -0 "$SC_PROCS_ASKER" 2>/dev/null || break
	done
	SC_PROCS_ASKER=
	REPLY=$(<"$SC_PROCS_SOCKET.reply")
	return "$st"
}

# procs_hurry : a signal while the run is being stopped: the stop goes on, without grace periods
# (the controller takes a signal for that).
procs_hurry() {
	((SC_PROCS_HURRY)) || sc_say "signal during the stop: killing what is left at once"
	SC_PROCS_HURRY=1
	SC_PROCS_SIGNALS=$((SC_PROCS_SIGNALS + 1))
	! procs_same "$SC_PROCS_CONTROLLER" "$SC_PROCS_CONTROLLER_START" || kill -TERM "$SC_PROCS_CONTROLLER" 2>/dev/null || true
}

# --- processes.tsv and the runs still registered (stopping what a killed run left) ---

# procs_state_dir : where running scenarios register their run folders (allocspike-run state-dir:
# $ALLOCSPIKE_STATE_DIR, or a folder of this user's, refused unless it is ours alone; empty then).
procs_state_dir() {
	local run
	run=$(sc_program allocspike-run)
	[[ -n $run ]] && "$run" state-dir 2>/dev/null
}

# procs_begin SCENARIO DIR : the run's controller started, killed when this script dies, its sockets
# (and the run's: 108 bytes at most) in a control folder of their own (SC_CTL_DIR), and
# asked to begin the run in DIR (docs/controller.md, "The run folder": what killed runs left stopped,
# the folder made, new or an empty one of ours, logs/, run.json, processes.tsv with this script and
# its start time first, the run registered, events.jsonl); SC_RUN set to the folder's real path.
procs_begin() {
	local run me=$BASHPID
	run=$(sc_program allocspike-run)
	[[ -n $run ]] || sc_die "allocspike-run is missing from $(sc_bin_dir) (it makes the run folder and runs the run)"
	# In the state folder, named by this script's PID, where the next run removes it if this one is
	# killed (clean-stale); without one, or one too deep for the sockets' 108 bytes, in $TMPDIR.
	local state
	state=$(procs_state_dir)
	if [[ -n $state ]] && ((${#state} <= 60)); then
		SC_CTL_DIR=$(mktemp -d "$state/ctl-$me.XXXXXX")
	else
		SC_CTL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-ctl.XXXXXX")
	fi || sc_die "cannot create a control folder"
	SC_PROCS_RUN=$run SC_PROCS_SOCKET=$SC_CTL_DIR/run.sock
	# $BASHPID read here, not inside $(...) or a background command's words, where it would be
	# another process's: a start time not the script's made every later run take this one for killed.
	"$run" launch --parent "$me" -- "$run" supervise --serve "$SC_PROCS_SOCKET" --begin </dev/null >/dev/null &
	SC_PROCS_CONTROLLER=$!
	# Our child until we reap it, so its PID cannot be reused before this reads its start time.
	SC_PROCS_CONTROLLER_START=$(procs_start_time "$SC_PROCS_CONTROLLER")
	procs_ask begin "$me" "$1" "$2" || return 1
	SC_RUN=${REPLY#ok }
}

# procs_finish STATUS [reason=TEXT] [signal=NAME] [timeline=no] : the run's end (the controller's
# `finish`: everything stopped, leftovers and the end recorded, the harness checked, run.json
# finished, the run unregistered unless something is left); the final status in SC_PROCS_STATUS
# (failed when the controller is gone). A request still under way is dropped first.
procs_finish() {
	if [[ -n $SC_PROCS_ASKER ]]; then # our child until waited for: no other process's PID
		kill -KILL "$SC_PROCS_ASKER" 2>/dev/null
		wait "$SC_PROCS_ASKER" 2>/dev/null
		SC_PROCS_ASKER=
	fi
	SC_PROCS_STATUS=failed
	! procs_ask finish "$@" "report=$(sc_program allocspike-report)" || SC_PROCS_STATUS=${REPLY#ok }
	procs_end
}

# procs_end : the controller ends (after its `finish`, or a `begin` that failed), its folder removed.
procs_end() {
	if procs_ask shutdown; then
		wait "$SC_PROCS_CONTROLLER" 2>/dev/null
		SC_PROCS_SOCKET=
	fi
	[[ -z $SC_CTL_DIR ]] || rm -rf -- "$SC_CTL_DIR"
	SC_CTL_DIR=
}
