#!/bin/bash
# upstream/instructions.sh - CPU instructions per fresh leaf reply of allocspike-upstream, counted
# by callgrind: deterministic, so it compares two builds on a busy machine where benchmark.sh's
# timings are noise. Not a test: prints one line per query set.
#
# usage: upstream/instructions.sh [BUILD_DIR] [QUERIES]   (default build/, 10000)
# The hierarchy runs under callgrind (nice 19, no latency, no loss, no reply cache) and answers,
# one at a time, a short and a long stream of the same questions at the zone's own server; the
# difference of the two counts over the difference of the lengths is the cost of one reply
# (parse, treat, answer, send; start-up and the server lookup cancel out). Query sets: "cdn", the
# benchmark's e<i>.simcdn-0.net. A; "domain", names of one registered domain asked for A, AAAA,
# MX, TXT and SRV (a third of them built in full: MX, TXT, SRV answers).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
N=${2:-10000}
U=${ALLOCSPIKE_BIN:-$BUILD/bin}/allocspike-upstream
source "$SRC/scripts/bench-lib.sh"
bench_require valgrind python3
[[ -x "$U" ]] || { echo "instructions: $U not built" >&2; exit 1; }
bench_workdir instructions
BLOCK=127.54.62.0/24
SHORT=2000

# the client: finds the server answering the first name authoritatively (every address of the
# block in turn), then sends each question with EDNS and waits for its reply
cat >"$WORK/client.py" <<'EOF'
import socket, struct, sys
TYPES = {"A": 1, "MX": 15, "TXT": 16, "AAAA": 28, "SRV": 33}
root, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def query(qid, name, qtype):
    q = struct.pack(">HHHHHH", qid & 0xffff, 0, 1, 0, 0, 1)
    for label in name.rstrip(".").split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\0" + struct.pack(">HH", TYPES[qtype], 1) + b"\0" + struct.pack(">HHIH", 41, 1232, 0, 0)
questions = [line.split() for line in open(path)]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(0.3)
server = None
for i in range(1, 255):
    addr = "%s.%d" % (root.rsplit(".", 1)[0], i)
    try:
        s.sendto(query(7, questions[0][0], "A"), (addr, port))
        r = s.recv(65535)
    except OSError:
        continue
    if r[2] & 4:
        server = addr
        break
if server is None:
    sys.exit("instructions: no server answers %s" % questions[0][0])
s.settimeout(10)
for i, (name, qtype) in enumerate(questions):
    s.sendto(query(i, name, qtype), (server, port))
    s.recv(65535)
EOF

# queries SET COUNT: the question stream of a set
queries() {
	if [[ $1 == cdn ]]; then
		awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "e%d.simcdn-0.net. A\n", i }'
	else
		awk -v n="$2" 'BEGIN { split("A AAAA MX TXT A AAAA TXT SRV", t, " ")
			split("www mail h%d x%d.y _dmarc s%d._domainkey _sip._tcp api", s, " ")
			for (i = 0; i < n; i++) {
				k = i % 8; name = sprintf(s[k + 1], i) "."
				if (i % 16 == 3) print "example.com. MX"
				else printf "%sexample.com. %s\n", name, t[(int(i / 8) + k) % 8 + 1]
			} }'
	fi
}

# instructions SET COUNT: callgrind's total for one run
instructions() {
	local out="$WORK/cg.$1.$2" pid addr
	queries "$1" "$2" >"$WORK/q.txt"
	rm -f "$WORK/ready"
	nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$out" "$U" --block "$BLOCK" \
		--port 0 --no-latency --no-loss --reply-cache 0 --ready-file "$WORK/ready" \
		>"$WORK/log" 2>&1 &
	pid=$!
	PIDS+=("$pid")
	wait_ready "$WORK/ready" "$pid"
	addr=$(sed 's/^ready //' "$WORK/ready")
	python3 "$WORK/client.py" "${addr%:*}" "${addr##*:}" "$WORK/q.txt"
	kill "$pid"
	wait "$pid" || true
	sed -n 's/^summary: //p' "$out"
}

for set in cdn domain; do
	a=$(instructions "$set" "$SHORT")
	b=$(instructions "$set" $((SHORT + N)))
	echo "$set: $(((b - a) / N)) instructions per reply"
done
