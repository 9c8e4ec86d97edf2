#!/bin/bash
# tests/kubernetes/podman_pod.sh - deploy/kubernetes/target-pod.yaml run end to end by podman kube play:
# the images built by build-images.sh from this build, the Pod started (hierarchy, musl resolver,
# agent sidecar), the resolver answering queries from the host at the Pod's own address, the agent
# reading it through the shared process namespace, and a real Prometheus (Debian's, a process of
# this test) scraping the agent with the scrape job of prometheus-config.yaml and storing its series;
# then loadgen-job.yaml's two shards, run as the Job would run them (podman plays no Job), sending
# a replay plan to the Pod between them.
# One change to the manifest: podman 4.3 cannot fill an environment variable from spec.nodeName,
# so the agent's host label is given as a value. podman runs on a private configuration (runc, as
# this kernel's cgroup v1 needs, no default ulimits, cgroupfs) and a private store and network
# folder under the test's folder: nothing of the machine's is used or left behind, but for podman
# build's cache of blob digests (/var/lib/containers/cache), which has no setting in podman 4.3.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
DEPLOY="$ALLOCSPIKE_SOURCE_DIR/deploy/kubernetes"
PY=/usr/bin/python3 # Debian's, with python3-yaml
[[ "${ALLOCSPIKE_SANITIZE:-0}" == 1 ]] && skip "the images are made from the release build's static musl resolver"
[[ -x "$ALLOCSPIKE_BIN/allocspike-resolver-musl" ]] || skip "no musl resolver built (its image is the static binary alone)"
[[ $(id -u) == 0 ]] || skip "podman kube play here runs as root (rootless podman needs subordinate ID ranges)"
for tool in podman runc catatonit prometheus kdig jq curl; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/packages.txt)"
done
unshare --net true 2>/dev/null || skip "cannot create network namespaces here (a Pod has its own)"
cd "$TEST_TMP"
started=$SECONDS

export CONTAINERS_CONF=$TEST_TMP/containers.conf CONTAINERS_STORAGE_CONF=$TEST_TMP/storage.conf
cat >containers.conf <<EOF
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "none"
tmp_dir = "$TEST_TMP/libpod"
[network]
network_config_dir = "$TEST_TMP/cni"
EOF
cat >storage.conf <<EOF
[storage]
driver = "vfs"
graphroot = "$TEST_TMP/storage"
runroot = "$TEST_TMP/storage-run"
EOF
# The Pod's network, named for this test: what CNI keeps on the host for it (a bridge, the address
# leases under /var/lib/cni/networks) is this test's to remove.
NETWORK=allocspike-test-$$
# Every exit path: the Pod, its volume, the images and the network go with the private store, and
# the network's bridge and leases with it.
pod_cleanup() {
	local bridge
	bridge=$(podman network inspect "$NETWORK" | jq -r '.[0].network_interface // empty')
	podman pod rm --force --all
	podman volume rm --force --all
	podman rmi --force --all
	podman network rm --force "$NETWORK"
	[[ -z $bridge ]] || ip link delete "$bridge"
	rm -rf "/var/lib/cni/networks/$NETWORK"
}
trap 'pod_cleanup >/dev/null 2>&1; _test_cleanup' EXIT

# The images, from this build.
check "build-images.sh builds the two images" bash -c "'$DEPLOY/build-images.sh' --bin '$ALLOCSPIKE_BIN' >images.txt"
cat images.txt
check_eq "two images" 2 "$(wc -l <images.txt)"
check "the resolver's image is the static binary alone (under 4 MB)" \
	awk '/resolver-musl/ { found = 1; small = $2 < 4000000 } END { exit !(found && small) }' images.txt

# The Pod, as shipped but for the host label.
"$PY" - "$DEPLOY/target-pod.yaml" target-pod.yaml <<'PY'
import sys
text = open(sys.argv[1]).read()
node = "          valueFrom:\n            fieldRef: {fieldPath: spec.nodeName}\n"
assert text.count(node) == 1, "target-pod.yaml: the NODE_NAME fieldRef has moved"
open(sys.argv[2], "w").write(text.replace(node, "          value: podman-host\n"))
PY
check "a network for the Pod" podman network create "$NETWORK"
check "podman kube play starts the target Pod" timeout 120 podman kube play --network "$NETWORK" target-pod.yaml
ready() { podman logs "allocspike-target-musl-$1" 2>&1 | grep -q "^ready $2"; }
# both ready: 1-2 s alone here; 60 s because two helpers' builds beside it once took over 20 s
both_ready() { ready upstream 127.53.0.1:5300 && ready resolver 0.0.0.0:5353; }
wait_until 60 both_ready
check "the hierarchy is ready on the Pod's loopback" ready upstream 127.53.0.1:5300
check "the resolver is ready on the Pod's addresses" ready resolver 0.0.0.0:5353
infra=$(podman pod inspect allocspike-target-musl --format '{{.InfraContainerID}}')
POD_IP=$(podman inspect "$infra" | jq -r '.[0].NetworkSettings.Networks[].IPAddress' | head -1)
check "the Pod has an address of its own" bash -c "[[ '$POD_IP' =~ ^[0-9.]+$ && '$POD_IP' != 127.* ]]"

# The resolver answers at the Pod's address, through the hierarchy in the Pod.
ask() { kdig @"$POD_IP" -p 5353 +timeout=3 +retry=2 "$@"; }
ask www.example.com A >a.txt
check "a name is answered (NOERROR with an address)" bash -c "grep -q 'status: NOERROR' a.txt && grep -qE 'IN\s+A\s+[0-9.]+' a.txt"
ask nothing.invalid A >nx.txt
check "a name under no TLD: NXDOMAIN" grep -q 'status: NXDOMAIN' nx.txt
answered=0
for ((i = 1; i <= 20; i++)); do
	ask "host$i.example.net" A | grep -q 'status: NOERROR' && answered=$((answered + 1))
done
check "20 more names answered (at least 18: the lan world drops 1 % upstream)" test "$answered" -ge 18

# The agent found the resolver through the control socket and reads it.
metrics="http://$POD_IP:9110/metrics"
for ((i = 0; i < 100; i++)); do
	curl -sf "$metrics" -o m.txt && grep -q '^allocspike_upstream_queries_total{' m.txt && break
	sleep 0.2
done
labels='run="k8s-1",host="podman-host",variant="musl"'
check "the agent serves /metrics at the Pod's address" grep -q "^allocspike_target_up{$labels} 1" m.txt
check "it reads the resolver's memory from /proc" awk -v l="allocspike_resident_memory_bytes{$labels}" \
	'$1 == l { found = $2 > 1000000 } END { exit !found }' m.txt
check "and its counters from the control socket" awk -v l="allocspike_upstream_queries_total{$labels}" \
	'$1 == l { found = $2 > 0 } END { exit !found }' m.txt
check "and its live bytes" grep -q "^allocspike_live_bytes{$labels} [1-9]" m.txt

# A real Prometheus scrapes the agent with the shipped scrape job, the Pod's address for its DNS name.
"$PY" - "$DEPLOY/prometheus-config.yaml" "$POD_IP:9110" >prometheus.yml <<'PY'
import sys, yaml
cm = next(d for d in yaml.safe_load_all(open(sys.argv[1])) if d)
prom = yaml.safe_load(cm["data"]["prometheus.yml"])
job = prom["scrape_configs"][0]
del job["dns_sd_configs"]
job["static_configs"] = [{"targets": [sys.argv[2]]}]
print(yaml.safe_dump(prom))
PY
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
lifeline_set
"${LIFELINE[@]}" timeout 120 prometheus --config.file=prometheus.yml --storage.tsdb.path=tsdb \
	--web.listen-address="127.0.0.1:$port" >prometheus.log 2>&1 &
_test_pids+=($!)
api="http://127.0.0.1:$port/api/v1/query"
for ((i = 0; i < 300; i++)); do
	curl -sf "$api" --data-urlencode 'query=count_over_time(allocspike_agent_samples_total[1m])' -o prom.json &&
		[[ $(jq -r '.data.result[0].value[1] // 0' prom.json) -ge 3 ]] && break
	sleep 0.1
done
check "Prometheus stored three scrapes or more of the agent" \
	jq_true '.data.result[0].value[1] | tonumber >= 3' prom.json
curl -sf "$api" --data-urlencode 'query=allocspike_resident_memory_bytes' -o rss.json
check_eq "with the agent's labels and the scrape job's" '"allocspike-agent k8s-1 podman-host musl"' \
	"$(jq -c '.data.result[0].metric | "\(.job) \(.run) \(.host) \(.variant)"' rss.json)"
check "a resident memory over 1 MB" jq_true '.data.result[0].value[1] | tonumber > 1000000' rss.json
curl -sf "$api" --data-urlencode 'query=up{job="allocspike-agent"}' -o up.json
check_eq "Prometheus saw the target up" 1 "$(jq -r '.data.result[0].value[1]' up.json)"

# The Job's two shards, each as the Job would start it (its command and environment, the index,
# the Service's variables set to the Pod's address and port), in containers of their own on the
# Pod's network, sending a plan of 40 queries from 4 clients: shard 1 sends clients 0 and 2, shard
# 2 clients 1 and 3, and the resolver receives the 40.
"$PY" - "$DEPLOY/loadgen-job.yaml" >job.env <<'PY'
import shlex, sys, yaml
job = next(d for d in yaml.safe_load_all(open(sys.argv[1])) if d)
spec = job["spec"]["template"]["spec"]
c = spec["containers"][0]
print("JOB_CMD=" + shlex.quote(" ".join(c["command"][2:] + c["args"])))
print("JOB_SHELL=" + shlex.quote(c["command"][0]))
print("JOB_SHARDS=" + next(e["value"] for e in c["env"] if e["name"] == "SHARDS"))
print("JOB_USER=%d:%d" % (spec["securityContext"]["runAsUser"], spec["securityContext"]["runAsGroup"]))
print("JOB_IMAGE=" + c["image"])
PY
source job.env
mkdir -p plan
{
	echo "# allocspike replay plan 1"
	for ((q = 0; q < 40; q++)); do
		printf '%d.%03d000000 %d udp shard-q%d.example.org. A\n' $((q / 100)) $((q % 100 * 10)) $((q % 4)) "$q"
	done
} >plan/plan.tsv
queries() { control_send "$(podman volume inspect run --format '{{.Mountpoint}}')/control.sock" stats | jq .queries; }
before=$(queries)
for index in 0 1; do
	timeout 60 podman run --rm --network "$NETWORK" --user "$JOB_USER" -v "$TEST_TMP/plan:/plan:ro" \
		-v results:/results -e JOB_COMPLETION_INDEX=$index -e SHARDS="$JOB_SHARDS" \
		-e ALLOCSPIKE_TARGET_SERVICE_HOST="$POD_IP" -e ALLOCSPIKE_TARGET_SERVICE_PORT_DNS=5353 \
		"$JOB_IMAGE" "$JOB_SHELL" -c "$JOB_CMD" >"shard$index.log" 2>&1 &
	shard_pids+=($!)
	_test_pids+=($!)
done
for index in 0 1; do
	wait "${shard_pids[$index]}"
	check_eq "shard $((index + 1)) of $JOB_SHARDS (completion index $index) exits 0" 0 $?
done
results=$(podman volume inspect results --format '{{.Mountpoint}}')
sent() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["variant"] == "musl" { s += $c["sent"] } END { print s + 0 }' "$results/shard-$1/timeline.csv"; }
check_eq "shard 1 sent its clients' half" 20 "$(sent 1)"
check_eq "shard 2 sent the other half" 20 "$(sent 2)"
check_eq "the resolver received the 40" $((before + 40)) "$(queries)"

check "podman kube down removes the Pod" podman kube down target-pod.yaml
check_eq "no container left" "" "$(podman ps --all --quiet)"
echo "podman test took $((SECONDS - started)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
finish
