# scenarios/lib/procs.sh - every process a run starts is a child of the run's controller
# (allocspike-run supervise --serve, started by procs_begin under this script's death signal),
# which starts each in its own process group tied to its own life, records it with its start time in
# processes.tsv before any signal, reaps it (its `started` and `exited` events are the controller's:
# events.sh), and stops it on its one stop path; this file asks it (allocspike-run ask:
# docs/controller.md, "A served run"). The run's beginning and end are the controller's too (begin,
# finish: the run folder, its registration and the cleanup of what killed runs left).

source "$(dirname "${BASH_SOURCE[0]}")/lifeline.sh"

declare -A SC_PID_NAME=()  # pid -> name in the run (variant, _upstream, _loadgen)
declare -A SC_PID_START=() # pid -> start time (clock ticks after boot, /proc/PID/stat field 22)
declare -A SC_PID_DONE=()  # pid -> 1 once its exit was recorded
SC_PIDS=()                 # in start order
SC_LAST_PID=
SC_PROCS_RUN=        # allocspike-run, its socket, its PID and start time once procs_begin ran
SC_PROCS_SOCKET=
SC_PROCS_CONTROLLER=
SC_PROCS_CONTROLLER_START=
SC_PROCS_ASKER=     # a request under way (allocspike-run ask, in the background)
SC_PROCS_HURRY=0    # 1 after a signal during the final stop: no more grace periods
SC_PROCS_SIGNALS=0  # signals received during the final stop
SC_PROCS_EXIT_NAME= # the last exit procs_record wrote: its name, and its status as bash's $?
SC_PROCS_EXIT_STATUS=
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

# procs_running PID : true while PID runs (a zombie waiting to be reaped counts as gone).
procs_running() {
	local state
	state=$(procs_stat_field "$1" 1) || return 1
	[[ $state != Z && $state != X ]]
}

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

# procs_start NAME LOG CPUS COMMAND... : the controller starts COMMAND (its own process group, killed
# when the controller dies), stdout and stderr appended to LOG, pinned to CPUS (taskset list) unless
# empty; sets SC_LAST_PID.
procs_start() {
	local name=$1 log=$2 cpus=$3 start
	shift 3
	[[ -n $SC_PROCS_SOCKET ]] || sc_die "allocspike-run is missing from $(sc_bin_dir) (it starts the run's processes)"
	procs_ask start "$name" "$log" "$cpus" -- "$@" || sc_die "the run's controller did not start $name"
	read -r _ SC_LAST_PID start <<<"$REPLY"
	SC_PID_NAME[$SC_LAST_PID]=$name
	SC_PID_START[$SC_LAST_PID]=$start
	SC_PIDS+=("$SC_LAST_PID")
}

# procs_record WORD... : the exits an answer lists (NAME PID code=N|signal=N requested=BOOL, after its
# first word; the controller wrote each as an event and said a crash): the last one's name and status
# as bash's $? (SC_PROCS_EXIT_NAME, SC_PROCS_EXIT_STATUS).
procs_record() {
	shift
	while (($# >= 4)); do
		SC_PID_DONE[$2]=1 SC_PROCS_EXIT_NAME=$1 SC_PROCS_EXIT_STATUS=${3#code=}
		[[ $3 != signal=* ]] || SC_PROCS_EXIT_STATUS=$((128 + ${3#signal=}))
		shift 4
	done
}

# procs_reap PID : waits (at most 10 s) for an exited PID and records its exit (a crash or early
# exit, unless it was asked to stop). The controller killed what it forked before reaping it.
procs_reap() {
	[[ -z ${SC_PID_DONE[$1]:-} ]] || return 0
	# shellcheck disable=SC2086 # the answer's words
	! procs_ask wait-any 10s "${SC_PID_NAME[$1]}" || procs_record $REPLY
}

# procs_wait_any TIMEOUT NAME... : waits (bounded) until one of them exits and records it
# (SC_PROCS_EXIT_NAME, SC_PROCS_EXIT_STATUS); fails when the time ran out or the controller is gone.
procs_wait_any() {
	procs_ask wait-any "$@" && [[ $REPLY == exited\ * ]] || return 1
	# shellcheck disable=SC2086 # the answer's words
	procs_record $REPLY
}

# procs_mark_asked PID : the scenario is stopping PID by other means (e.g. through its child).
procs_mark_asked() { procs_ask asked "${SC_PID_NAME[$1]}" >/dev/null; }

# procs_stop GRACE_S PID... : stops those still running on the controller's stop path (SIGTERM to
# each process group at once, SIGKILL to what is left after GRACE_S, at once after procs_hurry; a
# PID whose start time changed is never signalled) and records their exits.
procs_stop() {
	local grace=$1 pid names=()
	shift
	for pid in "$@"; do
		[[ -n ${SC_PID_DONE[$pid]:-} || -z ${SC_PID_NAME[$pid]:-} ]] || names+=("${SC_PID_NAME[$pid]}")
	done
	((${#names[@]} > 0)) || return 0
	((!SC_PROCS_HURRY)) || grace=0
	# shellcheck disable=SC2086 # the answer's words
	! procs_ask stop "${grace}s" "${names[@]}" || procs_record $REPLY
}

# procs_hurry : a signal while the run is being stopped: the stop goes on, without grace periods
# (the controller takes a signal for that).
procs_hurry() {
	((SC_PROCS_HURRY)) || sc_say "signal during the stop: killing what is left at once"
	SC_PROCS_HURRY=1
	SC_PROCS_SIGNALS=$((SC_PROCS_SIGNALS + 1))
	! procs_same "$SC_PROCS_CONTROLLER" "$SC_PROCS_CONTROLLER_START" || kill -TERM "$SC_PROCS_CONTROLLER" 2>/dev/null || true
}

# procs_wait_ready NAME PID READY_FILE TIMEOUT_S : waits for "ready ADDR:PORT" in READY_FILE;
# prints ADDR:PORT; fails when the process ends first (its exit is recorded by the stop that
# follows) or the time runs out.
procs_wait_ready() {
	procs_ask ready "$1" "$3" "${4}s" || return 1
	case $REPLY in
	ok\ *) echo "${REPLY#ok }" ;;
	timeout)
		sc_say "$1 (pid $2) not ready within ${4}s"
		return 1
		;;
	*) return 1 ;;
	esac
}

SC_AUX_PID=

# procs_run_aux COMMAND... : runs a helper of the scenario (query generation, statistics) in the
# background and waits for it, so that Ctrl-C or SIGTERM is handled at once instead of after it;
# the EXIT path stops it (procs_stop_aux). Redirect the call, not the command, to capture output.
procs_run_aux() {
	local st=0 LIFELINE
	lifeline_set
	"${LIFELINE[@]}" "$@" </dev/null &
	SC_AUX_PID=$!
	wait "$SC_AUX_PID" || st=$?
	SC_AUX_PID=
	return "$st"
}

# procs_stop_aux : stops the helper procs_run_aux was waiting for, if any.
procs_stop_aux() {
	[[ -n $SC_AUX_PID ]] || return 0
	kill -TERM "$SC_AUX_PID" 2>/dev/null || true
	wait "$SC_AUX_PID" 2>/dev/null || true
	SC_AUX_PID=
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
# (and the run's: 108 bytes at most) in a control folder of their own in $TMPDIR (SC_CTL_DIR), and
# asked to begin the run in DIR (docs/controller.md, "The run folder": what killed runs left stopped,
# the folder made, new or an empty one of ours, logs/, run.json, processes.tsv with this script and
# its start time first, the run registered, events.jsonl); SC_RUN set to the folder's real path.
procs_begin() {
	local run me=$BASHPID
	run=$(sc_program allocspike-run)
	[[ -n $run ]] || sc_die "allocspike-run is missing from $(sc_bin_dir) (it makes the run folder and runs the run)"
	SC_CTL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-ctl.XXXXXX") || sc_die "cannot create a control folder"
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
