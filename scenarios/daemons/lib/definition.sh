# scenarios/daemons/lib/definition.sh - what every daemon definition shares: argument parsing,
# safety checks and the readiness probe. Sourced by scenarios/daemons/<base>.sh; see docs/daemons.md.
#
# A definition script sets DEFINITION_NAME, sources this file, defines definition_prepare (which
# writes the config from the DEF_* variables and prints the command line), optionally
# definition_stats (which prints the daemon's own figures from DEF_WORKDIR as one JSON object,
# through definition_figures), and
# calls definition_main "$@".

# definition_command WORD... : prints the daemon's command line the way `prepare` must: one
# argument a line (docs/daemons.md), so that paths with spaces stay one argument.
definition_command() { printf '%s\n' "$@"; }

definition_die() {
	echo "$DEFINITION_NAME.sh: $*" >&2
	exit 2
}

# definition_bytes TEXT OPTION : prints TEXT (bytes, or with a k/M/G suffix, powers of 1024) as bytes.
definition_bytes() {
	local text=$1 option=$2 mult=1
	case $text in
	*[kK]) mult=1024 ;;
	*M) mult=$((1024 * 1024)) ;;
	*G) mult=$((1024 * 1024 * 1024)) ;;
	esac
	local digits=${text%[kKMG]}
	[[ $digits =~ ^[0-9]+$ ]] || definition_die "$option: '$text' is not a size (bytes, or N with k/M/G)"
	echo $((digits * mult))
}

# definition_address_ok ADDR : true for 127.0.0.0/8 and ::1, the only addresses a scenario may talk
# to; for any address on an agent's host that was given one to serve on (ALLOCSPIKE_DAEMON_REMOTE=1,
# set by scenarios/daemons/lib/row.sh --remote: docs/agent.md, "A daemon row").
definition_address_ok() {
	[[ ${ALLOCSPIKE_DAEMON_REMOTE:-0} == 1 || $1 =~ ^127\.[0-9]+\.[0-9]+\.[0-9]+$ || $1 == ::1 ]]
}

# definition_clients : the client networks the daemon answers, one CIDR a line: loopback; and, on an
# agent's host given an address off loopback to serve on (ALLOCSPIKE_DAEMON_REMOTE=1), the network
# that address is on as its interface's route gives it (ip(8)), where the generator's host is; or,
# for a generator routed from elsewhere, the CIDRs of ALLOCSPIKE_DAEMON_CLIENTS (blank-separated),
# which the agent's operator sets. Never every address: a resolver of ours is nobody's open resolver.
definition_clients() {
	printf '%s\n' 127.0.0.0/8 ::1/128
	[[ ${ALLOCSPIKE_DAEMON_REMOTE:-0} == 1 ]] || return 0
	local word
	if [[ -n ${ALLOCSPIKE_DAEMON_CLIENTS:-} ]]; then
		for word in $ALLOCSPIKE_DAEMON_CLIENTS; do
			# it goes into the daemon's configuration: a CIDR and nothing else
			[[ $word =~ ^[0-9a-fA-F:.]+/[0-9]{1,3}$ ]] ||
				definition_die "ALLOCSPIKE_DAEMON_CLIENTS: '$word' is not a network (ADDR/PREFIX)"
			echo "$word"
		done
		return 0
	fi
	local family=-4 dev net
	[[ $DEF_LISTEN_ADDR != *:* ]] || family=-6
	dev=$(ip -o addr show to "$DEF_LISTEN_ADDR" | cut -d' ' -f2)
	[[ -n $dev ]] || definition_die "--listen: $DEF_LISTEN_ADDR is on no interface of this host"
	# the link's own network (proto kernel), not a link-local one
	while read -r net _; do
		[[ $net == */* && $net != fe80:* ]] && echo "$net"
	done < <(ip "$family" route show proto kernel dev "$dev")
}

# definition_split ADDR:PORT OPTION : sets DEF_ADDR and DEF_PORT ([::1]:PORT for IPv6).
definition_split() {
	local text=$1 option=$2
	if [[ $text =~ ^\[([0-9a-fA-F:]+)\]:([0-9]+)$ || $text =~ ^([0-9.]+):([0-9]+)$ ]]; then
		DEF_ADDR=${BASH_REMATCH[1]}
		DEF_PORT=${BASH_REMATCH[2]}
	else
		definition_die "$option: '$text' is not ADDR:PORT (IPv4, or [::1]:PORT)"
	fi
	definition_address_ok "$DEF_ADDR" || definition_die "$option: $DEF_ADDR is not a loopback address"
	((DEF_PORT > 0 && DEF_PORT < 65536)) || definition_die "$option: port $DEF_PORT out of range"
}

# definition_check_hints FILE : the root hints must name only loopback addresses, so a daemon
# iterating from them can never send a query off this machine.
definition_check_hints() {
	local file=$1 line n=0 addr count=0
	[[ -r $file ]] || definition_die "--root-hints: cannot read $file"
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		line=${line%%;*}
		# shellcheck disable=SC2086 # word splitting of a zone-file line into fields is the point
		set -- $line
		(($# >= 3)) || continue
		addr=${!#}
		case " $* " in
		*" A "* | *" AAAA "*)
			definition_address_ok "$addr" ||
				definition_die "--root-hints: $file:$n: $addr is not a loopback address"
			count=$((count + 1))
			;;
		esac
	done <"$file"
	((count > 0)) || definition_die "--root-hints: $file has no A or AAAA record"
}

# definition_parse_prepare ARGS... : sets DEF_WORKDIR DEF_LISTEN_ADDR DEF_LISTEN_PORT
# DEF_ROOT_HINTS DEF_CACHE_BYTES DEF_UPSTREAM_SOURCE (empty when not given), and for DNS over TLS
# DEF_TLS_ADDR DEF_TLS_PORT DEF_TLS_CERT DEF_TLS_KEY (empty without --tls-listen).
definition_parse_prepare() {
	DEF_WORKDIR= DEF_ROOT_HINTS= DEF_CACHE_BYTES= DEF_UPSTREAM_SOURCE= DEF_LISTEN_ADDR=
	DEF_TLS_ADDR= DEF_TLS_PORT= DEF_TLS_CERT= DEF_TLS_KEY=
	while (($#)); do
		[[ $# -ge 2 ]] || definition_die "$1: needs a value"
		case $1 in
		--workdir) DEF_WORKDIR=$2 ;;
		--listen)
			definition_split "$2" --listen
			DEF_LISTEN_ADDR=$DEF_ADDR DEF_LISTEN_PORT=$DEF_PORT
			;;
		--tls-listen)
			definition_split "$2" --tls-listen
			DEF_TLS_ADDR=$DEF_ADDR DEF_TLS_PORT=$DEF_PORT
			;;
		--tls-cert) DEF_TLS_CERT=$2 ;;
		--tls-key) DEF_TLS_KEY=$2 ;;
		--root-hints) DEF_ROOT_HINTS=$2 ;;
		--cache-size) DEF_CACHE_BYTES=$(definition_bytes "$2" --cache-size) || exit 2 ;;
		--upstream-source)
			definition_address_ok "$2" || definition_die "--upstream-source: $2 is not a loopback address"
			DEF_UPSTREAM_SOURCE=$2
			;;
		*) definition_die "unknown option $1 (see docs/daemons.md)" ;;
		esac
		shift 2
	done
	local opt var
	for opt in workdir:DEF_WORKDIR listen:DEF_LISTEN_ADDR root-hints:DEF_ROOT_HINTS \
		cache-size:DEF_CACHE_BYTES; do
		var=${opt#*:}
		[[ -n ${!var} ]] || definition_die "prepare: --${opt%%:*} is required"
	done
	# The command is printed one argument a line, and the paths go into quoted strings of the
	# daemons' configuration files: spaces are fine, line breaks, quotes and backslashes are not.
	[[ $DEF_WORKDIR$DEF_ROOT_HINTS != *[$'\n\r"\'\\']* ]] ||
		definition_die "prepare: paths with line breaks, quotes or backslashes are not supported"
	definition_check_tls
	mkdir -p "$DEF_WORKDIR" || definition_die "--workdir: cannot create $DEF_WORKDIR"
	DEF_WORKDIR=$(cd "$DEF_WORKDIR" && pwd)
	DEF_ROOT_HINTS=$(cd "$(dirname "$DEF_ROOT_HINTS")" && pwd)/$(basename "$DEF_ROOT_HINTS")
	definition_check_hints "$DEF_ROOT_HINTS"
	((DEF_CACHE_BYTES >= 1024 * 1024)) || definition_die "--cache-size: at least 1M"
	# Multi-threaded daemons take their thread count from the row's env (docs/daemons.md).
	DEF_THREADS=${ALLOCSPIKE_DAEMON_THREADS:-2}
	[[ $DEF_THREADS =~ ^[1-9][0-9]?$ ]] ||
		definition_die "ALLOCSPIKE_DAEMON_THREADS: '$DEF_THREADS' is not a thread count (1-99)"
}

# definition_check_tls : --tls-listen, --tls-cert and --tls-key come together, to a definition that
# serves DNS over TLS (DEFINITION_TLS=yes; one that cannot says why in DEFINITION_NO_TLS), with
# readable PEM files made absolute for the configuration.
definition_check_tls() {
	[[ -n $DEF_TLS_ADDR$DEF_TLS_CERT$DEF_TLS_KEY ]] || return 0
	[[ ${DEFINITION_TLS:-} == yes ]] ||
		definition_die "--tls-listen: no DNS over TLS here (${DEFINITION_NO_TLS:-not in this definition}); TCP is served on --listen"
	[[ -n $DEF_TLS_ADDR && -n $DEF_TLS_CERT && -n $DEF_TLS_KEY ]] ||
		definition_die "prepare: --tls-listen, --tls-cert and --tls-key go together"
	local opt var file
	for opt in cert:DEF_TLS_CERT key:DEF_TLS_KEY; do
		var=${opt#*:}
		file=${!var}
		[[ -r $file ]] || definition_die "--tls-${opt%%:*}: cannot read $file"
		[[ $file != *[$'\n\r"\'\\']* ]] ||
			definition_die "--tls-${opt%%:*}: paths with line breaks, quotes or backslashes are not supported"
		printf -v "$var" '%s' "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
	done
	[[ $DEF_TLS_ADDR:$DEF_TLS_PORT != "$DEF_LISTEN_ADDR:$DEF_LISTEN_PORT" ]] ||
		definition_die "--tls-listen: the same address and port as --listen"
}

# definition_free_tcp_port ADDR : a TCP port nobody listens on at ADDR, for a daemon's second
# (control or statistics) socket.
definition_free_tcp_port() {
	local addr=$1 port i
	[[ $addr != *:* ]] || addr="[$addr]"
	for ((i = 0; i < 100; i++)); do
		port=$((20000 + RANDOM % 40000))
		[[ -n $(ss -Hlnt "src $addr:$port" 2>/dev/null) ]] || {
			echo "$port"
			return 0
		}
	done
	definition_die "no free TCP port found on $addr"
}

# definition_parse_stats ARGS... : sets DEF_WORKDIR and DEF_RUN, the build's allocspike-run, which
# turns the daemon's counters into the figures (definition_figures) and asks control sockets
# (definition_unix_ask): the build is passed as it is to every step of a row (--build, run.sh).
definition_parse_stats() {
	local workdir= build=
	while (($# >= 2)); do
		case $1 in
		--workdir) workdir=$2 ;;
		--build) build=$2 ;;
		*) break ;;
		esac
		shift 2
	done
	[[ $# -eq 0 && -n $workdir && -n $build ]] ||
		definition_die "usage: $DEFINITION_NAME.sh stats --workdir DIR --build DIR"
	[[ -d $workdir ]] || definition_die "stats: --workdir $workdir is not a directory"
	DEF_WORKDIR=$(cd "$workdir" && pwd)
	DEF_RUN=$build/bin/allocspike-run
	[[ -x $DEF_RUN ]] || definition_die "stats: --build $build has no bin/allocspike-run (scripts/build.sh)"
}

# definition_unavailable REASON : the stats command's failure: exit 1, reason on stderr.
definition_unavailable() {
	echo "$DEFINITION_NAME.sh: stats: $*" >&2
	exit 1
}

# definition_probe ADDR:PORT : exit 0 once the daemon answers "localhost. A", which both kresd
# and unbound answer from local data, so readiness does not depend on the hierarchy.
definition_probe() {
	definition_split "$1" probe
	command -v kdig >/dev/null || definition_die "probe: kdig not found (apt-get install knot-dnsutils)"
	kdig @"$DEF_ADDR" -p "$DEF_PORT" +timeout=1 +retry=0 +notcp localhost. A 2>/dev/null |
		grep -q 'status: NOERROR'
}

# definition_unix_ask SOCKET TEXT : sends TEXT and a newline to a Unix stream socket and prints what
# comes back until a '}' arrives, the peer closes or 1 s passes (control channels are terminals).
definition_unix_ask() { "$DEF_RUN" unix-ask "$1" "$2"; }

# definition_figures OUTPUT... FIGURE=EXPR... : the stats line from what the daemon's tools printed,
# the figures named as sums of its counters (allocspike-run daemon-stats: docs/daemons.md, "The
# figures"); on failure prints the reason instead and returns non-zero, so the definition says it
# with the exit status its daemon's failures have.
definition_figures() { "$DEF_RUN" daemon-stats "$@" 2>&1; }

definition_main() {
	local cmd=${1:-}
	shift || true
	case $cmd in
	prepare)
		definition_parse_prepare "$@"
		definition_prepare
		;;
	probe)
		[[ $# -eq 1 ]] || definition_die "usage: $DEFINITION_NAME.sh probe ADDR:PORT"
		definition_probe "$1"
		;;
	tls)
		# whether prepare takes --tls-listen: exit 0, or 1 with the reason
		[[ $# -eq 0 ]] || definition_die "usage: $DEFINITION_NAME.sh tls"
		[[ ${DEFINITION_TLS:-} == yes ]] && return 0
		echo "${DEFINITION_NO_TLS:-no DNS over TLS in this definition}"
		exit 1
		;;
	stats)
		definition_parse_stats "$@"
		declare -F definition_stats >/dev/null ||
			definition_unavailable "$DEFINITION_NAME has no control channel figures"
		definition_stats
		;;
	*)
		echo "usage: $DEFINITION_NAME.sh prepare --workdir DIR --listen ADDR:PORT --root-hints FILE" \
			"--cache-size BYTES [--upstream-source ADDR]" \
			"[--tls-listen ADDR:PORT --tls-cert FILE --tls-key FILE]" >&2
		echo "       $DEFINITION_NAME.sh probe ADDR:PORT" >&2
		echo "       $DEFINITION_NAME.sh stats --workdir DIR --build DIR" >&2
		echo "       $DEFINITION_NAME.sh tls" >&2
		exit 2
		;;
	esac
}
