# scenarios/lib/hierarchy.sh - the simulated DNS hierarchy (allocspike-upstream) of a run. The run's
# controller makes its command from the run's options, starts it, waits for it and records it
# (docs/controller.md, "The hierarchy"); --dry-run prints the same command (allocspike-run dry-run).

# hierarchy_given : the options the user gave, comma-separated: in the internet and hostile worlds,
# which set their own, the hierarchy is given the run's latency and loss only when given.
hierarchy_given() {
	local IFS=,
	echo "${!OPT_SET[*]}"
}
