#!/bin/bash
# scenarios/serve.sh - the simulated hierarchy and one resolver variant in the foreground on loopback,
# for trying the resolver by hand with kdig/dig; Ctrl-C (or SIGTERM) stops both.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/lifeline.sh"

usage() {
	cat <<USAGE
usage: serve.sh --variant NAME --port PORT [--layout heap|kresd] [--listen-addr ADDR]
                [--block CIDR] [--cache-size SIZE] [--no-latency] [--no-loss] [--seed N]
  --variant NAME     a build row of variants.tsv (allocspike-resolver-NAME), default glibc
  --port PORT        UDP port the resolver listens on (default 5300; 0: a free one, printed)
  --layout L         resolver memory layout (default heap)
  --listen-addr A    address the resolver listens on (default 127.0.0.1)
  --block CIDR       loopback block of the hierarchy (default 127.53.0.0/16)
  --no-latency, --no-loss, --seed N   passed to allocspike-upstream
USAGE
}

variant=glibc port=5300 layout=heap listen=127.0.0.1 block=127.53.0.0/16 cache_size=64M
upstream_args=()
while (($#)); do
	case $1 in
	--variant) variant=${2:?--variant needs a name}; shift 2 ;;
	--port) port=${2:?--port needs a number}; shift 2 ;;
	--layout) layout=${2:?--layout needs heap or kresd}; shift 2 ;;
	--listen-addr) listen=${2:?--listen-addr needs an address}; shift 2 ;;
	--block) block=${2:?--block needs a CIDR}; shift 2 ;;
	--cache-size) cache_size=${2:?--cache-size needs a size}; shift 2 ;;
	--seed) upstream_args+=(--seed "${2:?--seed needs a number}"); shift 2 ;;
	--no-latency | --no-loss) upstream_args+=("$1"); shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; sc_die "unknown option '$1'" ;;
	esac
done
sc_is_uint "$port" && ((port < 65536)) || sc_die "--port '$port': expected 0..65535 (0: a free port)"
[[ $layout == heap || $layout == kresd ]] || sc_die "--layout '$layout': expected heap or kresd"

upstream=$(sc_require allocspike-upstream "for the simulated hierarchy")
resolver=$(sc_require "allocspike-resolver-$variant" "for --variant $variant")
work=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-serve.XXXXXX")
pids=()
stop_all() {
	local pid
	for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	rm -rf "$work"
}
trap stop_all EXIT
trap 'sc_say "stopping"; exit 0' INT TERM HUP
lifeline_set # both die with this script, however it ends

# wait_ready FILE PID NAME : the "ready ADDR:PORT" line, waited for at most 20 s.
wait_ready() {
	local i
	for ((i = 0; i < 200; i++)); do
		[[ -s $1 ]] && { sed -n 's/^ready //p' "$1" | head -1; return 0; }
		kill -0 "$2" 2>/dev/null || { cat "$work/$3.log" >&2; sc_die "$3 exited before it was ready"; }
		sleep 0.1
	done
	sc_die "$3 not ready within 20 s"
}

"${LIFELINE[@]}" "$upstream" --block "$block" --port 0 --root-hints "$work/root.hints" --control "$work/upstream.ctl" \
	--ready-file "$work/upstream.ready" "${upstream_args[@]}" >"$work/upstream.log" 2>&1 &
pids+=($!)
root=$(wait_ready "$work/upstream.ready" "${pids[-1]}" upstream)
"${LIFELINE[@]}" "$resolver" --listen "$listen:$port" --root-hints "$work/root.hints" --upstream-port "${root##*:}" \
	--upstream-source 127.0.1.1 --memory-layout "$layout" --cache-size "$cache_size" \
	--control "$work/resolver.ctl" --ready-file "$work/resolver.ready" >"$work/resolver.log" 2>&1 &
pids+=($!)
addr=$(wait_ready "$work/resolver.ready" "${pids[-1]}" resolver)
cat <<EOF_INFO
hierarchy: $block, root $root (log: $work/upstream.log)
resolver:  allocspike-resolver-$variant ($layout layout) on $addr, queries leave from 127.0.1.1
try:       kdig @${addr%:*} -p ${addr##*:} www.example.com A
           dig @${addr%:*} -p ${addr##*:} www.example.com A
stats:     python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("$work/resolver.ctl"); s.send(b"stats\n"); print(s.recv(65536).decode())'
Ctrl-C stops both.
EOF_INFO
wait -n "${pids[@]}" || true
sc_die "a process exited on its own; see $work/resolver.log and $work/upstream.log"
