#!/bin/bash
# tests/reports/layering.sh - the report's layers (reports/README.md "Layers"): no file of reports/
# includes another that, directly or not, includes it back (X.c and X.h count as one module X), and
# passes.c calls the passes in an order where each module has one pass and none includes a module
# whose pass comes later. Each check is also run on a copy of reports/ broken on purpose, where it
# must fail.
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib_layering.sh"

# pass_calls DIR: the module of each pass passes_run calls, in order, one a line. A call's module
# is the longest prefix of the function's name that names a header of DIR
# (spike_shape_add_variant_figures: spike_shape.h). The model (model.h: the run's structures the
# passes fill and read, passes_run frees it) is below the passes, not one of them.
pass_calls() {
	local dir=$1 fn m
	sed -n '/^json_t \*passes_run(/,/^}/p' "$dir/passes.c" | grep -oE '\b[a-z_]+\(' | tr -d '(' |
		while read -r fn; do
			m=$fn
			while [[ -n $m && ! -e $dir/$m.h ]]; do
				if [[ $m == *_* ]]; then m=${m%_*}; else m=; fi
			done
			if [[ -n $m && $m != passes && $m != model ]]; then echo "$m"; fi
		done
}

# pass_modules DIR: the modules of the passes, in the order of their first (and only) call.
pass_modules() { pass_calls "$1" | awk '!seen[$0]++'; }

# one_pass_each DIR: no module has two passes (an early one for its figures, a late one for its
# words: the figures belong in a module of their own, below the words).
one_pass_each() {
	local twice
	twice=$(pass_calls "$1" | sort | uniq -d)
	if [[ -n $twice ]]; then
		echo "modules with more than one pass: $twice"
		return 1
	fi
}

# reaches EDGES FROM TO: module FROM includes TO, directly or not (EDGES from include_edges).
reaches() {
	local edges=$1 to=$3 seen=" $2 " m d
	local -a frontier=("$2") next
	while ((${#frontier[@]})); do
		next=()
		for m in "${frontier[@]}"; do
			while read -r d; do
				if [[ $d == "$to" ]]; then return 0; fi
				if [[ $seen == *" $d "* ]]; then continue; fi
				seen+="$d "
				next+=("$d")
			done < <(awk -v m="$m" '$1 == m { print $2 }' <<<"$edges")
		done
		frontier=("${next[@]}")
	done
	return 1
}

# passes_in_order DIR: at least five modules of passes, and none that includes a later one's.
passes_in_order() {
	local dir=$1 edges i j ok=0
	local -a mods
	edges=$(include_edges "$dir")
	mapfile -t mods < <(pass_modules "$dir")
	if ((${#mods[@]} < 5)); then
		echo "only ${#mods[@]} passes found in $dir/passes.c: ${mods[*]}"
		return 1
	fi
	for ((i = 0; i < ${#mods[@]}; i++)); do
		for ((j = i + 1; j < ${#mods[@]}; j++)); do
			if reaches "$edges" "${mods[i]}" "${mods[j]}"; then
				echo "pass $((i + 1)) ${mods[i]} includes pass $((j + 1)) ${mods[j]}"
				ok=1
			fi
		done
	done
	return $ok
}

# model_below_passes DIR: the model includes no module of a pass, directly or not: every pass may
# read it, so it can call none.
model_below_passes() {
	local dir=$1 edges m ok=0
	edges=$(include_edges "$dir")
	for m in $(pass_modules "$dir"); do
		if reaches "$edges" model "$m"; then
			echo "model includes the pass $m"
			ok=1
		fi
	done
	return $ok
}

src="$ALLOCSPIKE_SOURCE_DIR/reports"
check "the report's modules include each other without a cycle" acyclic "$src"
check "the model includes no pass" model_below_passes "$src"
check "passes.c calls each module's pass once" one_pass_each "$src"
check "passes.c calls no module's pass before that of a module it includes" passes_in_order "$src"
echo "the passes, in order: $(pass_modules "$src" | paste -sd' ')"
print_include_edges "$src"

# The same checks on broken copies of reports/ must fail.
broken=$TEST_TMP/reports

fresh_copy "$src" "$broken"
sed -i '0,/^#include "attribution.h"/s//#include "attribution.h"\n#include "passes.h"/' "$broken/figures.c"
check "caught: figures.c including passes.h (a pass calling back up)" fails acyclic "$broken"

fresh_copy "$src" "$broken"
sed -i '0,/^#include "strbuf.h"/s//#include "strbuf.h"\n#include "verdict.h"/' "$broken/validity.c"
check "caught: validity.c including verdict.h (verdict.c includes validity.h)" fails acyclic "$broken"

fresh_copy "$src" "$broken"
validity_pass=$(grep -F 'validity_build(rf, sum, &model)' "$src/passes.c")
sed -i -e '/validity_build(rf, sum, &model)/d' -e "/verdict_build(sum, &model)/a\\$validity_pass" "$broken/passes.c"
check "the broken passes.c is still acyclic" acyclic "$broken"
check "caught: validity after the verdict and the findings, which include validity.h" \
	fails passes_in_order "$broken"

fresh_copy "$src" "$broken"
sed -i '0,/^#include "judgement.h"/s//#include "judgement.h"\n#include "findings.h"/' "$broken/spike_shape.c"
check "the broken spike_shape.c is still acyclic" acyclic "$broken"
check "caught: spike_shape.c, an early pass, including findings.h, a later pass's header" \
	fails passes_in_order "$broken"

fresh_copy "$src" "$broken"
sed -i 's/^\tspike_shape_add_variant_figures(sum, &model);$/&\n\tfindings_build(sum, \&model);/' "$broken/passes.c"
check "caught: a module (findings.c) with two passes" fails one_pass_each "$broken"

fresh_copy "$src" "$broken"
sed -i '0,/^#include "summary_json.h"/s//#include "summary_json.h"\n#include "aliases.h"/' "$broken/model.c"
check "the broken model.c is still acyclic" acyclic "$broken"
check "caught: model.c including aliases.h, a pass" fails model_below_passes "$broken"
finish
