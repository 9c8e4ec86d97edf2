/* loadgen/main.c - allocspike-loadgen: options, then the pacer, the recorder and the summary wired
 * together. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli_parse.h"
#include "client_model.h"
#include "transport_log.h"
#include "close_stdout.h"
#include "fixed_point.h"
#include "fragment.h"
#include "interval_hist_log.h"
#include "monotonic.h"
#include "pacer.h"
#include "parent_death.h"
#include "phase_writer.h"
#include "progress.h"
#include "querystream.h"
#include "recorder.h"
#include "runfolder_writer.h"
#include "schedule.h"
#include "sockaddr_parse.h"
#include "summary.h"
#include "targets.h"
#include "tls_client.h"
#include "version.h"

#define MAX_TARGETS 64
#define MALFORMED_REPORTED 10

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *out)
{
	fputs(
	    "usage: allocspike-loadgen -d QUERYFILE (--schedule TEXT | -Q RATE [-l DURATION])\n"
	    "                          (--target SPEC... | -s ADDR [-p PORT]) [options]\n"
	    "Open-loop DNS load on a rate schedule, the same queries at the same instants to "
	    "every\n"
	    "target; per-interval traffic, memory and CPU to a run folder (docs/run-folder.md).\n\n"
	    "  -d, --queries FILE      query file, dnsperf format; plain, .xz or .gz; - is stdin\n"
	    "      --schedule TEXT     rate schedule, or @FILE (docs/schedule.md)\n"
	    "  -Q RATE                 constant rate (dnsperf); without -l: one pass of the file\n"
	    "  -l DURATION             stop after this long (20s, 1.5m; a bare number is seconds)\n"
	    "      --target SPEC       "
	    "name=NAME,addr=IP:PORT[,dot=IP:PORT|tcp][,pid=N][,control=PATH]\n"
	    "                          (repeatable; dot=: where its DoT clients connect)\n"
	    "      --watch SPEC        name=NAME,pid=N: a process-only row, e.g. _upstream\n"
	    "  -s ADDR, -p PORT        one target (dnsperf), named by --name (default: target)\n"
	    "  -t DURATION             answer timeout (dnsperf; bare number: seconds; default 5s)\n"
	    "      --timeout-ms MS     answer timeout (bare number: milliseconds)\n"
	    "      --out DIR           run folder: timeline.csv and events.jsonl are appended\n"
	    "      --interval-ms MS    timeline interval (bare number: milliseconds; default 100)\n"
	    "      --slow-every N      smaps_rollup and control stats every N intervals "
	    "(default 10)\n"
	    "      --ports N           source ports per target (default: 4, or more so that the\n"
	    "                          peak rate times the timeout fits, 65536 per port)\n"
	    "      --batch N           most queries sent per target in one go (default 256)\n"
	    "      --edns SIZE         add an EDNS0 OPT record advertising SIZE (default: none)\n"
	    "  -m, --transport MODE    udp, tcp or dot: every query over it (dnsperf's -m; "
	    "default udp)\n"
	    "      --tcp-share X       share of the clients (so of the queries) over TCP, 0..1\n"
	    "      --dot-share X       share of the clients over DNS over TLS (RFC 7858), 0..1;\n"
	    "                          with --tcp-share at most 1 in all\n"
	    "      --tls-resume yes|no a DoT client resumes its last TLS session when it connects\n"
	    "                          again (default yes)\n"
	    "      --tls-ca FILE       verify the DoT server's certificate against these PEM\n"
	    "                          certificates (default: not verified)\n"
	    "      --clients N         clients the queries are spread over, in turn (default "
	    "1000);\n"
	    "                          each TCP or DoT client keeps one connection per target\n"
	    "      --tcp-idle DURATION a TCP client closes its connection after this long without\n"
	    "                          a query (bare number: seconds; default 5s)\n"
	    "      --tc-retry          a truncated UDP answer's query goes again over TCP\n"
	    "      --replay PLAN       a replay plan (allocspike-querydata capture --plan): each\n"
	    "                          query at its time, by its client, over its transport\n"
	    "      --replay-speed F    the plan's clock runs F times as fast (default 1)\n"
	    "      --shard I/N         only the clients c with c mod N = I - 1 (of --clients, or\n"
	    "                          the plan's): N generators send the stream together; with\n"
	    "                          --out each writes a fragment (allocspike-report merge)\n"
	    "      --strict            a malformed query line is fatal\n"
	    "      --allow-meta        send meta and transfer types (OPT, AXFR, ...) too\n"
	    "      --queries-memory-mb MB  most memory the query file may take; a larger file\n"
	    "                          is streamed from disk (default 1024)\n"
	    "      --align             start the schedule at the next whole wall-clock second\n"
	    "      --start-at T        start the schedule at T, seconds since the epoch "
	    "(fractions\n"
	    "                          too, e.g. $(date +%s.%N)): shards started apart begin "
	    "together\n"
	    "      --allow-remote      allow targets outside 127.0.0.0/8 and ::1\n"
	    "      --no-progress       no live line even on a terminal\n"
	    "      --version [--json]  the program's version and the allocator serving malloc\n"
	    "      --plan              print the --schedule's length and queries (JSON), stop;\n"
	    "                          no queries or targets needed (the scenarios' estimates)\n"
	    "  -h, --help\n"
	    "Durations, sizes and exit statuses (0 done, 1 the run failed, 2 usage): docs/cli.md\n",
	    out);
}

struct options {
	const char *queries, *schedule, *out, *server, *name;
	double rate, limit_s, timeout_s;
	int port;
	unsigned interval_ms, slow_every, ports, batch, edns;
	double queries_memory_mb;
	bool strict, allow_meta, align, allow_remote, no_progress;
	const char *transport;
	double tcp_share, dot_share, tcp_idle_s; /* a share < 0: not given */
	const char *tls_ca;
	bool tls_resume;
	unsigned clients;
	bool tc_retry;
	const char *replay; /* a replay plan: its queries at its times, by its clients */
	double replay_speed;
	unsigned shard, shards; /* --shard I/N: the clients c with c % N == I - 1 */
	bool sharded;           /* --shard given (also 1/1): a fragment.json goes with --out */
	uint64_t start_at_ns;   /* --start-at: the schedule's start, CLOCK_REALTIME; 0: none */
	struct target_spec targets[MAX_TARGETS], watches[MAX_TARGETS];
	unsigned ntargets, nwatches;
};

/* A whole-number option into an unsigned. */
static bool parse_unsigned(const char *opt, const char *text, unsigned min, unsigned max,
                           unsigned *out)
{
	unsigned long long v;
	if (!cli_option_count(opt, text, min, max, &v))
		return false;
	*out = (unsigned)v;
	return true;
}

/* --shard I/N: shard I (1..N) of N. */
static bool parse_shard(const char *text, struct options *o)
{
	const char *slash = strchr(text, '/');
	char first[32];
	if (!slash || (size_t)(slash - text) >= sizeof(first)) {
		fprintf(stderr, "allocspike-loadgen: --shard: '%s' is not I/N (e.g. 1/4)\n", text);
		return false;
	}
	memcpy(first, text, (size_t)(slash - text));
	first[slash - text] = '\0';
	if (!parse_unsigned("--shard's N", slash + 1, 1, 65536, &o->shards) ||
	    !parse_unsigned("--shard's I", first, 1, o->shards, &o->shard))
		return false;
	o->shard--;
	o->sharded = true;
	return true;
}

/* --plan: the schedule's length and query count as one JSON line (the scenarios announce how long
 * their runs take from it, so the schedule's arithmetic stays in common/schedule.c). */
static int print_plan(const char *text)
{
	if (!text) {
		fprintf(stderr, "allocspike-loadgen: --plan needs --schedule TEXT\n");
		return CLI_EXIT_USAGE;
	}
	struct schedule s;
	char err[512];
	if (!schedule_parse(text, &s, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: --schedule: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	printf("{\"duration_s\":%.3f,\"queries\":%llu,\"phases\":%zu}\n", s.duration_s,
	       schedule_total_queries(&s), s.count);
	schedule_free(&s);
	return 0;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
	enum {
		O_SCHEDULE = 256,
		O_TARGET,
		O_WATCH,
		O_OUT,
		O_INTERVAL,
		O_SLOW,
		O_PORTS,
		O_BATCH,
		O_EDNS,
		O_STRICT,
		O_ALLOW_META,
		O_QUERIES_MEMORY,
		O_ALIGN,
		O_REMOTE,
		O_NOPROGRESS,
		O_TIMEOUT_MS,
		O_NAME,
		O_VERSION,
		O_JSON,
		O_PLAN,
		O_TCP_SHARE,
		O_CLIENTS,
		O_TCP_IDLE,
		O_TC_RETRY,
		O_REPLAY,
		O_REPLAY_SPEED,
		O_SHARD,
		O_DOT_SHARE,
		O_TLS_RESUME,
		O_TLS_CA,
		O_START_AT
	};
	static const struct option longopts[] = {
	    {"queries", required_argument, NULL, 'd'},
	    {"schedule", required_argument, NULL, O_SCHEDULE},
	    {"target", required_argument, NULL, O_TARGET},
	    {"watch", required_argument, NULL, O_WATCH},
	    {"out", required_argument, NULL, O_OUT},
	    {"interval-ms", required_argument, NULL, O_INTERVAL},
	    {"slow-every", required_argument, NULL, O_SLOW},
	    {"ports", required_argument, NULL, O_PORTS},
	    {"batch", required_argument, NULL, O_BATCH},
	    {"edns", required_argument, NULL, O_EDNS},
	    {"strict", no_argument, NULL, O_STRICT},
	    {"allow-meta", no_argument, NULL, O_ALLOW_META},
	    {"queries-memory-mb", required_argument, NULL, O_QUERIES_MEMORY},
	    {"align", no_argument, NULL, O_ALIGN},
	    {"allow-remote", no_argument, NULL, O_REMOTE},
	    {"no-progress", no_argument, NULL, O_NOPROGRESS},
	    {"timeout-ms", required_argument, NULL, O_TIMEOUT_MS},
	    {"name", required_argument, NULL, O_NAME},
	    {"version", no_argument, NULL, O_VERSION},
	    {"json", no_argument, NULL, O_JSON},
	    {"plan", no_argument, NULL, O_PLAN},
	    {"transport", required_argument, NULL, 'm'},
	    {"tcp-share", required_argument, NULL, O_TCP_SHARE},
	    {"clients", required_argument, NULL, O_CLIENTS},
	    {"tcp-idle", required_argument, NULL, O_TCP_IDLE},
	    {"tc-retry", no_argument, NULL, O_TC_RETRY},
	    {"replay", required_argument, NULL, O_REPLAY},
	    {"replay-speed", required_argument, NULL, O_REPLAY_SPEED},
	    {"shard", required_argument, NULL, O_SHARD},
	    {"dot-share", required_argument, NULL, O_DOT_SHARE},
	    {"tls-resume", required_argument, NULL, O_TLS_RESUME},
	    {"tls-ca", required_argument, NULL, O_TLS_CA},
	    {"start-at", required_argument, NULL, O_START_AT},
	    {"help", no_argument, NULL, 'h'},
	    {0}};
	*o = (struct options){.port = 53,
	                      .timeout_s = 5,
	                      .interval_ms = 100,
	                      .slow_every = 10,
	                      .ports = 0, /* 0: sized to the schedule */
	                      .batch = 256,
	                      .queries_memory_mb = 1024,
	                      .name = "target",
	                      .rate = -1,
	                      .tcp_share = -1,
	                      .dot_share = -1,
	                      .tls_resume = true,
	                      .clients = 1000,
	                      .tcp_idle_s = 5,
	                      .replay_speed = 1,
	                      .shards = 1};
	char err[512];
	double v;
	unsigned port;
	int c, version = 0, json = 0, plan = 0;
	while ((c = getopt_long(argc, argv, "d:Q:l:s:p:t:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->queries = optarg;
			break;
		case O_SCHEDULE:
			o->schedule = optarg;
			break;
		case 'Q':
			if (!cli_option_number("-Q", optarg, 0.001, 100e6, &o->rate))
				return false;
			break;
		case 'l':
			if (!cli_option_duration("-l", optarg, 1, 0.001, 7 * 86400, &o->limit_s))
				return false;
			break;
		case 's':
			o->server = optarg;
			break;
		case 'p':
			if (!parse_unsigned("-p", optarg, 1, 65535, &port))
				return false;
			o->port = (int)port;
			break;
		case 't':
			if (!cli_option_duration("-t", optarg, 1, 0.001, 3600, &o->timeout_s))
				return false;
			break;
		case O_TIMEOUT_MS:
			if (!cli_option_duration("--timeout-ms", optarg, 0.001, 0.001, 3600,
			                         &o->timeout_s))
				return false;
			break;
		case O_TARGET:
		case O_WATCH: {
			bool watch = c == O_WATCH;
			unsigned *n = watch ? &o->nwatches : &o->ntargets;
			if (*n == MAX_TARGETS) {
				fprintf(stderr, "allocspike-loadgen: at most %d %s\n", MAX_TARGETS,
				        watch ? "--watch" : "--target");
				return false;
			}
			if (!target_parse(optarg, watch, watch ? &o->watches[*n] : &o->targets[*n],
			                  err, sizeof(err))) {
				fprintf(stderr, "allocspike-loadgen: %s\n", err);
				return false;
			}
			(*n)++;
			break;
		}
		case O_OUT:
			o->out = optarg;
			break;
		case O_INTERVAL:
			if (!cli_option_duration("--interval-ms", optarg, 0.001, 0.010, 60, &v))
				return false;
			o->interval_ms = (unsigned)(v * 1000 + 0.5);
			break;
		case O_SLOW:
			if (!parse_unsigned("--slow-every", optarg, 1, 100000, &o->slow_every))
				return false;
			break;
		case O_PORTS:
			if (!parse_unsigned("--ports", optarg, 1, 256, &o->ports))
				return false;
			break;
		case O_BATCH:
			if (!parse_unsigned("--batch", optarg, 1, 1024, &o->batch))
				return false;
			break;
		case O_EDNS:
			if (!parse_unsigned("--edns", optarg, 0, 65535, &o->edns))
				return false;
			break;
		case 'm':
			if (strcmp(optarg, "udp") != 0 && strcmp(optarg, "tcp") != 0 &&
			    strcmp(optarg, "dot") != 0) {
				fprintf(
				    stderr,
				    "allocspike-loadgen: -m/--transport: '%s' is not a transport "
				    "(udp, tcp or dot)\n",
				    optarg);
				return false;
			}
			o->transport = optarg;
			break;
		case O_TCP_SHARE:
			if (!cli_option_number("--tcp-share", optarg, 0, 1, &o->tcp_share))
				return false;
			break;
		case O_DOT_SHARE:
			if (!cli_option_number("--dot-share", optarg, 0, 1, &o->dot_share))
				return false;
			break;
		case O_TLS_RESUME:
			if (strcmp(optarg, "yes") != 0 && strcmp(optarg, "no") != 0) {
				fprintf(stderr,
				        "allocspike-loadgen: --tls-resume: '%s' is not yes or no\n",
				        optarg);
				return false;
			}
			o->tls_resume = strcmp(optarg, "yes") == 0;
			break;
		case O_TLS_CA:
			o->tls_ca = optarg;
			break;
		case O_CLIENTS:
			if (!parse_unsigned("--clients", optarg, 1, 1000000, &o->clients))
				return false;
			break;
		case O_TCP_IDLE:
			if (!cli_option_duration("--tcp-idle", optarg, 1, 0.01, 3600,
			                         &o->tcp_idle_s))
				return false;
			break;
		case O_REPLAY:
			o->replay = optarg;
			break;
		case O_REPLAY_SPEED:
			if (!cli_option_number("--replay-speed", optarg, 0.001, 1000,
			                       &o->replay_speed))
				return false;
			break;
		case O_SHARD:
			if (!parse_shard(optarg, o))
				return false;
			break;
		case O_TC_RETRY:
			o->tc_retry = true;
			break;
		case O_STRICT:
			o->strict = true;
			break;
		case O_ALLOW_META:
			o->allow_meta = true;
			break;
		case O_QUERIES_MEMORY:
			if (!cli_option_number("--queries-memory-mb", optarg, 0, 1 << 20,
			                       &o->queries_memory_mb))
				return false;
			break;
		case O_ALIGN:
			o->align = true;
			break;
		case O_START_AT:
			if (!cli_option_epoch("--start-at", optarg, &o->start_at_ns))
				return false;
			break;
		case O_REMOTE:
			o->allow_remote = true;
			break;
		case O_NOPROGRESS:
			o->no_progress = true;
			break;
		case O_NAME:
			o->name = optarg;
			break;
		case O_VERSION:
			version = 1;
			break;
		case O_JSON:
			json = 1;
			break;
		case O_PLAN:
			plan = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return false;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "allocspike-loadgen: unexpected argument '%s'\n", argv[optind]);
		return false;
	}
	if (version) {
		version_print(stdout, json);
		exit(0);
	}
	if (plan)
		exit(print_plan(o->schedule));
	if (o->replay && (o->queries || o->schedule || o->rate >= 0 || o->limit_s > 0 ||
	                  o->transport || o->tcp_share >= 0 || o->dot_share >= 0)) {
		fprintf(stderr, "allocspike-loadgen: --replay brings its queries, times, clients "
		                "and transports: -d, --schedule, -Q, -l, -m, --tcp-share and "
		                "--dot-share do not mix with it\n");
		return false;
	}
	if (!o->replay && o->replay_speed != 1) {
		fprintf(stderr, "allocspike-loadgen: --replay-speed is an option of --replay\n");
		return false;
	}
	if (o->align && o->start_at_ns) {
		fprintf(stderr,
		        "allocspike-loadgen: --align and --start-at do not mix (both say when "
		        "the schedule starts)\n");
		return false;
	}
	if (!o->queries && !o->replay) {
		fprintf(stderr, "allocspike-loadgen: -d/--queries FILE is required\n");
		return false;
	}
	if (o->server) {
		if (o->ntargets) {
			fprintf(stderr, "allocspike-loadgen: -s and --target do not mix\n");
			return false;
		}
		char spec[512];
		snprintf(spec, sizeof(spec), "name=%s,addr=%s%s%s:%d", o->name,
		         strchr(o->server, ':') ? "[" : "", o->server,
		         strchr(o->server, ':') ? "]" : "", o->port);
		if (!target_parse(spec, false, &o->targets[0], err, sizeof(err))) {
			fprintf(stderr, "allocspike-loadgen: -s %s: %s\n", o->server, err);
			return false;
		}
		o->ntargets = 1;
	}
	if (o->ntargets == 0) {
		fprintf(stderr, "allocspike-loadgen: no target: give --target SPEC or -s ADDR\n");
		return false;
	}
	for (unsigned i = 0; i < o->ntargets; i++) {
		if (!o->allow_remote &&
		    (!sockaddr_is_loopback((const struct sockaddr *)&o->targets[i].addr) ||
		     (o->targets[i].has_dot_addr &&
		      !sockaddr_is_loopback((const struct sockaddr *)&o->targets[i].dot_addr)))) {
			fprintf(
			    stderr,
			    "allocspike-loadgen: target %s is not on loopback (127.0.0.0/8, ::1); "
			    "--allow-remote permits it\n",
			    o->targets[i].name);
			return false;
		}
		for (unsigned j = 0; j < i; j++)
			if (strcmp(o->targets[i].name, o->targets[j].name) == 0) {
				fprintf(stderr, "allocspike-loadgen: two targets named %s\n",
				        o->targets[i].name);
				return false;
			}
	}
	if (o->schedule && o->rate >= 0) {
		fprintf(stderr, "allocspike-loadgen: --schedule and -Q do not mix\n");
		return false;
	}
	if (o->transport && (o->tcp_share >= 0 || o->dot_share >= 0)) {
		fprintf(stderr, "allocspike-loadgen: -m/--transport and --tcp-share or --dot-share "
		                "do not mix\n");
		return false;
	}
	if (o->transport) {
		o->tcp_share = strcmp(o->transport, "tcp") == 0 ? 1 : 0;
		o->dot_share = strcmp(o->transport, "dot") == 0 ? 1 : 0;
	}
	o->tcp_share = fmax(o->tcp_share, 0);
	o->dot_share = fmax(o->dot_share, 0);
	if (o->tcp_share + o->dot_share > 1 + 1e-9) {
		fprintf(stderr,
		        "allocspike-loadgen: --tcp-share and --dot-share add up to more than 1\n");
		return false;
	}
	if (!o->schedule && o->rate < 0 && !o->replay) {
		fprintf(stderr,
		        "allocspike-loadgen: give --schedule TEXT or -Q RATE (this generator is "
		        "open loop: it sends at a rate, never as fast as answers come)\n");
		return false;
	}
	return true;
}

/* Enough source ports that every query of the peak rate can stay outstanding for the whole
 * timeout (each port has 65536 IDs): the only cap on what is outstanding is then memory. */
static unsigned ports_for(const struct schedule *s, double timeout_s)
{
	double peak = 0;
	for (size_t i = 0; i < s->count; i++) {
		const struct schedule_phase *ph = &s->phases[i];
		peak = fmax(peak, fmax(ph->rate_from, ph->rate_to));
	}
	double need = ceil(peak * timeout_s * 1.25 / 65536);
	return need < 4 ? 4 : need > 256 ? 256 : (unsigned)need;
}

/* Clients of a share of the --clients: rounded to whole clients, at least one when the share is not
 * 0, at most those left. */
static uint64_t clients_share(double share, uint64_t clients, uint64_t left)
{
	uint64_t n = (uint64_t)llround(share * (double)clients);
	if (share > 0 && n == 0)
		n = 1;
	return n < left ? n : left;
}

/* Who sends each query over what (client_model.h): --tcp-share and --dot-share of the --clients.
 * False when every query goes over UDP with no retry: no connections at all. */
static bool clients_of(const struct options *o, struct client_model *m)
{
	uint64_t tcp = clients_share(o->tcp_share, o->clients, o->clients);
	uint64_t dot = clients_share(o->dot_share, o->clients, o->clients - tcp);
	if (o->dot_share > 0 && dot == 0) /* a DoT share asked for always gets a client */
		dot = 1, tcp--;
	*m = (struct client_model){
	    .clients = o->clients, .tcp = tcp, .dot = dot, .clients_max = o->clients};
	return tcp > 0 || dot > 0 || o->tc_retry;
}

/* Each TCP client (with --tc-retry: each client) may hold a connection to each target: the
 * open-files limit must have room for them beside the UDP sockets (raised up to the hard limit). */
static bool files_for_clients(const struct options *o, const struct client_model *m, unsigned ports,
                              char *err, size_t err_size)
{
	uint64_t streams = o->tc_retry ? m->clients_max : client_model_streams(m, m->clients_max);
	uint64_t connections = (uint64_t)o->ntargets * streams;
	rlim_t need = (rlim_t)(connections + (uint64_t)o->ntargets * ports + 64);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
		return true;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		snprintf(
		    err, err_size,
		    "--clients %llu: up to %llu TCP connections, more than the open-files limit "
		    "allows (%llu, ulimit -n); give fewer clients",
		    (unsigned long long)m->clients_max, (unsigned long long)connections,
		    (unsigned long long)rl.rlim_max);
		return false;
	}
	rl.rlim_cur = need;
	setrlimit(RLIMIT_NOFILE, &rl);
	return true;
}

/* The instant the schedule starts, on the monotonic clock (the pacer's) and the wall clock (the
 * one shards share): --start-at's, the next whole wall-clock second (--align: per-second counts
 * taken elsewhere line up with the schedule's seconds), or 50 ms from now to let the threads
 * settle. False when --start-at has passed: that shard could not start with the others. */
static bool start_instant(const struct options *o, uint64_t *mono_ns, uint64_t *realtime_ns_out,
                          char *err, size_t err_size)
{
	uint64_t mono = monotonic_ns(), now = realtime_ns();
	uint64_t at = now + 50000000;
	if (o->align) {
		at = (now / 1000000000 + 1) * 1000000000;
		if (at - now < 50000000)
			at += 1000000000;
	} else if (o->start_at_ns) {
		at = o->start_at_ns;
		if (at < now) {
			snprintf(err, err_size,
			         "--start-at %.3f passed %.3f s ago: start the "
			         "generators with a time still ahead",
			         (double)at / 1e9, (double)(now - at) / 1e9);
			return false;
		}
	}
	*mono_ns = mono + (at - now);
	*realtime_ns_out = at;
	return true;
}

/* Who the stream is and how it is cut, recorded in fragment.json: shards that merge must agree on
 * every key (allocspike-report merge). */
static json_t *stream_identity(const struct options *o, const struct querystream *qs,
                               const struct pacer *p, const char *expanded)
{
	char digest[24];
	snprintf(digest, sizeof(digest), "%016llx",
	         (unsigned long long)fragment_queries_digest(qs));
	json_t *targets = json_array();
	for (unsigned i = 0; i < o->ntargets; i++)
		json_array_append_new(targets, json_string(o->targets[i].name));
	json_t *id = json_pack(
	    "{s:s?,s:s?,s:s,s:f,s:I,s:I,s:s,s:i,s:f,s:f,s:b,s:i,s:i,s:i,s:o}", "schedule",
	    o->schedule, "replay", o->replay, "expanded", expanded, "duration_s", p->end_s,
	    "queries", (json_int_t)p->total, "file_queries", (json_int_t)qs->count,
	    "queries_digest", digest, "clients", (int)o->clients, "tcp_share", o->tcp_share,
	    "dot_share", o->dot_share, "tc_retry", o->tc_retry, "edns", (int)o->edns, "interval_ms",
	    (int)o->interval_ms, "ports", (int)o->ports, "targets", targets);
	if (o->replay &&
	    id) { /* a replay shard holds its clients' queries only: the plan is the id */
		json_object_del(id, "queries");
		json_object_del(id, "file_queries");
		json_object_del(id, "queries_digest");
		json_object_set_new(id, "replay_speed", json_real(o->replay_speed));
	}
	return id;
}

/* The planned instant (seconds after the start) of the first query this shard sends. */
static double first_planned_s(const struct pacer *p)
{
	const struct client_model *who = p->clients ? p->clients : p->shard;
	for (uint64_t k = 0; k < p->total; k++)
		if (client_model_owned(who, k, k + 1))
			return p->replay ? (double)p->replay->at_ns[k] / 1e9
			                 : schedule_time_of(p->schedule, k);
	return -1;
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-loadgen");
	parent_death_arm("allocspike-loadgen");
	static struct options o;
	if (!parse_options(argc, argv, &o))
		return CLI_EXIT_USAGE;
	char err[1024];

	/* static, as everything main builds: an early return leaves it reachable for exit to free
	 * (the sanitizer build counts what only a dead stack frame points to as a leak) */
	static struct querystream qs;
	static struct replay replay;
	struct querystream_options qo = {.strict = o.strict,
	                                 .allow_meta = o.allow_meta,
	                                 .edns_size = (uint16_t)o.edns,
	                                 .report_max = MALFORMED_REPORTED,
	                                 .memory_cap = (size_t)(o.queries_memory_mb * (1 << 20))};
	if (o.replay ? !replay_load(&replay, &qs, o.replay, o.replay_speed, o.shard, o.shards,
	                            (uint16_t)o.edns, err, sizeof(err))
	             : !querystream_load(&qs, o.queries, &qo, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: %s\n", err);
		return 1;
	}
	if (o.tc_retry && qs.feed) {
		/* a retry needs the query again, long after a streamed file's ring moved on */
		fprintf(stderr,
		        "allocspike-loadgen: --tc-retry needs the query file in memory; raise "
		        "--queries-memory-mb\n");
		querystream_free(&qs);
		return CLI_EXIT_USAGE;
	}
	if (qs.malformed)
		fprintf(stderr,
		        "allocspike-loadgen: %s: %lu malformed lines skipped, %zu queries\n",
		        o.queries, qs.malformed, qs.count);
	if (o.replay) /* one baseline phase as long as the plan, at its mean rate */
		o.rate =
		    (double)replay.count / ((double)replay.at_ns[replay.count - 1] / 1e9 + 0.001);

	static struct schedule sched;
	if (o.schedule) {
		if (!schedule_parse(o.schedule, &sched, err, sizeof(err))) {
			fprintf(stderr, "allocspike-loadgen: --schedule: %s\n", err);
			querystream_free(&qs);
			return CLI_EXIT_USAGE;
		}
	} else {
		/* dnsperf: -Q without -l runs through the file once (a replay: the plan once) */
		double seconds = o.limit_s > 0 ? o.limit_s : (double)qs.count / o.rate;
		if (!schedule_constant(&sched, SCHEDULE_BASELINE, seconds, o.rate)) {
			char rate[32];
			fprintf(stderr, "allocspike-loadgen: -Q %s: no schedule\n",
			        fixed_point(rate, sizeof(rate), o.rate, 6));
			querystream_free(&qs);
			return 1;
		}
	}

	static struct runfolder_writer writer;
	if (o.out && !runfolder_writer_open(&writer, o.out, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: --out: %s\n", err);
		schedule_free(&sched);
		querystream_free(&qs);
		return 1;
	}

	static struct phase_plan plan;
	if (!phase_plan_init(&plan, &sched)) {
		fprintf(stderr, "allocspike-loadgen: out of memory\n");
		return 1;
	}
	static struct pacer_target targets[MAX_TARGETS];
	for (unsigned i = 0; i < o.ntargets; i++)
		targets[i].spec = o.targets[i];
	static struct pacer pacer;
	pacer = (struct pacer){
	    .schedule = &sched,
	    .plan = &plan,
	    .queries = &qs,
	    .targets = targets,
	    .count = o.ntargets,
	    .end_s = o.limit_s > 0 && o.limit_s < sched.duration_s ? o.limit_s : sched.duration_s,
	    .batch_max = o.batch,
	    .timeout_ns = (uint64_t)(o.timeout_s * 1e9),
	    .stop = &stop_requested};
	pacer.total = o.replay ? replay.count : schedule_due(&sched, pacer.end_s);
	if (o.replay)
		pacer.replay = &replay;
	if (o.ports == 0)
		o.ports = ports_for(&sched, o.timeout_s);
	static struct client_model clients;
	if (o.replay)
		replay_client_model(&replay, &clients);
	bool connections = o.replay ? clients.tcp > 0 || o.tc_retry : clients_of(&o, &clients);
	if (!o.replay && o.shards > 1) { /* a shard of the stream: its clients' queries only */
		clients.shard = o.shard;
		clients.shards = o.shards;
		pacer.shard = &clients;
	}
	/* a connection spike: the schedule's '/clients=N' phases */
	if (!o.replay && (connections || pacer.shard) &&
	    !client_model_spans(&clients, &sched, pacer.total)) {
		fprintf(stderr, "allocspike-loadgen: out of memory\n");
		return 1;
	}
	if (connections) {
		if (!files_for_clients(&o, &clients, o.ports, err, sizeof(err))) {
			fprintf(stderr, "allocspike-loadgen: %s\n", err);
			return CLI_EXIT_USAGE;
		}
		pacer.clients = &clients;
		pacer.tcp_idle_ns = (uint64_t)(o.tcp_idle_s * 1e9);
		pacer.tc_retry = o.tc_retry;
	}
	static struct tls_client tls;
	if (clients.dot) {
		if (!tls_client_init(&tls, o.tls_ca, o.tls_resume, err, sizeof(err))) {
			fprintf(stderr, "allocspike-loadgen: %s\n", err);
			tls_client_free(&tls);
			return 1;
		}
		pacer.tls = &tls;
	}
	if (!pacer_init(&pacer, err, sizeof(err), o.ports)) {
		fprintf(stderr, "allocspike-loadgen: %s\n", err);
		return 1;
	}

	/* rows: the targets, the generator itself, the watched processes */
	static struct recorder_source sources[2 * MAX_TARGETS + 1];
	unsigned ns = 0;
	for (unsigned i = 0; i < o.ntargets; i++)
		sources[ns++] = (struct recorder_source){.name = targets[i].spec.name,
		                                         .target = &targets[i],
		                                         .has_process = targets[i].spec.pid != 0,
		                                         .control = targets[i].spec.control};
	sources[ns++] = (struct recorder_source){.name = "_loadgen", .has_process = true};
	for (unsigned i = 0; i < o.nwatches; i++)
		sources[ns++] =
		    (struct recorder_source){.name = o.watches[i].name, .has_process = true};
	for (unsigned i = 0; i < ns; i++) {
		if (!sources[i].has_process)
			continue;
		pid_t pid = getpid();
		if (sources[i].target)
			pid = sources[i].target->spec.pid;
		else if (i > o.ntargets)
			pid = o.watches[i - o.ntargets - 1].pid;
		if (!proc_watch_open(&sources[i].proc, pid, err, sizeof(err))) {
			/* ended between its start and ours: gone from the outset, the others run */
			fprintf(stderr, "allocspike-loadgen: %s is gone already: %s\n",
			        sources[i].name, err);
			sources[i].proc.gone = sources[i].gone = true;
			if (sources[i].target)
				sources[i].target->gone = 1;
		}
	}

	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* past a file-size limit a write fails (EFBIG), as on a full disk, instead of killing us */
	signal(SIGXFSZ, SIG_IGN);

	uint64_t start_realtime;
	if (!start_instant(&o, &pacer.start_ns, &start_realtime, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: %s\n", err);
		return 1;
	}
	static struct transport_log transports;
	if (!transport_log_open(&transports, o.out, pacer.clients, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: --out: %s\n", err);
		return 1;
	}
	static struct interval_hist_log interval_hists;
	if (!interval_hist_log_open(&interval_hists, o.sharded ? o.out : NULL, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: --out: %s\n", err);
		return 1;
	}
	static struct recorder rec;
	rec = (struct recorder){.pacer = &pacer,
	                        .schedule = &sched,
	                        .writer = &writer,
	                        .transports = transports.fd >= 0 ? &transports : NULL,
	                        .interval_hists = interval_hists.fd >= 0 ? &interval_hists : NULL,
	                        .sources = sources,
	                        .count = ns,
	                        .interval_ns = (uint64_t)o.interval_ms * 1000000,
	                        .slow_every = o.slow_every,
	                        .progress = !o.no_progress && progress_enabled()};
	char desc[256];
	schedule_describe(&sched, desc, sizeof(desc));
	static struct fragment fragment;
	if (!fragment_begin(&fragment, o.sharded ? o.out : NULL, o.shard, o.shards,
	                    stream_identity(&o, &qs, &pacer, desc), start_realtime, err,
	                    sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: --out: %s\n", err);
		return 1;
	}
	/* the schedule's start on CLOCK_REALTIME: what places reads taken on other hosts
	 * (agents/NAME.jsonl) on the timeline */
	char start_text[FRAGMENT_REALTIME_TEXT];
	fragment_realtime_text(start_realtime, start_text);
	runfolder_writer_event(
	    &writer, ((double)monotonic_ns() - (double)pacer.start_ns) / 1e9, "_loadgen", "started",
	    json_pack("{s:i,s:s,s:s,s:I,s:f,s:s}", "pid", (int)getpid(), "schedule",
	              o.schedule ? o.schedule
	              : o.replay ? "replay"
	                         : "-Q",
	              "expanded", desc, "queries", (json_int_t)pacer.total, "duration_s",
	              pacer.end_s, "start_realtime", start_text));
	for (unsigned i = 0; i < ns; i++)
		if (sources[i].gone)
			runfolder_writer_event(
			    &writer, ((double)monotonic_ns() - (double)pacer.start_ns) / 1e9,
			    sources[i].name, "gone",
			    json_pack("{s:i}", "pid", (int)sources[i].proc.pid));
	if (!recorder_start(&rec, err, sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: %s\n", err);
		return 1;
	}
	bool completed = pacer_run(&pacer);
	recorder_join(&rec);

	double t_end = ((double)pacer.done_ns - (double)pacer.start_ns) / 1e9;
	const char *feed_failure = querystream_failure(&qs);
	bool feed_failed = feed_failure != NULL;
	if (feed_failed) {
		runfolder_writer_event(&writer, t_end, "_loadgen", "failed",
		                       json_pack("{s:s}", "reason", feed_failure));
		fprintf(stderr, "allocspike-loadgen: reading the queries again failed: %s\n",
		        feed_failure);
	}
	if (!completed && !rec.write_failed && !feed_failed) {
		runfolder_writer_event(&writer, t_end, "_loadgen", "interrupted", NULL);
		fprintf(stderr,
		        "allocspike-loadgen: interrupted at t=%.3f s; what was recorded is kept\n",
		        t_end);
	}
	if (completed && pacer.next_k < pacer.total) {
		/* fell so far behind that the catch-up ran out of time: never silent */
		rec.shortfalls++;
		runfolder_writer_event(
		    &writer, t_end, "_loadgen", "shortfall",
		    json_pack("{s:I}", "unsent", (json_int_t)(pacer.total - pacer.next_k)));
		fprintf(stderr,
		        "allocspike-loadgen: shortfall: %llu of %llu scheduled queries unsent "
		        "when the time was up\n",
		        (unsigned long long)(pacer.total - pacer.next_k),
		        (unsigned long long)pacer.total);
	}
	phase_writer_write(&writer, &pacer, t_end);
	summary_events(&writer, &pacer, t_end);
	summary_print(stdout, &pacer, &rec, !completed);
	if (rec.shortfalls)
		fprintf(stderr,
		        "allocspike-loadgen: shortfall: the schedule was not met (at most %.3f s "
		        "behind); see events.jsonl\n",
		        rec.max_behind_s);

	transport_log_close(&transports);
	bool written = runfolder_writer_close(&writer);
	if (!written)
		fprintf(stderr, "allocspike-loadgen: the run folder %s is incomplete: %s\n", o.out,
		        runfolder_writer_failure(&writer));
	for (unsigned i = 0; i < ns; i++)
		if (sources[i].has_process)
			proc_watch_close(&sources[i].proc);
	interval_hist_log_close(&interval_hists);
	/* a shard without all its interval histograms cannot be merged in full */
	int status =
	    feed_failed || !written || interval_hists.failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	if (!fragment_end(&fragment,
	                  status != CLI_EXIT_OK ? "failed"
	                  : completed           ? "completed"
	                                        : "interrupted",
	                  status, pacer.first_send_realtime_ns, first_planned_s(&pacer), err,
	                  sizeof(err))) {
		fprintf(stderr, "allocspike-loadgen: --out: %s\n", err);
		status = CLI_EXIT_FAILED;
	}
	fragment_free(&fragment);
	pacer_close(&pacer);
	phase_plan_free(&plan);
	schedule_free(&sched);
	querystream_free(&qs);
	replay_free(&replay);
	client_model_free(&clients);
	tls_client_free(&tls);
	return status;
}
