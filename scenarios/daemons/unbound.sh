#!/bin/bash
# scenarios/daemons/unbound.sh - daemon definition for Unbound (Debian's 1.17); see docs/daemons.md.
# prepare: writes unbound.conf into the workdir and prints the foreground command; probe: readiness.
set -euo pipefail
DEFINITION_NAME=unbound
DEFINITION_TLS=yes
# shellcheck source=scenarios/daemons/lib/definition.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/definition.sh"

definition_prepare() {
	command -v unbound >/dev/null || definition_die "unbound not found (apt-get install unbound)"
	local conf=$DEF_WORKDIR/unbound.conf outgoing=
	[[ -z $DEF_UPSTREAM_SOURCE ]] || outgoing="outgoing-interface: $DEF_UPSTREAM_SOURCE"
	# The stated cache size is split as unbound's documentation suggests: rrset cache twice the
	# message cache (1/3 messages, 2/3 rrsets).
	local msg=$((DEF_CACHE_BYTES / 3))
	# DNS over TLS: unbound serves TLS on the interfaces whose port is tls-port.
	local tls=
	if [[ -n $DEF_TLS_ADDR ]]; then
		tls="interface: $DEF_TLS_ADDR@$DEF_TLS_PORT
	tls-port: $DEF_TLS_PORT
	tls-service-pem: \"$DEF_TLS_CERT\"
	tls-service-key: \"$DEF_TLS_KEY\""
	fi
	local rrset=$((DEF_CACHE_BYTES - msg)) nets net access=
	nets=$(definition_clients)
	for net in $nets; do access+="access-control: $net allow"$'\n\t'; done
	cat >"$conf" <<CONF
# unbound.conf - written by scenarios/daemons/unbound.sh for one allocspike run (docs/daemons.md).
server:
	# One process, one thread, in the foreground, as whoever started it, in the workdir.
	num-threads: 1
	do-daemonize: no
	username: ""
	chroot: ""
	directory: "$DEF_WORKDIR"
	pidfile: ""
	use-syslog: no
	logfile: ""
	verbosity: 1
	interface: $DEF_LISTEN_ADDR@$DEF_LISTEN_PORT
	$tls
	$access
	$outgoing
	# The hierarchy is IPv4 loopback: no IPv6 upstream, and loopback allowed as an upstream.
	do-ip6: no
	do-not-query-localhost: no
	root-hints: "$DEF_ROOT_HINTS"
	# Iterator alone: the hierarchy is unsigned, so no validator and no trust anchor.
	module-config: "iterator"
	msg-cache-size: $msg
	rrset-cache-size: $rrset
	msg-cache-slabs: 1
	rrset-cache-slabs: 1
	infra-cache-slabs: 1
	key-cache-slabs: 1
	# mem.cache.* and *.cache.count in unbound-control stats_noreset (definition_stats)
	extended-statistics: yes
# A Unix socket without certificates, only for definition_stats (unbound-control stats_noreset).
remote-control:
	control-enable: yes
	control-interface: "$DEF_WORKDIR/control.sock"
	control-use-cert: no
CONF
	if command -v unbound-checkconf >/dev/null; then
		unbound-checkconf "$conf" >/dev/null 2>"$DEF_WORKDIR/checkconf.err" ||
			definition_die "generated $conf is invalid: $(cat "$DEF_WORKDIR/checkconf.err")"
	fi
	definition_command unbound -d -p -c "$conf"
}

# total.requestlist.current.all: requests being resolved now; the message and RRset caches' counts
# and bytes (both are malloc'd, so they are part of the heap); the request list as our resolver's
# `unbound` policy reports it: current.user (client requests, what num-queries-per-thread caps),
# exceeded and overwritten (docs/daemons.md).
definition_stats() {
	local out json
	out=$(timeout 2 unbound-control -c "$DEF_WORKDIR/unbound.conf" stats_noreset 2>&1) ||
		definition_die "stats: unbound-control failed: $out"
	# A request list counter this unbound does not print is an error, not a 0.
	json=$(definition_figures --text unbound-control=- \
		inflight=total.requestlist.current.all \
		cache_entries=msg.cache.count//0+rrset.cache.count//0 \
		cache_bytes=mem.cache.message//0+mem.cache.rrset//0 \
		request_list_current=total.requestlist.current.user \
		request_list_exceeded=total.requestlist.exceeded \
		request_list_overwritten=total.requestlist.overwritten <<<"$out") ||
		definition_die "stats: $json"
	echo "$json"
}

definition_main "$@"
