# tests/reports/expect.sh - sourced by the report tests: figures of a summary.json checked against
# values worked out by hand, many per jq call.

# expect FILE JQ_PATH EXPECTED : the figure equals EXPECTED (numbers within 1e-9, or null/strings,
# arrays, objects exactly). Checks are gathered and run by expect_done in one jq call per file.
_exp_file="" _exp_paths=() _exp_wants=()
expect() {
	_exp_file=$1
	_exp_paths+=("$2")
	_exp_wants+=("$3")
}
expect_done() {
	local prog="[" sep="" p got report
	for p in "${_exp_paths[@]}"; do
		prog+="$sep($p)"
		sep=", "
	done
	got=$(jq -c "$prog]" "$_exp_file") || {
		echo "FAIL jq could not read $_exp_file"
		_test_failures=$((_test_failures + 1))
	}
	report=$(jq -r -n --argjson g "$got" --argjson w "[$(
		IFS=,
		echo "${_exp_wants[*]}"
	)]" '$ARGS.positional as $p | range(0; $w|length) as $i | $g[$i] as $x | $w[$i] as $y |
		if (if ($y|type) == "number" and ($x|type) == "number" then (($x - $y)|fabs) < 1e-9 else $x == $y end)
		then "ok   \($p[$i]) = \($x|tojson)"
		else "FAIL \($p[$i]): expected \($y|tojson), got \($x|tojson)" end' --args "${_exp_paths[@]}")
	echo "$report"
	_test_checks=$((_test_checks + ${#_exp_paths[@]}))
	_test_failures=$((_test_failures + $(grep -c '^FAIL' <<<"$report")))
	_exp_paths=() _exp_wants=()
}

# calc EXPR : the value of an arithmetic expression, to full double precision.
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }
