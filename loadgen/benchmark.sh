#!/bin/bash
# loadgen/benchmark.sh - not a test: the highest rate allocspike-loadgen and dnsperf each sustain
# with under 1% loss against the same trivial responder on loopback, as ratios in one run, with the
# CPU each spends per query sent, user and kernel apart (from /proc), over UDP, over TCP and over
# DNS over TLS (one connection each: --clients 1 -m tcp|dot beside dnsperf -c 1 -m tcp|dot); and
# what sampling 8 processes at 10 Hz costs.
# Usage: loadgen/benchmark.sh [--seconds S] [--start QPS] [--max QPS] [--unpinned]
#        (BIN: $ALLOCSPIKE_BIN or build/bin)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${ALLOCSPIKE_BIN:-$here/build/bin}
SECONDS_PER_STEP=2
START=25000
MAX=1000000
PIN=1
while (($#)); do
	case $1 in
	--seconds) SECONDS_PER_STEP=$2; shift 2 ;;
	--start) START=$2; shift 2 ;;
	--max) MAX=$2; shift 2 ;;
	--unpinned) PIN=0; shift ;;
	-h | --help) sed -n '2,6p' "$0"; exit 0 ;;
	*) echo "benchmark.sh: unknown option $1" >&2; exit 1 ;;
	esac
done
for p in allocspike-loadgen allocspike-bench-responder allocspike-test-responder; do
	[[ -x "$BIN/$p" ]] || { echo "benchmark.sh: $BIN/$p missing: build first (or set ALLOCSPIKE_BIN)" >&2; exit 1; }
done
source "$here/scripts/bench-lib.sh"
bench_require dnsperf
bench_workdir bench
work=$WORK

# one core each side when there are two or more: generator on CPU 0, responder on CPU 1
pin_gen=() pin_resp=()
if ((PIN)) && command -v taskset >/dev/null && (($(nproc) >= 2)); then
	pin_gen=(taskset -c 0)
	pin_resp=(taskset -c 1)
fi

for i in $(seq 1 10000); do echo "host$i.bench.example A"; done >"$work/q.txt"
"${pin_resp[@]}" "$BIN/allocspike-bench-responder" 127.56.250.1:0 >"$work/ready" 2>"$work/resp.log" &
PIDS+=($!)
for ((i = 0; i < 100; i++)); do [[ -s "$work/ready" ]] && break; sleep 0.05; done
addr=$(sed -n 's/^ready //p' "$work/ready")
[[ -n "$addr" ]] || { echo "benchmark.sh: responder not ready" >&2; exit 1; }
host=${addr%:*} port=${addr##*:}
# over TCP, the test responder (the bench responder is UDP only): every query back as NOERROR
echo 'query * *' >"$work/any.txt"
"${pin_resp[@]}" "$BIN/allocspike-test-responder" --listen 127.56.250.2:0 --fixture "$work/any.txt" \
	--ready-file "$work/tcp.ready" >/dev/null 2>"$work/tcp-resp.log" &
PIDS+=($!)
wait_ready "$work/tcp.ready" $! || exit 1
tcp_addr=$(sed -n 's/^ready //p' "$work/tcp.ready")
tcp_host=${tcp_addr%:*} tcp_port=${tcp_addr##*:}
# over DNS over TLS, the test responder again with a certificate made here
bench_require openssl
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=bench \
	-keyout "$work/tls.key" -out "$work/tls.pem" 2>"$work/openssl.log" ||
	{ echo "benchmark.sh: openssl could not make the test certificate ($work/openssl.log)" >&2; exit 1; }
"${pin_resp[@]}" "$BIN/allocspike-test-responder" --listen 127.56.250.3:0 --fixture "$work/any.txt" \
	--tls-cert "$work/tls.pem" --tls-key "$work/tls.key" \
	--ready-file "$work/dot.ready" >/dev/null 2>"$work/dot-resp.log" &
PIDS+=($!)
wait_ready "$work/dot.ready" $! || exit 1
dot_addr=$(sed -n 's/^ready //p' "$work/dot.ready")
dot_host=${dot_addr%:*} dot_port=${dot_addr##*:}
tck=$(getconf CLK_TCK)

# run_gen NAME RATE : prints "sent completed user_seconds system_seconds drops" for one step of RATE
# queries per second
run_gen() {
	local name=$1 rate=$2 cmd
	case $name in
	loadgen) cmd=("$BIN/allocspike-loadgen" -s "$host" -p "$port" -d "$work/q.txt" -Q "$rate" -l "$SECONDS_PER_STEP" -t 1 --no-progress) ;;
	# -q 1000: dnsperf slows to ~10k qps with -q 65535 (its outstanding-query table); loopback needs few.
	# -c1 -T1: one socket, one thread, as the generator runs; -b 8192: the generator's 8 MiB socket
	# buffers (with its default ones dnsperf drops answers whenever a busy machine delays it)
	dnsperf) cmd=(dnsperf -s "$host" -p "$port" -d "$work/q.txt" -Q "$rate" -l "$SECONDS_PER_STEP" -t 1 -q 1000 -c 1 -T 1 -b 8192) ;;
	# over TCP: one connection each
	loadgen-tcp) cmd=("$BIN/allocspike-loadgen" -s "$tcp_host" -p "$tcp_port" -m tcp --clients 1 -d "$work/q.txt" -Q "$rate" -l "$SECONDS_PER_STEP" -t 1 --no-progress) ;;
	dnsperf-tcp) cmd=(dnsperf -m tcp -s "$tcp_host" -p "$tcp_port" -d "$work/q.txt" -Q "$rate" -l "$SECONDS_PER_STEP" -t 1 -q 1000 -c 1 -T 1) ;;
	loadgen-dot) cmd=("$BIN/allocspike-loadgen" -s "$dot_host" -p "$dot_port" -m dot --clients 1 -d "$work/q.txt" -Q "$rate" -l "$SECONDS_PER_STEP" -t 1 --no-progress) ;;
	dnsperf-dot) cmd=(dnsperf -m dot -s "$dot_host" -p "$dot_port" -d "$work/q.txt" -Q "$rate" -l "$SECONDS_PER_STEP" -t 1 -q 1000 -c 1 -T 1) ;;
	esac
	# the generator's CPU: a shell's children's user+system time (fields 16, 17 of its stat)
	local drops0
	drops0=$(rcvbuf_errors)
	"${pin_gen[@]}" bash -c '"$@" >"'"$work"'/out" 2>&1; read -r -a s </proc/$$/stat; echo "${s[15]} ${s[16]}" >"'"$work"'/cpu"' _ "${cmd[@]}"
	local sent completed
	sent=$(sed -n 's/^ *Queries sent: *\([0-9]*\).*/\1/p' "$work/out" | head -1)
	completed=$(sed -n 's/^ *Queries completed: *\([0-9]*\).*/\1/p' "$work/out" | head -1)
	read -r ut st <"$work/cpu"
	echo "${sent:-0} ${completed:-0} $(awk -v u="$ut" -v s="$st" -v t="$tck" 'BEGIN { printf "%.3f %.3f", u / t, s / t }') $(($(rcvbuf_errors) - drops0))"
}

# rcvbuf_errors : UDP datagrams the kernel dropped for a full receive buffer, machine-wide (a loss
# at the responder, or at the generator, rather than on the way)
rcvbuf_errors() {
	awk '$1 == "Udp:" { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RcvbufErrors") c = i; h = 1 } else print $c }' /proc/net/snmp
}

# ok RATE SENT COMPLETED : the step held its rate (99% of it sent) with under 1% loss
ok() {
	awk -v r="$1" -v s="$2" -v c="$3" -v d="$SECONDS_PER_STEP" 'BEGIN { exit !(s >= 0.99 * r * d && c >= 0.99 * s) }'
}

# highest NAME : doubles the rate until a step fails, then halves the gap three times
highest() {
	local name=$1 lo=0 hi=0 rate=$START r sent completed user sys best_user=0 best_sys=0 best_sent=0
	while ((rate <= MAX)); do
		read -r sent completed user sys drops < <(run_gen "$name" "$rate")
		echo "  $name $rate/s: sent $sent, completed $completed, cpu user ${user}s system ${sys}s, receive-buffer drops $drops" >&2
		if ok "$rate" "$sent" "$completed"; then lo=$rate best_user=$user best_sys=$sys best_sent=$sent; else hi=$rate; break; fi
		rate=$((rate * 2))
	done
	((hi == 0)) && hi=$lo
	for r in 1 2 3; do
		rate=$(((lo + hi) / 2))
		((rate > lo && rate < hi)) || break
		read -r sent completed user sys drops < <(run_gen "$name" "$rate")
		echo "  $name $rate/s: sent $sent, completed $completed, cpu user ${user}s system ${sys}s, receive-buffer drops $drops" >&2
		if ok "$rate" "$sent" "$completed"; then lo=$rate best_user=$user best_sys=$sys best_sent=$sent; else hi=$rate; fi
	done
	# rate, then CPU per query sent: total, user, kernel (microseconds)
	echo "$lo $(awk -v u="$best_user" -v k="$best_sys" -v s="$best_sent" 'BEGIN { if (!s) s = 1e300; printf "%.2f %.2f %.2f", (u + k) * 1e6 / s, u * 1e6 / s, k * 1e6 / s }')"
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); steps of ${SECONDS_PER_STEP}s" >&2
read -r lg_rate lg_us lg_user lg_sys < <(highest loadgen)
read -r dp_rate dp_us dp_user dp_sys < <(highest dnsperf)
read -r lgt_rate lgt_us lgt_user lgt_sys < <(highest loadgen-tcp)
read -r dpt_rate dpt_us dpt_user dpt_sys < <(highest dnsperf-tcp)
read -r lgd_rate lgd_us lgd_user lgd_sys < <(highest loadgen-dot)
read -r dpd_rate dpd_us dpd_user dpd_sys < <(highest dnsperf-dot)

# sampling cost: 10 s at 10 queries/s, with 8 watched processes at 10 Hz and without
sleepers=()
for i in 1 2 3 4 5 6 7 8; do
	sleep 60 &
	sleepers+=($!)
	PIDS+=($!)
done
watch_args=()
for i in "${!sleepers[@]}"; do watch_args+=(--watch "name=w$i,pid=${sleepers[$i]}"); done
sample_cpu() {
	bash -c '"$@" >/dev/null 2>&1; read -r -a s </proc/$$/stat; echo $((s[15] + s[16]))' _ \
		"$BIN/allocspike-loadgen" -s "$host" -p "$port" -d "$work/q.txt" -Q 10 -l 10 -t 1 --no-progress \
		--out "$work/run$1" --interval-ms 100 "${@:2}"
}
base=$(sample_cpu 0)
watched=$(sample_cpu 1 "${watch_args[@]}")
sampling=$(awk -v a="$watched" -v b="$base" -v t="$tck" 'BEGIN { printf "%.2f", (a - b) / t / 10 * 100 }')

echo
echo "| generator | transport | highest rate <1% loss (qps) | ratio to dnsperf | CPU per query sent (us) | user | kernel |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
awk -v a="$lg_rate" -v b="$dp_rate" 'BEGIN { printf "| allocspike-loadgen | UDP | %d | %.2f ", a, b ? a / b : 0 }'
echo "| $lg_us | $lg_user | $lg_sys |"
echo "| dnsperf | UDP | $dp_rate | 1.00 | $dp_us | $dp_user | $dp_sys |"
awk -v a="$lgt_rate" -v b="$dpt_rate" 'BEGIN { printf "| allocspike-loadgen | TCP | %d | %.2f ", a, b ? a / b : 0 }'
echo "| $lgt_us | $lgt_user | $lgt_sys |"
echo "| dnsperf | TCP | $dpt_rate | 1.00 | $dpt_us | $dpt_user | $dpt_sys |"
awk -v a="$lgd_rate" -v b="$dpd_rate" 'BEGIN { printf "| allocspike-loadgen | DoT | %d | %.2f ", a, b ? a / b : 0 }'
echo "| $lgd_us | $lgd_user | $lgd_sys |"
echo "| dnsperf | DoT | $dpd_rate | 1.00 | $dpd_us | $dpd_user | $dpd_sys |"
echo
echo "sampling 8 processes at 10 Hz (plus smaps_rollup at 1 Hz): ${sampling}% of a core" \
	"(loadgen at 10 qps for 10 s: $base ticks alone, $watched ticks watching)"
