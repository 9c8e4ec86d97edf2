#!/bin/bash
# scenarios/daemons/named.sh - daemon definition for BIND 9 (Debian's named 9.18); see docs/daemons.md.
# prepare: writes named.conf into the workdir and prints the foreground command; probe: readiness;
# stats: in-flight recursions and cache figures from named's statistics channel (HTTP, JSON).
set -euo pipefail
DEFINITION_NAME=named
DEFINITION_TLS=yes
# shellcheck source=scenarios/daemons/lib/definition.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/definition.sh"

definition_prepare() {
	command -v named >/dev/null || definition_die "named not found (apt-get install bind9)"
	# named listens only on addresses its interface scan finds (127.0.0.1 and ::1 on lo), not on
	# any 127/8 address the kernel would accept.
	local option addr
	for option in listen:$DEF_LISTEN_ADDR tls-listen:$DEF_TLS_ADDR; do
		addr=${option#*:}
		if [[ -n $addr && $addr != 127.0.0.1 && $addr != ::1 &&
			-z $(ip -o addr show to "$addr" 2>/dev/null) ]]; then
			definition_die "--${option%%:*}: named listens only on interface addresses; $addr is on" \
				"no interface (use 127.0.0.1 or ::1)"
		fi
	done
	# -4 keeps named off IPv6 upstream (the hierarchy is IPv4); listening on ::1 needs IPv6 on.
	local conf=$DEF_WORKDIR/named.conf source= family=-4 listen
	if [[ $DEF_LISTEN_ADDR == ::1 ]]; then
		family=
		listen="listen-on { none; }; listen-on-v6 port $DEF_LISTEN_PORT { ::1; };"
	else
		listen="listen-on port $DEF_LISTEN_PORT { $DEF_LISTEN_ADDR; }; listen-on-v6 { none; };"
	fi
	# DNS over TLS (BIND 9.18's tls block and listen-on ... tls).
	local tls_block=
	if [[ -n $DEF_TLS_ADDR ]]; then
		tls_block="tls allocspike { cert-file \"$DEF_TLS_CERT\"; key-file \"$DEF_TLS_KEY\"; };"
		if [[ $DEF_TLS_ADDR == ::1 ]]; then
			family=
			listen+=" listen-on-v6 port $DEF_TLS_PORT tls allocspike { ::1; };"
		else
			listen+=" listen-on port $DEF_TLS_PORT tls allocspike { $DEF_TLS_ADDR; };"
		fi
	fi
	[[ -z $DEF_UPSTREAM_SOURCE ]] || source="query-source address $DEF_UPSTREAM_SOURCE;"
	# The statistics channel shares the listening address, on a port of its own.
	local stats_port
	stats_port=$(definition_free_tcp_port "$DEF_LISTEN_ADDR")
	local stats_host=$DEF_LISTEN_ADDR
	[[ $stats_host != ::1 ]] || stats_host='[::1]'
	echo "$stats_host:$stats_port" >"$DEF_WORKDIR/statistics-channel"
	cat >"$DEF_WORKDIR/localhost.zone" <<ZONE
; localhost.zone - written by scenarios/daemons/named.sh: localhost. answered from local data,
; as kresd, unbound and pdns_recursor do without configuration (the readiness probe asks it).
\$TTL 86400
@	SOA	localhost. root.localhost. 1 3600 600 86400 86400
@	NS	localhost.
@	A	127.0.0.1
@	AAAA	::1
ZONE
	# the ACL's elements, each ended by ';'
	local clients
	clients=$(definition_clients | sed 's/$/;/' | paste -sd' ')
	cat >"$conf" <<CONF
// named.conf - written by scenarios/daemons/named.sh for one allocspike run (docs/daemons.md).
$tls_block
options {
	directory "$DEF_WORKDIR";
	pid-file none;
	session-keyfile none;
	$listen
	$source
	recursion yes;
	// The default (1000, soft limit 900) aborts queries in our spikes; as pdns-recursor's 2 x 2048.
	recursive-clients 4096;
	allow-query { $clients };
	allow-recursion { $clients };
	// The hierarchy is unsigned: nothing is validated.
	dnssec-validation no;
	// The whole cache is allocated through libisc's memory contexts: anonymous memory.
	max-cache-size $DEF_CACHE_BYTES;
	notify no;
};
// No rndc channel: the default one (127.0.0.1#953) would clash between two instances.
controls { };
// Figures for "named.sh stats" (JSON over HTTP on loopback).
statistics-channels { inet $DEF_LISTEN_ADDR port $stats_port allow { 127.0.0.0/8; ::1; }; };
// Root hints point at the simulated root servers instead of the real ones.
zone "." { type hint; file "$DEF_ROOT_HINTS"; };
zone "localhost" { type primary; file "$DEF_WORKDIR/localhost.zone"; };
CONF
	if command -v named-checkconf >/dev/null; then
		named-checkconf "$conf" >"$DEF_WORKDIR/checkconf.err" 2>&1 ||
			definition_die "generated $conf is invalid: $(cat "$DEF_WORKDIR/checkconf.err")"
	fi
	# -g: foreground, log to stderr; -n: worker threads (default here 2, see docs/daemons.md).
	definition_command named -g ${family:+"$family"} -n "$DEF_THREADS" -c "$conf"
}

# Two GETs of about 4 KB each: /json/v1/server for the recursions waiting for an answer
# (RecursClients, omitted by named while 0, like every counter) and the default view's cache,
# /json/v1/mem for the bytes all memory contexts hold from the allocator. RecursClients is also
# what the recursive-clients quota counts (request_list_current), and RecLimitDropped the oldest
# recursions it aborted for newer ones (request_list_overwritten); named counts no drop of the new
# query itself, so request_list_exceeded is left out (docs/daemons.md).
definition_stats() {
	local addr server mem json cache=views._default.resolver.cachestats
	addr=$(cat "$DEF_WORKDIR/statistics-channel" 2>/dev/null) ||
		definition_unavailable "no $DEF_WORKDIR/statistics-channel (not prepared by named.sh?)"
	server=$(curl -sf --max-time 2 "http://$addr/json/v1/server") &&
		mem=$(curl -sf --max-time 2 "http://$addr/json/v1/mem") ||
		definition_unavailable "statistics channel http://$addr/ does not answer"
	json=$(definition_figures --json server=<(echo "$server") --json mem=<(echo "$mem") \
		inflight=nsstats.RecursClients//0 \
		"cache_entries=$cache.CacheNodes//0" \
		"cache_bytes=$cache.TreeMemInUse//0+$cache.HeapMemInUse//0" \
		malloced_bytes=memory.Malloced//null \
		request_list_current=nsstats.RecursClients//0 \
		request_list_overwritten=nsstats.RecLimitDropped//0) ||
		definition_unavailable "unexpected statistics from http://$addr/: $json"
	echo "$json"
}

definition_main "$@"
