#!/bin/bash
# tests/upstream/defaults.sh - the hierarchy's default latency and loss are the scenarios' defaults
# (allocspike-run options, controller/scenario_options_table.c), as both --help texts say (docs/cli.md); the flat world's too.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/common.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/options.sh"
opts_defaults
help=$("$ALLOCSPIKE_BIN/allocspike-upstream" --help)
check_eq "--help status" 0 $?
flat=$(tr -s ' \n' ' ' <<<"$help")
flat=${flat#*"--latency-ms M[,P99]"}
latency=$(sed -n 's/^[^(]*(default \([0-9.,]*\);.*/\1/p' <<<"${flat%%--loss*}")
loss=$(sed -n 's/.*--loss X .*(default \([0-9.]*\)[;)].*/\1/p' <<<"$help")
check_eq "latency: the hierarchy's default is the scenarios'" "$OPT_latency_ms" "$latency"
check_eq "loss: the hierarchy's default is the scenarios'" "$OPT_loss" "$loss"
# one line: a help text wraps where its words fall
scenario=$(bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" --help | tr -s ' \n' ' ')
check "spike.sh --help shows the same latency" grep -qF "(default: $latency)" <<<"$scenario"
check "spike.sh --help shows the same loss" grep -qF "(default: $loss)" <<<"$scenario"
# the flat world: a fixed delay and its own loss, which the scenarios pass when not given
flat_latency=$(sed -n 's/.*flat world: .*(default \([0-9.]*\)).*/\1/p' <<<"${flat%%--loss*}")
flat_loss=$(tr -s ' \n' ' ' <<<"$help" | sed -n 's/.*--loss X .*; flat world \([0-9.]*\)).*/\1/p')
opts_defaults --world flat
check_eq "flat latency: the hierarchy's default is the scenarios'" "$flat_latency,$flat_latency" "$OPT_latency_ms"
check_eq "flat loss: the hierarchy's default is the scenarios'" "$flat_loss" "$OPT_loss"
flat_tlds=$(sed -n 's/.*--flat-tlds N .*(default \([0-9]*\)).*/\1/p' <<<"$help")
check_eq "flat TLD count: the hierarchy's default is the scenarios'" "$flat_tlds" "$OPT_flat_tlds"
check "spike.sh --help gives the flat delay" grep -qF "fixed delay, $flat_latency unless given" <<<"$scenario"
finish
