# scenarios/lib/runjson.sh - owns run.json (docs/run-folder.md): every change is a jq filter over the
# current document written to a temporary file and renamed over it (files_replace), so a reader never
# sees half a file.

SC_RUNJSON=

# runjson_init FILE SCENARIO : a new run.json with status "running".
runjson_init() {
	SC_RUNJSON=$1
	files_replace "$SC_RUNJSON" jq -n --arg scenario "$2" --arg started "$(sc_iso_now)" \
		'{format: 1, status: "running", scenario: $scenario, started: $started, ended: null,
		  parameters: {}, variants: [], machine: {}, queryfile: null, calibration: null}'
}

# runjson_update FILTER [jq options...] : applies FILTER (with --arg/--argjson options) atomically.
runjson_update() {
	[[ -n $SC_RUNJSON && -f $SC_RUNJSON ]] || return 0
	local filter=$1
	shift
	files_replace "$SC_RUNJSON" jq "$@" "$filter" "$SC_RUNJSON"
}

# runjson_set PATH JSON : sets one value, e.g. runjson_set .machine '{"cores": 2}'.
runjson_set() { runjson_update "$1 = \$v" --argjson v "$2"; }

# runjson_finish STATUS [REASON] : the final status, end time and (for failures) the reason.
runjson_finish() {
	runjson_update '.status = $s | .ended = $e | if $r != "" then .failure = $r else . end' \
		--arg s "$1" --arg e "$(sc_iso_now)" --arg r "${2:-}"
}
