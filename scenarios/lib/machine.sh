# scenarios/lib/machine.sh - the machine context recorded in run.json: what can change a memory curve.

# machine_raise_nofile : raises the open-files limit to the hard limit (a resolver with tens of
# thousands of requests in flight needs a socket each); prints the limit now in force.
machine_raise_nofile() {
	ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
	ulimit -n
}

# machine_json NOFILE : cores, memory, kernel, transparent huge pages and allocator-relevant settings.
machine_json() {
	local thp=unknown defrag=unknown mem_kb
	[[ -r /sys/kernel/mm/transparent_hugepage/enabled ]] &&
		thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled)
	[[ -r /sys/kernel/mm/transparent_hugepage/defrag ]] &&
		defrag=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/defrag)
	mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	jq -n --argjson cores "$(nproc)" --argjson mem "${mem_kb:-0}" --arg kernel "$(uname -r)" \
		--arg thp "$thp" --arg defrag "$defrag" --argjson nofile "$1" \
		--arg cpu "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
		--arg host "$(uname -n)" --arg glibc "$(getconf GNU_LIBC_VERSION 2>/dev/null || true)" \
		--arg overcommit "$(cat /proc/sys/vm/overcommit_memory 2>/dev/null || true)" \
		'{cores: $cores, memory_kb: $mem, kernel: $kernel, thp: $thp, thp_defrag: $defrag,
		  open_files_limit: $nofile, cpu_model: $cpu, hostname: $host, libc: $glibc,
		  overcommit_memory: $overcommit}'
}
