/* resolver/main.c - allocspike-resolver: parses options and wires the resolver's modules together.
 */
#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cache.h"
#include "cli_parse.h"
#include "close_stdout.h"
#include "control_server.h"
#include "hints.h"
#include "infra.h"
#include "overload.h"
#include "parent_death.h"
#include "request.h"
#include "resolver.h"
#include "server.h"
#include "sockaddr_parse.h"
#include "trim.h"
#include "version.h"
#include "wiring.h"

#define RESOLVER_MAX_HINT_FILES 4

/* The variants.tsv row this executable was built for (cmake/AllocspikeVariants.cmake). */
#ifndef ALLOCSPIKE_VARIANT_NAME
#define ALLOCSPIKE_VARIANT_NAME "unknown"
#endif

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-resolver --listen ADDR:PORT... (--root ADDR[:PORT]... | "
	    "--root-hints FILE)\n"
	    "         [--upstream-port N] [--upstream-source ADDR] [--upstream-timeout-ms N]\n"
	    "         [--upstream-timeout-min-ms N]\n"
	    "         [--cache-size SIZE[k|M|G]] [--max-ttl S] [--max-negative-ttl S]\n"
	    "         [--max-inflight N] [--max-udp-size N] [--allow ADDR[/PREFIX]]...\n"
	    "         [--memory-layout heap|kresd] [--overload-policy unbound|kresd]\n"
	    "         [--request-list N] [--jostle-timeout-ms N] [--control PATH] [--ready-file F]\n"
	    "         [--trim-interval MS] [--no-tcp] [--tcp-idle-timeout MS]\n"
	    "         [--tcp-max-connections N]\n"
	    "       allocspike-resolver --version [--json]\n"
	    "  --upstream-timeout-ms N  the longest one upstream query waits (default 12000): the\n"
	    "                           cap on the timeout learnt per server (376 ms unknown, "
	    "then\n"
	    "                           srtt + 4 rttvar, doubled per timeout); a request gives up\n"
	    "                           after 10 s in all\n"
	    "  --upstream-timeout-min-ms N  the shortest (default 50, unbound's\n"
	    "                           infra-cache-min-rtt)\n"
	    "  --overload-policy P      who of the new client requests is admitted past capacity,\n"
	    "                           like the daemon the layout imitates (default: unbound for\n"
	    "                           heap, kresd for kresd). unbound: a request list of\n"
	    "                           --request-list entries (default 1024, num-queries-per-thread);\n"
	    "                           when full a new query replaces the oldest of the list's\n"
	    "                           second half if that one ran longer than --jostle-timeout-ms\n"
	    "                           (default 200, jostle-timeout), else it is dropped. kresd: no\n"
	    "                           list, every query admitted up to --max-inflight\n"
	    "  --max-inflight N         hard ceiling on resolutions in flight, lookups included,\n"
	    "                           whatever the policy (default 65536)\n"
	    "  --no-tcp                 serve UDP only (TCP is served on every --listen address)\n"
	    "  --tcp-idle-timeout MS    close a TCP connection idle this long, or whose message\n"
	    "                           takes this long to arrive (default 10000, kresd's)\n"
	    "  --tcp-max-connections N  TCP connections at once (default 1024); past it the one\n"
	    "                           idle longest is closed, or the new one if none is idle\n");
}

/* A whole-number option in [min, max] into a long; says what is wrong on stderr. */
static bool parse_int(const char *opt, const char *text, long min, long max, long *out)
{
	unsigned long long v;
	if (!cli_option_count(opt, text, (unsigned long long)min, (unsigned long long)max, &v))
		return false;
	*out = (long)v;
	return true;
}

/* A duration option whose bare number is milliseconds, in [min_ms, max_ms], into whole ms. */
static bool parse_ms(const char *opt, const char *text, long min_ms, long max_ms, long *out)
{
	double s;
	if (!cli_option_duration(opt, text, 0.001, min_ms / 1000.0, max_ms / 1000.0, &s))
		return false;
	*out = (long)(s * 1000 + 0.5);
	return true;
}

/* Each in-flight request may hold one upstream socket and each client connection one: the
 * open-files limit must allow them all. */
static void raise_nofile(int max_inflight, int max_connections)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	rlim_t want = (rlim_t)max_inflight + (rlim_t)max_connections + 1024;
	if (rl.rlim_cur >= want)
		return;
	if (rl.rlim_max < want) {
		struct rlimit up = {want, want};
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			return;
		want = rl.rlim_max;
	}
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0 ||
	    want < (rlim_t)max_inflight + (rlim_t)max_connections + 1024)
		fprintf(stderr,
		        "allocspike-resolver: open-files limit %llu is below --max-inflight %d "
		        "+ --tcp-max-connections %d + 1024; queries past it are answered SERVFAIL\n",
		        (unsigned long long)want, max_inflight, max_connections);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	event_base_loopbreak(arg);
}

static void on_sweep(evutil_socket_t fd, short what, void *arg)
{
	struct resolver *r = arg;
	cache_sweep_step(r->cache, resolver_now());
}

enum {
	OPT_LISTEN = 256,
	OPT_ROOT,
	OPT_ROOT_HINTS,
	OPT_UPSTREAM_PORT,
	OPT_UPSTREAM_SOURCE,
	OPT_UPSTREAM_TIMEOUT,
	OPT_UPSTREAM_TIMEOUT_MIN,
	OPT_CACHE_SIZE,
	OPT_MAX_TTL,
	OPT_MAX_NEGATIVE_TTL,
	OPT_MAX_INFLIGHT,
	OPT_MAX_UDP_SIZE,
	OPT_ALLOW,
	OPT_LAYOUT,
	OPT_OVERLOAD_POLICY,
	OPT_REQUEST_LIST,
	OPT_JOSTLE_TIMEOUT,
	OPT_CONTROL,
	OPT_READY_FILE,
	OPT_VERSION,
	OPT_JSON,
	OPT_HELP,
	OPT_TRIM_INTERVAL,
	OPT_NO_TCP,
	OPT_TCP_IDLE_TIMEOUT,
	OPT_TCP_MAX_CONNECTIONS
};

static const struct option options[] = {
    {"listen", required_argument, NULL, OPT_LISTEN},
    {"root", required_argument, NULL, OPT_ROOT},
    {"root-hints", required_argument, NULL, OPT_ROOT_HINTS},
    {"upstream-port", required_argument, NULL, OPT_UPSTREAM_PORT},
    {"upstream-source", required_argument, NULL, OPT_UPSTREAM_SOURCE},
    {"upstream-timeout-ms", required_argument, NULL, OPT_UPSTREAM_TIMEOUT},
    {"upstream-timeout-min-ms", required_argument, NULL, OPT_UPSTREAM_TIMEOUT_MIN},
    {"cache-size", required_argument, NULL, OPT_CACHE_SIZE},
    {"max-ttl", required_argument, NULL, OPT_MAX_TTL},
    {"max-negative-ttl", required_argument, NULL, OPT_MAX_NEGATIVE_TTL},
    {"max-inflight", required_argument, NULL, OPT_MAX_INFLIGHT},
    {"max-udp-size", required_argument, NULL, OPT_MAX_UDP_SIZE},
    {"allow", required_argument, NULL, OPT_ALLOW},
    {"memory-layout", required_argument, NULL, OPT_LAYOUT},
    {"overload-policy", required_argument, NULL, OPT_OVERLOAD_POLICY},
    {"request-list", required_argument, NULL, OPT_REQUEST_LIST},
    {"jostle-timeout-ms", required_argument, NULL, OPT_JOSTLE_TIMEOUT},
    {"control", required_argument, NULL, OPT_CONTROL},
    {"ready-file", required_argument, NULL, OPT_READY_FILE},
    {"version", no_argument, NULL, OPT_VERSION},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {"trim-interval", required_argument, NULL, OPT_TRIM_INTERVAL},
    {"no-tcp", no_argument, NULL, OPT_NO_TCP},
    {"tcp-idle-timeout", required_argument, NULL, OPT_TCP_IDLE_TIMEOUT},
    {"tcp-max-connections", required_argument, NULL, OPT_TCP_MAX_CONNECTIONS},
    {NULL, 0, NULL, 0},
};

/* Prints "allocspike-resolver: <lead><message>" on stderr and returns status (docs/cli.md). */
static int say_failure(int status, const char *lead, const char *fmt, va_list ap)
{
	fputs("allocspike-resolver: ", stderr);
	fputs(lead, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return status;
}

/* A usage error (a bad option or input file): exit status 2. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int status = say_failure(CLI_EXIT_USAGE, "", fmt, ap);
	va_end(ap);
	return status;
}

/* The options were fine but the resolver cannot run (a socket, the control path, memory): 1. */
static int cannot_start(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cannot_start(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int status = say_failure(CLI_EXIT_FAILED, "cannot start: ", fmt, ap);
	va_end(ap);
	return status;
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-resolver");
	parent_death_arm("allocspike-resolver");
	static struct resolver r;
	struct resolver_config *cfg = &r.cfg;
	const char *roots_text[RESOLVER_MAX_ROOTS], *hint_files[RESOLVER_MAX_HINT_FILES];
	int n_roots_text = 0, n_hint_files = 0, want_version = 0, want_json = 0;
	bool policy_given = false;
	char err[512];
	long v, trim_ms = 0;
	unsigned long long size;

	resolver_config_defaults(cfg);

	int opt;
	while ((opt = getopt_long(argc, argv, "hV", options, NULL)) != -1) {
		switch (opt) {
		case OPT_LISTEN:
			if (cfg->n_listen >= RESOLVER_MAX_LISTEN)
				return fail("--listen %s: at most 16 addresses", optarg);
			if (!sockaddr_parse(optarg, -1, &cfg->listen[cfg->n_listen].sa,
			                    &cfg->listen[cfg->n_listen].len, err, sizeof(err)))
				return fail("--listen %s: %s", optarg, err);
			cfg->n_listen++;
			break;
		case OPT_ROOT:
			if (n_roots_text >= RESOLVER_MAX_ROOTS)
				return fail("--root %s: at most 32 roots", optarg);
			roots_text[n_roots_text++] = optarg;
			break;
		case OPT_ROOT_HINTS:
			if (n_hint_files >= RESOLVER_MAX_HINT_FILES)
				return fail("--root-hints %s: at most 4 files", optarg);
			hint_files[n_hint_files++] = optarg;
			break;
		case OPT_UPSTREAM_PORT:
			if (!parse_int("--upstream-port", optarg, 1, 65535, &v))
				return CLI_EXIT_USAGE;
			cfg->upstream_port = (int)v;
			break;
		case OPT_UPSTREAM_SOURCE:
			if (!sockaddr_parse(optarg, 0, &cfg->upstream_source.sa,
			                    &cfg->upstream_source.len, err, sizeof(err)))
				return fail("--upstream-source %s: %s", optarg, err);
			/* Every upstream query needs its own random port: a fixed one would make
			 * the second concurrent query fail to bind. */
			if (sockaddr_port((struct sockaddr *)&cfg->upstream_source.sa) != 0)
				return fail(
				    "--upstream-source %s: give an address only (a fixed port "
				    "breaks concurrent queries and source-port randomness)",
				    optarg);
			break;
		case OPT_UPSTREAM_TIMEOUT:
			if (!parse_ms("--upstream-timeout-ms", optarg, 10, 60000, &v))
				return CLI_EXIT_USAGE;
			cfg->upstream_timeout_ms = (int)v;
			break;
		case OPT_UPSTREAM_TIMEOUT_MIN:
			if (!parse_ms("--upstream-timeout-min-ms", optarg, 10, 60000, &v))
				return CLI_EXIT_USAGE;
			cfg->upstream_timeout_min_ms = (int)v;
			break;
		case OPT_CACHE_SIZE:
			if (!cli_option_size("--cache-size", optarg, 4096, SIZE_MAX, &size))
				return CLI_EXIT_USAGE;
			cfg->cache_size = (size_t)size;
			break;
		case OPT_MAX_TTL:
			if (!parse_int("--max-ttl", optarg, 1, 0x7FFFFFFF, &v))
				return CLI_EXIT_USAGE;
			cfg->max_ttl = (uint32_t)v;
			break;
		case OPT_MAX_NEGATIVE_TTL:
			if (!parse_int("--max-negative-ttl", optarg, 1, 0x7FFFFFFF, &v))
				return CLI_EXIT_USAGE;
			cfg->max_negative_ttl = (uint32_t)v;
			break;
		case OPT_MAX_UDP_SIZE:
			if (!parse_int("--max-udp-size", optarg, 512, 65535, &v))
				return CLI_EXIT_USAGE;
			cfg->max_udp_size = (int)v;
			break;
		case OPT_ALLOW:
			if (!acl_add(&cfg->allow, optarg, err, sizeof(err)))
				return fail("--allow %s", err);
			break;
		case OPT_MAX_INFLIGHT:
			if (!parse_int("--max-inflight", optarg, 1, 1 << 24, &v))
				return CLI_EXIT_USAGE;
			cfg->max_inflight = (int)v;
			break;
		case OPT_LAYOUT:
			if (memory_layout_parse(optarg, &cfg->layout) < 0)
				return fail("--memory-layout '%s': expected heap or kresd", optarg);
			break;
		case OPT_OVERLOAD_POLICY:
			if (overload_policy_parse(optarg, &cfg->overload_policy) < 0)
				return fail("--overload-policy '%s': expected unbound or kresd",
				            optarg);
			policy_given = true;
			break;
		case OPT_REQUEST_LIST:
			if (!parse_int("--request-list", optarg, 1, 1 << 24, &v))
				return CLI_EXIT_USAGE;
			cfg->request_list = (int)v;
			break;
		case OPT_JOSTLE_TIMEOUT:
			if (!parse_ms("--jostle-timeout-ms", optarg, 0, 3600000, &v))
				return CLI_EXIT_USAGE;
			cfg->jostle_timeout_ms = (int)v;
			break;
		case OPT_CONTROL:
			cfg->control_path = optarg;
			break;
		case OPT_READY_FILE:
			cfg->ready_file = optarg;
			break;
		case OPT_TRIM_INTERVAL:
			if (!parse_ms("--trim-interval", optarg, 1, 3600000, &trim_ms))
				return CLI_EXIT_USAGE;
			break;
		case OPT_NO_TCP:
			cfg->tcp = false;
			break;
		case OPT_TCP_IDLE_TIMEOUT:
			if (!parse_ms("--tcp-idle-timeout", optarg, 10, 3600000, &v))
				return CLI_EXIT_USAGE;
			cfg->tcp_idle_timeout_ms = (int)v;
			break;
		case OPT_TCP_MAX_CONNECTIONS:
			if (!parse_int("--tcp-max-connections", optarg, 1, 1 << 20, &v))
				return CLI_EXIT_USAGE;
			cfg->tcp_max_connections = (int)v;
			break;
		case OPT_VERSION:
		case 'V':
			want_version = 1;
			break;
		case OPT_JSON:
			want_json = 1;
			break;
		case OPT_HELP:
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		return fail("unexpected argument '%s'", argv[optind]);
	if (!policy_given)
		cfg->overload_policy = overload_policy_for_layout(cfg->layout);
	if (want_version) {
		resolver_version_print(stdout, ALLOCSPIKE_VARIANT_NAME, cfg, want_json);
		return 0;
	}
	if (cfg->n_listen == 0 || (n_roots_text == 0 && n_hint_files == 0)) {
		fprintf(stderr, "allocspike-resolver: %s\n",
		        cfg->n_listen == 0 ? "--listen ADDR:PORT is required"
		                           : "where to start resolving is missing: give --root "
		                             "ADDR[:PORT] or --root-hints FILE");
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	for (int i = 0; i < n_roots_text; i++) {
		struct resolver_addr *a = &cfg->roots[cfg->n_roots];
		if (!sockaddr_parse(roots_text[i], cfg->upstream_port, &a->sa, &a->len, err,
		                    sizeof(err)))
			return fail("--root %s: %s", roots_text[i], err);
		cfg->n_roots++;
	}
	for (int i = 0; i < n_hint_files; i++)
		if (hints_load(cfg, hint_files[i], err, sizeof(err)) < 0)
			return fail("%s", err);

	signal(SIGPIPE, SIG_IGN);
	raise_nofile(cfg->max_inflight, cfg->tcp ? cfg->tcp_max_connections : 0);
	if (chacha_rng_seed(&r.rng) < 0)
		return cannot_start("getrandom gave no entropy for query IDs");
	r.base = event_base_new();
	r.cache = cache_create(cfg->cache_size, cfg->max_ttl, cfg->max_negative_ttl,
	                       cfg->layout == LAYOUT_KRESD, err, sizeof(err));
	if (!r.base || !r.cache)
		return cannot_start("%s", r.cache ? "no event loop" : err);
	r.requests = request_table_create(cfg);
	r.infra = infra_create(INFRA_DEFAULT_CAPACITY);
	if (!r.requests || !r.infra)
		return cannot_start("out of memory");
	wiring_connect(&r);
	if (wiring_open_server(&r, err, sizeof(err)) < 0)
		return cannot_start("%s", err);
	if (cfg->control_path &&
	    !(r.control = wiring_open_control(&r, cfg->control_path, err, sizeof(err))))
		return cannot_start("%s", err);
	struct event *sigterm = evsignal_new(r.base, SIGTERM, on_signal, r.base);
	struct event *sigint = evsignal_new(r.base, SIGINT, on_signal, r.base);
	struct event *sweep = event_new(r.base, -1, EV_PERSIST, on_sweep, &r);
	struct timeval one_second = {1, 0};
	evsignal_add(sigterm, NULL);
	evsignal_add(sigint, NULL);
	event_add(sweep, &one_second);
	/* An env row of variants.tsv sets it through the environment; the flag wins. */
	if (trim_ms == 0 && (trim_ms = trim_interval_from_env(err, sizeof(err))) < 0)
		return fail("%s", err);
	if (trim_start(r.base, trim_ms, err, sizeof(err)) < 0)
		return fail("%s", err);
	if (server_announce(&r, cfg->ready_file) < 0)
		return 1;

	event_base_dispatch(r.base);

	request_table_destroy(&r);
	control_server_close(r.control);
	server_close(&r);
	event_free(sweep);
	trim_stop();
	event_free(sigterm);
	event_free(sigint);
	cache_destroy(r.cache);
	infra_destroy(r.infra);
	event_base_free(r.base);
	fprintf(stderr,
	        "allocspike-resolver: stopped; queries=%llu cache_hits=%llu upstream_queries=%llu "
	        "timeouts=%llu mismatched=%llu malformed=%llu\n",
	        (unsigned long long)r.stats.queries, (unsigned long long)r.stats.cache_hits,
	        (unsigned long long)r.stats.upstream_queries,
	        (unsigned long long)r.stats.upstream_timeouts,
	        (unsigned long long)r.stats.upstream_mismatched,
	        (unsigned long long)r.stats.dropped_malformed);
	return 0;
}
