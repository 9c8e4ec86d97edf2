# scenarios/lib/procs.sh - every process a run starts is a child of the run's controller
# (allocspike-run supervise --serve, started by procs_register under this script's death signal),
# which starts each in its own process group tied to its own life, records it with its start time in
# processes.tsv before any signal, reaps it (its `started` and `exited` events are the controller's:
# events.sh), and stops it on its one stop path; this file asks it (allocspike-run ask:
# docs/controller.md, "A served run"). The scenario names each process (a variant, _upstream,
# _loadgen, _querydata); the controller keeps the rest: PIDs, start times, exits. The state folder
# and the cleanup of killed runs are the controller's too (state-dir, register, clean-stale).

SC_LAST_PID=        # the PID of the process procs_start started last (the controller's answer)
SC_PROCS_RUN=       # allocspike-run, the run folder, its socket, its PID and start time once procs_register ran
SC_PROCS_DIR=
SC_PROCS_SOCKET=
SC_PROCS_CONTROLLER=
SC_PROCS_CONTROLLER_START=
SC_PROCS_ASKER=     # a request under way (allocspike-run ask, in the background)
SC_PROCS_HURRY=0    # 1 after a signal during the final stop: no more grace periods
SC_PROCS_SIGNALS=0  # signals received during the final stop
SC_PROCS_EXIT_NAME= # the exit procs_wait_any was answered: its name, and its status as bash's $?
SC_PROCS_EXIT_STATUS=

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

# procs_start NAME LOG CPUS COMMAND... : the controller starts COMMAND (its own process group, killed
# when the controller dies), stdout and stderr appended to LOG, pinned to CPUS (taskset list) unless
# empty. The scenario names it from then on; SC_LAST_PID is its PID, for what needs one (the
# generator's --target, a daemon's probe and sampler, the `ready` event).
procs_start() {
	local name=$1 log=$2 cpus=$3
	shift 3
	[[ -n $SC_PROCS_SOCKET ]] || sc_die "allocspike-run is missing from $(sc_bin_dir) (it starts the run's processes)"
	procs_ask start "$name" "$log" "$cpus" -- "$@" || sc_die "the run's controller did not start $name"
	read -r _ SC_LAST_PID _ <<<"$REPLY"
}

# procs_wait_any TIMEOUT NAME... : waits (bounded) until one of them has exited (at once if one has;
# the controller wrote the exit as an event and said a crash); its name and its status as bash's $?
# in SC_PROCS_EXIT_NAME and SC_PROCS_EXIT_STATUS. Fails when the time ran out (REPLY is `timeout`)
# or the controller is gone.
procs_wait_any() {
	local exit_name exit_how
	procs_ask wait-any "$@" && [[ $REPLY == exited\ * ]] || return 1
	read -r _ exit_name _ exit_how _ <<<"$REPLY" # exited NAME PID code=N|signal=N requested=BOOL
	SC_PROCS_EXIT_NAME=$exit_name SC_PROCS_EXIT_STATUS=${exit_how#code=}
	[[ $exit_how != signal=* ]] || SC_PROCS_EXIT_STATUS=$((128 + ${exit_how#signal=}))
}

# procs_reap NAME : waits (at most 10 s) for NAME, which has ended, to be reaped, so that its exit
# (a crash or early exit, unless it was asked to stop) is recorded before the run goes on.
procs_reap() { procs_wait_any 10s "$1" || true; }

# procs_stop_child GRACE_S NAME : stops NAME, a wrapper (perf stat, which writes its count only when
# its child exits), through its child: SIGTERM to the child alone, NAME waited for up to GRACE_S (none
# after procs_hurry), then stopped as procs_stop does if it still runs.
procs_stop_child() {
	local grace=$1
	((!SC_PROCS_HURRY)) || grace=0
	procs_ask stop-child "${grace}s" "$2" >/dev/null || true
}

# procs_stop GRACE_S NAME... : stops those still running on the controller's stop path (SIGTERM to
# each process group at once, SIGKILL to what is left after GRACE_S, at once after procs_hurry; a
# PID whose start time changed is never signalled); the controller records their exits.
procs_stop() {
	local grace=$1
	shift
	(($# > 0)) || return 0
	((!SC_PROCS_HURRY)) || grace=0
	procs_ask stop "${grace}s" "$@" >/dev/null || true
}

# procs_stop_all : stops every process of the run, the last started (the generator) first, so that
# it does not record the others vanishing; a request still under way is dropped first.
procs_stop_all() {
	if [[ -n $SC_PROCS_ASKER ]]; then # our child until waited for: no other process's PID
		kill -KILL "$SC_PROCS_ASKER" 2>/dev/null
		wait "$SC_PROCS_ASKER" 2>/dev/null
		SC_PROCS_ASKER=
	fi
	procs_ask stop-all >/dev/null || true
}

# procs_hurry : a signal while the run is being stopped: the stop goes on, without grace periods
# (the controller takes a signal for that).
procs_hurry() {
	((SC_PROCS_HURRY)) || sc_say "signal during the stop: killing what is left at once"
	SC_PROCS_HURRY=1
	SC_PROCS_SIGNALS=$((SC_PROCS_SIGNALS + 1))
	! procs_same "$SC_PROCS_CONTROLLER" "$SC_PROCS_CONTROLLER_START" || kill -TERM "$SC_PROCS_CONTROLLER" 2>/dev/null || true
}

# procs_leftovers : prints "name:pid" for every process of the run still there, or whose process group
# still has a member; when the controller is gone, allocspike-run leftovers reads the run's
# processes.tsv (every process it started, with its start time).
procs_leftovers() {
	if procs_ask leftovers; then
		# shellcheck disable=SC2086 # the answer's words
		[[ $REPLY == ok ]] || printf '%s\n' ${REPLY#ok }
		return 0
	fi
	[[ -z $SC_PROCS_RUN ]] || "$SC_PROCS_RUN" leftovers --run "$SC_PROCS_DIR"
}

# procs_wait_ready NAME READY_FILE TIMEOUT_S : waits for "ready ADDR:PORT" in READY_FILE; prints
# ADDR:PORT; fails when the process ends first (its exit is recorded by the stop that follows) or
# the time runs out.
procs_wait_ready() {
	procs_ask ready "$1" "$2" "${3}s" || return 1
	case $REPLY in
	ok\ *) echo "${REPLY#ok }" ;;
	timeout)
		sc_say "$1 not ready within ${3}s"
		return 1
		;;
	*) return 1 ;;
	esac
}

# procs_run_aux NAME LOG TIMEOUT COMMAND... : runs a helper of the scenario (query generation,
# statistics) as a process of the run (NAME, stdout and stderr appended to LOG: the helper writes its
# results to files of its own, e.g. --out) and waits for it, at most TIMEOUT (a duration; then it is
# stopped and this fails); returns its exit status. The wait is a request like any other: Ctrl-C or
# SIGTERM is handled at once, and the EXIT path's stop-all stops the helper with the rest.
procs_run_aux() {
	local name=$1 log=$2 timeout=$3
	shift 3
	procs_start "$name" "$log" "" "$@"
	if ! procs_wait_any "$timeout" "$name"; then
		[[ $REPLY != timeout ]] || sc_say "$name did not end within $timeout; stopping it"
		procs_stop 5 "$name"
		return 1
	fi
	return "$SC_PROCS_EXIT_STATUS"
}

# --- processes.tsv and the runs still registered (stopping what a killed run left) ---

# procs_state_dir : where running scenarios register their run folders (allocspike-run state-dir:
# $ALLOCSPIKE_STATE_DIR, or a folder of this user's, refused unless it is ours alone; empty then).
procs_state_dir() {
	local run
	run=$(sc_program allocspike-run)
	[[ -n $run ]] && "$run" state-dir 2>/dev/null
}

# procs_register RUN_DIR : RUN_DIR/processes.tsv (created new; fails when anything is there), its first
# row this script itself with its start time, this run registered in the state folder until
# procs_unregister (allocspike-run register), and the run's controller started (its socket in the
# control folder), killed when this script dies.
procs_register() {
	local run me=$BASHPID
	run=$(sc_program allocspike-run)
	if [[ -z $run ]]; then # the run fails when it starts a process; until then it is recorded
		sc_say "allocspike-run is missing from $(sc_bin_dir): no processes.tsv for this run"
		return 0
	fi
	# $BASHPID read here, not inside $(...) or a background command's words, where it would be
	# another process's: a start time not the script's made every later run take this one for killed.
	"$run" register --owner "$me" "$1" || return 1
	SC_PROCS_RUN=$run SC_PROCS_DIR=$1 SC_PROCS_SOCKET=${SC_CTL_DIR:-$1}/run.sock
	"$run" launch --parent "$me" -- "$run" supervise --serve "$SC_PROCS_SOCKET" --out "$1" </dev/null >/dev/null &
	SC_PROCS_CONTROLLER=$!
	# Our child until we reap it, so its PID cannot be reused before this reads its start time.
	SC_PROCS_CONTROLLER_START=$(procs_start_time "$SC_PROCS_CONTROLLER")
	procs_ask stats >/dev/null || {
		SC_PROCS_SOCKET=
		return 1
	}
}

# procs_unregister : this run ended; nothing of it is left to clean: its controller ends too.
procs_unregister() {
	if procs_ask shutdown; then
		wait "$SC_PROCS_CONTROLLER" 2>/dev/null
		SC_PROCS_SOCKET=
	fi
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
