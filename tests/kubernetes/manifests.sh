#!/bin/bash
# tests/kubernetes/manifests.sh - deploy/kubernetes/ checked offline, three ways: every document
# against the Kubernetes JSON schema of its kind (kubernetes-models, pinned with its lock file in
# schemas/, installed by npm into the build folder); every field known to the API at its place
# (Debian's python3-kubernetes: what the schemas let through); and what the manifests promise each
# other (shared process namespace, the socket volume, the Indexed Job's shards, the Service's
# ports, the scrape job, which promtool checks). A manifest with a misspelt field and a wrong type
# is refused by both checkers, so they are seen to bite.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
DEPLOY="$ALLOCSPIKE_SOURCE_DIR/deploy/kubernetes"
HERE="$ALLOCSPIKE_SOURCE_DIR/tests/kubernetes"
PY=/usr/bin/python3 # Debian's, where python3-kubernetes and python3-yaml are installed
command -v node >/dev/null || skip "node is not installed (the machine's Node.js runs the schema check)"
command -v npm >/dev/null || skip "npm is not installed"
"$PY" -c 'import kubernetes, yaml' 2>/dev/null || skip "python3-kubernetes is not installed (scripts/packages.txt)"
command -v promtool >/dev/null || skip "promtool is not installed (prometheus, scripts/packages.txt)"
manifests=("$DEPLOY"/*.yaml)
# the images' tag: the project's version (ctest gives it; the programs print it)
export ALLOCSPIKE_VERSION=${ALLOCSPIKE_VERSION:-$("$ALLOCSPIKE_BIN/allocspike-agent" --version | awk '{ print $2 }')}

# The schema package: installed once per build folder and again when its lock file changes.
schemas="${ALLOCSPIKE_BUILD_DIR:-$TEST_TMP}/kubernetes-schemas"
if ! cmp -s "$HERE/schemas/package-lock.json" "$schemas/package-lock.json" ||
	[[ ! -d $schemas/node_modules/kubernetes-models ]]; then
	rm -rf "$schemas" && mkdir -p "$schemas"
	cp "$HERE/schemas/package.json" "$HERE/schemas/package-lock.json" "$HERE/schemas/.npmrc" "$schemas/"
	if ! (cd "$schemas" && npm ci --no-audit --no-fund >npm.log 2>&1); then
		tail -20 "$schemas/npm.log"
		rm -f "$schemas/package-lock.json" # try again next time
		check "npm installed the pinned schema package" false
		finish
	fi
fi
cp "$HERE/validate_schemas.mjs" "$schemas/" # imports resolve from the script's folder

check "every document matches its Kubernetes schema" node "$schemas/validate_schemas.mjs" "${manifests[@]}"
check "every field is one the API knows" "$PY" "$HERE/strict_fields.py" "${manifests[@]}"

# Both checkers refuse a misspelt field and a port given as a string.
sed 's/shareProcessNamespace:/shareProcessNamspace:/; s/containerPort: 9110/containerPort: "9110"/' \
	"$DEPLOY/target-pod.yaml" >"$TEST_TMP/bad.yaml"
node "$schemas/validate_schemas.mjs" "$TEST_TMP/bad.yaml" >"$TEST_TMP/bad.schema" 2>&1
check_eq "a port as a string: refused by the schema" 1 $?
check "the schema names the field" grep -q 'containers/2/ports/0/containerPort must be integer' "$TEST_TMP/bad.schema"
"$PY" "$HERE/strict_fields.py" "$TEST_TMP/bad.yaml" >"$TEST_TMP/bad.strict" 2>&1
check_eq "a misspelt field: refused by the field check" 1 $?
check "the field check names it" grep -q 'spec.shareProcessNamspace: no such field in V1PodSpec' "$TEST_TMP/bad.strict"

# What the manifests promise each other.
"$PY" - "$DEPLOY" >"$TEST_TMP/promises.txt" 2>&1 <<'PY'
import os, re, sys, yaml
deploy = sys.argv[1]
docs = {}
for name in sorted(os.listdir(deploy)):
    if name.endswith(".yaml"):
        for d in yaml.safe_load_all(open(os.path.join(deploy, name))):
            if d:
                docs[d["kind"], d["metadata"]["name"]] = d
pod, job = docs["Pod", "allocspike-target-musl"], docs["Job", "allocspike-loadgen"]
svc, agents = docs["Service", "allocspike-target"], docs["Service", "allocspike-agents"]
cm = docs["ConfigMap", "allocspike-prometheus"]
spec = pod["spec"]
containers = {c["name"]: c for c in spec["containers"]}
def say(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
say(spec.get("shareProcessNamespace") is True, "the target Pod shares its process namespace")
say(set(containers) == {"upstream", "resolver", "agent"}, "the target Pod runs the hierarchy, the resolver and the agent")
vol = [v["name"] for v in spec["volumes"] if "emptyDir" in v]
mounts = {n: {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])} for n, c in containers.items()}
say(len(vol) == 1 and mounts["resolver"].get(vol[0]) == mounts["agent"].get(vol[0]) is not None,
    "the resolver and the agent mount one emptyDir at the same path")
sock = next(a.split("=", 1)[1] for a in containers["resolver"]["args"] if a.startswith("--control="))
agent_cmd = containers["agent"]["args"][0].split()
say(f"--control={sock}" in agent_cmd and "--pid-from-control" in agent_cmd
    and sock.startswith(mounts["agent"][vol[0]] + "/"),
    "the agent reads the resolver's control socket, in the shared volume, and takes its PID from it")
ports = {p["name"]: p for c in spec["containers"] for p in c.get("ports", [])}
listen = next(a.split("=", 1)[1] for a in containers["resolver"]["args"] if a.startswith("--listen="))
say(listen == f"0.0.0.0:{ports['dns']['containerPort']}", "the resolver listens on the Pod's addresses at its dns port")
say(f"--listen=0.0.0.0:{ports['metrics']['containerPort']}" in agent_cmd, "the agent serves /metrics at its metrics port")
up = containers["upstream"]["args"]
say(up[up.index("--hierarchy-block") + 1].startswith("127.") and
    f"--upstream-port={up[up.index('--port') + 1]}" in containers["resolver"]["args"],
    "the hierarchy is on the Pod's loopback, at the port the resolver asks")
def selects(service):
    return service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
say(selects(svc) and selects(agents), "both Services select the target Pod")
say({p["targetPort"] for p in svc["spec"]["ports"] + agents["spec"]["ports"]} <= set(ports),
    "every Service port is a named port of the Pod")
js = job["spec"]
env = {e["name"]: e.get("value") for e in js["template"]["spec"]["containers"][0]["env"]}
say(js["completionMode"] == "Indexed" and js["completions"] == js["parallelism"] == int(env["SHARDS"]),
    "the Job is Indexed with one Pod per shard, all at once, SHARDS = completions")
cmd = " ".join(js["template"]["spec"]["containers"][0]["args"])
say("$((JOB_COMPLETION_INDEX + 1))" in cmd and '--shard "$shard/$SHARDS"' in cmd, "shard I is the completion index + 1")
say(js.get("backoffLimit") == 0 and js["template"]["spec"]["restartPolicy"] == "Never", "a failed shard is not sent again")
# Kubernetes names a Service's variables after it and its ports: allocspike-target's dns port
env_prefix = svc["metadata"]["name"].upper().replace("-", "_") + "_SERVICE_"
say("dns" in {p["name"] for p in svc["spec"]["ports"]}
    and f"addr=${env_prefix}HOST:${env_prefix}PORT_DNS" in cmd, "the shards send to the Service's dns port")
version = os.environ["ALLOCSPIKE_VERSION"]
images = {c["image"] for c in spec["containers"] + js["template"]["spec"]["containers"]}
say(images == {f"localhost/allocspike/{n}:{version}" for n in ("resolver-musl", "tools")},
    f"the images are build-images.sh's at this version ({version})")
prom = yaml.safe_load(cm["data"]["prometheus.yml"])
sd = prom["scrape_configs"][0]["dns_sd_configs"][0]
say(agents["spec"]["clusterIP"] == "None" and sd["names"] == [agents["metadata"]["name"]]
    and sd["port"] == ports["metrics"]["containerPort"],
    "Prometheus finds each Pod's agent through the headless Service, at its metrics port")
PY
cat "$TEST_TMP/promises.txt"
check "the manifests keep their promises to each other" bash -c "! grep -q '^FAIL' '$TEST_TMP/promises.txt'"
check_eq "every promise checked" 15 "$(grep -c '^ok' "$TEST_TMP/promises.txt")"
"$PY" -c 'import sys, yaml; [print(d["data"]["prometheus.yml"], end="") for d in yaml.safe_load_all(open(sys.argv[1])) if d]' \
	"$DEPLOY/prometheus-config.yaml" >"$TEST_TMP/prometheus.yml"
check "promtool accepts the scrape configuration" promtool check config "$TEST_TMP/prometheus.yml"
finish
