# scenarios/lib/placement.sh - which CPUs the harness (generator, hierarchy) and the resolvers get.

SC_CPUS_HARNESS=
SC_CPUS_RESOLVERS=

# placement_choose MODE : auto | none | HARNESS/RESOLVERS. auto keeps the harness apart from the
# resolvers only when there are 4 cores or more: on fewer, pinning would starve one side.
placement_choose() {
	local cores
	cores=$(nproc)
	case $1 in
	none) ;;
	auto)
		if ((cores >= 4)); then
			SC_CPUS_HARNESS=0
			SC_CPUS_RESOLVERS=1-$((cores - 1))
		fi
		;;
	*)
		SC_CPUS_HARNESS=${1%%/*}
		SC_CPUS_RESOLVERS=${1#*/}
		taskset -c "$SC_CPUS_HARNESS" true 2>/dev/null || opts_fail "--cpu-placement: CPUs '$SC_CPUS_HARNESS' are not usable here"
		taskset -c "$SC_CPUS_RESOLVERS" true 2>/dev/null || opts_fail "--cpu-placement: CPUs '$SC_CPUS_RESOLVERS' are not usable here"
		;;
	esac
}

# placement_json : for run.json's parameters.cpu_placement (empty strings: not pinned).
placement_json() {
	jq -n --arg h "$SC_CPUS_HARNESS" --arg r "$SC_CPUS_RESOLVERS" --arg m "$OPT_cpu_placement" \
		'{mode: $m, harness: $h, resolvers: $r}'
}
