# tests/reports/crafted_timeline.sh - crafted timeline.csv rows by column name (the header is the
# fixture's, which the generator's tests keep equal to common/timeline_columns.h). Sourced.

mapfile -t CRAFTED_COLUMNS < <(head -n 1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" | tr ',' '\n')

# crafted_header : the header line.
crafted_header() {
	local IFS=,
	echo "${CRAFTED_COLUMNS[*]}"
}

# crafted_rows : one row per input line of COLUMN=VALUE words; the columns not named are empty (not
# available). One awk for the whole file: a loaded machine makes a fork per row slow.
crafted_rows() {
	awk -v cols="$(crafted_header)" 'BEGIN { n = split(cols, c, ",") }
	{
		split("", cell)
		for (i = 1; i <= NF; i++) { k = index($i, "="); cell[substr($i, 1, k - 1)] = substr($i, k + 1) }
		line = ""
		for (j = 1; j <= n; j++) line = line (j > 1 ? "," : "") ((c[j] in cell) ? cell[c[j]] : "")
		print line
	}'
}
