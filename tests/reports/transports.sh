#!/bin/bash
# tests/reports/transports.sh - the report's per-transport table (reports/transports.c) on the
# minimal fixture with a crafted transports.csv: the sums, the answered share, the answer-weighted
# latency, the resolver's memory per open connection and the anon RSS growth per connection a
# spike opened, the note of a build without TLS; a folder
# without the file has "transports": null and no table; a damaged line is skipped and counted.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v jq >/dev/null || skip "jq not installed"
[[ -x $REPORT ]] || skip "allocspike-report is not built"

run=$TEST_TMP/run
cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$run"
# glibc serves DoT; jemalloc is a build without TLS: its DoT clients spoke TCP (dot=tcp)
jq '(.variants[] | select(.name == "glibc") | .version.tls) = true
	| (.variants[] | select(.name == "jemalloc") | .version.tls) = false' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/run.json" >"$run/run.json"
{
	echo "t_s,variant,transport,sent,answered,lat_p50_ms,lat_p95_ms,open,connects,handshakes,resumed,connect_failures,handshake_failures,resets,closed_by_server,closed_idle,lost_in_flight,dropped,retried,server_tcp_open,server_tls_open,server_conn_bytes"
	# t, transport, sent, answered, p50, p95, then the connection cells, then the resolver's
	echo "0.5,glibc,udp,100,99,1,3,,,,,,,,,,,,,4,2,20000"
	echo "0.5,glibc,tcp,10,10,2,5,2,2,0,0,0,0,0,0,0,0,0,0,4,2,20000"
	echo "0.5,glibc,dot,10,10,3,6,2,2,2,0,0,0,0,0,0,0,0,0,4,2,20000"
	echo "1.5,glibc,udp,300,290,1,4,,,,,,,,,,,,,20,10,400000"
	echo "1.5,glibc,tcp,30,27,4,9,10,8,0,0,0,0,1,0,0,0,0,0,20,10,400000"
	echo "1.5,glibc,dot,30,30,5,12,10,8,8,3,0,1,0,0,0,0,0,0,20,10,400000"
	echo "3.0,glibc,udp,100,100,1,3,,,,,,,,,,,,,4,2,60000"
	echo "3.0,glibc,tcp,10,10,2,5,2,0,0,0,0,0,0,0,8,0,0,0,4,2,60000"
	echo "3.0,glibc,dot,10,10,3,6,2,0,0,0,0,0,0,0,8,0,0,0,4,2,60000"
	echo "0.5,jemalloc,udp,100,100,1,3,,,,,,,,,,,,,,,"
	echo "0.5,jemalloc,tcp,20,20,2,5,4,4,0,0,0,0,0,0,0,0,0,0,,,"
	echo "1.5,jemalloc,tcp,60,60,2,5,20,16,0,0,2,0,0,0,0,0,0,0,,,"
} >"$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "report: exit status" 0 $?
S=$run/summary.json
t() { jq -r ".variants.$1.transports$2" "$S"; }
check_eq "TCP queries summed" 50 "$(t glibc .by_transport.tcp.sent)"
check_eq "TCP answered share" 0.94 "$(t glibc .by_transport.tcp.answered_share)"
check_eq "TCP new connections" 10 "$(t glibc .by_transport.tcp.connects)"
check_eq "TCP resets" 1 "$(t glibc .by_transport.tcp.resets)"
check_eq "TCP open at most" 10 "$(t glibc .by_transport.tcp.open_max)"
check_eq "TCP closed idle after the spike" 8 "$(t glibc .by_transport.tcp.closed_idle)"
check_eq "TCP p50: the intervals' p50 weighted by answers" 4 "$(t glibc .by_transport.tcp.lat_p50_ms)"
check_eq "DoT handshakes (resumed)" "10 3" "$(t glibc .by_transport.dot.handshakes) $(t glibc .by_transport.dot.resumed)"
check_eq "DoT connection failures: failed handshakes too" 1 "$(t glibc .by_transport.dot.connection_failures)"
check_eq "UDP queries" 500 "$(t glibc .by_transport.udp.sent)"
check_eq "resolver: most connections open" "20 10" "$(t glibc .resolver.open_max) $(t glibc .resolver.tls_open_at_max)"
check_eq "resolver: bytes per open connection" 20000 "$(t glibc .resolver.bytes_per_connection)"
check_eq "resolver: at the end" "4 60000" "$(t glibc .resolver.open_end) $(t glibc .resolver.conn_bytes_end)"
check_eq "no TLS: no DoT row" null "$(t jemalloc .by_transport.dot)"
check "no TLS: the note says TCP only" grep -q "built without DNS over TLS" <<<"$(t jemalloc .note)"
check_eq "no TLS: its DoT clients counted over TCP" 20 "$(t jemalloc .by_transport.tcp.connects)"
check_eq "a daemon-like row without the resolver's stats" null "$(t jemalloc .resolver)"
check "page: the table" grep -q 'id="transports-table"' "$run/report.html"
check "page: a DoT row" grep -q '<td>glibc</td><td>DoT</td>' "$run/report.html"
check "page: the memory per connection" grep -q '20000 bytes each' "$run/report.html"
check "summary.md: the section" grep -q '^## Transports' "$run/summary.md"
check "summary.md: a row" grep -q '^| jemalloc | TCP | 80 | 100.0 % | 20 | 20 | - | - | 2 | 0 |' "$run/summary.md"

# a file that is not this file is refused whole, never read in part: the error, with its line
cp "$run/transports.csv" "$TEST_TMP/good.csv"
echo "3.5,jemalloc,carrier-pigeon,1,1,1,1,,,,,,,,,,,,,,," >>"$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "refused: exit status (the rest of the report stands)" 0 $?
check_eq "refused: a transport of no name, its line" "transports.csv:14: a transport other than udp, tcp or dot" "$(t glibc .error)"
check_eq "refused: no figure of it" null "$(t glibc .by_transport)"
check "refused: the page says why" grep -q 'transports.csv refused: transports.csv:14' "$run/report.html"
sed -i '$d' "$run/transports.csv"
echo "3.5,glibc,tcp,1,1,1,1,x,,,,,,,,,,,,,," >>"$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "refused: a number that is none" 'transports.csv:14: column "open": not a number in range' "$(t glibc .error)"
sed -i '$d' "$run/transports.csv"
echo "3.5,ghost,tcp,1,1,1,1,,,,,,,,,,,,,,," >>"$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "refused: a variant the run does not have" "transports.csv:14: a variant the run does not have" "$(t glibc .error)"
# a last line cut off mid-write (an interrupted run) is dropped, as the timeline's
cp "$TEST_TMP/good.csv" "$run/transports.csv"
printf '3.5,glibc,tcp,100' >>"$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "a cut-off last line: dropped, the rest read" 50 "$(t glibc .by_transport.tcp.sent)"

# memory per connection from outside the process (daemons too): the spike (from 1.0 s, before it
# 20 connections open, to 2.0 s, at most 200) opened 180; glibc's anon RSS grew from 4000 kB before
# it to 12000 at its peak: 8000 x 1024 / 180 = 45511 bytes. The first file's spike opened 16, under
# the 100 that say anything: null there.
check_eq "anon growth per connection: under 100 opened, none" null "$(t glibc .anon_growth_per_connection)"
{
	head -1 "$TEST_TMP/good.csv"
	echo "1.0,glibc,udp,100,100,1,3,,,,,,,,,,,,,,,"
	echo "1.0,glibc,tcp,10,10,2,5,10,10,0,0,0,0,0,0,0,0,0,0,,,"
	echo "1.0,glibc,dot,10,10,3,6,10,10,10,0,0,0,0,0,0,0,0,0,,,"
	echo "1.5,glibc,tcp,100,100,2,5,100,90,0,0,0,0,0,0,0,0,0,0,,,"
	echo "1.5,glibc,dot,60,60,3,6,60,50,50,0,0,0,0,0,0,0,0,0,,,"
	echo "2.0,glibc,tcp,120,120,2,5,120,20,0,0,0,0,0,0,0,0,0,0,,,"
	echo "2.0,glibc,dot,80,80,3,6,80,20,20,0,0,0,0,0,0,0,0,0,,,"
	echo "2.5,glibc,tcp,10,10,2,5,0,0,0,0,0,0,0,0,120,0,0,0,,,"
} >"$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "anon growth per connection: bytes" 45511 "$(t glibc .anon_growth_per_connection.first_bytes)"
check_eq "anon growth per connection: the spike" 1 "$(t glibc .anon_growth_per_connection.first_spike)"
check_eq "anon growth per connection: no later spike" "0 null" "$(t glibc .anon_growth_per_connection.later_spikes) $(t glibc .anon_growth_per_connection.later_bytes_median)"
check_eq "anon growth per connection: no resolver stats needed" null "$(t glibc .resolver)"
check "anon growth per connection: the page says it" grep -q 'anonymous RSS grew by 45511 bytes per connection spike 1 opened' "$run/report.html"

# the same folder without transports.csv (a UDP-only run, or an older one): null, no table
rm "$run/transports.csv"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "without the file: exit status" 0 $?
check_eq "without the file: null" null "$(t glibc "")"
check "without the file: no table" bash -c "! grep -q 'transports-table' '$run/report.html'"
check "without the file: no section" bash -c "! grep -q '^## Transports' '$run/summary.md'"
finish
