/* upstream/main.c - allocspike-upstream: options, then the hierarchy's servers on one event loop.
 */
#include "atomic_write_file.h"
#include "cli_parse.h"
#include "close_stdout.h"
#include "control_server.h"
#include "fixed_point.h"
#include "flat_world.h"
#include "json_file.h"
#include "mix.h"
#include "net.h"
#include "netem.h"
#include "parent_death.h"
#include "preset.h"
#include "serve.h"
#include "servers.h"

#include <errno.h>
#include <event2/event.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct upstream {
	struct event_base *base;
	struct serve serve;
	struct net *net;
	const char *stats_file;
};

static void upstream_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-upstream [options]\n"
	    "  --hierarchy-block CIDR  block of the servers' addresses (default 127.53.0.0/16;\n"
	    "                          outside 127/8: this host's, with --udp-sockets "
	    "per-address)\n"
	    "  --port N                one port for every server (default 53; 0: a free one)\n"
	    "  --seed N                the world's seed (default 1)\n"
	    "  --world NAME            lan (default), internet, hostile or flat: the defaults\n"
	    "                          of the options below (docs/upstream.md, Worlds)\n"
	    "  --flat-tlds N           the flat world's TLD zones, tld1. to tldN. (default 20)\n"
	    "  --print-world           print each server's RTT, slow and dead marks and\n"
	    "                          the broken-delegation shares, then exit\n"
	    "  --latency-ms M[,P99]    median and 99th percentile delay of second-level servers\n"
	    "                          in ms (default 20,200; P99 alone: 10 x M; root 0.4x,\n"
	    "                          TLD 0.6x); flat world: its one server's, M alone fixed\n"
	    "                          (default 20)\n"
	    "  --loss X                share of queries dropped at every tier (default 0.03;\n"
	    "                          flat world 0)\n"
	    "  --tier NAME:MED:P99:LOSS  override one tier (root, tld, sld) exactly\n"
	    "  --slow-share X          share of TLD/SLD servers that are slow (default 0.1)\n"
	    "  --slow-factor X         delay multiplier of slow servers (default 4)\n"
	    "  --dead-share X          share of SLD servers that never answer (default 0.02)\n"
	    "  --no-latency            answer at once\n"
	    "  --no-loss               never drop (dead servers answer too)\n"
	    "  --reply-cache N         replies kept for repeated questions (default 65536; 0: "
	    "off)\n"
	    "  --attempt-window DUR    attempt counts forgotten after this long without the\n"
	    "                          question (default 10s; a bare number is seconds)\n"
	    "  --servers R:T:S         servers per tier (default 4:24:96)\n"
	    "  --udp-sockets MODEL     shared (default: one socket on lo, per-address where it\n"
	    "                          cannot be opened) or per-address (also answers queries\n"
	    "                          routed in from another device: docs/upstream.md)\n"
	    "  --root-hints FILE       write the root hints (zone-file format) and go on\n"
	    "  --control PATH          Unix socket: line commands stats, shutdown\n"
	    "  --applied-log FILE      one line per UDP query: loss/delay applied\n"
	    "  --applied-summary FILE  one line per second and tier: queries, loss, delay "
	    "quantiles\n"
	    "  --stats-file FILE       write the counters (JSON) there at exit and on SIGUSR1\n"
	    "  --ready-file FILE       also write the 'ready ADDR:PORT' line there\n"
	    "  --mix QUERYFILE         print the mix served for a query file and exit\n"
	    "  --mix-json FILE         with --mix: also write the mix as JSON\n"
	    "  --mix-steps FILE        with --mix: also write every question asked, ADDR NAME "
	    "TYPE\n"
	    "  --mix-limit N           with --mix: first N queries only\n"
	    "Old names, accepted with a warning: --block, --latency-median-ms, --latency-p99-ms.\n"
	    "Units and exit statuses (0 done, 1 the run failed, 2 usage): docs/cli.md\n");
}

/* --latency-ms MEDIAN[,P99]: milliseconds; without P99 it is p99_factor times the median (10, or
 * 1 in the flat world, whose delay is fixed). */
static bool upstream_parse_latency(const char *text, double p99_factor, double *median, double *p99)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", text);
	char *comma = strchr(buf, ',');
	if (comma)
		*comma = '\0';
	double m, p;
	if (!cli_option_duration("--latency-ms", buf, 0.001, 0, NETEM_MAX_MEDIAN_S, &m))
		return false;
	if (comma && !cli_option_duration("--latency-ms", comma + 1, 0.001, 0, NETEM_MAX_P99_S, &p))
		return false;
	*median = m * 1000;
	*p99 = comma ? p * 1000 : *median * p99_factor;
	return true;
}

/* --servers R:T:S, three counts: 2..26 root, 2..4000 TLD, 4..16000 second-level servers. */
static bool upstream_parse_servers(const char *text, int n[3])
{
	static const unsigned long long lo[3] = {2, 2, 4}, hi[3] = {26, 4000, 16000};
	char buf[64], err[160], *part = buf, *colon;
	snprintf(buf, sizeof(buf), "%s", text);
	for (int t = 0; t < 3; t++) {
		colon = strchr(part, ':');
		if ((t < 2) != (colon != NULL))
			return false;
		if (colon)
			*colon = '\0';
		unsigned long long v;
		if (!cli_parse_count("--servers", part, lo[t], hi[t], &v, err, sizeof(err)))
			return false;
		n[t] = (int)v;
		/* The last part has no colon after it: nothing follows it to point at. */
		if (colon)
			part = colon + 1;
	}
	return true;
}

/* The --world preset (lan without one), found before the other options so that they change its
 * defaults whatever their order; NULL after printing why. */
static const struct preset *upstream_world(int argc, char **argv)
{
	const char *name = "lan";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--world") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strncmp(argv[i], "--world=", 8) == 0)
			name = argv[i] + 8;
	}
	const struct preset *p = preset_find(name);
	if (!p)
		fprintf(stderr, "--world '%s': expected %s\n", name, preset_names());
	return p;
}

static char *upstream_stats_text(void *ctx)
{
	struct upstream *u = ctx;
	json_t *o = stats_json(&u->serve.stats, net_now_s());
	json_object_set_new(o, "inflight", json_integer((json_int_t)net_inflight(u->net)));
	json_object_set_new(o, "udp_sockets", json_string(net_udp_sockets(u->net)));
	struct net_reads woken, polled;
	net_udp_reads(u->net, &woken, &polled);
	json_object_set_new(o, "udp_reads",
	                    json_pack("{s:{s:I,s:I},s:{s:I,s:I}}", "woken", "calls",
	                              (json_int_t)woken.calls, "queries", (json_int_t)woken.queries,
	                              "polled", "calls", (json_int_t)polled.calls, "queries",
	                              (json_int_t)polled.queries));
	json_object_set_new(o, "attempts_tracked",
	                    json_integer((json_int_t)netem_tracked(u->serve.netem)));
	uint64_t hits, misses;
	replycache_stats(u->serve.cache, &hits, &misses);
	json_object_set_new(o, "reply_cache_hits", json_integer((json_int_t)hits));
	json_object_set_new(o, "reply_cache_misses", json_integer((json_int_t)misses));
	templates_stats(u->serve.templates, &hits, &misses);
	json_object_set_new(o, "template_hits", json_integer((json_int_t)hits));
	json_object_set_new(o, "template_misses", json_integer((json_int_t)misses));
	char *text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return text;
}

static void upstream_report(struct upstream *u)
{
	char *text = upstream_stats_text(u);
	if (!text)
		return;
	fprintf(stderr, "%s\n", text);
	if (u->stats_file) {
		char err[512];
		json_t *o = json_loads(text, 0, NULL);
		if (o && !json_file_write_atomic(u->stats_file, o, err, sizeof(err)))
			fprintf(stderr, "--stats-file: %s\n", err);
		json_decref(o);
	}
	free(text);
}

static void upstream_on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct upstream *u = arg;
	if (sig == SIGUSR1) {
		upstream_report(u);
		return;
	}
	event_base_loopbreak(u->base);
}

/* The applied files are block-buffered for speed; every second the summary row of the past
 * second is written and both are flushed for readers. */
static void upstream_flush(evutil_socket_t fd, short what, void *arg)
{
	struct upstream *u = arg;
	if (u->serve.applied)
		applied_flush(u->serve.applied, net_now_s());
}

static bool upstream_write_root_hints(const struct world *w, const char *path, int port)
{
	struct atomic_file af;
	char err[4400];
	if (!atomic_file_open(&af, path, err, sizeof(err))) {
		fprintf(stderr, "--root-hints %s\n", err);
		return false;
	}
	FILE *f = af.f;
	fprintf(f, "; root hints of the allocspike simulated hierarchy (seed %llu, port %d)\n",
	        (unsigned long long)w->seed, port);
	struct zone_chain chain;
	zones_chain(w, ".", &chain);
	const struct zone *root = &chain.zones[0];
	char name[ZONES_NAME_MAX], addr[16];
	for (int k = 0; k < root->nns; k++) {
		zones_ns_name(root, k, name);
		fprintf(f, ".\t3600000\tIN\tNS\t%s\n", name);
	}
	for (int k = 0; k < root->nns; k++) {
		zones_ns_name(root, k, name);
		fprintf(f, "%s\t3600000\tIN\tA\t%s\n", name,
		        servers_addr_text(root->ns[k]->addr, addr));
	}
	if (atomic_file_commit(&af, !ferror(f), err, sizeof(err)))
		return true;
	fprintf(stderr, "--root-hints %s: cannot write%s%s\n", path, err[0] ? ": " : "", err);
	return false;
}

/* What serving took, given back (the applied files closed, flushed): at the end, and when the
 * sockets cannot be had. */
static void upstream_release(struct upstream *u, struct server_plan *plan)
{
	if (u->serve.applied)
		applied_close(u->serve.applied, net_now_s());
	netem_free(u->serve.netem);
	replycache_free(u->serve.cache);
	templates_free(u->serve.templates);
	event_base_free(u->base);
	servers_plan_free(plan);
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-upstream");
	parent_death_arm("allocspike-upstream");
	enum {
		OPT_BLOCK = 256,
		OPT_OLD_BLOCK,
		OPT_LATENCY,
		OPT_PORT,
		OPT_SEED,
		OPT_MEDIAN,
		OPT_P99,
		OPT_LOSS,
		OPT_TIER,
		OPT_SLOW_SHARE,
		OPT_SLOW_FACTOR,
		OPT_DEAD_SHARE,
		OPT_NO_LATENCY,
		OPT_NO_LOSS,
		OPT_WINDOW,
		OPT_SERVERS,
		OPT_ROOT_HINTS,
		OPT_CONTROL,
		OPT_APPLIED,
		OPT_STATS_FILE,
		OPT_READY,
		OPT_MIX,
		OPT_MIX_JSON,
		OPT_MIX_STEPS,
		OPT_MIX_LIMIT,
		OPT_CACHE,
		OPT_APPLIED_SUMMARY,
		OPT_WORLD,
		OPT_PRINT_WORLD,
		OPT_FLAT_TLDS,
		OPT_UDP_SOCKETS,
		OPT_HELP,
	};
	static const struct option opts[] = {
	    {"hierarchy-block", required_argument, NULL, OPT_BLOCK},
	    {"block", required_argument, NULL, OPT_OLD_BLOCK},
	    {"latency-ms", required_argument, NULL, OPT_LATENCY},
	    {"port", required_argument, NULL, OPT_PORT},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"latency-median-ms", required_argument, NULL, OPT_MEDIAN},
	    {"latency-p99-ms", required_argument, NULL, OPT_P99},
	    {"loss", required_argument, NULL, OPT_LOSS},
	    {"tier", required_argument, NULL, OPT_TIER},
	    {"slow-share", required_argument, NULL, OPT_SLOW_SHARE},
	    {"slow-factor", required_argument, NULL, OPT_SLOW_FACTOR},
	    {"dead-share", required_argument, NULL, OPT_DEAD_SHARE},
	    {"no-latency", no_argument, NULL, OPT_NO_LATENCY},
	    {"no-loss", no_argument, NULL, OPT_NO_LOSS},
	    {"attempt-window", required_argument, NULL, OPT_WINDOW},
	    {"servers", required_argument, NULL, OPT_SERVERS},
	    {"root-hints", required_argument, NULL, OPT_ROOT_HINTS},
	    {"control", required_argument, NULL, OPT_CONTROL},
	    {"applied-log", required_argument, NULL, OPT_APPLIED},
	    {"stats-file", required_argument, NULL, OPT_STATS_FILE},
	    {"ready-file", required_argument, NULL, OPT_READY},
	    {"mix", required_argument, NULL, OPT_MIX},
	    {"mix-json", required_argument, NULL, OPT_MIX_JSON},
	    {"mix-steps", required_argument, NULL, OPT_MIX_STEPS},
	    {"mix-limit", required_argument, NULL, OPT_MIX_LIMIT},
	    {"reply-cache", required_argument, NULL, OPT_CACHE},
	    {"applied-summary", required_argument, NULL, OPT_APPLIED_SUMMARY},
	    {"world", required_argument, NULL, OPT_WORLD},
	    {"print-world", no_argument, NULL, OPT_PRINT_WORLD},
	    {"flat-tlds", required_argument, NULL, OPT_FLAT_TLDS},
	    {"udp-sockets", required_argument, NULL, OPT_UDP_SOCKETS},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	struct server_plan_config pcfg = {.block = "127.53.0.0/16",
	                                  .seed = 1,
	                                  .n = {4, 24, 96},
	                                  .slow_share = 0.1,
	                                  .dead_share = 0.02};
	struct netem_config ncfg = {
	    .seed = 1, .latency = true, .loss = true, .slow_factor = 4, .window_s = 10};
	/* the scenarios' defaults too (controller/scenario_options_table.c;
	 * tests/upstream/defaults.sh) */
	double median = 20, p99 = 200, loss = 0.03;
	double v;
	const char *tiers[8];
	int ntiers = 0;
	unsigned long long port = 53, seed = 1, mix_limit = 0, cache_slots = 65536;
	const char *root_hints = NULL, *control_path = NULL, *applied = NULL, *ready = NULL;
	const char *applied_summary = NULL;
	const char *mix = NULL, *mix_json = NULL, *mix_steps = NULL;
	struct upstream u = {0};
	bool print_world = false;
	bool udp_shared = true; /* --udp-sockets */
	const struct preset *world = upstream_world(argc, argv);
	if (!world)
		return 2;
	preset_apply(world, &pcfg, &ncfg, &loss);
	unsigned long long flat_tlds = world->flat_tlds;
	bool flat_tlds_given = false, servers_given = false;
	if (world->flat_tlds)
		median = p99 = world->flat_delay_ms;
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = true;
		switch (c) {
		case OPT_OLD_BLOCK:
			cli_warn_renamed("--block", "--hierarchy-block");
			/* fall through */
		case OPT_BLOCK:
			pcfg.block = optarg;
			break;
		case OPT_PORT:
			ok = cli_option_count("--port", optarg, 0, 65535, &port);
			break;
		case OPT_SEED:
			ok = cli_option_count("--seed", optarg, 0, UINT64_MAX, &seed);
			break;
		case OPT_LATENCY:
			ok = upstream_parse_latency(optarg, world->flat_tlds ? 1 : 10, &median,
			                            &p99);
			break;
		case OPT_MEDIAN:
			cli_warn_renamed("--latency-median-ms", "--latency-ms MEDIAN,P99");
			ok = cli_option_duration("--latency-median-ms", optarg, 0.001, 0,
			                         NETEM_MAX_MEDIAN_S, &v);
			median = v * 1000;
			break;
		case OPT_P99:
			cli_warn_renamed("--latency-p99-ms", "--latency-ms MEDIAN,P99");
			ok = cli_option_duration("--latency-p99-ms", optarg, 0.001, 0,
			                         NETEM_MAX_P99_S, &v);
			p99 = v * 1000;
			break;
		case OPT_LOSS:
			ok = cli_option_number("--loss", optarg, 0, 1, &loss);
			break;
		case OPT_TIER:
			if (ntiers == 8) {
				fprintf(stderr, "--tier: at most 8\n");
				return 2;
			}
			tiers[ntiers++] = optarg;
			break;
		case OPT_SLOW_SHARE:
			ok = cli_option_number("--slow-share", optarg, 0, 1, &pcfg.slow_share);
			break;
		case OPT_SLOW_FACTOR:
			ok = cli_option_number("--slow-factor", optarg, 1, 100, &ncfg.slow_factor);
			break;
		case OPT_DEAD_SHARE:
			ok = cli_option_number("--dead-share", optarg, 0, 0.5, &pcfg.dead_share);
			break;
		case OPT_NO_LATENCY:
			ncfg.latency = false;
			break;
		case OPT_NO_LOSS:
			ncfg.loss = false;
			break;
		case OPT_WINDOW:
			ok = cli_option_duration("--attempt-window", optarg, 1, 0.1, 3600,
			                         &ncfg.window_s);
			break;
		case OPT_SERVERS:
			if (!upstream_parse_servers(optarg, pcfg.n)) {
				fprintf(stderr,
				        "--servers '%s': expected R:T:S, 2<=R<=26, 2<=T<=4000, "
				        "4<=S<=16000\n",
				        optarg);
				return 2;
			}
			servers_given = true;
			break;
		case OPT_FLAT_TLDS:
			ok = cli_option_count("--flat-tlds", optarg, 1, FLAT_TLDS_MAX, &flat_tlds);
			flat_tlds_given = true;
			break;
		case OPT_UDP_SOCKETS:
			if (strcmp(optarg, "shared") == 0 || strcmp(optarg, "per-address") == 0) {
				udp_shared = strcmp(optarg, "shared") == 0;
			} else {
				fprintf(stderr,
				        "--udp-sockets: '%s' is neither shared nor per-address\n",
				        optarg);
				ok = false;
			}
			break;
		case OPT_ROOT_HINTS:
			root_hints = optarg;
			break;
		case OPT_CONTROL:
			control_path = optarg;
			break;
		case OPT_APPLIED:
			applied = optarg;
			break;
		case OPT_STATS_FILE:
			u.stats_file = optarg;
			break;
		case OPT_READY:
			ready = optarg;
			break;
		case OPT_MIX:
			mix = optarg;
			break;
		case OPT_MIX_JSON:
			mix_json = optarg;
			break;
		case OPT_MIX_STEPS:
			mix_steps = optarg;
			break;
		case OPT_APPLIED_SUMMARY:
			applied_summary = optarg;
			break;
		case OPT_CACHE:
			ok = cli_option_count("--reply-cache", optarg, 0, 1 << 24, &cache_slots);
			break;
		case OPT_MIX_LIMIT:
			ok = cli_option_count("--mix-limit", optarg, 0, 1ULL << 40, &mix_limit);
			break;
		case OPT_WORLD: /* applied above, before the options it sets the defaults of */
			break;
		case OPT_PRINT_WORLD:
			print_world = true;
			break;
		case OPT_HELP:
			upstream_usage(stdout);
			return 0;
		default:
			upstream_usage(stderr);
			return 2;
		}
		if (!ok)
			return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (flat_tlds_given && !world->flat_tlds) {
		fprintf(stderr, "--flat-tlds: only for --world flat (this is the %s world)\n",
		        world->name);
		return 2;
	}
	if (servers_given && world->flat_tlds) {
		fprintf(stderr, "--servers: the flat world has one server (its TLD count: "
		                "--flat-tlds)\n");
		return 2;
	}
	if (p99 < median) {
		char p99_text[32], median_text[32];
		fprintf(stderr,
		        "--latency-ms: the 99th percentile %s ms is below the median %s ms\n",
		        fixed_point(p99_text, sizeof(p99_text), p99, 6),
		        fixed_point(median_text, sizeof(median_text), median, 6));
		return 2;
	}
	/* the flat world's one server (root tier) has the delay given */
	static const double tier_factor[TIER_COUNT] = {0.4, 0.6, 1.0};
	for (int t = 0; t < TIER_COUNT; t++) {
		double f = world->flat_tlds ? 1 : tier_factor[t];
		ncfg.tier[t].median_ms = median * f;
		ncfg.tier[t].p99_ms = p99 * f;
		ncfg.tier[t].loss = loss;
	}
	char err[1024];
	for (int i = 0; i < ntiers; i++)
		if (!netem_parse_tier(&ncfg, tiers[i], err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	pcfg.seed = ncfg.seed = seed;

	struct server_plan plan;
	if (!servers_plan_init(&plan, &pcfg, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	/* the shared socket hears lo alone: another host's queries arrive on another device */
	if (!servers_plan_loopback(&plan) && udp_shared && !print_world && !mix) {
		fprintf(stderr,
		        "--hierarchy-block '%s': a block outside 127.0.0.0/8 needs --udp-sockets "
		        "per-address (its addresses this host's own: docs/upstream.md)\n",
		        pcfg.block);
		servers_plan_free(&plan);
		return 2;
	}
	u.serve.world.seed = seed;
	u.serve.world.plan = &plan;
	u.serve.world.flat_tlds = world->flat_tlds ? (unsigned)flat_tlds : 0;
	if (print_world) {
		preset_print_world(&u.serve.world, world->name, stdout);
		servers_plan_free(&plan);
		return 0;
	}
	if (mix) {
		bool ok = mix_run(&u.serve.world, mix, (unsigned long)mix_limit, stdout, mix_json,
		                  mix_steps, err, sizeof(err));
		if (!ok)
			fprintf(stderr, "--mix: %s\n", err);
		servers_plan_free(&plan);
		return ok ? 0 : 1;
	}

	signal(SIGPIPE, SIG_IGN);
	/* every reply allocates and frees; without this glibc keeps shrinking and growing the heap
	 * with brk (5% of the CPU). The hierarchy is harness, not a measured variant. */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	u.base = event_base_new();
	u.serve.netem = netem_new(&ncfg);
	u.serve.cache = replycache_new((size_t)cache_slots);
	u.serve.templates = templates_new(16384);
	u.serve.stats.start_s = net_now_s();
	if (!u.base || !u.serve.netem) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	struct applied applied_files;
	if (applied || applied_summary) {
		if (!applied_open(&applied_files, applied, applied_summary, u.serve.stats.start_s,
		                  err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", applied ? "--applied-log" : "--applied-summary",
			        err);
			return 1;
		}
		u.serve.applied = &applied_files;
	}
	u.net = net_open(u.base, &plan, (int)port, udp_shared, &u.serve, err, sizeof(err));
	if (!u.net) {
		fprintf(stderr, "%s%s\n", err,
		        servers_plan_loopback(&plan)
		            ? ""
		            : " (a block outside 127.0.0.0/8 must be this host's addresses, e.g. "
		              "`ip addr add BASE+1/PREFIX dev lo`: docs/upstream.md)");
		upstream_release(&u, &plan);
		return 1;
	}
	if (root_hints && !upstream_write_root_hints(&u.serve.world, root_hints, net_port(u.net)))
		return 1;
	struct control_server *ctl = NULL;
	if (control_path) {
		ctl = control_server_open(u.base, control_path, upstream_stats_text, &u, err,
		                          sizeof(err));
		if (!ctl) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
	}
	struct event *sigs[3];
	int signums[3] = {SIGTERM, SIGINT, SIGUSR1};
	for (int i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(u.base, signums[i], upstream_on_signal, &u);
		event_add(sigs[i], NULL);
	}
	struct event *flush = event_new(u.base, -1, EV_PERSIST, upstream_flush, &u);
	struct timeval second = {1, 0};
	event_add(flush, &second);
	char addr[16];
	servers_addr_text(plan.servers[plan.first[TIER_ROOT]].addr, addr);
	printf("ready %s:%d\n", addr, net_port(u.net));
	fflush(stdout);
	if (ready) {
		char line[64];
		snprintf(line, sizeof(line), "ready %s:%d\n", addr, net_port(u.net));
		if (!atomic_write_file(ready, line, strlen(line), err, sizeof(err))) {
			fprintf(stderr, "--ready-file %s\n", err);
			return 1;
		}
	}

	event_base_dispatch(u.base);

	upstream_report(&u);
	control_server_close(ctl);
	for (int i = 0; i < 3; i++)
		event_free(sigs[i]);
	event_free(flush);
	net_close(u.net);
	upstream_release(&u, &plan);
	return 0;
}
