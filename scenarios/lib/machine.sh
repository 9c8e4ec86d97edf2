# scenarios/lib/machine.sh - the machine context recorded in run.json: what can change a memory curve.

# machine_raise_nofile : raises the open-files limit to the hard limit (a resolver with tens of
# thousands of requests in flight needs a socket each); prints the limit now in force.
machine_raise_nofile() {
	ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
	ulimit -n
}

# machine_record NOFILE : run.json's machine: cores, memory, kernel, transparent huge pages and
# allocator-relevant settings (allocspike-run machine).
machine_record() { runjson_set .machine "$("$SC_VARIANTS_RUN" machine --open-files "$1")"; }
