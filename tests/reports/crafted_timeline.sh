# tests/reports/crafted_timeline.sh - crafted timeline.csv rows by column name (the header is the
# fixture's, which the generator's tests keep equal to common/timeline_columns.h). Sourced.

mapfile -t CRAFTED_COLUMNS < <(head -n 1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" | tr ',' '\n')

# crafted_header : the header line.
crafted_header() { (IFS=, && echo "${CRAFTED_COLUMNS[*]}"); }

# crafted_row COLUMN=VALUE... : one row; the columns not named are empty (not available).
crafted_row() {
	local -A cell=()
	local kv c out=()
	for kv in "$@"; do cell[${kv%%=*}]=${kv#*=}; done
	for c in "${CRAFTED_COLUMNS[@]}"; do out+=("${cell[$c]:-}"); done
	(IFS=, && echo "${out[*]}")
}
