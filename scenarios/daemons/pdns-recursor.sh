#!/bin/bash
# scenarios/daemons/pdns-recursor.sh - daemon definition for PowerDNS Recursor (Debian's 4.8); see
# docs/daemons.md. prepare: writes recursor.conf into the workdir and prints the foreground command;
# probe: readiness; stats: in-flight queries and cache sizes from rec_control.
set -euo pipefail
DEFINITION_NAME=pdns-recursor
DEFINITION_NO_TLS="PowerDNS Recursor 4.8, Debian's, has no DNS-over-TLS listener"
# shellcheck source=scenarios/daemons/lib/definition.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/definition.sh"

# pdns_recursor sizes its caches in entries, not bytes; this many bytes of the stated size count as
# one entry (docs/daemons.md: "pdns-recursor").
PDNS_BYTES_PER_ENTRY=512

# The control socket's directory: the workdir when the socket path fits a sockaddr_un (108 bytes),
# else a short directory under /tmp, named in <workdir>/control-dir either way.
pdns_control_dir() {
	local dir=$DEF_WORKDIR socket=/pdns_recursor.controlsocket
	if ((${#dir} + ${#socket} >= 108)); then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-pdns.XXXXXX") ||
			definition_die "cannot create a control directory under ${TMPDIR:-/tmp}"
	fi
	echo "$dir" >"$DEF_WORKDIR/control-dir"
	echo "$dir"
}

definition_prepare() {
	command -v pdns_recursor >/dev/null ||
		definition_die "pdns_recursor not found (apt-get install pdns-recursor)"
	local conf=$DEF_WORKDIR/recursor.conf control outgoing=
	control=$(pdns_control_dir)
	[[ -z $DEF_UPSTREAM_SOURCE ]] || outgoing="query-local-address=$DEF_UPSTREAM_SOURCE"
	# The stated size split as for unbound: record cache two thirds, packet cache one third.
	local entries=$((DEF_CACHE_BYTES / PDNS_BYTES_PER_ENTRY))
	local packet_entries=$((entries / 3))
	local record_entries=$((entries - packet_entries))
	# One worker needs no distributor; with more, the recursor's default: one distributor thread
	# hands queries to the workers.
	local distributes=yes
	((DEF_THREADS > 1)) || distributes=no
	local listen=$DEF_LISTEN_ADDR
	[[ $listen != ::1 ]] || listen='[::1]'
	local clients
	clients=$(definition_clients | paste -sd, | sed 's/,/, /g')
	cat >"$conf" <<CONF
# recursor.conf - written by scenarios/daemons/pdns-recursor.sh for one allocspike run (docs/daemons.md).
# Foreground, logging to stderr, as whoever started it; control socket in $control.
daemon=no
disable-syslog=yes
loglevel=4
write-pid=no
socket-dir=$control
local-address=$listen
local-port=$DEF_LISTEN_PORT
allow-from=$clients
$outgoing
# The whole hierarchy lives on loopback, which the recursor refuses to query by default.
dont-query=
hint-file=$DEF_ROOT_HINTS
# The hierarchy is unsigned: no DNSSEC processing at all.
dnssec=off
# Never look up the recursor's security status (a query for a name outside the hierarchy).
security-poll-suffix=
threads=$DEF_THREADS
pdns-distributes-queries=$distributes
max-cache-entries=$record_entries
max-packetcache-entries=$packet_entries
CONF
	definition_command pdns_recursor "--config-dir=$DEF_WORKDIR"
}

# One rec_control call (about 0.1 s): queries being resolved now (concurrent-queries, summed over
# the worker threads) and the entries in the record, negative and packet caches. The same
# concurrent-queries is the request list's size (what max-mthreads caps per worker), and
# over-capacity-drops the new queries dropped at that cap; nothing is ever replaced, so
# request_list_overwritten is left out (docs/daemons.md).
definition_stats() {
	command -v rec_control >/dev/null || definition_unavailable "rec_control not found"
	local control values json list
	local names=(concurrent-queries cache-entries negcache-entries packetcache-entries packetcache-bytes
		over-capacity-drops)
	control=$(cat "$DEF_WORKDIR/control-dir" 2>/dev/null) ||
		definition_unavailable "no $DEF_WORKDIR/control-dir (not prepared by pdns-recursor.sh?)"
	values=$(timeout 3 rec_control --socket-dir="$control" --timeout=2 get "${names[@]}" 2>&1) ||
		definition_unavailable "rec_control: $values"
	# rec_control answers one value a line, in the order asked
	list=$(IFS=, && echo "${names[*]}")
	json=$(definition_figures --values rec_control=- "$list" \
		inflight=concurrent-queries \
		cache_entries=cache-entries \
		negcache_entries=negcache-entries \
		packetcache_entries=packetcache-entries \
		packetcache_bytes=packetcache-bytes \
		request_list_current=concurrent-queries \
		request_list_exceeded=over-capacity-drops <<<"$values") ||
		definition_unavailable "$json"
	echo "$json"
}

definition_main "$@"
