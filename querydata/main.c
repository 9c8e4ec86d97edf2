/* querydata/main.c - allocspike-querydata: parses the subcommand and its options, wires the
 * modules. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_parse.h"
#include "atomic_write_file.h"
#include "capture.h"
#include "close_stdout.h"
#include "extend.h"
#include "flat.h"
#include "flat_world.h"
#include "generate.h"
#include "parent_death.h"
#include "queryfile.h"
#include "replay_plan.h"
#include "stats.h"

static void main_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-querydata generate --seed N --count N [--out FILE]\n"
	    "           [--world flat [--flat-tlds N] [--pool N] [--zipf S] [--fresh-share X]\n"
	    "            [--nxdomain-share X]]\n"
	    "       allocspike-querydata extend --count N [--seed N] [--out FILE] FILE\n"
	    "       allocspike-querydata stats [--json] [--out FILE] FILE\n"
	    "       allocspike-querydata capture [--json] [--port N] [--queries FILE] [--plan "
	    "FILE]\n"
	    "           CAPTURE\n"
	    "\n"
	    "generate  writes a dnsperf-format query file shaped like the DNS-OARC sample;\n"
	    "          --world flat: the flat world's mix (pool, fresh and NXDOMAIN names)\n"
	    "extend    replays FILE to COUNT queries; names seen once get fresh names each pass\n"
	    "stats     prints a query file's statistics (plain, .xz, .gz or - for stdin)\n"
	    "capture   reads the DNS queries to --port (53; 0: any) of a pcap or pcapng capture,\n"
	    "          prints its statistics, writes them as a query file and/or a replay plan\n"
	    "-o is short for --out (old name --output). See querydata/README.md; exit statuses\n"
	    "(0 done, 1 failed, 2 usage): docs/cli.md.\n");
}

/* getopt's 'h' (--help: usage on stdout, exit 0) or an unknown option (usage on stderr, exit 2). */
static int main_help_or_usage_error(int c)
{
	main_usage(c == 'h' ? stdout : stderr);
	return c == 'h' ? 0 : 2;
}

/* Opens -o FILE (or stdout); FILE is written atomically, completed by main_close_output. */
static FILE *main_open_output(const char *path, struct atomic_file *af)
{
	char err[1024];
	af->f = NULL;
	if (!path || strcmp(path, "-") == 0)
		return stdout;
	if (!atomic_file_open(af, path, err, sizeof(err)))
		fprintf(stderr, "allocspike-querydata: -o %s\n", err);
	return af->f;
}

static bool main_close_output(FILE *f, struct atomic_file *af, bool ok)
{
	char err[1024] = "";
	if (f == stdout)
		return ok && fflush(stdout) == 0;
	if (!atomic_file_commit(af, ok, err, sizeof(err)) && err[0])
		fprintf(stderr, "allocspike-querydata: -o %s\n", err);
	return ok && !err[0];
}

/* The flat world's options (generate --world flat): false after saying why. */
static bool main_flat_option(int c, const char *arg, struct flat_mix *m)
{
	unsigned long long v;
	switch (c) {
	case 'T':
		if (!cli_option_count("--flat-tlds", arg, 1, FLAT_TLDS_MAX, &v))
			return false;
		m->tlds = (unsigned)v;
		return true;
	case 'P':
		if (!cli_option_count("--pool", arg, 1, FLAT_MIX_POOL_MAX, &v))
			return false;
		m->pool = v;
		return true;
	case 'Z':
		return cli_option_number("--zipf", arg, 0, FLAT_MIX_ZIPF_MAX, &m->zipf);
	case 'F':
		return cli_option_number("--fresh-share", arg, 0, 1, &m->fresh_share);
	default:
		return cli_option_number("--nxdomain-share", arg, 0, 1, &m->nxdomain_share);
	}
}

static int main_generate_or_extend(int argc, char **argv, bool extend)
{
	static const struct option opts[] = {{"seed", required_argument, NULL, 's'},
	                                     {"count", required_argument, NULL, 'n'},
	                                     {"out", required_argument, NULL, 'o'},
	                                     {"output", required_argument, NULL, 'O'},
	                                     {"world", required_argument, NULL, 'W'},
	                                     {"flat-tlds", required_argument, NULL, 'T'},
	                                     {"pool", required_argument, NULL, 'P'},
	                                     {"zipf", required_argument, NULL, 'Z'},
	                                     {"fresh-share", required_argument, NULL, 'F'},
	                                     {"nxdomain-share", required_argument, NULL, 'X'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {NULL, 0, NULL, 0}};
	struct flat_mix flat;
	flat_mix_defaults(&flat);
	bool world_flat = false;
	const char *flat_option = NULL; /* the first flat-world option given */
	unsigned long long seed = 1, count = 0;
	bool have_seed = false, have_count = false;
	const char *output = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "s:n:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!cli_option_count("--seed", optarg, 0, UINT64_MAX, &seed))
				return 2;
			have_seed = true;
			break;
		case 'n':
			if (!cli_option_count("--count", optarg, 0, UINT64_MAX, &count))
				return 2;
			have_count = true;
			break;
		case 'O':
			cli_warn_renamed("--output", "--out");
			/* fall through */
		case 'o':
			output = optarg;
			break;
		case 'W':
			if (strcmp(optarg, "flat") != 0) {
				fprintf(
				    stderr,
				    "allocspike-querydata %s: --world '%s': expected flat (every "
				    "other world replays the default file)\n",
				    argv[0], optarg);
				return 2;
			}
			world_flat = true;
			break;
		case 'T':
		case 'P':
		case 'Z':
		case 'F':
		case 'X':
			if (!main_flat_option(c, optarg, &flat))
				return 2;
			for (const struct option *o = opts; !flat_option && o->name; o++)
				if (o->val == c)
					flat_option = o->name;
			break;
		default:
			return main_help_or_usage_error(c);
		}
	}
	if (!have_count || (!extend && !have_seed)) {
		fprintf(stderr, "allocspike-querydata %s: %s required\n", argv[0],
		        extend ? "--count" : "--seed and --count are");
		return 2;
	}
	if (flat_option && (extend || !world_flat)) {
		fprintf(stderr,
		        "allocspike-querydata %s: --%s is an option of generate --world flat\n",
		        argv[0], flat_option);
		return 2;
	}
	if (world_flat && extend) {
		fprintf(stderr, "allocspike-querydata extend: --world is an option of generate\n");
		return 2;
	}
	if (flat.fresh_share + flat.nxdomain_share > 1) {
		fprintf(
		    stderr,
		    "allocspike-querydata %s: --fresh-share %g and --nxdomain-share %g add up to "
		    "more than 1\n",
		    argv[0], flat.fresh_share, flat.nxdomain_share);
		return 2;
	}
	if (extend != (optind + 1 == argc) || (!extend && optind != argc)) {
		fprintf(stderr, "allocspike-querydata %s: %s\n", argv[0],
		        extend ? "exactly one input FILE expected" : "unexpected argument");
		return 2;
	}
	char err[1024] = "";
	struct atomic_file af;
	FILE *out = main_open_output(output, &af);
	if (!out)
		return 1;
	bool ok = extend       ? extend_write(argv[optind], seed, count, out, err, sizeof(err))
	          : world_flat ? flat_mix_write(&flat, seed, count, out, err, sizeof(err))
	                       : generate_write(seed, count, out, err, sizeof(err));
	if (!main_close_output(out, &af, ok) || !ok) {
		/* standard output that cannot be written is said once, by close_stdout at exit */
		if (out == stdout && ferror(stdout))
			return 1;
		fprintf(stderr, "allocspike-querydata %s: %s\n", argv[0],
		        err[0] ? err : "write error");
		return 1;
	}
	return 0;
}

static int main_stats(int argc, char **argv)
{
	static const struct option opts[] = {{"json", no_argument, NULL, 'j'},
	                                     {"out", required_argument, NULL, 'o'},
	                                     {"output", required_argument, NULL, 'O'},
	                                     {"help", no_argument, NULL, 'h'},
	                                     {NULL, 0, NULL, 0}};
	bool json = false;
	const char *output = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "jo:h", opts, NULL)) != -1) {
		if (c == 'j') {
			json = true;
		} else if (c == 'o' || c == 'O') {
			output = optarg;
		} else if (c == 'h') {
			main_usage(stdout);
			return 0;
		} else {
			main_usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "allocspike-querydata stats: exactly one FILE expected\n");
		return 2;
	}
	static struct stats st; /* large (type and length tables): not on the stack */
	char err[1024];
	if (!stats_compute(argv[optind], &st, err, sizeof(err))) {
		fprintf(stderr, "allocspike-querydata stats: %s\n", err);
		return 1;
	}
	struct atomic_file af;
	FILE *out = main_open_output(output, &af);
	if (!out)
		return 1;
	bool ok = true;
	if (json) {
		json_t *o = stats_to_json(&st, argv[optind]);
		ok = json_dumpf(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(6)) == 0 &&
		     fputc('\n', out) != EOF;
		json_decref(o);
	} else {
		stats_print_text(&st, argv[optind], out);
	}
	if (!main_close_output(out, &af, ok && !ferror(out))) {
		/* standard output that cannot be written is said once, by close_stdout at exit */
		if (out != stdout)
			fprintf(stderr, "allocspike-querydata stats: %s not written\n", output);
		return 1;
	}
	return 0;
}

/* Where capture's queries go: a query file, a replay plan, or both. */
struct main_capture_out {
	FILE *queries, *plan;
};

static bool main_capture_query(void *ctx, const struct capture_query *q)
{
	struct main_capture_out *o = ctx;
	if (o->queries) {
		char type[24];
		queryfile_type_format(q->question->qtype, type, sizeof(type));
		fprintf(o->queries, "%s %s\n", q->question->name, type);
	}
	if (o->plan) {
		if (q->client_identity)
			replay_plan_write_client(o->plan, q->client, q->client_identity);
		struct replay_plan_entry e = {.t_ns = q->t_ns,
		                              .client = q->client,
		                              .tcp = q->transport == CAPTURE_TCP,
		                              .name = q->question->name,
		                              .qtype = q->question->qtype};
		replay_plan_write(o->plan, &e);
	}
	return !(o->queries && ferror(o->queries)) && !(o->plan && ferror(o->plan));
}

static int main_capture(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"json", no_argument, NULL, 'j'},          {"port", required_argument, NULL, 'p'},
	    {"queries", required_argument, NULL, 'q'}, {"plan", required_argument, NULL, 'P'},
	    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
	bool json = false;
	unsigned long long port = 53;
	const char *queries_path = NULL, *plan_path = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'p':
			if (!cli_option_count("--port", optarg, 0, 65535, &port))
				return 2;
			break;
		case 'q':
			queries_path = optarg;
			break;
		case 'P':
			plan_path = optarg;
			break;
		default:
			return main_help_or_usage_error(c);
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr,
		        "allocspike-querydata capture: exactly one CAPTURE file expected\n");
		return 2;
	}
	if (queries_path && plan_path && strcmp(queries_path, plan_path) == 0) {
		fprintf(stderr, "allocspike-querydata capture: --queries and --plan name the same "
		                "file\n");
		return 2;
	}
	const char *capture_path = argv[optind];
	struct atomic_file queries_af, plan_af;
	struct main_capture_out out = {NULL, NULL};
	if (queries_path && !(out.queries = main_open_output(queries_path, &queries_af)))
		return 1;
	if (plan_path && !(out.plan = main_open_output(plan_path, &plan_af))) {
		main_close_output(out.queries, &queries_af, false);
		return 1;
	}
	if (out.plan)
		replay_plan_write_header(out.plan, capture_path);
	/* the statistics make way on standard output for a file written there */
	FILE *report = out.queries == stdout || out.plan == stdout ? stderr : stdout;
	static struct capture_stats st;
	char err[1400] = "";
	bool ok = capture_read(capture_path, (uint16_t)port, main_capture_query, &out, &st, err,
	                       sizeof(err));
	if (out.queries && !main_close_output(out.queries, &queries_af, ok))
		ok = false;
	if (out.plan && !main_close_output(out.plan, &plan_af, ok))
		ok = false;
	if (!ok) {
		/* standard output that cannot be written is said once, by close_stdout at exit */
		if ((out.queries == stdout || out.plan == stdout) && ferror(stdout))
			return 1;
		fprintf(stderr, "allocspike-querydata capture: %s\n", err[0] ? err : "write error");
		return 1;
	}
	if (json) {
		json_t *o = capture_stats_to_json(&st, capture_path);
		json_dumpf(o, report, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', report);
		json_decref(o);
	} else {
		capture_stats_print_text(&st, capture_path, report);
	}
	return 0;
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-querydata");
	parent_death_arm("allocspike-querydata");
	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "generate") == 0)
		return main_generate_or_extend(argc - 1, argv + 1, false);
	if (strcmp(cmd, "extend") == 0)
		return main_generate_or_extend(argc - 1, argv + 1, true);
	if (strcmp(cmd, "stats") == 0)
		return main_stats(argc - 1, argv + 1);
	if (strcmp(cmd, "capture") == 0)
		return main_capture(argc - 1, argv + 1);
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		main_usage(stdout);
		return 0;
	}
	fprintf(stderr, "allocspike-querydata: unknown subcommand '%s'\n", cmd);
	main_usage(stderr);
	return 2;
}
