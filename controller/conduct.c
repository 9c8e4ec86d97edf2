/* controller/conduct.c - allocspike-run conduct (conduct.h). */
#include "conduct.h"

#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_parse.h"
#include "conduct_report.h"
#include "identifier.h"
#include "run_registry.h"
#include "serve.h"
#include "serve_conduct.h"
#include "variant_command.h"

/* The control folder's path, so that its sockets stay within a socket address's 108 bytes */
#define CONDUCT_STATE_PATH_MAX 60

void conduct_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run conduct --scenario NAME --out DIR [--report run|cpu|none]\n"
	        "                       --root DIR --bin DIR --options JSON [--given LIST]\n"
	        "allocspike-run conduct --scenario NAME --out DIR [--report run|cpu|none]\n"
	        "                       -- COMMAND...\n"
	        "  begins the run in DIR and carries out its steps: those of scenario NAME\n"
	        "  (spike, footprint, ramp, steady, cpu) from the source tree's variants.tsv,\n"
	        "  the programs in --bin, the run's options (run.json's parameters.options)\n"
	        "  and the options the user gave; or COMMAND run as its child, asking over\n"
	        "  $" CONDUCT_CONTROL_ENV
	        ". Takes Ctrl-C, SIGTERM and SIGHUP as the run's interruption,\n"
	        "  finishes the run and makes its report; exit 0 completed, 130 interrupted,\n"
	        "  1 failed\n");
}

/* The run's control folder, made new: in the state folder, named by our PID (so the next run
 * removes it when this one is killed: clean-stale), or in $TMPDIR without one or when its path
 * is too long for the sockets. */
static bool conduct_ctl_dir(char *dir, size_t size)
{
	char state[4096], err[4400];
	if (run_registry_dir(state, sizeof(state), err, sizeof(err)) &&
	    strlen(state) <= CONDUCT_STATE_PATH_MAX)
		snprintf(dir, size, "%s/ctl-%ld.XXXXXX", state, (long)getpid());
	else
		snprintf(dir, size, "%s/allocspike-ctl.XXXXXX",
		         getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) != NULL;
}

static int conduct_usage_error(const char *why)
{
	fprintf(stderr, "allocspike-run conduct: %s\n", why);
	conduct_usage(stderr);
	return CLI_EXIT_USAGE;
}

int conduct_main(int argc, char **argv)
{
	enum {
		OPT_SCENARIO = 256,
		OPT_OUT,
		OPT_REPORT,
		OPT_ROOT,
		OPT_BIN,
		OPT_OPTIONS,
		OPT_GIVEN,
		OPT_HELP
	};
	static const struct option opts[] = {
	    {"scenario", required_argument, NULL, OPT_SCENARIO},
	    {"out", required_argument, NULL, OPT_OUT},
	    {"report", required_argument, NULL, OPT_REPORT},
	    {"root", required_argument, NULL, OPT_ROOT},
	    {"bin", required_argument, NULL, OPT_BIN},
	    {"options", required_argument, NULL, OPT_OPTIONS},
	    {"given", required_argument, NULL, OPT_GIVEN},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	struct serve_conduct c = {0};
	enum conduct_report_kind kind = CONDUCT_REPORT_RUN;
	char why[256];
	int o;
	while ((o = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (o) {
		case OPT_SCENARIO:
			if (!identifier_valid(optarg, why, sizeof(why)))
				return conduct_usage_error(why);
			c.scenario = optarg;
			break;
		case OPT_OUT:
			c.out = optarg;
			break;
		case OPT_REPORT:
			if (!conduct_report_kind_parse(optarg, &kind))
				return conduct_usage_error("--report: not run, cpu or none");
			break;
		case OPT_ROOT:
			c.steps_root = optarg;
			break;
		case OPT_BIN:
			c.steps_bin = optarg;
			break;
		case OPT_OPTIONS:
			c.steps_options = optarg;
			break;
		case OPT_GIVEN:
			c.steps_given = optarg;
			break;
		case OPT_HELP:
			conduct_usage(stdout);
			return CLI_EXIT_OK;
		default:
			conduct_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	bool own = c.steps_root || c.steps_bin || c.steps_options || c.steps_given;
	if (!c.scenario || !c.out)
		return conduct_usage_error("--scenario and --out are required");
	if (own && (optind < argc || !c.steps_root || !c.steps_bin || !c.steps_options))
		return conduct_usage_error(
		    "the scenario's own steps take --root, --bin and --options, "
		    "and no command");
	if (!own && optind >= argc)
		return conduct_usage_error("a command after --, or --root, --bin and --options, is "
		                           "required");
	c.argv = own ? NULL : argv + optind;
	if (own && !c.steps_given)
		c.steps_given = "";
	/* a scenario with a report of its own does without the header-only timeline.csv */
	c.timeline = kind != CONDUCT_REPORT_CPU;
	/* the report beside us: the build's bin/, or PREFIX/bin */
	char report[PATH_MAX + 32];
	if (variant_command_bin_dir(report, PATH_MAX)) {
		strcat(report, "/allocspike-report");
		if (access(report, X_OK) == 0)
			c.report = report;
	}
	char ctl[PATH_MAX], socket_path[PATH_MAX + 16];
	if (!conduct_ctl_dir(ctl, sizeof(ctl))) {
		fprintf(stderr, "%s: error: cannot create a control folder: %s\n", c.scenario, ctl);
		return CLI_EXIT_FAILED;
	}
	snprintf(socket_path, sizeof(socket_path), "%s/run.sock", ctl);
	serve_main(socket_path, NULL, &c);
	run_registry_remove_ctl_dir(AT_FDCWD, ctl);
	if (!c.dir[0])
		return CLI_EXIT_FAILED;
	const char *end = c.end[0] ? c.end : "failed";
	fprintf(stderr, "%s: run %s: %s\n", c.scenario, end, c.dir);
	conduct_report_make(kind, c.report, c.dir, c.scenario);
	if (strcmp(end, "completed") == 0)
		return CLI_EXIT_OK;
	return strcmp(end, "interrupted") == 0 ? 130 : CLI_EXIT_FAILED;
}
