#!/bin/bash
# scenarios/lib/settings.sh - does a row's allocator environment take? Compares the settings a row's
# `env` cell asks for with the allocator_settings its binary reports in --version --json
# (common/alloc_settings.c, docs/variants.md "Settings").
#   settings.sh expected ENV_CELL           the settings the cell asks for, "NAME VALUE" a line
#   settings.sh check ENV_CELL VERSION_JSON exit 0 when every one is reported with that value;
#                                           else exit 1 and one line per setting that did not take
set -uo pipefail

# settings_expected ENV_CELL : GLIBC_TUNABLES=a=1:b=2 gives the tunables a and b; MALLOC_CONF=k:v,..
# gives opt.k (jemalloc's mallctl names); LD_PRELOAD none (an env row that preloads an allocator:
# that it serves malloc is checked by the allocator the binary reports); any other VAR=value is the
# setting VAR itself (gperftools and mimalloc read their settings from variables of those names).
settings_expected() {
	local cell=$1 pairs p var val item
	[[ $cell == - || -z $cell ]] && return 0
	read -r -a pairs <<<"$cell"
	for p in "${pairs[@]}"; do
		var=${p%%=*}
		val=${p#*=}
		case $var in
		GLIBC_TUNABLES)
			local items
			IFS=: read -r -a items <<<"$val"
			for item in "${items[@]}"; do echo "${item%%=*} ${item#*=}"; done
			;;
		MALLOC_CONF)
			local items
			IFS=, read -r -a items <<<"$val"
			for item in "${items[@]}"; do echo "opt.${item%%:*} ${item#*:}"; done
			;;
		LD_PRELOAD) ;;
		*) echo "$var $val" ;;
		esac
	done
}

# settings_check ENV_CELL VERSION_JSON : prints what did not take; status 1 if anything.
settings_check() {
	local cell=$1 version=$2 name want bad=0 got
	while read -r name want; do
		[[ -n $name ]] || continue
		# Numbers compare as numbers (glibc prints hex), true/yes/on as 1, false/no/off as 0.
		got=$(jq -r --arg n "$name" --arg w "$want" '
			def norm: if type == "boolean" then (if . then 1 else 0 end)
			          elif type == "number" then .
			          elif test("^(true|yes|on)$"; "i") then 1
			          elif test("^(false|no|off)$"; "i") then 0
			          elif test("^-?[0-9]+(\\.[0-9]+)?$") then tonumber
			          elif test("^0x[0-9a-f]+$"; "i") then (.[2:] | ascii_downcase | explode
			               | reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end)))
			          else . end;
			(.allocator_settings // {}) as $s
			| if ($s | has($n)) | not then "missing"
			  elif ($s[$n] | norm) == ($w | norm) then "ok"
			  else "got \($s[$n])" end' <<<"$version" 2>/dev/null) || got="unreadable"
		# glibc lists a tunable nobody set as 0, so asking for 0 cannot be shown to take.
		[[ $name != glibc.* || ! $want =~ ^(0|0x0+)$ ]] || got=zero
		case $got in
		ok) ;;
		zero)
			echo "$name=$want: glibc reports an unset tunable as 0, so 0 cannot be shown to take"
			bad=1
			;;
		missing)
			echo "$name=$want: the allocator does not report $name, so it cannot be shown to take"
			bad=1
			;;
		unreadable)
			echo "$name=$want: the binary's --version --json is not JSON"
			bad=1
			;;
		*)
			echo "$name=$want did not take: the allocator reports ${got#got }"
			bad=1
			;;
		esac
	done < <(settings_expected "$cell")
	return $bad
}

settings_usage() {
	echo "usage: settings.sh expected ENV_CELL | check ENV_CELL VERSION_JSON" >&2
	exit 2
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	case ${1:-} in
	expected) (($# == 2)) || settings_usage && settings_expected "$2" ;;
	check) (($# == 3)) || settings_usage && settings_check "$2" "$3" ;;
	*) settings_usage ;;
	esac
fi
