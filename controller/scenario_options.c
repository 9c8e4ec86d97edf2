/* controller/scenario_options.c - allocspike-run options (scenario_options.h): a scenario's command
 * line parsed, preset, checked and printed for the shell, or its --help list. */
#include "scenario_options.h"

#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_parse.h"

/* One option as this run has it: its value (the table's default, the scenario's, the user's, or a
 * rewritten one in `rewritten`) and the scenario's texts for --help. */
struct option_state {
	const char *value;
	char rewritten[48];
	bool set;  /* given by the user */
	bool used; /* taken by this scenario */
	const char *help, *default_text, *quick_value;
};

static const char *scenario = "scenario";
/* Reachable until exit: a usage error exits from deep in the checks. */
static struct option_state *opts;

void scenario_options_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run options --scenario NAME [--uses LIST] [--default NAME=VALUE]...\n"
	    "                       [--help-text NAME=TEXT]... [--default-text NAME=TEXT]...\n"
	    "                       [--quick-default NAME=VALUE]... -- ARGS...\n"
	    "  a scenario's options: ARGS parsed, --quick applied, every value checked; prints\n"
	    "  'opt NAME VALUE' lines (tab-separated; durations also as NAME_ms, sizes as\n"
	    "  NAME_bytes), 'set NAME' for each option given, 'json OBJECT' for run.json; on\n"
	    "  --help the values, then 'help' and the scenario's option list\n");
}

/* ---- the table ---- */

static int option_index(const char *name)
{
	for (size_t i = 0; i < scenario_option_count; i++)
		if (strcmp(scenario_option_table[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* --name-with-dashes of option i. */
static const char *option_flag(int i)
{
	static char flag[64];
	snprintf(flag, sizeof(flag), "--%s", scenario_option_table[i].name);
	for (char *p = flag; *p; p++)
		if (*p == '_')
			*p = '-';
	return flag;
}

static const char *value_of(const char *name)
{
	int i = option_index(name);
	return i < 0 ? "" : opts[i].value;
}

/* ---- failing ---- */

/* A bad command line of the scenario: the reason, its usage line, status 2. */
static _Noreturn void scenario_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", scenario);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: scenarios/%s.sh [options]   (--help lists them)\n", scenario);
	exit(CLI_EXIT_USAGE);
}

/* A bad command line of allocspike-run options itself (the scenario's own code is wrong). */
static int controller_fail(const char *what, const char *text)
{
	fprintf(stderr, "allocspike-run options: %s '%s'\n", what, text);
	scenario_options_usage(stderr);
	return CLI_EXIT_USAGE;
}

/* ---- values ---- */

/* The shell reads a value as the rest of one tab-separated line: no newline, no tab, and no other
 * control character either (none belongs in a name, a number or a path). */
static void set_value(int i, const char *value)
{
	for (const unsigned char *p = (const unsigned char *)value; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			scenario_fail(
			    "%s: the value holds a control character (a newline, a tab, ...); "
			    "give a plain one",
			    option_flag(i));
	opts[i].value = value;
}

static void set_rewritten(int i, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(opts[i].rewritten, sizeof(opts[i].rewritten), fmt, ap);
	va_end(ap);
	opts[i].value = opts[i].rewritten;
}

static void default_unset(const char *name, const char *value)
{
	int i = option_index(name);
	if (i >= 0 && !opts[i].set)
		opts[i].value = value;
}

static bool matches(const char *pattern, const char *text)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return false;
	bool ok = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

/* docs/cli.md's duration in whole milliseconds (rounded), from min_ms up to a week. */
static bool duration_ms(const char *text, double bare_unit, double min_ms, long long *ms)
{
	char err[256];
	double s = 0;
	if (!cli_parse_duration("", text, bare_unit, min_ms / 1000, 604800, &s, err, sizeof(err)))
		return false;
	*ms = (long long)floor(s * 1000 + 0.5);
	return true;
}

static bool is_count(const char *text, unsigned long long min, unsigned long long max,
                     unsigned long long *n)
{
	char err[256];
	return cli_parse_count("", text, min, max, n, err, sizeof(err));
}

static bool is_number(const char *text, double min, double max, double *x)
{
	char err[256];
	return cli_parse_number("", text, min, max, x, err, sizeof(err));
}

/* MEDIAN[,P99] in milliseconds (P99 alone: 10 x M, the flat world's delay M), as MEDIAN,P99. */
static void check_latency(int i, const char *flag, const char *val)
{
	const char *comma = strchr(val, ',');
	char median_text[64];
	snprintf(median_text, sizeof(median_text), "%.*s",
	         comma ? (int)(comma - val) : (int)strlen(val), val);
	long long med = 0, p99 = 0;
	bool ok = strlen(val) < sizeof(median_text) && duration_ms(median_text, 0.001, 0, &med) &&
	          duration_ms(comma ? comma + 1 : val, 0.001, 0, &p99) &&
	          !(comma && strchr(comma + 1, ','));
	if (!ok)
		scenario_fail("%s: '%s' is not MEDIAN or MEDIAN,P99 in milliseconds (e.g. 20,200)",
		              flag, val);
	if (!comma)
		p99 = med * (strcmp(value_of("world"), "flat") == 0 ? 1 : 10);
	if (p99 < med)
		scenario_fail("%s: the 99th percentile %lld is below the median %lld", flag, p99,
		              med);
	set_rewritten(i, "%lld,%lld", med, p99);
}

/* The value of option i is of its kind (docs/cli.md), else exit 2; a millisecond duration is
 * rewritten as whole milliseconds, the latency as MEDIAN,P99. */
static void check_kind(int i)
{
	const char *val = opts[i].value, *flag = option_flag(i);
	unsigned long long n = 0;
	long long ms = 0;
	double x = 0;
	switch (scenario_option_table[i].kind) {
	case OPTION_COUNT:
		if (!is_count(val, 0, ~0ULL, &n))
			scenario_fail("%s: '%s' is not a whole number (e.g. 10)", flag, val);
		break;
	case OPTION_NUMBER:
		if (!is_number(val, 0, 1e300, &x))
			scenario_fail("%s: '%s' is not a number (e.g. 0.5, 20)", flag, val);
		break;
	case OPTION_DURATION:
		if (!duration_ms(val, CLI_UNIT_REQUIRED, 1, &ms))
			scenario_fail(
			    "%s: '%s' is not a duration (e.g. 20s, 1.5m, 500ms; a unit is "
			    "required)",
			    flag, val);
		break;
	case OPTION_MS:
		if (!duration_ms(val, 0.001, 1, &ms))
			scenario_fail(
			    "%s: '%s' is not a duration (e.g. 100, 250ms, 2s; a bare number "
			    "is milliseconds)",
			    flag, val);
		set_rewritten(i, "%lld", ms);
		break;
	case OPTION_SIZE: {
		char err[256];
		if (!cli_parse_size("", val, 0, ~0ULL, &n, err, sizeof(err)))
			scenario_fail("%s: '%s' is not a size (e.g. 4M, 512k, 1GiB)", flag, val);
		break;
	}
	case OPTION_LATENCY:
		check_latency(i, flag, val);
		break;
	case OPTION_RATE_OR_AUTO:
		if (strcmp(val, "auto") != 0 && !is_count(val, 0, ~0ULL, &n))
			scenario_fail("%s: '%s' is not a rate or 'auto'", flag, val);
		break;
	case OPTION_LAYOUT:
		if (!matches("^(heap|kresd)$", val))
			scenario_fail("%s: '%s' is not heap or kresd", flag, val);
		break;
	case OPTION_WORLD:
		if (!matches("^(lan|internet|hostile|flat)$", val))
			scenario_fail("%s: '%s' is not lan, internet, hostile or flat", flag, val);
		break;
	case OPTION_PLACEMENT:
		if (!matches("^(auto|none|[0-9,-]+/[0-9,-]+)$", val))
			scenario_fail(
			    "%s: '%s' is not auto, none or HARNESS_CPUS/RESOLVER_CPUS (e.g. "
			    "0/1-3)",
			    flag, val);
		break;
	case OPTION_BLOCK:
		if (!matches("^127\\.[0-9]+\\.[0-9]+\\.[0-9]+/[0-9]+$", val))
			scenario_fail("%s: '%s' is not a loopback CIDR like 127.53.0.0/16", flag,
			              val);
		break;
	case OPTION_TOOLS:
		if (!matches("^(callgrind|perf)(,(callgrind|perf))?$", val))
			scenario_fail("%s: '%s' is not callgrind, perf or both", flag, val);
		break;
	case OPTION_FLAG:
	case OPTION_TEXT:
	case OPTION_OUTDIR: /* the scenario's files_outdir_problem: it knows the run folders */
		break;
	}
}

static bool uses(const char *name)
{
	int i = option_index(name);
	return i >= 0 && opts[i].used;
}

static bool given(const char *name)
{
	int i = option_index(name);
	return i >= 0 && opts[i].set;
}

static unsigned long long count_or_zero(const char *name)
{
	unsigned long long n = 0;
	return is_count(value_of(name), 0, ~0ULL, &n) ? n : 0;
}

/* spike.sh --clients: its options go with --clients only; shares from 0 to 1, at most 1 together.
 */
static void check_clients(void)
{
	static const char *const with_clients[] = {"tcp_share", "dot_share", "client_count",
	                                           "spike_clients", "tcp_idle"};
	if (strcmp(value_of("clients"), "1") != 0) {
		for (size_t k = 0; k < sizeof(with_clients) / sizeof(with_clients[0]); k++)
			if (given(with_clients[k]))
				scenario_fail("%s goes with --clients",
				              option_flag(option_index(with_clients[k])));
		return;
	}
	double tcp = -1, dot = -1;
	if (!is_number(value_of("tcp_share"), 0, 1, &tcp) ||
	    !is_number(value_of("dot_share"), 0, 1, &dot) || tcp + dot > 1)
		scenario_fail(
		    "--tcp-share and --dot-share: each from 0 to 1, at most 1 together (got "
		    "%s and %s)",
		    value_of("tcp_share"), value_of("dot_share"));
	unsigned long long n = 0;
	if (!is_count(value_of("client_count"), 1, 1000000, &n))
		scenario_fail("--client-count: from 1 to 1000000");
	if (!is_count(value_of("spike_clients"), 1, 1000000, &n))
		scenario_fail("--spike-clients: from 1 to 1000000");
}

/* Every value this scenario takes checked by its kind, then the checks across options. */
static void validate(void)
{
	unsigned long long n = 0;
	double x = 0;
	if (strcmp(value_of("world"), "flat") == 0) {
		/* the flat world's own fixed delay and loss, allocspike-upstream's
		 * (tests/upstream/defaults.sh), where not given */
		default_unset("latency_ms", "20,20");
		default_unset("loss", "0");
	}
	for (size_t i = 0; i < scenario_option_count; i++)
		if (opts[i].used && opts[i].value[0])
			check_kind((int)i);
	if (!is_count(value_of("port"), 0, 65535, &n))
		scenario_fail("--port: '%s' is out of range (0 to 65535)", value_of("port"));
	if (!is_count(value_of("repeat"), 1, ~0ULL, &n))
		scenario_fail("--repeat wants 1 or more");
	if (!is_count(value_of("interval_ms"), 10, ~0ULL, &n))
		scenario_fail("--interval-ms wants 10 ms or more");
	if (uses("flat_tlds")) {
		if (!is_count(value_of("flat_tlds"), 1, 100000, &n))
			scenario_fail("--flat-tlds: '%s' is out of range (1 to 100000)",
			              value_of("flat_tlds"));
		if (given("flat_tlds") && strcmp(value_of("world"), "flat") != 0)
			scenario_fail("--flat-tlds: only for --world flat (this run's world is %s)",
			              value_of("world"));
	}
	if (!is_number(value_of("loss"), 0, 1, &x))
		scenario_fail("--loss: '%s' is out of range (0 to 1)", value_of("loss"));
	if (!matches("^[A-Za-z0-9_.,-]*$", value_of("variants")))
		scenario_fail("--variants wants names separated by commas, got '%s'",
		              value_of("variants"));
	const char *queries = value_of("queries");
	if (queries[0] && access(queries, R_OK) != 0)
		scenario_fail("--queries: cannot read '%s'", queries);
	int warmup = option_index("warmup_rate");
	if (!opts[warmup].value[0])
		set_rewritten(warmup, "%llu", count_or_zero("baseline_rate") * 2);
	if (uses("clients"))
		check_clients();
}

/* ---- the scenario's command line ---- */

static void apply_quick(void)
{
	if (strcmp(value_of("quick"), "1") != 0)
		return;
	for (const struct scenario_option_preset *p = scenario_option_quick; p->name; p++)
		default_unset(p->name, p->value);
	for (size_t i = 0; i < scenario_option_count; i++)
		if (opts[i].quick_value && !opts[i].set)
			opts[i].value = opts[i].quick_value;
}

static void print_help(void);
static void print_values(void);

/* ARGS as the scenarios read them: --name value, --name=value, old names with a warning; --help
 * prints the values so far and the list. Returns false on --help. */
static bool parse_args(int argc, char **argv)
{
	int next = 0;
	const char *pending = NULL; /* the value part of --name=value, the next argument */
	while (pending || next < argc) {
		const char *arg = pending ? pending : argv[next++];
		pending = NULL;
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
			return false;
		if (strncmp(arg, "--", 2) != 0)
			scenario_fail("unexpected argument '%s'", arg);
		char opt[128];
		const char *eq = strchr(arg, '=');
		size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
		snprintf(opt, sizeof(opt), "%.*s", (int)len, arg);
		if (len >= sizeof(opt))
			scenario_fail("unknown option '%s'", arg);
		if (eq)
			pending = eq + 1;
		if (strcmp(opt, "--help") == 0)
			return false;
		char name[128];
		snprintf(name, sizeof(name), "%s", opt + 2);
		for (char *p = name; *p; p++)
			if (*p == '-')
				*p = '_';
		for (const struct scenario_option_rename *r = scenario_option_renames; r->old_name;
		     r++)
			if (strcmp(name, r->old_name) == 0) {
				snprintf(name, sizeof(name), "%s", r->new_name);
				fprintf(stderr,
				        "%s: warning: %s is now %s; the old name goes in the next "
				        "release\n",
				        scenario, opt, option_flag(option_index(name)));
			}
		int i = name[strspn(name, "abcdefghijklmnopqrstuvwxyz_")] ? -1 : option_index(name);
		if (i < 0)
			scenario_fail("unknown option '%s'", opt);
		if (!opts[i].used)
			scenario_fail(
			    "option '%s' does not apply to %s.sh (--help lists its options)", opt,
			    scenario);
		if (scenario_option_table[i].kind == OPTION_FLAG) {
			opts[i].value = "1";
		} else {
			if (!pending && next >= argc)
				scenario_fail("option %s needs a value", opt);
			set_value(i, pending ? pending : argv[next++]);
			pending = NULL;
		}
		opts[i].set = true;
	}
	apply_quick();
	return true;
}

/* ---- output ---- */

/* The shell's lines: every option's value, durations in ms and sizes in bytes beside them, what
 * the user gave. */
static void print_values(void)
{
	for (size_t i = 0; i < scenario_option_count; i++) {
		const struct scenario_option *o = &scenario_option_table[i];
		const char *v = opts[i].value;
		printf("opt\t%s\t%s\n", o->name, v);
		long long ms = 0;
		unsigned long long bytes = 0;
		char err[256];
		if (o->kind == OPTION_DURATION && duration_ms(v, CLI_UNIT_REQUIRED, 1, &ms))
			printf("opt\t%s_ms\t%lld\n", o->name, ms);
		if (o->kind == OPTION_SIZE &&
		    cli_parse_size("", v, 0, ~0ULL, &bytes, err, sizeof(err)))
			printf("opt\t%s_bytes\t%llu\n", o->name, bytes);
	}
	for (size_t i = 0; i < scenario_option_count; i++)
		if (opts[i].set)
			printf("set\t%s\n", scenario_option_table[i].name);
}

static int by_name(const void *a, const void *b)
{
	const struct scenario_option *x = *(const struct scenario_option *const *)a;
	const struct scenario_option *y = *(const struct scenario_option *const *)b;
	return strcmp(x->name, y->name);
}

/* run.json's parameters.options: every option as given or defaulted, all strings, by name. */
static bool print_json(void)
{
	const struct scenario_option **sorted = calloc(scenario_option_count, sizeof(*sorted));
	json_t *obj = json_object();
	bool ok = sorted && obj;
	for (size_t i = 0; ok && i < scenario_option_count; i++)
		sorted[i] = &scenario_option_table[i];
	if (ok)
		qsort(sorted, scenario_option_count, sizeof(*sorted), by_name);
	for (size_t i = 0; ok && i < scenario_option_count; i++)
		ok = json_object_set_new(
		         obj, sorted[i]->name,
		         json_string(opts[sorted[i] - scenario_option_table].value)) == 0;
	char *text = ok ? json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	if (text)
		printf("json\t%s\n", text);
	free(text);
	json_decref(obj);
	free(sorted);
	return text != NULL;
}

/* TEXT on lines of at most 100 characters, continued under the help column. */
static void print_wrapped(FILE *out, const char *text)
{
	char *line = strdup(text);
	while (line && strlen(line) > 100) {
		size_t cut = 100;
		for (size_t k = 100; k-- > 0;)
			if (line[k] == ' ') {
				cut = k;
				break;
			}
		const char *rest =
		    line + cut + 1; /* the space, or the 101st character as bash did */
		char *next = NULL;
		if (asprintf(&next, "%25s%s", "", rest) < 0 || strlen(next) >= strlen(line)) {
			free(next); /* no shorter line to be had: the rest as it is */
			break;
		}
		fprintf(out, "%.*s\n", (int)cut, line);
		free(line);
		line = next;
	}
	fprintf(out, "%s\n", line ? line : text);
	free(line);
}

/* One option's line: flag, argument, help, and the default where there is one to say. */
static void print_option(FILE *out, int i)
{
	const struct scenario_option *o = &scenario_option_table[i];
	const char *help = opts[i].help && opts[i].help[0] ? opts[i].help : o->help;
	const char *dflt = opts[i].default_text && opts[i].default_text[0] ? opts[i].default_text
	                   : o->default_text && o->default_text[0]         ? o->default_text
	                                                                   : opts[i].value;
	if (o->kind == OPTION_FLAG || !dflt[0])
		dflt = "-";
	char head[96], *line = NULL;
	snprintf(head, sizeof(head), "  %s%s%s", option_flag(i), o->arg[0] ? " " : "", o->arg);
	bool ok = strcmp(dflt, "-") == 0
	              ? asprintf(&line, "%-24s %s", head, help) >= 0
	              : asprintf(&line, "%-24s %s (default: %s)", head, help, dflt) >= 0;
	if (ok)
		print_wrapped(out, line);
	free(line);
}

/* The option list of this scenario, grouped, with its defaults (the scenario prints its own first
 * lines before it). */
static void print_help(void)
{
	for (int g = 0; g < SCENARIO_OPTION_GROUPS; g++) {
		char *text = NULL;
		size_t size = 0;
		FILE *group = open_memstream(&text, &size);
		if (!group)
			continue;
		for (size_t i = 0; i < scenario_option_count; i++)
			if (opts[i].used && (int)scenario_option_table[i].group == g)
				print_option(group, (int)i);
		fclose(group);
		if (size)
			printf("%s\n%s", scenario_option_group_titles[g], text);
		free(text);
	}
	printf("  %-22s %s\n", "--help", "this text");
	printf("Every option also reads as --name=value. Exit status: 0 done, 1 the run failed, 2 "
	       "usage "
	       "(docs/cli.md).\n");
}

/* ---- allocspike-run options ---- */

/* NAME=TEXT of --default, --help-text, --default-text and --quick-default: option i and TEXT. */
static bool split_setting(const char *arg, int *i, const char **text)
{
	const char *eq = strchr(arg, '=');
	char name[64];
	if (!eq || (size_t)(eq - arg) >= sizeof(name))
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	*i = option_index(name);
	*text = eq + 1;
	return *i >= 0;
}

/* --uses LIST: the names (blanks or commas between them) this scenario takes. */
static const char *mark_used(const char *list)
{
	static char bad[64];
	const char *p = list;
	while (*p) {
		size_t skip = strspn(p, " ,\n\t"), len;
		p += skip;
		len = strcspn(p, " ,\n\t");
		if (!len)
			break;
		char name[64];
		snprintf(name, sizeof(name), "%.*s",
		         (int)(len < sizeof(name) ? len : sizeof(name) - 1), p);
		int i = len < sizeof(name) ? option_index(name) : -1;
		if (i < 0) {
			snprintf(bad, sizeof(bad), "%s", name);
			return bad;
		}
		opts[i].used = true;
		p += len;
	}
	return NULL;
}

int scenario_options_main(int argc, char **argv)
{
	opts = calloc(scenario_option_count, sizeof(*opts));
	if (!opts) {
		fprintf(stderr, "allocspike-run options: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	const char *uses_list = NULL;
	for (size_t i = 0; i < scenario_option_count; i++)
		opts[i].value = scenario_option_table[i].default_value;
	int a = 1;
	for (; a < argc && strcmp(argv[a], "--") != 0; a++) {
		const char *o = argv[a], *text = NULL;
		int i = -1;
		if (strcmp(o, "--help") == 0) {
			scenario_options_usage(stdout);
			return CLI_EXIT_OK;
		}
		if (a + 1 >= argc)
			return controller_fail("a value is needed after", o);
		const char *v = argv[++a];
		if (strcmp(o, "--scenario") == 0) {
			scenario = v;
			continue;
		}
		if (strcmp(o, "--uses") == 0) {
			uses_list = v;
			continue;
		}
		if (strcmp(o, "--default") != 0 && strcmp(o, "--help-text") != 0 &&
		    strcmp(o, "--default-text") != 0 && strcmp(o, "--quick-default") != 0)
			return controller_fail("unknown option", o);
		if (!split_setting(v, &i, &text))
			return controller_fail("not NAME=TEXT with NAME an option of the table:",
			                       v);
		if (strcmp(o, "--default") == 0)
			opts[i].value = text;
		else if (strcmp(o, "--help-text") == 0)
			opts[i].help = text;
		else if (strcmp(o, "--default-text") == 0)
			opts[i].default_text = text;
		else
			opts[i].quick_value = text;
	}
	if (a >= argc)
		return controller_fail("the scenario's arguments follow", "--");
	if (uses_list) {
		const char *bad = mark_used(uses_list);
		if (bad)
			return controller_fail("--uses: not an option of the table:", bad);
	} else {
		for (size_t i = 0; i < scenario_option_count; i++)
			opts[i].used = true;
	}
	bool run = parse_args(argc - a - 1, argv + a + 1);
	if (!run) {
		print_values();
		printf("help\n");
		print_help();
		return CLI_EXIT_OK;
	}
	validate();
	print_values();
	if (!print_json()) {
		fprintf(stderr, "allocspike-run options: cannot write the options as JSON\n");
		return CLI_EXIT_FAILED;
	}
	free(opts);
	opts = NULL;
	return CLI_EXIT_OK;
}
