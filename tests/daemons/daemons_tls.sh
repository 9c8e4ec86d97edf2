#!/bin/bash
# tests/daemons/daemons_tls.sh - the daemon definitions serve DNS over TCP on --listen and DNS over
# TLS (RFC 7858) on --tls-listen with the certificate given: kresd, unbound and named answer kdig
# over TLS, the chain verified against that certificate and its name checked; PowerDNS Recursor,
# which has no DoT listener, is refused with the reason; incomplete or unreadable TLS options are
# refused before anything starts.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/lib/run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/daemons/answers_lib.sh"
command -v kdig >/dev/null || skip "kdig not installed (apt-get install knot-dnsutils)"
command -v openssl >/dev/null || skip "openssl not installed"

cd "$TEST_TMP"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
	-subj /CN=allocspike-test -addext subjectAltName=DNS:allocspike-test \
	-keyout key.pem -out cert.pem 2>openssl.err || skip "openssl cannot make a certificate: $(cat openssl.err)"
# Root hints the definitions accept; the probe's name (localhost.) is answered from local data, so
# nothing has to serve them.
printf '.\t3600000\tNS\ta.root.\na.root.\t3600000\tA\t127.58.254.1\n' >hints

# ask TRANSPORT_OPTION ADDR:PORT : the status kdig reads for "localhost. A" (empty on no answer).
ask() {
	local addr=${2%:*} port=${2##*:}
	kdig @"$addr" -p "$port" +timeout=2 +retry=0 $1 localhost. A 2>/dev/null |
		sed -n 's/.*status: \([A-Z]*\).*/\1/p' | head -1
}

rows=(kresd-glibc unbound)
command -v named >/dev/null && rows+=(named) || echo "skip named: not installed"
n=0
for row in "${rows[@]}"; do
	n=$((n + 1))
	variants_table_read "$ALLOCSPIKE_SOURCE_DIR/variants.tsv"
	base=${V_BASE[$row]}
	listen=$(daemon_listen "$base" "127.58.3.$n:5300")
	tls=${listen%:*}:$((${listen##*:} + 1))
	daemon_start "$row" --listen "$listen" --root-hints hints --cache-size 8M --workdir "$TEST_TMP/$row" \
		--build "$ALLOCSPIKE_BUILD_DIR" --tls-listen "$tls" --tls-cert cert.pem --tls-key key.pem || {
		check "$row starts with --tls-listen" false
		continue
	}
	_test_pids+=("$DAEMON_PID")
	check_eq "$row answers over UDP" NOERROR "$(ask +notcp "$listen")"
	check_eq "$row answers over TCP" NOERROR "$(ask +tcp "$listen")"
	check_eq "$row answers over TLS, its certificate verified" NOERROR \
		"$(ask "+tls-ca=$TEST_TMP/cert.pem +tls-hostname=allocspike-test" "$tls")"
	check_eq "$row's TLS port does not speak plain TCP" "" "$(ask +tcp "$tls")"
	daemon_stop "$DAEMON_PID"
done

# prepare_err DEFINITION ARGS... : prepare's exit status and its message, as "STATUS: MESSAGE".
prepare_err() {
	local def=$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/$1.sh st=0
	shift
	"$def" prepare --workdir "$TEST_TMP/refused" --listen 127.58.3.9:5300 --root-hints hints \
		--cache-size 8M "$@" >/dev/null 2>err.txt || st=$?
	echo "$st: $(cat err.txt)"
}
check "kresd says it serves DNS over TLS" "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/kresd.sh" tls
out=$("$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/pdns-recursor.sh" tls) && st=0 || st=$?
check_eq "pdns-recursor says it does not" 1 "$st"
check "and why" grep -q "PowerDNS Recursor 4.8" <<<"$out"
out=$(prepare_err pdns-recursor --tls-listen 127.58.3.9:5301 --tls-cert cert.pem --tls-key key.pem)
check "pdns-recursor refuses --tls-listen, saying why" grep -q '^2: .*no DNS over TLS here (PowerDNS Recursor' <<<"$out"
out=$(prepare_err unbound --tls-listen 127.58.3.9:5301 --tls-cert cert.pem)
check "a certificate without its key is refused" grep -q '^2: .*go together' <<<"$out"
out=$(prepare_err kresd --tls-listen 127.58.3.9:5301 --tls-cert cert.pem --tls-key missing.pem)
check "an unreadable key is refused, named" grep -q '^2: .*--tls-key: cannot read missing.pem' <<<"$out"
out=$(prepare_err unbound --tls-listen 127.58.3.9:5300 --tls-cert cert.pem --tls-key key.pem)
check "TLS on the --listen port is refused" grep -q '^2: .*the same address and port as --listen' <<<"$out"
finish
