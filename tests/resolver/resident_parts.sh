#!/bin/bash
# tests/resolver/resident_parts.sh VARIANT NET - anon RSS splits into measured parts under load: one
# resolver build against the simulated hierarchy takes a short spike from the generator while
# `stats` is read every 0.2 s. At every sample, in the same `stats` call: live bytes, held by the
# allocator (its resident heap less live) and outside it (the loaded objects', stacks' and special
# maps' anonymous pages, measured apart) add up to the process's RssAnon within 1 %, none is
# negative, and the heap is neither anon RSS nor its own figure by rule (docs/allocator-stats.md,
# "Resident heap"). The timeline the generator wrote puts memory outside the allocator in every row.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
VARIANT=$1 NET=$2
RESOLVER="$ALLOCSPIKE_BIN/allocspike-resolver-$VARIANT"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"
[[ -x $RESOLVER ]] || skip "allocspike-resolver-$VARIANT not built"
[[ -x $LG && -x $QD ]] || skip "allocspike-loadgen or allocspike-querydata not built"
[[ $ALLOCSPIKE_SANITIZE != 1 ]] || skip "no live-bytes counter in the sanitizer build"
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/world_lib.sh"

start_world upstream --hierarchy-block "$NET.0/24" --seed 11 || exit 1
start_world_resolver resolver "$RESOLVER" "$NET.250" --upstream-source "$NET.250" || exit 1
"$QD" generate --seed 5 --count 20000 --out "$TEST_TMP/q.txt" >/dev/null || exit 1

# The generator in the background, bounded by its schedule (7 s); stats sampled meanwhile.
"$LG" -d "$TEST_TMP/q.txt" --schedule 'baseline:2s@200,spike:2s@1500,recovery:3s@200' \
	--out "$TEST_TMP/run" --no-progress \
	--target "name=$VARIANT,addr=$RADDR:$RPORT,pid=$RPID,control=$RCTL" >"$TEST_TMP/lg.out" 2>&1 &
lg=$!
_test_pids+=("$lg")
python3 - "$RCTL" "$lg" >"$TEST_TMP/samples.jsonl" <<'PY'
import socket, sys, time
ctl, lg = sys.argv[1], sys.argv[2]

def generator_running():
    try:
        with open(f"/proc/{lg}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

for i in range(60):  # at most 12 s
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(ctl)
    s.sendall(b"stats\n")
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
    s.close()
    sys.stdout.write(buf.decode())
    if not generator_running():
        break
    time.sleep(0.2)
PY
wait "$lg"
check_eq "the generator ran its schedule" 0 $?
n=$(wc -l <"$TEST_TMP/samples.jsonl")
# about 35 on an idle machine (7 s, one every 0.2 s); a busy one answers `stats` slower (12 once
# in CI beside a build): the checks below need a few rows through the spike, not a rate
check "stats sampled through the load ($n samples)" test "$n" -ge 8
sent=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["answered"] } END { print s + 0 }' \
	"$TEST_TMP/run/timeline.csv")
check "the resolver answered the load ($sent answers)" test "$sent" -gt 3000

# Per sample: live, heap (the resident heap), the three outside parts and anon RSS, in bytes.
# "own" is what the allocator counts as its footprint: its own figure, or for mallocng the mapped
# size of its maps.
jq -r '[.live_bytes, .alloc.heap_bytes, .alloc.own.heap_maps_bytes,
	(.alloc.own.heap_uncapped_bytes // (.alloc.own.brk_heap_size_bytes + .alloc.own.anon_maps_size_bytes)),
	.alloc.own.outside_objects_bytes + .alloc.own.outside_stacks_bytes + .alloc.own.outside_special_bytes,
	.alloc.own.anon_rss_bytes] | map(tostring) | join(" ")' "$TEST_TMP/samples.jsonl" >"$TEST_TMP/parts"
awk '{ printf "live %.2f MB held %.2f MB outside %.2f MB (measured %.2f) anon %.2f MB\n",
	$1 / 1048576, ($2 - $1) / 1048576, ($6 - $2) / 1048576, $5 / 1048576, $6 / 1048576 }' "$TEST_TMP/parts" |
	sort | uniq -c | sort -k3 -n | tail -5
# failing CONDITION : the samples (awk over $TEST_TMP/parts) where CONDITION does not hold.
failing() {
	awk "{ live = \$1; heap = \$2; maps = \$3; own = \$4; outside = \$5; anon = \$6 }
		!($1) { print NR \": \" \$0 }" "$TEST_TMP/parts"
}
check_eq "every sample has every part (numbers)" "" "$(failing 'anon > 0 && heap > 0 && live > 0 && outside > 0')"
check_eq "live + held + outside = anon RSS within 1 % at every sample" "" \
	"$(failing 'live + (heap - live) + outside - anon <= anon / 100 && anon - (live + (heap - live) + outside) <= anon / 100')"
check_eq "outside the allocator (anon - heap) never negative, never 0" "" "$(failing 'anon > heap')"
check_eq "the heap is the smaller measured figure: never above its maps' resident pages or its own figure" "" \
	"$(failing 'heap <= maps && heap <= own')"
# Held (heap - live) is negative while live blocks are not all in RAM: the resolver's hash tables
# are calloc'd fresh pages, live from the start, resident as entries land in them. By no more than
# the pages the allocator counts but does not have in RAM. Not asserted: that it is never negative
# once the load has run. On a machine with kernel 6.18 live stayed 0.4-0.9 MB above musl's resident
# heap through this test's recovery (table pages no entry landed in, not yet in RAM), where earlier
# machines had them all resident; why is not known (transparent huge pages set to always did not
# change it). The reports say such bytes apart (live_not_resident_kb).
check_eq "held below 0 only by pages the allocator counts but has not in RAM" "" \
	"$(failing 'heap - live >= -(own - heap)')"
# The columns the reports read: outside (anon_kb - alloc_heap_bytes) is memory, not 0 by rule. The
# generator reads anon_kb a moment before `stats`, so a row taken while memory grows can differ.
read -r rows positive < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["alloc_heap_bytes"] != "" && $c["anon_kb"] != "" {
		n++; pos += $c["anon_kb"] * 1024 - $c["alloc_heap_bytes"] > 0 }
	END { print n + 0, pos + 0 }' "$TEST_TMP/run/timeline.csv")
check "the timeline has rows with the heap ($rows)" test "$rows" -ge 4
check "most timeline rows have memory outside the allocator ($positive of $rows)" test $((positive * 2)) -gt "$rows"
finish
