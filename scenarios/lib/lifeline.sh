# scenarios/lib/lifeline.sh - the words put before a command so that the process dies with the shell
# that starts it, even when that shell is SIGKILLed (scenarios/README.md, "Processes").
# Sourced by scale.sh, serve.sh, scenarios/daemons/lib/run.sh and tests/lib.sh.

# lifeline_set : sets LIFELINE (an array) for the calling shell. setpriv (util-linux) asks the kernel
# for SIGKILL when this shell exits (PR_SET_PDEATHSIG), which covers daemons we cannot change; the
# sh guard then refuses to run when this shell already died before that request could take effect;
# ALLOCSPIKE_PARENT_PID lets our own programs arm the same signal themselves (common/parent_death.c),
# which keeps working under a wrapper that forks them (perf stat). Every word execs in place, so $!
# is the program itself.
lifeline_set() {
	# shellcheck disable=SC2016 # $0 and $PPID belong to the guard shell
	LIFELINE=(setpriv --pdeathsig KILL -- sh -c \
		'[ "$PPID" = "$0" ] || { echo "the script that started this (pid $0) is gone" >&2; exit 125; }; exec "$@"' \
		"$BASHPID" env "ALLOCSPIKE_PARENT_PID=$BASHPID")
}
