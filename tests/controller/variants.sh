#!/bin/bash
# tests/controller/variants.sh - allocspike-run variants (docs/controller.md, "The variants a run
# chooses"): the project's table read whole; a table with a bad name, an env cell that is no
# NAME=value words, a missing column, a row twice, an env row over no build row refused with
# FILE:LINE and exit 2, nothing printed; --select: the default rows, a list in its own order, an
# unknown or repeated name refused (2); --format json: run.json's rows with their source addresses and this machine as their host.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN=$ALLOCSPIKE_BIN/allocspike-run
[[ -x $RUN ]] || skip "allocspike-run is not built"
T=$TEST_TMP/v.tsv
header=$'# a comment\n\nname\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote'
rows=$'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tthe build row\n'
rows+=$'jemalloc\tbuild\tjemalloc\tglibc\tjemalloc\t-\t-\tyes\tnote with spaces \\ and a backslash\n'
rows+=$'glibc-trim\tenv\tglibc\tglibc\t-\tglibc\tGLIBC_TUNABLES=a=1:b=2 X_1=\tno\tan env row\n'
rows+=$'kresd\texternal\tjemalloc\tglibc\t-\tkresd\t-\tno\ta daemon'
printf '%s\n%s\n' "$header" "$rows" >"$T"

# variants ARGS... : stdout, then "status N", then stderr
variants() {
	local out st
	out=$("$RUN" variants "$@" 2>"$TEST_TMP/err")
	st=$?
	printf '%s\nstatus %d\n%s' "$out" "$st" "$(cat "$TEST_TMP/err")"
}
# table_error ROW : the whole answer for the table with ROW added (its line 8)
table_error() {
	printf '%s\n%s\n%s\n' "$header" "$rows" "$1" >"$TEST_TMP/bad.tsv"
	variants --table "$TEST_TMP/bad.tsv"
}
B=$TEST_TMP/bad.tsv

check_eq "every row, its cells as written" "$rows"$'\nstatus 0' "$(variants --table "$T")"
check_eq "the default rows, in table order" $'glibc\njemalloc' "$("$RUN" variants --table "$T" --select '' | cut -f1)"
check_eq "a list, in its order, empty items skipped" $'kresd\nglibc-trim\nglibc' \
	"$("$RUN" variants --table "$T" --select ',kresd,,glibc-trim,glibc,' | cut -f1)"
H=$(jq -n --arg h "$(uname -n)" '$h') # each row's host: this machine's, as run.json machine.hostname
check_eq "json: run.json's rows, each its own source address and this machine as its host" \
	'[{"name":"kresd","kind":"external","allocator":"jemalloc","libc":"glibc","library":"-","base":"kresd","env":"-","note":"a daemon","version":null,"upstream_source":"127.0.1.1","host":'"$H"'},{"name":"glibc","kind":"build","allocator":"glibc","libc":"glibc","library":"-","base":"-","env":"-","note":"the build row","version":null,"upstream_source":"127.0.1.2","host":'"$H"'}]' \
	"$("$RUN" variants --table "$T" --select kresd,glibc --format json)"

check_eq "an unknown name" \
	$'\nstatus 2\n'"allocspike-run variants: --select: no variant 'nope' in $T (rows: glibc,jemalloc,glibc-trim,kresd)" \
	"$(variants --table "$T" --select glibc,nope)"
check_eq "a name twice" $'\nstatus 2\n'"allocspike-run variants: --select: 'glibc' given twice" \
	"$(variants --table "$T" --select glibc,jemalloc,glibc)"
check_eq "nothing chosen" $'\nstatus 2\n'"allocspike-run variants: --select: no variant chosen" \
	"$(variants --table "$T" --select ,)"

e="allocspike-run variants: $B:8"
check_eq "a name with a slash" $'\nstatus 2\n'"$e: name 'a/b': character '/' at position 2 of a name (allowed: A-Z a-z 0-9 . _ -)" \
	"$(table_error $'a/b\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "a base starting with a dot" $'\nstatus 2\n'"$e: base '../x': name starting with '.' or '-'" \
	"$(table_error $'x\tpreload\tglibc\tglibc\t-\t../x\t-\tno\tn')"
check_eq "a control character, shown escaped" \
	$'\nstatus 2\n'"$e: allocator \$'a\\Eb': byte 0x1b at position 2 of a name (allowed: A-Z a-z 0-9 . _ -)" \
	"$(table_error $'x\tbuild\ta\eb\tglibc\t-\t-\t-\tno\tn')"
check_eq "an env word that is no NAME=value" \
	$'\nstatus 2\n'"$e: env 'A=1 touch': word 'touch' is not NAME=value (NAME: letters, digits and _, not first a digit)" \
	"$(table_error $'x\tenv\tglibc\tglibc\t-\tglibc\tA=1 touch\tno\tn')"
check_eq "an env NAME starting with a digit" \
	$'\nstatus 2\n'"$e: env '1A=2': word '1A=2' is not NAME=value (NAME: letters, digits and _, not first a digit)" \
	"$(table_error $'x\tenv\tglibc\tglibc\t-\tglibc\t1A=2\tno\tn')"
check_eq "an env cell of spaces" $'\nstatus 2\n'"$e: env '  ': empty (write - for no environment)" \
	"$(table_error $'x\tenv\tglibc\tglibc\t-\tglibc\t  \tno\tn')"
check_eq "a missing column" $'\nstatus 2\n'"$e: 8 columns, expected 9 (tab-separated)" \
	"$(table_error $'x\tbuild\tglibc\tglibc\t-\t-\tno\tn')"
check_eq "a row twice" $'\nstatus 2\n'"$e: variant 'glibc' appears twice" \
	"$(table_error $'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "an unknown kind" $'\nstatus 2\n'"$e: kind 'docker' is not build, env, preload or external" \
	"$(table_error $'x\tdocker\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "a daemon row without a base" $'\nstatus 2\n'"$e: a row of kind preload needs a base" \
	"$(table_error $'x\tpreload\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "an env row over a daemon row" \
	$'\nstatus 2\n'"allocspike-run variants: $B: env row 'x' has base 'kresd', which is not a build row" \
	"$(table_error $'x\tenv\tjemalloc\tglibc\t-\tkresd\t-\tno\tn')"
check_eq "a header of 8 columns" $'\nstatus 2\n'"allocspike-run variants: $B:1: 8 columns, expected 9 (tab-separated)" \
	"$(printf 'a\tb\tc\td\te\tf\tg\th\n' >"$B" && variants --table "$B")"
check_eq "a table that is not there" \
	$'\nstatus 2\n'"allocspike-run variants: cannot read the variants table $TEST_TMP/none.tsv" \
	"$(variants --table "$TEST_TMP/none.tsv")"
check_eq "a format that is not tsv or json: status 2" 2 \
	"$("$RUN" variants --table "$T" --format xml >/dev/null 2>&1; echo $?)"

check "the project's table reads" bash -c '"$1" variants --table "$2" >/dev/null' _ "$RUN" "$ALLOCSPIKE_SOURCE_DIR/variants.tsv"
check_eq "its rows: 9 cells each" "" \
	"$("$RUN" variants --table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" | awk -F'\t' 'NF != 9')"
check_eq "its json rows parse, as many" "$("$RUN" variants --table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" | wc -l)" \
	"$("$RUN" variants --table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" --format json | jq length)"
finish
