#!/bin/bash
# tests/scenarios/clients.sh - spike.sh --clients end to end on a short schedule: the schedule's spikes
# raise the clients (run.json), our builds serve DNS over TLS with the run's test certificate and
# get DoT rows, a build without TLS (musl) gets its DoT clients over TCP with the report's note,
# transports.csv and the report's transports per variant; and the preset's option checks.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"

# option checks first (no program needed): exit 2 with the reason
bash "$SPIKE" --tcp-share 0.1 --no-build >/dev/null 2>"$TEST_TMP/err1"
check_eq "--tcp-share without --clients: exit 2" 2 $?
check "... says so" grep -q -- "--tcp-share goes with --clients" "$TEST_TMP/err1"
bash "$SPIKE" --clients --tcp-share 0.7 --dot-share 0.5 --no-build >/dev/null 2>"$TEST_TMP/err2"
check_eq "shares over 1: exit 2" 2 $?
check "... says so" grep -q "at most 1 together" "$TEST_TMP/err2"

scenario_require_programs
command -v openssl >/dev/null || skip "openssl not installed"
variants=
for v in glibc musl; do
	[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-$v ]] && variants+=${variants:+,}$v
done
[[ -n $variants ]] || skip "neither the glibc nor the musl build is built"
out=$TEST_TMP/run
# shellcheck disable=SC2046
bash "$SPIKE" $(scenario_short_flags 127.57.128.0/20) --spikes 1 --clients --client-count 40 \
	--spike-clients 200 --tcp-share 0.1 --dot-share 0.1 --tcp-idle 1s --variants "$variants" \
	--out "$out" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
st=$?
check_eq "spike.sh --clients exit status" 0 "$st"
((st == 0)) || tail -n 20 "$TEST_TMP/stderr"
check "the spikes raise the clients" jq_true '.parameters.schedule | test("spike:5s@1000/clients=200")' "$out/run.json"
check "a test certificate" test -s "$out/tls/server.pem"
check "transports.csv" test -s "$out/transports.csv"
S=$out/summary.json
for v in ${variants//,/ }; do
	check "$v: TCP connections opened" jq_true ".variants.\"$v\".transports.by_transport.tcp.connects > 4" "$S"
	check "$v: UDP rows" jq_true ".variants.\"$v\".transports.by_transport.udp.sent > 0" "$S"
done
if [[ $variants == *glibc* ]] && "$ALLOCSPIKE_BIN/allocspike-resolver-glibc" --version --json | jq -e '.tls' >/dev/null; then
	check "glibc: DoT handshakes" jq_true '.variants.glibc.transports.by_transport.dot.handshakes > 4' "$S"
	check "glibc: memory per open connection" jq_true '.variants.glibc.transports.resolver.bytes_per_connection > 0' "$S"
fi
if [[ $variants == *musl* ]]; then
	check_eq "musl: no DoT row" null "$(jq -r '.variants.musl.transports.by_transport.dot' "$S")"
	check "musl: the note" jq_true '.variants.musl.transports.note | test("without DNS over TLS")' "$S"
fi
check "the page's table" grep -q 'id="transports-table"' "$out/report.html"
finish
