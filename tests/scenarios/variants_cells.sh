#!/bin/bash
# tests/scenarios/variants_cells.sh - every row of variants.tsv is checked when the table is read,
# before anything runs: env cells are - or NAME=value words (any other word was run by env(1) during
# the version probe), name, base and allocator are names (docs/variants.md, "Names"), and each error
# names variants.tsv, the line and the offending cell. The controller reads the table (allocspike-run
# variants); without it a run stops before anything. A stand-in resolver; nothing else runs.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/variants_table.sh"
[[ -x $ALLOCSPIKE_BIN/allocspike-run ]] || skip "allocspike-run is not built (it reads the table)"

header=$'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote'
build=$'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tthe build row'
# table_error ROW : the error of a table of the build row and ROW (its line 3).
table_error() {
	printf '%s\n%s\n%s\n' "$header" "$build" "$1" >"$TEST_TMP/v.tsv"
	variants_table_read "$TEST_TMP/v.tsv" && echo "(read without error)" || echo "$VARIANTS_TABLE_ERROR"
}
f=$TEST_TMP/v.tsv
check_eq "an env word that is not NAME=value" \
	"$f:3: env 'A=1 touch': word 'touch' is not NAME=value (NAME: letters, digits and _, not first a digit)" \
	"$(table_error $'x\tenv\tglibc\tglibc\t-\tglibc\tA=1 touch\tno\tn')"
check_eq "a NAME that is no shell variable name" \
	"$f:3: env '1A=2': word '1A=2' is not NAME=value (NAME: letters, digits and _, not first a digit)" \
	"$(table_error $'x\tenv\tglibc\tglibc\t-\tglibc\t1A=2\tno\tn')"
check_eq "a base out of scenarios/daemons/" \
	"$f:3: base '../../x': name starting with '.' or '-'" \
	"$(table_error $'x\tpreload\tglibc\tglibc\t-\t../../x\t-\tno\tn')"
check_eq "a base with a slash" \
	"$f:3: base 'a/b': character '/' at position 2 of a name (allowed: A-Z a-z 0-9 . _ -)" \
	"$(table_error $'x\tpreload\tglibc\tglibc\t-\ta/b\t-\tno\tn')"
check_eq "a name starting with -" "$f:3: name '-x': name starting with '.' or '-'" \
	"$(table_error $'-x\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "a name with a control character, shown escaped" \
	"$f:3: name \$'a\\Eb': byte 0x1b at position 2 of a name (allowed: A-Z a-z 0-9 . _ -)" \
	"$(table_error $'a\eb\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "a name of 65 characters" "$f:3: name '$(printf 'a%.0s' {1..65})': name of 65 characters (at most 64)" \
	"$(table_error "$(printf 'a%.0s' {1..65})"$'\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn')"
check_eq "an allocator with a space" \
	"$f:3: allocator 'my alloc': byte 0x20 at position 3 of a name (allowed: A-Z a-z 0-9 . _ -)" \
	"$(table_error $'x\tbuild\tmy alloc\tglibc\t-\t-\t-\tno\tn')"
check_eq "a name of 64 characters, dots, dashes and underscores" "(read without error)" \
	"$(table_error "$(printf 'a%.0s' {1..60})"$'_.-1\tenv\tglibc\tglibc\t-\tglibc\tA_1=x=y:z B=\tno\tn')"
check "the project's table reads" variants_table_read "$ALLOCSPIKE_SOURCE_DIR/variants.tsv"

# Through spike.sh: a row whose env cell holds a command is refused when the table is read, before
# its version is probed, so the command never runs.
root=$TEST_TMP/root bin=$TEST_TMP/bin
mkdir -p "$root" "$bin"
printf '#!/bin/bash\ntouch "%s/ran"\n' "$TEST_TMP" >"$TEST_TMP/evil"
printf '#!/bin/bash\necho "{}"\n' >"$bin/allocspike-resolver-glibc"
chmod +x "$TEST_TMP/evil" "$bin/allocspike-resolver-glibc"
ln -s "$ALLOCSPIKE_BIN/allocspike-run" "$bin/"
printf '%s\n%s\n%s\n' "$header" "$build" $'bad\tenv\tglibc\tglibc\t-\tglibc\tA=1 '"$TEST_TMP/evil"$'\tno\tn' \
	>"$root/variants.tsv"
SC_ROOT=$root ALLOCSPIKE_BIN=$bin ALLOCSPIKE_STATE_DIR=$TEST_TMP/state \
	bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" --no-build --variants bad --out "$TEST_TMP/run" \
	>/dev/null 2>"$TEST_TMP/err"
check "spike.sh fails" test $? -ne 0
check "the command in the env cell never ran" test ! -e "$TEST_TMP/ran"
check "the error names variants.tsv, the line and the word" \
	grep -qF "variants.tsv:3: env 'A=1 $TEST_TMP/evil': word '$TEST_TMP/evil' is not NAME=value" "$TEST_TMP/err"
check "no run folder" test ! -e "$TEST_TMP/run"

# Without the controller nothing reads the options or the table: a --no-build run says so and writes
# nothing.
mkdir -p "$TEST_TMP/empty"
ALLOCSPIKE_BIN=$TEST_TMP/empty ALLOCSPIKE_STATE_DIR=$TEST_TMP/state \
	bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" --no-build --variants glibc --out "$TEST_TMP/run" \
	>/dev/null 2>"$TEST_TMP/err"
check_eq "spike.sh without allocspike-run: status" 1 $?
check "the error names the controller and why it is needed" \
	grep -qF "allocspike-run is missing from $TEST_TMP/empty (needed to read the scenario's options; --no-build builds nothing)" \
	"$TEST_TMP/err"
check "still no run folder" test ! -e "$TEST_TMP/run"
finish
