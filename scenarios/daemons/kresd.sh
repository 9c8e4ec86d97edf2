#!/bin/bash
# scenarios/daemons/kresd.sh - daemon definition for Knot Resolver (Debian's kresd 5.x); see docs/daemons.md.
# prepare: writes kresd.conf into the workdir and prints the foreground command; probe: readiness.
set -euo pipefail
DEFINITION_NAME=kresd
DEFINITION_TLS=yes
# shellcheck source=scenarios/daemons/lib/definition.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/definition.sh"

definition_prepare() {
	command -v kresd >/dev/null || definition_die "kresd not found (apt-get install knot-resolver)"
	local conf=$DEF_WORKDIR/kresd.conf outgoing=
	if [[ -n $DEF_UPSTREAM_SOURCE ]]; then
		outgoing="net.outgoing_v4('$DEF_UPSTREAM_SOURCE')"
	fi
	# DNS over TLS with the given certificate (kresd's net.tls), on an address of its own.
	local tls=
	if [[ -n $DEF_TLS_ADDR ]]; then
		tls="net.tls('$DEF_TLS_CERT', '$DEF_TLS_KEY')
net.listen('$DEF_TLS_ADDR', $DEF_TLS_PORT, { kind = 'tls' })"
	fi
	# Who may ask (definition_clients), every other source refused: view rules are tried in order.
	local net views=
	while read -r net; do
		views+="view:addr('$net', policy.all(policy.PASS))"$'\n'
	done < <(definition_clients)
	mkdir -p "$DEF_WORKDIR/cache"
	cat >"$conf" <<CONF
-- kresd.conf - written by scenarios/daemons/kresd.sh for one allocspike run (docs/daemons.md).
-- One process (no forks: kresd is single-threaded), iterating against the simulated hierarchy.
log_target('stderr')
-- The hierarchy is IPv4 loopback; never try an IPv6 nameserver address.
net.ipv6 = false
net.listen('$DEF_LISTEN_ADDR', $DEF_LISTEN_PORT, { kind = 'dns' })
$tls
$outgoing
-- The LMDB cache is a file mapped into the process; its size is fixed up front.
cache.open($DEF_CACHE_BYTES, 'lmdb://$DEF_WORKDIR/cache')
-- The hierarchy is unsigned: drop the built-in root trust anchor, so nothing is validated.
trust_anchors.remove('.')
-- Root hints point at the simulated root servers instead of the real ones.
modules.load('hints > iterate')
hints.root_file('$DEF_ROOT_HINTS')
-- Clients: loopback and, for a row served to another host, its network; nobody else.
modules.load('view')
${views}view:addr('0.0.0.0/0', policy.all(policy.REFUSE))
view:addr('::/0', policy.all(policy.REFUSE))
-- kresd refuses to query loopback addresses unless told; the whole hierarchy lives there.
policy.add(policy.all(policy.FLAGS('ALLOW_LOCAL')))
CONF
	# The control socket lands in <workdir>/control/<pid> (kresd's default under its rundir).
	definition_command kresd -n -c "$conf" "$DEF_WORKDIR"
}

# worker.stats().concurrent: requests being resolved now; cache.count(): records in the LMDB cache
# (an O(1) database statistic). The cache is a mapped file, not heap, so cache_bytes stays null.
definition_stats() {
	local sock reply pid json
	# The socket of the running kresd: the newest one whose process is alive.
	for sock in $(ls -t "$DEF_WORKDIR/control" 2>/dev/null); do
		pid=$sock
		[[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && break
		pid=
	done
	[[ -n $pid ]] || definition_die "stats: no running kresd's control socket in $DEF_WORKDIR/control"
	reply=$(definition_unix_ask "$DEF_WORKDIR/control/$pid" \
		"tojson({inflight=worker.stats().concurrent, cache_entries=cache.count(), cache_bytes=nil})") ||
		definition_die "stats: $DEF_WORKDIR/control/$pid did not answer"
	reply=$(grep -o '{.*}' <<<"$reply") || definition_die "stats: kresd answered no JSON object"
	json=$(definition_figures --json kresd=- inflight=inflight//null \
		cache_entries=cache_entries//null cache_bytes=null <<<"$reply") ||
		definition_die "stats: kresd's answer: $json"
	echo "$json"
}

definition_main "$@"
