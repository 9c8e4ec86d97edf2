#!/usr/bin/env bash
# tests/querydata/fetch.sh - fetch-oarc.sh offline: --from a folder or a file:// URL, SHA-256 recorded then checked, clear failure.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
FETCH="$ALLOCSPIKE_SOURCE_DIR/querydata/fetch-oarc.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"

# a fake upstream folder with two small parts
src="$TEST_TMP/upstream"
mkdir -p "$src"
for p in 01 02; do
	"$QD" generate --seed "$p" --count 500 | xz -c >"$src/queryfile-example-10million-201202_part$p.xz"
done
dest="$TEST_TMP/dest"

out=$(bash "$FETCH" --from "$src" --dest "$dest" --parts 1-2 2>"$TEST_TMP/err1")
check_eq "prints each part's path" "$dest/queryfile-example-10million-201202_part01.xz $dest/queryfile-example-10million-201202_part02.xz" "$(echo $out)"
check "parts copied byte for byte" cmp -s "$src/queryfile-example-10million-201202_part02.xz" "$dest/queryfile-example-10million-201202_part02.xz"
check_eq "SHA-256 recorded on first fetch" "$(cd "$src" && sha256sum queryfile-example-10million-201202_part0{1,2}.xz)" "$(cat "$dest/SHA256SUMS")"
check "the part is a readable query file" "$QD" stats "$dest/queryfile-example-10million-201202_part01.xz"

# second run: checks the record, fetches nothing, --decompress writes the plain file once
out=$(bash "$FETCH" --from "$src" --dest "$dest" --parts 1 --decompress 2>"$TEST_TMP/err2")
check_eq "--decompress prints the plain file" "$dest/queryfile-example-10million-201202_part01" "$out"
check "plain file is the decompressed part" cmp -s "$dest/queryfile-example-10million-201202_part01" <(xz -dc "$src/queryfile-example-10million-201202_part01.xz")
check "nothing fetched again" bash -c "! grep -q fetching '$TEST_TMP/err2'"
check_eq "record unchanged" 2 "$(wc -l <"$dest/SHA256SUMS")"

# a changed file fails the check, naming the file
"$QD" generate --seed 77 --count 500 | xz -c >"$dest/queryfile-example-10million-201202_part02.xz"
check "a part that changed is refused" bash -c "! bash '$FETCH' --from '$src' --dest '$dest' --parts 2 2>'$TEST_TMP/err3'"
check "the refusal names the file and the record" grep -q "part02.xz: SHA-256 .* does not match" "$TEST_TMP/err3"

# a deleted part fetched again must match the record too
rm "$dest/queryfile-example-10million-201202_part01.xz"
if command -v curl >/dev/null; then
	check "--from file:// URL" bash "$FETCH" --from "file://$src" --dest "$dest" --parts 1
else
	check "--from folder again" bash "$FETCH" --from "$src" --dest "$dest" --parts 1
fi

# no source: a clear message saying how to place the files by hand (a closed loopback port
# stands in for a machine without network)
check "unreachable source fails" bash -c "! bash '$FETCH' --from http://127.0.0.1:9 --dest '$TEST_TMP/none' --parts 3 2>'$TEST_TMP/err4'"
check "failure says how to place files by hand" grep -q "place the files by hand" "$TEST_TMP/err4"
check "failure names the part" grep -q "queryfile-example-10million-201202_part03.xz" "$TEST_TMP/err4"
check "missing part in a folder fails" bash -c "! bash '$FETCH' --from '$src' --dest '$TEST_TMP/none' --parts 4 2>/dev/null"
bash "$FETCH" --parts 11 --dest "$TEST_TMP/none" 2>/dev/null
check_eq "bad --parts is refused as usage (2)" 2 "$?"
bash "$FETCH" --no-such-option 2>/dev/null
check_eq "an unknown option is refused as usage (2)" 2 "$?"
bash "$FETCH" --dest 2>"$TEST_TMP/err5"
check_eq "an option without its value is refused as usage (2)" 2 "$?"
check "and says which" grep -q -- "--dest needs a value" "$TEST_TMP/err5"
finish
