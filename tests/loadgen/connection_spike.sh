#!/bin/bash
# tests/loadgen/connection_spike.sh - a connection spike (docs/schedule.md, '/clients=N') against our
# resolver: the spike's extra TCP (and DoT) clients open connections of their own, more than the
# baseline's, and close them after --tcp-idle once the spike is over, while the baseline's stay open;
# transports.csv counts them per transport and interval (docs/run-folder.md) and records the
# resolver's open connections. A target with dot=tcp takes its DoT clients over plain TCP. Counts,
# not times: each client sends every 0.1 s, ten times faster than the idle timeout.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.41
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RES=$(resolver_binary) || skip "no resolver variant built"
cd "$TEST_TMP"
tls=()
if command -v openssl >/dev/null && "$RES" --version --json | jq -e '.tls == true' >/dev/null; then
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key \
		-out server.pem -days 2 -subj "/CN=server" 2>/dev/null || { echo "FAIL openssl req"; exit 1; }
	tls=(--tls-listen "$NET.10:0" --tls-cert server.pem --tls-key server.key)
fi
start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" "${tls[@]}" || exit 1
base="name=resolver,addr=$RADDR:$RPORT,control=$RCTL"
printf 'www.example.test A\n' >q.txt
# 4 clients at 40 qps (10 each), then 20 at 200 qps (10 each) for a second, then the 4 again
schedule='baseline:1s@40,spike:1s@200/clients=20,recovery:2.5s@40'
col() { # FILE TRANSPORT COLUMN AGG : over the rows of that transport, sum, max or last
	awk -F, -v tr="$2" -v name="$3" -v agg="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$3 == tr { v = $c[name]; s += v; if (v > m) m = v; last = v }
		END { print agg == "sum" ? s : agg == "max" ? m : last }' "$1"
}
summary() { jq -r "select(.event == \"summary\") | $2" "$1/events.jsonl"; }

# TCP: of the 4 baseline clients 2 keep a connection; of the spike's 20, 10: 8 new ones
timeout 30 "$LG" -d q.txt --schedule "$schedule" --clients 4 --tcp-share 0.5 --tcp-idle 1s \
	--target "$base" --out tcp >out1.txt 2>err1.txt
check_eq "tcp: exit status" 0 $?
check_eq "tcp: connections opened, baseline and spike" 10 "$(summary tcp .tcp.connects)"
check_eq "tcp: the spike's connections closed idle after it" 8 "$(summary tcp .tcp.closed_idle)"
check_eq "transports.csv: new connections" 10 "$(col tcp/transports.csv tcp connects sum)"
check_eq "transports.csv: open at the spike" 10 "$(col tcp/transports.csv tcp open max)"
check_eq "transports.csv: open at the end (the baseline's)" 2 "$(col tcp/transports.csv tcp open last)"
check_eq "transports.csv: idle closes" 8 "$(col tcp/transports.csv tcp closed_idle sum)"
check_eq "transports.csv: no failures or resets" "0 0" \
	"$(col tcp/transports.csv tcp connect_failures sum) $(col tcp/transports.csv tcp resets sum)"
check "transports.csv: the resolver saw the spike's connections" \
	test "$(col tcp/transports.csv tcp server_tcp_open max)" -ge 10
check_eq "transports.csv: UDP and TCP queries add up to the sent" "$(summary tcp .sent)" \
	"$(($(col tcp/transports.csv udp sent sum) + $(col tcp/transports.csv tcp sent sum)))"
check_eq "transports.csv: every query answered over TCP" "$(col tcp/transports.csv tcp sent sum)" \
	"$(col tcp/transports.csv tcp answered sum)"

if ((${#tls[@]})); then
	TLSPORT=$(sed -n "s/^ready-tls $NET.10://p" resolver.ready)
	# of 4 clients one over TCP, one over DoT; of the spike's 20, 5 and 5
	timeout 30 "$LG" -d q.txt --schedule "$schedule" --clients 4 --tcp-share 0.25 --dot-share 0.25 \
		--tcp-idle 1s --target "$base,dot=$RADDR:$TLSPORT" --out dot >out2.txt 2>err2.txt
	check_eq "dot: exit status" 0 $?
	check_eq "dot: handshakes, baseline and spike" 5 "$(summary dot .dot.handshakes)"
	check_eq "dot: TCP connections, baseline and spike" 5 "$(summary dot .tcp.connects)"
	check_eq "dot: closed idle after the spike" "4 4" "$(summary dot .dot.closed_idle) $(summary dot .tcp.closed_idle)"
	check_eq "transports.csv: DoT handshakes" 5 "$(col dot/transports.csv dot handshakes sum)"
	check_eq "transports.csv: DoT open at the spike, at the end" "5 1" \
		"$(col dot/transports.csv dot open max) $(col dot/transports.csv dot open last)"
	check "transports.csv: the resolver's TLS connections" test "$(col dot/transports.csv dot server_tls_open max)" -ge 5
else
	echo "# no TLS in $RES (or no openssl): the DoT part is not run"
fi

# dot=tcp (a build without TLS): the DoT clients speak TCP, counted as TCP, no DoT rows
timeout 30 "$LG" -d q.txt --schedule "$schedule" --clients 4 --tcp-share 0.25 --dot-share 0.25 \
	--tcp-idle 1s --target "$base,dot=tcp" --out astcp >out3.txt 2>err3.txt
check_eq "dot=tcp: exit status" 0 $?
check_eq "dot=tcp: every stream client over TCP" 10 "$(summary astcp .tcp.connects)"
check_eq "dot=tcp: no DoT in the summary" null "$(summary astcp .dot)"
check "dot=tcp: no DoT rows" bash -c "! grep -q ',dot,' astcp/transports.csv"

# UDP only: no transports.csv
timeout 30 "$LG" -d q.txt --schedule 'baseline:0.3s@20' --target "$base" --out udp >/dev/null 2>&1
check "UDP only: no transports.csv" test ! -e udp/transports.csv
# a bad dot= value: exit 2, named
timeout 10 "$LG" -d q.txt -Q 10 -l 0.2 --target "$base,dot=nowhere" >/dev/null 2>err4.txt
check_eq "dot=nowhere: exit 2" 2 $?
check "dot=nowhere: the reason" grep -q "dot: " err4.txt
finish
