# scenarios/lib/procs.sh - every process a run starts: started in its own process group (setsid), so
# stopping it also stops whatever it forked; exits recorded as events; at the end, checked gone.

declare -A SC_PID_NAME=()  # pid -> name in the run (variant, _upstream, _loadgen)
declare -A SC_PID_DONE=()  # pid -> 1 once its exit was recorded
declare -A SC_PID_ASKED=() # pid -> 1 when the scenario asked it to stop (its exit is no crash)
SC_PIDS=()                 # in start order; stopped in reverse
SC_LAST_PID=

# procs_start NAME LOG CPUS COMMAND... : starts COMMAND in the background in a new process group,
# stdout and stderr appended to LOG, pinned to CPUS (taskset list) unless empty.
procs_start() {
	local name=$1 log=$2 cpus=$3
	shift 3
	local pre=(setsid)
	[[ -z $cpus ]] || pre+=(taskset -c "$cpus")
	# A background child of a non-interactive bash is no group leader, so setsid execs in place
	# and $! is the program itself.
	"${pre[@]}" "$@" </dev/null >>"$log" 2>&1 &
	SC_LAST_PID=$!
	SC_PID_NAME[$SC_LAST_PID]=$name
	SC_PIDS+=("$SC_LAST_PID")
	events_add "$name" started "pid=$SC_LAST_PID"
}

# procs_running PID : true while PID runs (a zombie waiting to be reaped counts as gone).
procs_running() {
	local state
	[[ -r /proc/$1/stat ]] || return 1
	state=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[[ -n $state && $state != Z && $state != X ]]
}

# procs_record_exit PID STATUS REQUESTED : the `exited` event (code, or signal for statuses > 128).
procs_record_exit() {
	local pid=$1 st=$2 requested=$3 name=${SC_PID_NAME[$1]:-unknown}
	[[ -z ${SC_PID_DONE[$pid]:-} ]] || return 0
	SC_PID_DONE[$pid]=1
	if ((st > 128)); then
		events_add "$name" exited "signal=$((st - 128))" "signal_name=\"$(kill -l $((st - 128)) 2>/dev/null)\"" \
			"pid=$pid" "requested=$requested"
		sc_say "$name (pid $pid) exited by signal $(kill -l $((st - 128)) 2>/dev/null)"
	else
		events_add "$name" exited "code=$st" "pid=$pid" "requested=$requested"
		((st == 0)) || [[ $requested == true ]] || sc_say "$name (pid $pid) exited with code $st"
	fi
}

# procs_reap PID : waits for an exited PID and records its exit (a crash or early exit, unless the
# scenario had asked it to stop: procs_mark_asked).
procs_reap() {
	local st=0
	wait "$1" 2>/dev/null || st=$?
	procs_record_exit "$1" "$st" "$([[ -n ${SC_PID_ASKED[$1]:-} ]] && echo true || echo false)"
}

# procs_mark_asked PID : the scenario is stopping PID by other means (e.g. through its child).
procs_mark_asked() { SC_PID_ASKED[$1]=1; }

# procs_stop PID [GRACE_S] : SIGTERM to the process group, SIGKILL after GRACE_S (default 5), reaped.
procs_stop() {
	local pid=$1 grace=${2:-5} i st=0
	[[ -z ${SC_PID_DONE[$pid]:-} ]] || return 0
	if procs_running "$pid"; then
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
		for ((i = 0; i < grace * 20; i++)); do
			procs_running "$pid" || break
			sleep 0.05
		done
		if procs_running "$pid"; then
			sc_say "${SC_PID_NAME[$pid]} (pid $pid) ignored SIGTERM for ${grace}s; killing it"
			kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
		fi
		wait "$pid" 2>/dev/null || st=$?
		procs_record_exit "$pid" "$st" true
	else
		procs_reap "$pid"
	fi
	# Whatever the process forked dies with its group.
	kill -KILL -- "-$pid" 2>/dev/null || true
}

# procs_stop_all : stops every process of the run, newest first (generator, resolvers, hierarchy).
procs_stop_all() {
	local i
	for ((i = ${#SC_PIDS[@]} - 1; i >= 0; i--)); do
		procs_stop "${SC_PIDS[i]}"
	done
}

# procs_leftovers : prints "name:pid" for every process group of the run that still has a member.
procs_leftovers() {
	local pid
	for pid in "${SC_PIDS[@]}"; do
		if kill -0 -- "-$pid" 2>/dev/null || procs_running "$pid"; then
			echo "${SC_PID_NAME[$pid]}:$pid"
		fi
	done
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
	local st=0
	"$@" </dev/null &
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
