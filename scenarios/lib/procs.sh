# scenarios/lib/procs.sh - every process a run starts: in its own process group (setsid), so stopping
# it also stops whatever it forked; tied to the script's life (the death signal), so a SIGKILLed script
# leaves nothing; recorded with its start time in the run folder's processes.tsv, so that nothing is
# ever signalled after its PID was reused, and so that the next run can stop what a killed run left;
# exits recorded as events. The launch, the stop path, the check that nothing is left, processes.tsv,
# the state folder and the cleanup of killed runs are the controller's (allocspike-run launch, stop,
# leftovers, register, state-dir, clean-stale: docs/controller.md).

source "$(dirname "${BASH_SOURCE[0]}")/lifeline.sh"

declare -A SC_PID_NAME=()  # pid -> name in the run (variant, _upstream, _loadgen)
declare -A SC_PID_START=() # pid -> start time (clock ticks after boot, /proc/PID/stat field 22)
declare -A SC_PID_DONE=()  # pid -> 1 once its exit was recorded
declare -A SC_PID_ASKED=() # pid -> 1 when the scenario asked it to stop (its exit is no crash)
SC_PIDS=()                 # in start order; stopped in reverse
SC_LAST_PID=
SC_PROCS_FILE=  # RUN/processes.tsv once procs_register ran
SC_PROCS_HURRY=0    # 1 after a signal during the final stop: no more grace periods
SC_PROCS_SIGNALS=0  # signals received during the final stop

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

# procs_start NAME LOG CPUS COMMAND... : starts COMMAND in the background in a new process group, killed
# when this script dies (allocspike-run launch: setsid, PR_SET_PDEATHSIG, then exec in place), stdout
# and stderr appended to LOG, pinned to CPUS (taskset list) unless empty.
procs_start() {
	local name=$1 log=$2 cpus=$3 run me=$BASHPID
	shift 3
	run=$(sc_program allocspike-run)
	[[ -n $run ]] || sc_die "allocspike-run is missing from $(sc_bin_dir) (it starts the run's processes)"
	# A background child of a non-interactive bash is no group leader, so setsid succeeds in place,
	# and launch execs in place: $! is the program itself. (The words of a background command are
	# expanded in the child: $BASHPID is read before.)
	"$run" launch --parent "$me" --cpus "$cpus" -- "$@" </dev/null >>"$log" 2>&1 &
	SC_LAST_PID=$!
	SC_PID_NAME[$SC_LAST_PID]=$name
	# Our child until we reap it, so its PID cannot be reused before this reads its start time.
	SC_PID_START[$SC_LAST_PID]=$(procs_start_time "$SC_LAST_PID")
	SC_PIDS+=("$SC_LAST_PID")
	procs_file_add "$name" "$SC_LAST_PID" "${SC_PID_START[$SC_LAST_PID]}"
	events_add "$name" started "pid:=$SC_LAST_PID"
}

# procs_running PID : true while PID runs (a zombie waiting to be reaped counts as gone).
procs_running() {
	local state
	state=$(procs_stat_field "$1" 1) || return 1
	[[ $state != Z && $state != X ]]
}

# procs_record_exit PID STATUS REQUESTED : the `exited` event (code, or signal for statuses > 128).
procs_record_exit() {
	local pid=$1 st=$2 requested=$3 name=${SC_PID_NAME[$1]:-unknown}
	[[ -z ${SC_PID_DONE[$pid]:-} ]] || return 0
	SC_PID_DONE[$pid]=1
	if ((st > 128)); then
		events_add "$name" exited "signal:=$((st - 128))" "signal_name=$(kill -l $((st - 128)) 2>/dev/null)" \
			"pid:=$pid" "requested:=$requested"
		sc_say "$name (pid $pid) exited by signal $(kill -l $((st - 128)) 2>/dev/null)"
	else
		events_add "$name" exited "code:=$st" "pid:=$pid" "requested:=$requested"
		((st == 0)) || [[ $requested == true ]] || sc_say "$name (pid $pid) exited with code $st"
	fi
}

# procs_reap PID : waits for an exited PID and records its exit (a crash or early exit, unless the
# scenario had asked it to stop: procs_mark_asked). What it forked dies with it: its group is
# killed while its zombie still holds the PID, so the group cannot be someone else's.
procs_reap() {
	local st seen
	kill -KILL -- "-$1" 2>/dev/null || true
	while :; do
		seen=$SC_PROCS_SIGNALS st=0
		wait "$1" 2>/dev/null || st=$?
		# A signal during the final stop cuts `wait` short (status > 128, child not reaped): again.
		((st > 128 && seen != SC_PROCS_SIGNALS)) && kill -0 "$1" 2>/dev/null || break
	done
	procs_record_exit "$1" "$st" "$([[ -n ${SC_PID_ASKED[$1]:-} ]] && echo true || echo false)"
}

# procs_mark_asked PID : the scenario is stopping PID by other means (e.g. through its child).
procs_mark_asked() { SC_PID_ASKED[$1]=1; }

# procs_stop GRACE_S PID... : stops those still running (allocspike-run stop: SIGTERM to each process
# group at once, SIGKILL to what is left after GRACE_S, at once after procs_hurry; a PID whose start
# time changed is never signalled), then reaps each and records its exit.
procs_stop() {
	local grace=$1 pid targets=() now=()
	shift
	for pid in "$@"; do
		[[ -z ${SC_PID_DONE[$pid]:-} && -n ${SC_PID_START[$pid]:-} ]] && procs_running "$pid" || continue
		procs_mark_asked "$pid"
		targets+=("${SC_PID_NAME[$pid]}:$pid:${SC_PID_START[$pid]}")
	done
	((!SC_PROCS_HURRY)) || now=(--now)
	((${#targets[@]} == 0)) || procs_stopper --grace "${grace}s" "${now[@]}" "${targets[@]}"
	for pid in "$@"; do
		[[ -n ${SC_PID_DONE[$pid]:-} ]] || procs_reap "$pid"
	done
}

SC_PROCS_STOPPER=       # allocspike-run stop while it runs, and its start time
SC_PROCS_STOPPER_START=

# procs_stopper ARGS... : allocspike-run stop ARGS, waited for in the background, so that a signal's
# trap runs at once (procs_hurry, which hurries it); waited for again when a trap cut the wait short.
procs_stopper() {
	local run seen
	run=$(sc_program allocspike-run)
	if [[ -z $run ]]; then
		# gone since it started them: no start-time check is left, only their groups' SIGKILL
		sc_say "allocspike-run is missing from $(sc_bin_dir): the processes are killed without a grace period"
		local t
		for t in "$@"; do
			[[ $t == *:*:* ]] || continue
			t=${t#*:}
			kill -KILL -- "-${t%%:*}" 2>/dev/null || kill -KILL "${t%%:*}" 2>/dev/null || true
		done
		return 0
	fi
	"$run" stop "$@" </dev/null &
	SC_PROCS_STOPPER=$!
	# Our child until we reap it, so its PID cannot be reused before this reads its start time.
	SC_PROCS_STOPPER_START=$(procs_start_time "$SC_PROCS_STOPPER")
	while :; do
		seen=$SC_PROCS_SIGNALS
		wait "$SC_PROCS_STOPPER" && break
		((seen != SC_PROCS_SIGNALS)) && kill -0 "$SC_PROCS_STOPPER" 2>/dev/null || break
	done
	SC_PROCS_STOPPER= SC_PROCS_STOPPER_START=
}

# procs_stop_all : stops every process of the run: the generator first, so that it does not record
# the others vanishing, then all the rest at once (at most 5 s of grace each time, not per process).
procs_stop_all() {
	local pid watchers=() rest=()
	for pid in "${SC_PIDS[@]}"; do
		if [[ ${SC_PID_NAME[$pid]} == _loadgen ]]; then watchers+=("$pid"); else rest+=("$pid"); fi
	done
	((${#watchers[@]} == 0)) || procs_stop 5 "${watchers[@]}"
	((${#rest[@]} == 0)) || procs_stop 5 "${rest[@]}"
}

# procs_hurry : a signal while the run is being stopped: the stop goes on, without grace periods.
procs_hurry() {
	((SC_PROCS_HURRY)) || sc_say "signal during the stop: killing what is left at once"
	SC_PROCS_HURRY=1
	SC_PROCS_SIGNALS=$((SC_PROCS_SIGNALS + 1))
	# the stop under way goes on without its grace period (only while it is the stopper we started)
	! procs_same "$SC_PROCS_STOPPER" "$SC_PROCS_STOPPER_START" || kill -TERM "$SC_PROCS_STOPPER" 2>/dev/null || true
}

# procs_leftovers : prints "name:pid" for every process of the run still there, or whose process group
# still has a member (allocspike-run leftovers; a PID now another process's is not the run's).
procs_leftovers() {
	local run pid targets=()
	run=$(sc_program allocspike-run)
	for pid in "${SC_PIDS[@]}"; do
		[[ -z ${SC_PID_START[$pid]:-} ]] || targets+=("${SC_PID_NAME[$pid]}:$pid:${SC_PID_START[$pid]}")
	done
	((${#targets[@]} == 0)) || [[ -z $run ]] || "$run" leftovers -- "${targets[@]}"
}

# procs_wait_ready NAME PID READY_FILE TIMEOUT_S : waits for "ready ADDR:PORT" in READY_FILE;
# prints ADDR:PORT; fails (and records the exit) when the process ends first or the time runs out.
procs_wait_ready() {
	local name=$1 pid=$2 file=$3 timeout=$4 i line
	for ((i = 0; i < timeout * 20; i++)); do
		if [[ -s $file ]]; then
			line=$(sed -n 's/^ready //p' "$file" | head -1)
			if [[ -n $line ]]; then
				echo "$line"
				return 0
			fi
		fi
		if ! procs_running "$pid"; then
			procs_reap "$pid"
			return 1
		fi
		sleep 0.05
	done
	sc_say "$name (pid $pid) not ready within ${timeout}s"
	return 1
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

# procs_file_add NAME PID START : one line of RUN/processes.tsv (docs/run-folder.md).
procs_file_add() {
	[[ -z $SC_PROCS_FILE ]] || printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$SC_PROCS_FILE"
}

# procs_register RUN_DIR : RUN_DIR/processes.tsv (created new; fails when anything is there), its first
# row this script itself with its start time, and this run registered in the state folder until
# procs_unregister (allocspike-run register).
procs_register() {
	local run
	run=$(sc_program allocspike-run)
	if [[ -z $run ]]; then # the run fails when it starts a process; until then it is recorded
		sc_say "allocspike-run is missing from $(sc_bin_dir): no processes.tsv for this run"
		return 0
	fi
	# $BASHPID here, not inside $(...), where it would be the substitution's own subshell: a start time
	# not the script's made every later run take this live one for a killed one.
	"$run" register --owner "$BASHPID" "$1" || return 1
	SC_PROCS_FILE=$1/processes.tsv
}

# procs_unregister : this run ended; nothing of it is left to clean.
procs_unregister() {
	local run
	run=$(sc_program allocspike-run)
	[[ -z $run ]] || "$run" unregister --owner "$BASHPID"
}

# The killed runs procs_clean_stale found, for procs_record_stale: one JSON line each, {run, stopped}
# ("name:pid" strings).
SC_PROCS_STALE=()

# procs_clean_stale : stops what every registered run whose script is gone (it was killed) left, each
# process only if its start time is the recorded one, and marks that run's run.json failed if it still
# says running (allocspike-run clean-stale); keeps a line per such run for procs_record_stale. Called
# before this run writes anything (experiment_setup_folder).
procs_clean_stale() {
	local run
	run=$(sc_program allocspike-run)
	if [[ -z $run ]]; then
		sc_say "allocspike-run is missing from $(sc_bin_dir): what a killed run left is not cleaned"
		return 0
	fi
	mapfile -t SC_PROCS_STALE < <("$run" clean-stale)
}

# procs_record_stale : the `stale_run` events procs_clean_stale kept, into this run's events.
procs_record_stale() {
	local line
	for line in "${SC_PROCS_STALE[@]}"; do
		events_add _scenario stale_run "run=$(jq -r .run <<<"$line")" "stopped:=$(jq -c .stopped <<<"$line")"
	done
	SC_PROCS_STALE=()
}
