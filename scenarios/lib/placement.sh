# scenarios/lib/placement.sh - which CPUs the harness (generator, hierarchy) and the resolvers get.

SC_CPUS_HARNESS=
SC_CPUS_RESOLVERS=

# placement_choose MODE : auto | none | HARNESS/RESOLVERS, decided by the controller (allocspike-run
# placement: docs/controller.md, "The CPU placement"); a list not usable here is an option error.
placement_choose() {
	local lists
	lists=$("$OPTS_RUN" placement "$1" 2>&1) || opts_fail "$lists"
	IFS=$'\t' read -r SC_CPUS_HARNESS SC_CPUS_RESOLVERS <<<"$lists"
}
