# scenarios/lib/clients.sh - spike.sh --clients: connection spikes. The generator's queries belong to
# clients, a share of them over TCP and DNS over TLS (docs/loadgen.md, "Clients and transports");
# each spike raises the number of clients (docs/schedule.md, '/clients=N'), so its new TCP and DoT
# clients open connections, which close after --tcp-idle once the spike is over. Our builds serve
# DoT with a test certificate made here, and so do the daemon rows whose definition can (kresd,
# unbound, named); a build without TLS (musl) and pdns-recursor get the DoT clients over plain TCP
# (the target's dot=tcp), said in the report. Sourced by experiment.sh.

SC_TLS_DIR= # the run's test certificate and key (clients_prepare)
declare -A V_DOT_ADDR=()

# clients_on : true in a --clients run.
clients_on() { [[ ${OPT_clients:-0} == 1 ]]; }

# clients_prepare DIR : the test certificate and key (self-signed, ECDSA P-256, two days) in DIR/tls.
clients_prepare() {
	clients_on || return 0
	command -v openssl >/dev/null || sc_die "--clients needs openssl for the test certificate (apt-get install openssl)"
	SC_TLS_DIR=$1/tls
	mkdir -p -- "$SC_TLS_DIR" || sc_die "cannot create $SC_TLS_DIR"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$SC_TLS_DIR/server.key" \
		-out "$SC_TLS_DIR/server.pem" -days 2 -subj "/CN=allocspike-test" 2>"$SC_TLS_DIR/openssl.log" ||
		sc_die "openssl could not make the test certificate (see $SC_TLS_DIR/openssl.log)"
}

# clients_has_tls NAME : the row's binary serves DNS over TLS (its --version --json says tls true).
clients_has_tls() {
	[[ $(jq -r '.tls // false' <<<"${V_VERSION[$1]:-null}" 2>/dev/null) == true ]]
}

# clients_resolver_args NAME : our resolver's options for DoT, one a line (none without TLS).
clients_resolver_args() {
	clients_on && [[ -n $SC_TLS_DIR ]] && clients_has_tls "$1" || return 0
	printf '%s\n' --tls-listen 127.0.0.1:0 --tls-cert "$SC_TLS_DIR/server.pem" --tls-key "$SC_TLS_DIR/server.key"
}

# clients_daemon_tls NAME : for a daemon row of a --clients run whose definition serves DNS over TLS
# (daemon_tls_problem), sets DAEMON_TLS (prepare's options: a free port on 127.0.0.1 and the test
# certificate) and the row's DoT address; a row that cannot keeps its DoT clients on plain TCP.
clients_daemon_tls() {
	DAEMON_TLS=()
	V_DOT_ADDR[$1]=
	clients_on && [[ -n $SC_TLS_DIR ]] || return 0
	local why port
	if ! why=$(daemon_tls_problem "$1"); then
		sc_say "variant $1: no DNS over TLS ($why); its DoT clients speak plain TCP"
		return 0
	fi
	port=$(ports_pick_free) || sc_die "no free port found on 127.0.0.1 for $1's DNS over TLS"
	V_DOT_ADDR[$1]=127.0.0.1:$port
	DAEMON_TLS=(--tls-listen "${V_DOT_ADDR[$1]}" --tls-cert "$SC_TLS_DIR/server.pem"
		--tls-key "$SC_TLS_DIR/server.key")
}

# clients_ready NAME READY_FILE : the row's DoT address from its ready-tls line ("" without one).
clients_ready() {
	V_DOT_ADDR[$1]=
	clients_on || return 0
	V_DOT_ADDR[$1]=$(sed -n 's/^ready-tls //p' "$2" 2>/dev/null | head -1)
}

# clients_target_key NAME : the --target key for the row's DoT clients (dot=ADDR, or dot=tcp).
clients_target_key() {
	clients_on || return 0
	printf ',dot=%s' "${V_DOT_ADDR[$1]:-tcp}"
}

# clients_loadgen_args : the generator's client options, one a line.
clients_loadgen_args() {
	clients_on || return 0
	printf '%s\n' --clients "$OPT_client_count" --tcp-share "$OPT_tcp_share" --dot-share "$OPT_dot_share" \
		--tcp-idle "$OPT_tcp_idle"
}
