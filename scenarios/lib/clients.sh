# scenarios/lib/clients.sh - spike.sh --clients: connection spikes. The generator's queries belong to
# clients, a share of them over TCP and DNS over TLS (docs/loadgen.md, "Clients and transports");
# each spike raises the number of clients (docs/schedule.md, '/clients=N'), so its new TCP and DoT
# clients open connections, which close after --tcp-idle once the spike is over. Our builds serve
# DoT with a test certificate made here, and so do the daemon rows whose definition can (kresd,
# unbound, named); a build without TLS (musl) and pdns-recursor get the DoT clients over plain TCP
# (the target's dot=tcp), said in the report. Sourced by experiment.sh.

SC_TLS_DIR= # the run's test certificate and key (clients_prepare); the controller gives the rows
# their DNS over TLS with it and the generator's targets their dot= (rows-setup, row-targets)

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
