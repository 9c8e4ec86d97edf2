#!/bin/bash
# scenarios/serve.sh - the simulated hierarchy and one resolver variant in the foreground on loopback,
# for trying the resolver by hand with kdig/dig; Ctrl-C (or SIGTERM) stops both.
set -euo pipefail
SC_PROG=serve
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/lifeline.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/options.sh"

scenario_usage() {
	cat <<USAGE
usage: scenarios/serve.sh [options]
The simulated hierarchy and one resolver variant in the foreground on loopback, for trying the
resolver by hand with kdig or dig; Ctrl-C stops both.
USAGE
}

scenario_options() {
	echo variant port listen_addr memory_layout cache_size hierarchy_block seed no_latency no_loss
}

OPTS_ARGS=(--default cache_size=64M)
opts_read "$@"
variant=$OPT_variant port=$OPT_port layout=$OPT_memory_layout listen=$OPT_listen_addr
block=$OPT_hierarchy_block cache_size=$OPT_cache_size
upstream_args=(--seed "$OPT_seed")
((!OPT_no_latency)) || upstream_args+=(--no-latency)
((!OPT_no_loss)) || upstream_args+=(--no-loss)

sc_need upstream allocspike-upstream "for the simulated hierarchy"
sc_need resolver "allocspike-resolver-$variant" "for --variant $variant"
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

"${LIFELINE[@]}" "$upstream" --hierarchy-block "$block" --port 0 --root-hints "$work/root.hints" --control "$work/upstream.ctl" \
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
