# scenarios/lib/machine.sh - the machine's limits a run needs (run.json's machine is recorded by
# the controller's `parameters`: experiment.sh).

# machine_raise_nofile : raises the open-files limit to the hard limit (a resolver with tens of
# thousands of requests in flight needs a socket each); prints the limit now in force.
machine_raise_nofile() {
	ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
	ulimit -n
}
