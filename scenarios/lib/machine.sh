# scenarios/lib/machine.sh - the machine context recorded in run.json: what can change a memory curve.

# machine_raise_nofile : raises the open-files limit to the hard limit (a resolver with tens of
# thousands of requests in flight needs a socket each); prints the limit now in force.
machine_raise_nofile() {
	ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
	ulimit -n
}

# machine_record NOFILE : run.json's machine: cores, memory, kernel, transparent huge pages and
# allocator-relevant settings.
machine_record() {
	local thp=unknown defrag=unknown mem_kb
	[[ -r /sys/kernel/mm/transparent_hugepage/enabled ]] &&
		thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled)
	[[ -r /sys/kernel/mm/transparent_hugepage/defrag ]] &&
		defrag=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/defrag)
	mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	runjson_fields .machine "cores:=$(nproc)" "memory_kb:=${mem_kb:-0}" "kernel=$(uname -r)" "thp=$thp" \
		"thp_defrag=$defrag" "open_files_limit:=$1" \
		"cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" "hostname=$(uname -n)" \
		"libc=$(getconf GNU_LIBC_VERSION 2>/dev/null || true)" \
		"overcommit_memory=$(cat /proc/sys/vm/overcommit_memory 2>/dev/null || true)"
}
