#!/bin/bash
# tests/controller/parameters.sh - the CPU placement and the run's parameters decided by the
# controller (docs/controller.md, "The CPU placement", "The run's parameters"). placement: auto
# pins only with 4 cores or more, none pins nothing, a given list is kept, a list naming no CPU of
# this machine is the option's error with exit 2. The served `parameters` request: run.json's
# machine, parameters (its keys in their order, the numbers as JSON numbers, the repeat given) and
# programs; the open-files limit raised for the run's processes; refused options and a wrong word
# count said. seconds-text.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
cd "$TEST_TMP" || exit 1
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state

# --- placement ---
cores=$(nproc)
if ((cores >= 4)); then auto="0	1-$((cores - 1))"; else auto="	"; fi
check_eq "auto on $cores cores" "$auto" "$("$RUN" placement auto)"
check_eq "none: nothing pinned" "	" "$("$RUN" placement none)"
check_eq "a given list kept" "0	0" "$("$RUN" placement 0/0)"
"$RUN" placement 0/1023 >out.txt 2>err.txt
check_eq "a CPU not here: exit 2" 2 $?
check_eq "nothing on stdout" "" "$(cat out.txt)"
check_eq "the option's error" "--cpu-placement: CPUs '1023' are not usable here" "$(cat err.txt)"
"$RUN" placement x/0 2>err.txt
check "a list that is no list: refused" grep -q "CPUs 'x' are not usable here" err.txt
"$RUN" placement 2>/dev/null
check_eq "without MODE: exit 2" 2 $?

# --- the served request ---
options() { "$RUN" options --scenario spike -- "$@" | sed -n 's/^json\t//p'; }
sock=$TEST_TMP/ctl/run.sock
ask() { "$RUN" ask "$sock" "$@"; }
# started with a low soft open-files limit: the controller raises it to the hard one for the run
ulimit -Sn 256
serve_begin "$sock" spike "$TEST_TMP/run"
repeat='{"run": 2, "of": 3, "spike_rate_from": null}'
check_eq "the answer" ok "$(ask parameters "$(options --serial --cache-size 512k --interval-ms 0.25s \
	--max-inflight 7 --cpu-placement 0/0)" "$ALLOCSPIKE_BIN" "$repeat")"
check_eq "parameters' keys in their order" "schedule mode cpu_placement interval_ms options resolver repeat" \
	"$(jq -r '.parameters | keys_unsorted | join(" ")' run/run.json)"
check "mode, placement, interval (a number), repeat" jq_true \
	'.parameters | .schedule == null and .mode == "serial" and .interval_ms == 250 and
	 .cpu_placement == {"mode": "0/0", "harness": "0", "resolvers": "0"} and
	 .repeat == {"run": 2, "of": 3, "spike_rate_from": null}' run/run.json
check "the options as given" jq_true '.parameters.options.cache_size == "512k"' run/run.json
check_eq "the resolvers' settings, numbers as numbers" \
	'{"cache_size_bytes":524288,"max_inflight":7,"memory_layout":"heap"}' \
	"$(jq -c .parameters.resolver run/run.json)"
check "machine: the open-files limit the controller raised to the hard one" jq_true \
	--argjson hard "$(ulimit -Hn)" '.machine.open_files_limit == $hard and (.machine.cores | type) == "number"' run/run.json
check_eq "machine recorded before programs" "machine programs" \
	"$(jq -r 'keys_unsorted | map(select(. == "machine" or . == "programs")) | join(" ")' run/run.json)"
check "programs: the harness's, with their paths" jq_true \
	'.programs | keys_unsorted == ["allocspike-upstream", "allocspike-loadgen", "allocspike-querydata", "allocspike-report"]' run/run.json
ask parameters "$(options)" "$ALLOCSPIKE_BIN" >/dev/null
check "no repeat: none recorded" jq_true '.parameters | has("repeat") | not' run/run.json
check_eq "auto decided as placement decides it" "$auto" \
	"$(jq -r '.parameters.cpu_placement | [.harness, .resolvers] | join("\t")' run/run.json)"
ask parameters "$(options | jq -c '.cache_size = "lots"')" "$ALLOCSPIKE_BIN" 2>err.txt
check_eq "a bad size: exit 1" 1 $?
check "said with the option" grep -q "error: parameters: cache_size" err.txt
ask parameters "$(options | jq -c 'del(.serial)')" "$ALLOCSPIKE_BIN" 2>err.txt
check "a missing option: said" grep -q "error: parameters: .*'serial'" err.txt
ask parameters "$(options --cpu-placement 0/0)" 2>err.txt
check "a word short: its form said" grep -q "parameters OPTIONS_JSON BIN_DIR \[REPEAT_JSON\] is expected" err.txt
ask shutdown >/dev/null

# seconds-text: how the scenarios and the dry run say a length
for pair in "45:45 s" "60:1 min" "615:10 min 15 s" "3840:1 h 4 min"; do
	check_eq "seconds-text ${pair%%:*}" "${pair#*:}" "$("$RUN" seconds-text "${pair%%:*}")"
done
"$RUN" seconds-text 1.5 2>err.txt
check_eq "seconds-text of a fraction: exit 2" 2 $?
check "said" grep -q "'1.5' is not a whole number" err.txt
finish
