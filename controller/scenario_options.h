/* controller/scenario_options.h - allocspike-run options: the scenarios' one option parser.
 *
 * A scenario (spike.sh, ramp.sh, steady.sh, cpu.sh, footprint.sh, serve.sh, and tune.sh and
 * scale.sh, which hand the rest of their command line on to spike.sh) hands its command line over
 * with the names of the options it takes and its own defaults and help texts; the controller parses
 * it, applies the --quick preset, checks every value by its kind (docs/cli.md's grammar,
 * common/cli_parse) and prints the values as NAME<TAB>VALUE lines the shell reads without eval, or
 * the scenario's --help list (docs/controller.md, "A scenario's options"). */
#ifndef ALLOCSPIKE_SCENARIO_OPTIONS_H
#define ALLOCSPIKE_SCENARIO_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* What a value must be; the check and the message follow from it. */
enum scenario_option_kind {
	OPTION_FLAG,         /* no value: given means 1 */
	OPTION_TEXT,         /* any text (a few are checked by name) */
	OPTION_COUNT,        /* a whole number */
	OPTION_POSITIVE,     /* a whole number, 1 or more */
	OPTION_NUMBER,       /* a non-negative decimal number */
	OPTION_MULTIPLE,     /* a decimal number above 0 */
	OPTION_DURATION,     /* a duration, a unit required; also printed as NAME_ms */
	OPTION_MS,           /* a duration, a bare number is milliseconds; rewritten in whole ms */
	OPTION_SIZE,         /* a size; also printed as NAME_bytes */
	OPTION_LATENCY,      /* M[,P99] milliseconds, rewritten as M,P99 */
	OPTION_RATE_OR_AUTO, /* a whole number or auto */
	OPTION_LAYOUT,       /* heap or kresd */
	OPTION_WORLD,        /* lan, internet, hostile or flat */
	OPTION_PLACEMENT,    /* auto, none or HARNESS_CPUS/RESOLVER_CPUS */
	OPTION_BLOCK,        /* a loopback CIDR */
	OPTION_TOOLS,        /* callgrind, perf or both */
	OPTION_OUTDIR,       /* a run folder: checked by the scenario (files_outdir_problem) */
};

enum scenario_option_group {
	SCENARIO_GROUP_PLAN, /* tune.sh's, scale.sh's plan of spike.sh runs: not in run.json */
	SCENARIO_GROUP_DATA,
	SCENARIO_GROUP_SCHEDULE,
	SCENARIO_GROUP_HIERARCHY,
	SCENARIO_GROUP_RUN,
	SCENARIO_OPTION_GROUPS
};

struct scenario_option {
	const char *name; /* with '_'; the flag is --name-with-dashes */
	enum scenario_option_kind kind;
	const char *arg; /* the value's name in --help ("" for a flag) */
	enum scenario_option_group group;
	const char *help;
	const char *default_text; /* NULL: the value is the default text; "-": none */
	const char *default_value;
};

struct scenario_option_rename {
	const char *old_name, *new_name;
};

struct scenario_option_preset {
	const char *name, *value;
};

extern const struct scenario_option scenario_option_table[];
extern const size_t scenario_option_count;
extern const char *const scenario_option_group_titles[SCENARIO_OPTION_GROUPS];
extern const struct scenario_option_rename scenario_option_renames[]; /* NULL-terminated */
extern const struct scenario_option_preset scenario_option_quick[];   /* NULL-terminated */

/* allocspike-run options ...: argv[0] is "options". Returns the exit status. */
int scenario_options_main(int argc, char **argv);
void scenario_options_usage(FILE *out);

#endif
