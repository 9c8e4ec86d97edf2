#!/bin/bash
# tests/controller/rows.sh - a served run's rows (docs/controller.md, "A run's rows"): rows-setup,
# row-start (the command the controller builds: the run's options, the root hints, the upstream port,
# the row's own upstream source 127.0.1.N, its control socket and ready file in the control folder, a
# wrapper's words before it; run.json's command), rows-check (run.json's rows, a row that cannot run), row-ready (a stand-in row that writes its ready
# file: the `ready` event; one that never does: timeout; a daemon row through its launcher, whose
# allocator probe is recorded as run.json's version and judged: one naming another allocator refused
# with the `failed` event, one naming the row's allocator ready with the daemon's PID), row-targets
# (the generator's --target words: a wrapped row sampled through the wrapper's child, dot= in a run
# with a certificate), rows-ready (rows waited for together, those that fail left out), row-command (the same command, printed), and their refusals; then generate
# over the ready rows (a stand-in generator: its words, the events' origin from its `started` line,
# its exit status answered while a row killed meanwhile is recorded, stop-all answering it held) and
# loadgen-argv, the same words printed; last dry-run, a scenario's --dry-run plan from the same
# builders (the three commands above), and its refusals.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
served_controller_test
BIN=$TEST_TMP/bin DAEMONS=$TEST_TMP/daemons TLS=$TEST_TMP/tls R=$TEST_TMP/run
mkdir -p "$BIN" "$DAEMONS/lib" "$TLS" "$R/logs"
T=$TEST_TMP/v.tsv
{
	printf 'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\n'
	printf 'alpha\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tn\n'
	printf 'beta\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tn\n'
	printf 'kresd\texternal\tjemalloc\tglibc\t-\tkresd\t-\tno\tn\n'
	printf 'unbound\texternal\tglibc\tglibc\t-\tunbound\t-\tno\tn\n'
	printf 'gamma\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn\n'
	printf 'alpha-env\tenv\tglibc\tglibc\t-\talpha\tMALLOC_ARENA_MAX=1\tno\tn\n'
	printf 'delta\texternal\tglibc\tglibc\t-\tnodef\t-\tno\tn\n'
} >"$T"
# A stand-in resolver: its words into args-NAME, then "ready" (and "ready-tls" when given
# --tls-listen) in its ready file; gamma never writes it.
cat >"$BIN/allocspike-resolver-alpha" <<'SH'
#!/bin/bash
name=${0##*-}
printf '%s\n' "$@" >"${0%/bin/*}/args-$name"
while (($#)); do
	case $1 in
	--ready-file) ready=$2 ;;
	--tls-listen) tls=$'ready-tls 127.0.0.1:8853\n' ;;
	esac
	shift
done
[[ $name == gamma ]] || printf 'ready 127.0.0.1:5353\n%s' "${tls:-}" >"$ready"
exec sleep 300
SH
chmod +x "$BIN/allocspike-resolver-alpha"
cp "$BIN/allocspike-resolver-alpha" "$BIN/allocspike-resolver-beta"
cp "$BIN/allocspike-resolver-alpha" "$BIN/allocspike-resolver-gamma"
# A stand-in daemon launcher: the probe names glibc; a "daemon" of its own, named by "pid".
cat >"$DAEMONS/lib/row.sh" <<'SH'
#!/bin/bash
name=$1
shift
printf '%s\n' "$@" >"${0%/daemons/*}/args-$name"
while (($#)); do
	case $1 in
	--ready-file) ready=$2 ;;
	--listen) listen=$2 ;;
	--workdir) workdir=$2 ;;
	esac
	shift 2
done
mkdir -p "$workdir"
echo '{"allocator":"glibc","allocator_settings":{}}' >"$workdir/alloc.json"
[[ $name == unbound ]] || exit 1 # refused, as row.sh refuses a preload that did not take
sleep 300 &
printf 'ready %s\npid %s\n' "$listen" "$!" >"$ready"
wait
SH
printf '#!/bin/sh\n' >"$DAEMONS/kresd.sh"
cp "$DAEMONS/kresd.sh" "$DAEMONS/unbound.sh"
chmod +x "$DAEMONS/lib/row.sh" "$DAEMONS"/*.sh
touch "$TLS/server.pem" "$TLS/server.key" hints

ask() { "$RUN" ask "$SOCK" "$@"; }
me=$BASHPID
"$RUN" register --owner "$me" "$R" || exit 1
SOCK=$R/run.sock
"$RUN" launch --parent "$me" -- "$RUN" supervise --serve "$SOCK" --out "$R" 2>"$R/controller.err" &
_test_pids+=("$!")
ask runjson "$R/run.json" rows >/dev/null
ask events "$R/events.jsonl" >/dev/null
ask origin >/dev/null

# rows-check: the rows that can run answered, run.json's variants recorded, a row that cannot run
# (its daemon definition missing) said with its failed event
check_eq "rows-check: the runnable rows" "ok kresd" "$(ask rows-check "$T" "$BIN" "$DAEMONS" kresd,delta)"
check_eq "run.json's variants: both rows, no report for a daemon yet" '[["kresd",null],["delta",null]]' \
	"$(jq -c '[.variants[] | [.name, .version]]' "$R/run.json")"
check "the row that cannot run: its failed event" jq -e \
	'select(.variant == "delta" and .event == "failed") | .reason == "missing daemon definition '"$DAEMONS"'/nodef.sh"' "$R/events.jsonl"
check "and said" grep -q "variant delta cannot run: missing daemon definition" "$R/controller.err"
ask rows-check "$T" "$BIN" "$DAEMONS" kresd,nobody 2>err.txt
check "rows-check of a row not in the table: refused" grep -q "error: rows-check: .*nobody" err.txt
ask runjson-set .variants '[{"name":"alpha"},{"name":"beta","version":{"tls":true}},{"name":"kresd"},{"name":"unbound"},{"name":"gamma"}]' >/dev/null

ask row-start alpha "$R" "" 2>err.txt
check "row-start before rows-setup: refused" grep -q 'no rows-setup yet' err.txt
ask rows-setup "$T" "$BIN" "$DAEMONS" alpha 2>err.txt
check "rows-setup without its settings: the form said" grep -q 'TABLE BIN_DIR DAEMONS_DIR ROWS' err.txt
settings=("$T" "$BIN" "$DAEMONS" alpha,beta,kresd,unbound,gamma "$TEST_TMP/hints" 5300 "$TLS" -- --cache-size 1M)
check_eq "rows-setup" ok "$(ask rows-setup "${settings[@]}")"

# a build row: its command, its ready file, its event
out=$(ask row-start alpha "$R" "")
check "row-start: ok PID START" grep -qE '^ok [0-9]+ [0-9]+$' <<<"$out"
alpha_pid=$(cut -d' ' -f2 <<<"$out")
check_eq "the command's words: the run's settings, its own source and paths" \
	"--listen 127.0.0.1:0 --root-hints $TEST_TMP/hints --upstream-port 5300 --upstream-source 127.0.1.1 --cache-size 1M --control $R/alpha.sock --ready-file $R/alpha.ready" \
	"$(paste -sd' ' args-alpha)"
check_eq "run.json's command" "$BIN/allocspike-resolver-alpha $(paste -sd' ' args-alpha)" \
	"$(jq -r '.variants[0].command' "$R/run.json")"
check_eq "row-ready: its address and PID" "ok 127.0.0.1:5353 $alpha_pid" "$(ask row-ready alpha 10s)"
check "the ready event" jq -e --argjson p "$alpha_pid" \
	'select(.variant == "alpha" and .event == "ready") | .addr == "127.0.0.1:5353" and .pid == $p' "$R/events.jsonl"
ask row-start alpha "$R" "" 2>err.txt
check "a second start while it runs: refused" grep -q 'alpha is running' err.txt

# a wrapped build row whose binary serves DNS over TLS (run.json's version says so)
out=$(ask row-start beta "$R" "" -- bash -c '"$@"; exit $?' wrapper)
beta_pid=$(cut -d' ' -f2 <<<"$out")
check_eq "run.json's command: the resolver's, without the wrapper" "$BIN/allocspike-resolver-beta" \
	"$(jq -r '.variants[1].command' "$R/run.json" | cut -d' ' -f1)"
out=$(ask row-ready beta 10s)
child=$(cut -d' ' -f3 <<<"$out")
check_eq "the wrapper before the binary" "bash -c \"\$@\"; exit \$? wrapper $BIN/allocspike-resolver-beta" \
	"$(tr '\0' ' ' <"/proc/$beta_pid/cmdline" | cut -d' ' -f1-7)"
check "a row with TLS: its options" grep -qx -- "--tls-cert" args-beta
check_eq "the certificate given" "$TLS/server.pem" "$(grep -A1 -x -- --tls-cert args-beta | tail -1)"
check "a wrapped row: sampled through the wrapper's child" test "$child" != "$beta_pid" -a "$(ps -o ppid= -p "$child" | tr -d ' ')" = "$beta_pid"
out=$(ask row-targets alpha beta)
check_eq "row-targets: the generator's words" \
	"ok name=alpha,addr=127.0.0.1:5353,pid=$alpha_pid,control=$R/alpha.sock,dot=tcp name=beta,addr=127.0.0.1:5353,pid=$child,control=$R/beta.sock,dot=127.0.0.1:8853" \
	"$out"

# daemon rows through their launcher
ask row-start kresd "$R" "" -- env 2>err.txt
check "a wrapper on a daemon row: refused" grep -q 'takes no wrapper' err.txt
check "kresd started" grep -q '^ok ' <<<"$(ask row-start kresd "$R" "")"
out=$(ask row-ready kresd 10s)
check "a probe naming another allocator: not ready" grep -q '^exited kresd' <<<"$out"
check "its failed event, with rows-check's reason" jq -e \
	'select(.variant == "kresd" and .event == "failed") | .reason == "allocator is glibc, expected jemalloc"' "$R/events.jsonl"
check_eq "its probe recorded as its version" glibc "$(jq -r '.variants[2].version.allocator' "$R/run.json")"
check "said on stderr" grep -q "variant kresd: its binary reports allocator 'glibc', the table says 'jemalloc'" "$R/controller.err"
out=$(ask row-start unbound "$R" "")
unbound_pid=$(cut -d' ' -f2 <<<"$out")
out=$(ask row-ready unbound 10s)
daemon=$(cut -d' ' -f3 <<<"$out")
check "a daemon row: ready, the daemon's PID (its launcher's pid line)" test "$daemon" != "$unbound_pid" -a -n "$daemon"
check "the launcher's words: workdir, source, sampler socket, a TLS port" grep -qzP -e \
	"--workdir\n$R/daemons/unbound\n(.|\n)*--sampler\n$R/unbound.sock\n--upstream-source\n127.0.1.4\n--tls-listen\n127.0.0.1:[0-9]+\n" args-unbound
check "its targets: the daemon sampled" grep -q "^ok name=unbound,addr=127.0.0.1:[0-9]*,pid=$daemon,control=$R/unbound.sock,dot=tcp$" <<<"$(ask row-targets unbound)"

# refusals and a timeout
check_eq "a row that never writes its ready file: timeout" timeout \
	"$(ask row-start gamma "$R" "" >/dev/null && ask row-ready gamma 0.5s)"
ask row-targets gamma 2>err.txt
check "row-targets of a row not ready: refused" grep -q "row 'gamma' is not ready" err.txt
ask row-start alpha-env "$R" "" 2>err.txt
check "a row that is not one of the run's: refused" grep -q "row 'alpha-env' is not one of the run's rows" err.txt
ask row-ready nobody 1s 2>err.txt
check "row-ready of a row not started: refused" grep -q "no row 'nobody' started" err.txt

# rows-ready: rows started together, waited for at once; the ready ones answered in order, one that
# never answers (gamma) or is refused (kresd) said, stopped and left out
ask stop 1s alpha gamma >/dev/null
gamma_pid=$(ask row-start gamma "$R" "" | cut -d' ' -f2)
alpha_pid=$(ask row-start alpha "$R" "" | cut -d' ' -f2)
ask row-start kresd "$R" "" >/dev/null
check_eq "rows-ready: the ready rows" "ok alpha" "$(ask rows-ready 1s gamma kresd alpha 2>>err.txt)"
check "the row that did not answer: said" grep -q "variant gamma did not become ready (see $R/logs/gamma.log); the run goes on without it" "$R/controller.err"
check "the refused daemon: said" grep -q "variant kresd did not become ready" "$R/controller.err"
check "the row that did not answer: stopped" bash -c "! kill -0 $gamma_pid 2>/dev/null"
check_eq "none ready: ok alone" ok "$(ask row-start gamma "$R" "" >/dev/null && ask rows-ready 0.3s gamma)"
ask rows-ready 1s nobody 2>err.txt
check "rows-ready of a row not started: refused" grep -q "no row 'nobody' started" err.txt

# row-command: the same builder, printed (the dry run's plan)
plain=("${settings[@]}")
plain[6]= # without TLS_DIR, as alpha's (its report says no tls)
"$RUN" row-command alpha "$R" "$R" "${plain[@]}" >cmd.txt
check_eq "row-command: env, then alpha's command as started" "env
$BIN/allocspike-resolver-alpha
$(cat args-alpha)" "$(cat cmd.txt)"
check "row-command with a TLS_DIR: DNS over TLS (no report at hand)" grep -qx -- --tls-cert \
	<("$RUN" row-command alpha "$R" "$R" "${settings[@]}")
"$RUN" row-command alpha "$R" "$R" "$T" 2>err.txt
check_eq "row-command without its settings: exit 2" 2 $?

# generate: the generator run by the controller against the ready rows (docs/controller.md, "The
# generator"). A stand-in generator (its schedule starting a minute from now, exit 3).
LG=$BIN/allocspike-loadgen
stand_in_loadgen "$LG" 60 3
ask generate "$LG" "$R" S "$R/q" "" alpha 2>err.txt
check "generate without the run's options: refused" grep -q "no options" err.txt
options='{"interval_ms":"50","timeout_ms":"","clients":"1","client_count":"10","tcp_share":"0.1","dot_share":"0.2","tcp_idle":"3s"}'
ask runjson-set .parameters.options "$options" >/dev/null
ask generate "$LG" "$R" S "$R/q" "" alpha gamma 2>err.txt
check "generate against a row not ready: refused" grep -q "generate: row 'gamma' is not ready" err.txt
up_pid=$(ask start _upstream "$R/logs/up.log" "" -- sleep 300 | cut -d' ' -f2)
targets=$(ask row-targets alpha beta)
targets=${targets#ok }
ask origin-clear >/dev/null
ask event alpha before >/dev/null
# alpha killed while the generator runs: recorded, and the generator's answer still its own
(sleep 0.3 && kill -KILL "$alpha_pid") &
out=$(ask generate "$LG" "$R" S "$R/q" "" alpha beta)
check "generate: held until the generator exits, its origin and its status 3" grep -qE '^ok [0-9]+\.250000 3$' <<<"$out"
origin=$(cut -d' ' -f2 <<<"$out")
check "the origin: the generator's start_realtime" jq -se --argjson o "$origin" \
	'any(.[]; .variant == "_loadgen" and .start_realtime and (.start_realtime | tonumber) == $o)' "$R/events.jsonl"
check "an event before it: on the generator's clock" jq -se \
	'any(.[]; .variant == "alpha" and .event == "before" and .t_s < -55 and .t_s > -62)' "$R/events.jsonl"
check "the row killed meanwhile: its exit recorded" jq -se \
	'any(.[]; .variant == "alpha" and .event == "exited" and .signal == 9)' "$R/events.jsonl"
check "the generator's exit recorded" jq -se \
	'any(.[]; .variant == "_loadgen" and .event == "exited" and .code == 3)' "$R/events.jsonl"
read -r -a target_words <<<"$targets"
check_eq "the generator's words: the options, the targets, the hierarchy watched" \
	"--queries $R/q --schedule S --out $R --interval-ms 50 --clients 10 --tcp-share 0.1 --dot-share 0.2 --tcp-idle 3s --target ${target_words[0]} --target ${target_words[1]} --watch name=_upstream,pid=$up_pid" \
	"$(paste -sd' ' args-loadgen)"
check "its log" test -f "$R/logs/loadgen.log"
"$RUN" loadgen-argv --options "$options" --loadgen "$LG" --queries "$R/q" --schedule S --dir "$R" \
	--target "${target_words[0]}" --target "${target_words[1]}" --upstream-pid "$up_pid" >cmd.txt
check_eq "loadgen-argv: the same command" "$LG
$(cat args-loadgen)" "$(cat cmd.txt)"
check_eq "loadgen-argv without --clients nor the hierarchy, with a timeout" \
	"$LG --queries Q --schedule S --out D --interval-ms 100 --timeout-ms 2000 --target t" \
	"$("$RUN" loadgen-argv --options '{"interval_ms":"100","timeout_ms":"2000","clients":"0","client_count":"1","tcp_share":"0","dot_share":"0","tcp_idle":"5s"}' \
		--loadgen "$LG" --queries Q --schedule S --dir D --target t | paste -sd' ')"
"$RUN" loadgen-argv --options '{}' --loadgen "$LG" --queries Q --schedule S --dir D 2>err.txt
check_eq "loadgen-argv: options it cannot read, exit 2" 2 $?
check "said" grep -q "the run's options have no 'interval_ms'" err.txt
# a generator that runs on when the run is stopped (the scenario's Ctrl-C: finish's stop-all)
ask stop 1s _upstream >/dev/null
ask generate "$LG" "$R" hold "$R/q" "" beta >held.txt &
held=$!
sleep 0.5
ask generate "$LG" "$R" hold "$R/q" "" beta 2>err.txt
check "a second generate while one runs: refused" grep -q "generate: _loadgen is running" err.txt
check "without the hierarchy running: no --watch" test -z "$(grep -x -- --watch args-loadgen)"
ask stop-all >/dev/null
wait "$held"
check "stop-all answers the held generate: SIGTERM's status" grep -qE '^ok [0-9.]+ 143$' held.txt

# dry-run: a scenario's --dry-run plan, made by the same builders and printed (docs/controller.md,
# "The dry run"); nothing started or written. Its source tree ROOT holds the stand-in table and
# daemon definitions; the options have --clients: the targets' dot=DOT (to come), the rows' test
# certificate in D/tls.
ROOT=$TEST_TMP/root
mkdir -p "$ROOT/scenarios" && cp "$T" "$ROOT/variants.tsv" && ln -s "$DAEMONS" "$ROOT/scenarios/daemons"
dry_options=$("$RUN" options --scenario spike --uses "variants spike_rate cache_size query_seed interval_ms clients
	client_count tcp_share dot_share tcp_idle" -- --variants alpha,kresd --spike-rate 3000 --cache-size 1M \
	--query-seed 5 --interval-ms 50 --clients --client-count 10 --tcp-share 0.1 --dot-share 0.2 --tcp-idle 3s |
	sed -n 's/^json\t//p')
dry_settings=("$ROOT/variants.tsv" "$BIN" "$ROOT/scenarios/daemons" alpha,kresd D/root.hints PORT D/tls -- --cache-size
	1048576 --max-inflight "$(jq -r .max_inflight <<<"$dry_options")" --memory-layout "$(jq -r .memory_layout <<<"$dry_options")")
schedule=$("$RUN" schedule --options "$dry_options" spike 3000)
dry() { "$RUN" dry-run --scenario spike --root "$ROOT" --bin "$BIN" --out D "$@"; }
dry --options "$dry_options" --cpus-harness 0 --cpus-resolvers 1 --expected-s 100 --calibration-s 30 >dry.txt 2>err.txt
check_eq "dry-run: status" 0 $?
check_eq "dry-run: the header (the schedule and the file's need the steps'), the daemon row's line, the run folder" \
	"dry run of spike: nothing is started or written
rows: alpha kresd (in parallel)
CPUs: harness 0, resolvers 1
schedule: $schedule
queries: QUERIES, generated at the start (allocspike-querydata generate --seed 5 --count $("$RUN" schedule --round-count \
		"$("$RUN" schedule --options "$dry_options" --spike-queries 3)"))
expected: about 1 min 40 s in all
row kresd (external): its command is made at the start by $ROOT/scenarios/daemons/lib/../kresd.sh
run folder D" "$(sed -n 1,8p dry.txt)"
check_eq "dry-run: the hierarchy, the build row, the generator that ends the run" \
	"process 1: _upstream|process 2: alpha|process 3: _loadgen (its exit ends the run)" \
	"$(grep '^process' dry.txt | paste -sd'|')"
check_eq "dry-run: the build row's log, CPUs and readiness" \
	"  log D/logs/alpha.log|  cpus 1|  ready when /CTL/alpha.ready holds 'ready ADDR:PORT' (at most 30 s)" \
	"$(grep -A3 '^process 2:' dry.txt | sed -n 2,4p | paste -sd'|')"
dry_command() { grep -A4 "^process $1:" dry.txt | sed -n 's/^  command //p'; }
check_eq "dry-run: the hierarchy's command, hierarchy-argv's" \
	"$("$RUN" hierarchy-argv --options "$dry_options" --upstream "$BIN/allocspike-upstream" --dir D --ctl /CTL | paste -sd' ')" \
	"$(dry_command 1)"
check_eq "dry-run: the build row's command, row-command's" \
	"$("$RUN" row-command alpha D /CTL "${dry_settings[@]}" | paste -sd' ')" "$(dry_command 2)"
check_eq "dry-run: the generator's command, loadgen-argv's, against both rows" \
	"$("$RUN" loadgen-argv --options "$dry_options" --loadgen "$LG" --queries QUERIES --schedule "$schedule" --dir D \
		--target name=alpha,addr=ADDR,pid=PID,control=/CTL/alpha.sock,dot=DOT \
		--target name=kresd,addr=ADDR,pid=PID,control=/CTL/kresd.sock,dot=DOT --upstream-pid PID | paste -sd' ')" "$(dry_command 3)"
check "dry-run: the measured run's length" grep -qx \
	"expected duration: 70 s once every process is ready (at most 60 s starting, 15 s stopping)" dry.txt
check "dry-run: nothing written" test ! -e D
out=$(dry --options "$(jq -c '.queries = "q.txt" | .repeat = "3" | .serial = "1"' <<<"$dry_options")")
check_eq "dry-run: repeats, one at a time, no length known, a query file given" \
	"rows: alpha kresd (one at a time)|CPUs: harness any, resolvers any|repeats: 3 runs as below into RUN/run-1..3 (with R, the later runs spike at the first's), then a comparison page|schedule: $schedule" \
	"$(sed -n 2,5p <<<"$out" | paste -sd'|')"
check "dry-run: the given query file" grep -qF -- "--queries q.txt --schedule $schedule " <<<"$out"
check "dry-run: no length, until the generator ends" grep -q "^expected duration: until a signal" <<<"$out"
out=$(dry --options "$(jq -c '.spike_rate = "auto" | .spike_multiple = "0.5"' <<<"$dry_options")")
check_eq "dry-run: a calibrated spike rate: the calibration's line, R in the schedule" \
	"calibration: $("$RUN" schedule --options "$dry_options" calibrate 6000) against fresh processes, ramped again to twice the top while the slowest row still answers there (at most 3 times); R = 0.5 x the slowest row's knee|schedule: $("$RUN" schedule --options "$dry_options" spike R)" \
	"$(sed -n 4,5p <<<"$out" | paste -sd'|')"
dry --options "$dry_options" --cpus-harness 1-0 >dry.txt 2>err.txt
check_eq "dry-run: a plan supervise refuses, exit 2" 2 $?
check "dry-run: the refused entry said" grep -q "processes\[0\].cpus: '1-0' is not a CPU list" err.txt
dry --options "$(jq -c '.world = "moon"' <<<"$dry_options")" >dry.txt 2>err.txt
check_eq "dry-run: an option value the hierarchy refuses, exit 2" 2 $?
check "dry-run: said" grep -q "^allocspike-run dry-run: --world: 'moon' is not lan" err.txt
check "dry-run: nothing printed before" test ! -s dry.txt
dry --options "$(jq -c '.variants = "alpha,nosuch"' <<<"$dry_options")" >dry.txt 2>err.txt
check_eq "dry-run: a row the table does not have, exit 2" 2 $?
check "dry-run: said" grep -q "^allocspike-run dry-run: .*nosuch" err.txt
check "dry-run: nothing printed before" test ! -s dry.txt
dry --options "$(jq -c 'del(.repeat)' <<<"$dry_options")" 2>err.txt
check_eq "dry-run: options it cannot read, exit 2" 2 $?
check "dry-run: the option missing said" grep -q "the run's options have no 'repeat'" err.txt
"$RUN" dry-run --scenario spike --options "$dry_options" 2>err.txt
check_eq "dry-run without its source tree and programs: exit 2" 2 $?
check "dry-run: what is required said" grep -q -- "--root, --bin and --out are required" err.txt

ask shutdown >/dev/null
finish
