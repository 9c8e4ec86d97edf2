#!/bin/bash
# upstream/benchmark.sh - CPU per reply of allocspike-upstream next to knotd, on the same query
# streams from dnsperf. Not a test: prints a table (and the load average it ran under).
#
# usage: upstream/benchmark.sh [BUILD_DIR] [SECONDS] [BASELINE]   (default build/, 10 s per run)
# Each server runs pinned to CPU 0 and dnsperf to CPU 1. The figure that counts is replies per
# CPU-second of the server ("per core"): on a busy machine the generator limits the achieved rate,
# not the server. Both servers get the same query files: knotd serves a root zone delegating every
# TLD of the sample (with glue) and the zone simcdn-0.net. with 50,000 leaf names (1-4 addresses,
# a fifth of them in-zone CNAMEs), the shapes our hierarchy answers at its root and CDN servers.
# "fresh" rows run ours with --reply-cache 0: every reply is built (or patched from a template),
# none is a copy of an earlier reply to the same question.
# The spread rows send what a resolver without a cache sends for the sample (--mix-steps: each
# question to the server it asks, 121 of the 124 addresses), at a fixed rate and as fast as
# spread_load.py goes, and print CPU microseconds per reply: ours (and BASELINE, another build's
# allocspike-upstream, e.g. before a change) and knotd listening on 124 addresses, one socket each.
# Each spread row follows a "one address" row: the same questions, sender and rate, all to the
# first root server's address (knotd's .1), the single-address figure to compare it with.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECONDS_PER_RUN=${2:-10}
BASELINE=${3:-}
U=${ALLOCSPIKE_BIN:-$BUILD/bin}/allocspike-upstream
source "$SRC/scripts/bench-lib.sh"
bench_require dnsperf knotd kdig taskset python3
[[ -x "$U" ]] || { echo "benchmark: $U not built (cmake --build $BUILD --target allocspike-upstream)" >&2; exit 1; }
bench_workdir bench
BLOCK=127.54.60.0/24
KNOT_ADDR=127.54.61.1
KNOT_SPREAD=127.54.62 # knotd's addresses for the spread load: ours' 127.54.60.N is its .N
HZ=$(getconf CLK_TCK)

# per_core PID SERVER PORT QUERYFILE: one dnsperf run; prints "qps lost replies-per-cpu-second"
per_core() {
	local pid=$1 server=$2 port=$3 queries=$4 t0 t1 qps lost
	t0=$(cpu_ticks "$pid")
	taskset -c 1 dnsperf -s "$server" -p "$port" -d "$queries" -l "$SECONDS_PER_RUN" \
		-c 16 -q 4000 -t 1 >"$WORK/dnsperf.out" 2>&1
	t1=$(cpu_ticks "$pid")
	qps=$(sed -n 's/.*Queries per second: *\([0-9.]*\).*/\1/p' "$WORK/dnsperf.out")
	lost=$(sed -n 's/.*Queries lost: *[0-9]* (\([0-9.]*%\)).*/\1/p' "$WORK/dnsperf.out")
	awk -v q="${qps:-0}" -v l="${lost:-?}" -v c="$((t1 - t0))" -v hz="$HZ" -v s="$SECONDS_PER_RUN" \
		'BEGIN {cpu = c / hz; printf "%.0f %s %.0f\n", q, l, (cpu > 0 ? q * s / cpu : 0)}'
}

# query sets: the DNS-OARC sample (referrals and NXDOMAIN at a root server), leaf names at the
# CDN zone's server, and the scenario's shape: every question four times (four variants)
SAMPLE="$SRC/../shared/querydata/queryfile-example-10million-201202_head100k.xz"
[[ -r "$SAMPLE" ]] || SAMPLE="$SRC/querydata/queryfile-example-10million-201202_head100k.xz"
if [[ -r "$SAMPLE" ]]; then
	xz -dc "$SAMPLE" >"$WORK/referral.txt"
else
	for ((i = 0; i < 50000; i++)); do echo "www.site$i.com. A"; done >"$WORK/referral.txt"
fi
awk '{for (i = 0; i < 4; i++) print}' "$WORK/referral.txt" >"$WORK/fanout.txt"
for ((i = 0; i < 50000; i++)); do echo "e$i.simcdn-0.net. A"; done >"$WORK/leaf.txt"

# knotd: the root zone delegating every TLD of the sample, and the CDN zone
{
	echo '$ORIGIN .'
	echo '$TTL 86400'
	echo '. SOA a.root-servers.net. nstld.verisign-grs.com. 1 1800 900 604800 86400'
	echo ". NS a.root-servers.net."
	echo "a.root-servers.net. A $KNOT_ADDR"
	awk '{n = split(tolower($1), l, "."); t = l[n - 1]} t ~ /^[a-z][a-z0-9-]*$/ && !(t in s) && t != "net" {s[t]; print t}' \
		"$WORK/referral.txt" | while read -r tld; do
		printf '%s. 172800 NS ns1.nic.%s.\n%s. 172800 NS ns2.nic.%s.\n' "$tld" "$tld" "$tld" "$tld"
		printf 'ns1.nic.%s. 172800 A 192.0.2.1\nns2.nic.%s. 172800 A 192.0.2.2\n' "$tld" "$tld"
	done
	printf 'net. 172800 NS a.gtld-servers.net.\nnet. 172800 NS b.gtld-servers.net.\n'
	printf 'a.gtld-servers.net. 172800 A 192.0.2.3\nb.gtld-servers.net. 172800 A 192.0.2.4\n'
} >"$WORK/root.zone"
{
	echo '$ORIGIN simcdn-0.net.'
	echo '$TTL 3600'
	echo '@ SOA ns1 hostmaster 1 7200 900 1209600 300'
	echo '@ NS ns1'
	echo '@ NS ns2'
	echo "ns1 A $KNOT_ADDR"
	echo "ns2 A $KNOT_ADDR"
	awk 'BEGIN {
		for (i = 0; i < 50000; i++) {
			if (i % 5 == 0) { printf "e%d 60 CNAME a%d\n", i, i; name = "a" i } else name = "e" i
			for (k = 0; k <= i % 4; k++) printf "%s 60 A 192.0.%d.%d\n", name, k, i % 250
		}
	}'
} >"$WORK/cdn.zone"
cat >"$WORK/knot.conf" <<EOF2
server:
    rundir: "$WORK"
    listen: [ $KNOT_ADDR@5300, $(for ((i = 1; i <= 124; i++)); do printf '%s.%d@5300, ' $KNOT_SPREAD $i; done | sed 's/, $//') ]
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1
log:
  - target: stderr
    any: warning
database:
    storage: "$WORK/knotdb"
template:
  - id: default
    storage: "$WORK"
    semantic-checks: off
zone:
  - domain: .
    file: root.zone
  - domain: simcdn-0.net.
    file: cdn.zone
EOF2
taskset -c 0 knotd -c "$WORK/knot.conf" >"$WORK/knot.log" 2>&1 &
kpid=$!
PIDS+=("$kpid")
for ((i = 0; i < 300; i++)); do
	kdig @"$KNOT_ADDR" -p 5300 +time=1 +retry=0 simcdn-0.net. SOA 2>/dev/null | grep -q 'status: NOERROR' && break
	sleep 0.1
done

# start_ours FLAGS...: sets OPID, OROOT, OCDN, OPORT (OURS: the binary, $U unless set)
start_ours() {
	rm -f "$WORK/ready"
	taskset -c 0 "${OURS:-$U}" --block "$BLOCK" --port 0 "$@" --ready-file "$WORK/ready" >/dev/null 2>&1 &
	OPID=$!
	PIDS+=("$OPID")
	wait_ready "$WORK/ready" "$OPID"
	local addr net
	addr=$(sed 's/^ready //' "$WORK/ready")
	OROOT=${addr%:*} OPORT=${addr##*:}
	# the CDN zone's first server: two referrals down from the root
	net=$(kdig @"$OROOT" -p "$OPORT" +norec simcdn-0.net. NS | awk '/ADDITIONAL/ {on = 1; next} on && $4 == "A" {print $5; exit}')
	OCDN=$(kdig @"$net" -p "$OPORT" +norec simcdn-0.net. NS | awk '/ADDITIONAL/ {on = 1; next} on && $4 == "A" {print $5; exit}')
}
stop_ours() { kill "$OPID"; wait "$OPID" 2>/dev/null || true; }

# row LABEL WHERE QUERYFILE: ours (running) next to knotd on the same file; WHERE root or cdn
row() {
	local label=$1 where=$2 queries=$3 ours knot server
	server=$OROOT
	[[ $where == cdn ]] && server=$OCDN
	ours=$(per_core "$OPID" "$server" "$OPORT" "$queries")
	knot=$(per_core "$kpid" "$KNOT_ADDR" 5300 "$queries")
	awk -v n="$label" -v o="$ours" -v k="$knot" 'BEGIN {
		split(o, a, " "); split(k, b, " ")
		printf "%-44s %8.0f %7s %9.0f %9.0f %6.2f\n", n, a[1], a[2], a[3], b[3], (b[3] > 0 ? a[3] / b[3] : 0)
	}'
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
printf "%-44s %8s %7s %9s %9s %6s\n" "query set (ours: mode)" "qps" "lost" "ours/core" "knot/core" "ratio"
start_ours --no-latency --no-loss --reply-cache 0
row "referrals, fresh (latency off)" root "$WORK/referral.txt"
row "leaf answers, fresh (latency off)" cdn "$WORK/leaf.txt"
stop_ours
start_ours --no-latency --no-loss
row "fan-out x4, reply cache (latency off)" root "$WORK/fanout.txt"
stop_ours
start_ours --reply-cache 0
row "referrals, fresh (lan world)" root "$WORK/referral.txt"
row "leaf answers, fresh (lan world)" cdn "$WORK/leaf.txt"
stop_ours
start_ours --reply-cache 0 --world internet
row "referrals, fresh (internet world)" root "$WORK/referral.txt"
stop_ours

# spread PID PORT STEPS RATE [FROM TO]: one spread_load.py run of STEPS at RATE (0: as fast as it
# goes); prints "achieved-qps lost CPU-us-per-reply" of PID
spread() {
	local pid=$1 port=$2 steps=$3 rate=$4 t0 t1 r
	t0=$(cpu_ticks "$pid")
	r=$(taskset -c 1 python3 "$SRC/upstream/spread_load.py" "$steps" "$port" "$rate" \
		"$SECONDS_PER_RUN" "${@:5}")
	t1=$(cpu_ticks "$pid")
	awk -v r="$r" -v c="$((t1 - t0))" -v hz="$HZ" -v s="$SECONDS_PER_RUN" 'BEGIN {
		split(r, a, " "); printf "%.0f %.1f%% %.2f\n", a[2] / s, (a[1] ? 100 * (a[1] - a[2]) / a[1] : 0),
			(a[2] > 0 ? c / hz * 1e6 / a[2] : 0)
	}'
}

# spread_row LABEL STEPS RATE FLAGS...: ours (and the baseline) in the mode FLAGS, then knotd, on
# the load STEPS at RATE
spread_row() {
	local label=$1 steps=$2 rate=$3 ours base=- knot
	shift 3
	start_ours "$@"
	ours=$(spread "$OPID" "$OPORT" "$steps" "$rate")
	stop_ours
	if [[ -n $BASELINE ]]; then
		OURS=$BASELINE start_ours "$@"
		base=$(spread "$OPID" "$OPORT" "$steps" "$rate")
		stop_ours
	fi
	knot=$(spread "$kpid" 5300 "$steps" "$rate" "${BLOCK%.0/24}." "$KNOT_SPREAD.")
	awk -v n="$label" -v o="$ours" -v b="$base" -v k="$knot" 'BEGIN {
		split(o, a, " "); split(b, c, " "); split(k, d, " ")
		printf "%-44s %8.0f %7s %10s %9.2f %9.2f\n", n, a[1], a[2], (b == "-" ? "-" : sprintf("%.2f", c[3])), a[3], d[3]
	}'
}

# the spread load: every question a cacheless resolver asks for 20,000 queries of the sample
"$U" --hierarchy-block "$BLOCK" --mix "$WORK/referral.txt" --mix-limit 20000 \
	--mix-steps "$WORK/spread.steps" >/dev/null
awk -v a="${BLOCK%.0/24}.1" '{$1 = a; print}' "$WORK/spread.steps" >"$WORK/one.steps"
echo
echo "spread load: $(wc -l <"$WORK/spread.steps") questions to $(awk '{print $1}' "$WORK/spread.steps" | sort -u | wc -l) addresses, CPU us per reply"
printf "%-44s %8s %7s %10s %9s %9s\n" "load (ours: mode)" "qps" "lost" "baseline" "ours" "knot"
for mode in "latency off" "lan world, reply cache"; do
	flags=()
	[[ $mode == "latency off" ]] && flags=(--no-latency --no-loss)
	for rate in 20000 0; do
		what="20k/s"
		((rate)) || what="sender's max"
		spread_row "one address $what ($mode)" "$WORK/one.steps" "$rate" "${flags[@]}"
		spread_row "spread $what ($mode)" "$WORK/spread.steps" "$rate" "${flags[@]}"
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(knotd: 1 UDP worker; ratio = ours/core over knot/core; lost: ours, the worlds' loss included;"
echo " spread rows: baseline = $([[ -n $BASELINE ]] && echo "$BASELINE" || echo "none given"))"
