/* controller/scenario_options.c - allocspike-run options (scenario_options.h): a scenario's command
 * line parsed and preset, then checked (scenario_options_check.c) and printed for the shell, or its
 * --help list (scenario_options_help.c). */
#include "scenario_options.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "json_file.h"
#include "scenario_options_state.h"

void scenario_options_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run options --scenario NAME [--uses LIST] [--default NAME=VALUE]...\n"
	    "                       [--help-text NAME=TEXT]... [--default-text NAME=TEXT]...\n"
	    "                       [--quick-default NAME=VALUE]... [--lists LIST] [--one-of A,B]\n"
	    "                       [--refuse NAME=WHY]... [--pass-rest] -- ARGS...\n"
	    "  a scenario's options: ARGS parsed, --quick applied, every value checked; prints\n"
	    "  'opt NAME VALUE' lines (tab-separated; durations also as NAME_ms, sizes as\n"
	    "  NAME_bytes, numbers in thousandths as NAME_milli), 'set NAME' for each option\n"
	    "  given, 'json OBJECT' for run.json, with --pass-rest 'rest WORD' for each\n"
	    "  argument that is not the scenario's (for spike.sh); on --help the values, then\n"
	    "  'help' and the scenario's option list\n");
}

/* A bad command line of allocspike-run options itself (the scenario's own code is wrong). */
static int controller_fail(const char *what, const char *text)
{
	fprintf(stderr, "allocspike-run options: %s '%s'\n", what, text);
	scenario_options_usage(stderr);
	return CLI_EXIT_USAGE;
}

/* The shell reads a value as the rest of one tab-separated line: no newline, no tab, and no other
 * control character either (none belongs in a name, a number or a path). */
static void refuse_control(const char *what, const char *value)
{
	for (const unsigned char *p = (const unsigned char *)value; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			scenario_fail(
			    "%s: the value holds a control character (a newline, a tab, ...); "
			    "give a plain one",
			    what);
}

static void set_value(int i, const char *value)
{
	refuse_control(option_flag(i), value);
	option_states[i].value = value;
}

/* --pass-rest: the arguments that are not the scenario's, in their order, for spike.sh; room for
 * two words an argument (--name=value is handed back as --name and value, as the shell always
 * passed it on). */
static bool pass_rest;
static char **rest_words;
static int rest_count;

static void keep_rest(const char *word, size_t len)
{
	char *copy = strndup(word, len);
	if (!copy)
		scenario_fail("out of memory");
	refuse_control("an argument for spike.sh", copy);
	rest_words[rest_count++] = copy;
}

/* ---- the scenario's command line ---- */

static void apply_quick(void)
{
	if (strcmp(option_value("quick"), "1") != 0)
		return;
	for (const struct scenario_option_preset *p = scenario_option_quick; p->name; p++)
		option_default_unset(p->name, p->value);
	for (size_t i = 0; i < scenario_option_count; i++)
		if (option_states[i].quick_value && !option_states[i].set)
			option_states[i].value = option_states[i].quick_value;
}

/* ARGS as the scenarios read them: --name value, --name=value, old names with a warning; --help
 * prints the values so far and the list. Returns false on --help. */
static bool parse_args(int argc, char **argv)
{
	int next = 0;
	rest_words = calloc(2 * (size_t)argc + 1, sizeof(*rest_words));
	if (!rest_words)
		scenario_fail("out of memory");
	const char *pending = NULL; /* the value part of --name=value, the next argument */
	while (pending || next < argc) {
		const char *arg = pending ? pending : argv[next++];
		pending = NULL;
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
			return false;
		if (strncmp(arg, "--", 2) != 0) {
			if (!pass_rest)
				scenario_fail("unexpected argument '%s'", arg);
			keep_rest(arg, strlen(arg));
			continue;
		}
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
		bool renamed = false;
		for (const struct scenario_option_rename *r = scenario_option_renames; r->old_name;
		     r++)
			if (strcmp(name, r->old_name) == 0) {
				snprintf(name, sizeof(name), "%s", r->new_name);
				renamed = true;
			}
		int i = name[strspn(name, "abcdefghijklmnopqrstuvwxyz_")] ? -1 : option_index(name);
		if (i >= 0 && option_states[i].refusal)
			scenario_fail("%s is not taken: %s", opt, option_states[i].refusal);
		if (pass_rest && (i < 0 || !option_states[i].used)) {
			keep_rest(arg, len);
			if (pending)
				keep_rest(pending, strlen(pending));
			pending = NULL;
			continue;
		}
		if (renamed)
			fprintf(
			    stderr,
			    "%s: warning: %s is now %s; the old name goes in the next release\n",
			    scenario_name, opt, option_flag(i));
		if (i < 0)
			scenario_fail("unknown option '%s'", opt);
		if (!option_states[i].used)
			scenario_fail(
			    "option '%s' does not apply to %s.sh (--help lists its options)", opt,
			    scenario_name);
		if (scenario_option_table[i].kind == OPTION_FLAG) {
			option_states[i].value = "1";
		} else {
			if (!pending && next >= argc)
				scenario_fail("option %s needs a value", opt);
			set_value(i, pending ? pending : argv[next++]);
			pending = NULL;
		}
		option_states[i].set = true;
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
		const char *v = option_states[i].value;
		printf("opt\t%s\t%s\n", o->name, v);
		long long ms = 0;
		unsigned long long bytes = 0;
		char err[256];
		if (o->kind == OPTION_DURATION && option_duration_ms(v, CLI_UNIT_REQUIRED, 1, &ms))
			printf("opt\t%s_ms\t%lld\n", o->name, ms);
		if (o->kind == OPTION_SIZE &&
		    cli_parse_size("", v, 0, ~0ULL, &bytes, err, sizeof(err)))
			printf("opt\t%s_bytes\t%llu\n", o->name, bytes);
		/* the shell has integers only: a multiple in thousandths keeps its products in bash
		 */
		double x;
		if (o->kind == OPTION_NUMBER &&
		    cli_parse_number("", v, 0, 1e12, &x, err, sizeof(err)))
			printf("opt\t%s_milli\t%lld\n", o->name, llround(x * 1000));
	}
	for (size_t i = 0; i < scenario_option_count; i++)
		if (option_states[i].set)
			printf("set\t%s\n", scenario_option_table[i].name);
	for (int k = 0; k < rest_count; k++)
		printf("rest\t%s\n", rest_words[k]);
}

static int by_name(const void *a, const void *b)
{
	const struct scenario_option *x = *(const struct scenario_option *const *)a;
	const struct scenario_option *y = *(const struct scenario_option *const *)b;
	return strcmp(x->name, y->name);
}

/* run.json's parameters.options: every option of a run as given or defaulted, all strings, by
 * name (a plan's options are no run's). */
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
		ok = sorted[i]->group == SCENARIO_GROUP_PLAN ||
		     json_object_set_new(
		         obj, sorted[i]->name,
		         json_string(option_states[sorted[i] - scenario_option_table].value)) == 0;
	ok = ok && json_print_line(stdout, "json\t", obj);
	json_decref(obj);
	free(sorted);
	return ok;
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

/* A,B of --one-of: the rows of options A and B. */
static bool split_pair(const char *arg, int rows[2])
{
	const char *comma = strchr(arg, ',');
	char first[64];
	if (!comma || (size_t)(comma - arg) >= sizeof(first))
		return false;
	snprintf(first, sizeof(first), "%.*s", (int)(comma - arg), arg);
	rows[0] = option_index(first);
	rows[1] = option_index(comma + 1);
	return rows[0] >= 0 && rows[1] >= 0;
}

/* --uses LIST (as_list false) or --lists LIST: the names (blanks or commas between them) this
 * scenario takes, or takes as comma-separated lists. Returns a name not in the table, or NULL. */
static const char *mark_names(const char *list, bool as_list)
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
		if (as_list)
			option_states[i].list = true;
		else
			option_states[i].used = true;
		p += len;
	}
	return NULL;
}

int scenario_options_main(int argc, char **argv)
{
	option_states = calloc(scenario_option_count, sizeof(*option_states));
	if (!option_states) {
		fprintf(stderr, "allocspike-run options: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	const char *uses_list = NULL;
	for (size_t i = 0; i < scenario_option_count; i++)
		option_states[i].value = scenario_option_table[i].default_value;
	int a = 1;
	for (; a < argc && strcmp(argv[a], "--") != 0; a++) {
		const char *o = argv[a], *text = NULL;
		int i = -1;
		if (strcmp(o, "--help") == 0) {
			scenario_options_usage(stdout);
			return CLI_EXIT_OK;
		}
		if (strcmp(o, "--pass-rest") == 0) {
			pass_rest = true;
			continue;
		}
		if (a + 1 >= argc)
			return controller_fail("a value is needed after", o);
		const char *v = argv[++a];
		if (strcmp(o, "--scenario") == 0) {
			scenario_name = v;
			continue;
		}
		if (strcmp(o, "--uses") == 0) {
			uses_list = v;
			continue;
		}
		if (strcmp(o, "--one-of") == 0) {
			if (!split_pair(v, one_of_rows))
				return controller_fail(
				    "--one-of: not A,B with A and B options of the table:", v);
			continue;
		}
		if (strcmp(o, "--lists") == 0) {
			const char *bad = mark_names(v, true);
			if (bad)
				return controller_fail("--lists: not an option of the table:", bad);
			continue;
		}
		if (strcmp(o, "--default") != 0 && strcmp(o, "--help-text") != 0 &&
		    strcmp(o, "--default-text") != 0 && strcmp(o, "--quick-default") != 0 &&
		    strcmp(o, "--refuse") != 0)
			return controller_fail("unknown option", o);
		if (!split_setting(v, &i, &text))
			return controller_fail("not NAME=TEXT with NAME an option of the table:",
			                       v);
		if (strcmp(o, "--default") == 0)
			option_states[i].value = text;
		else if (strcmp(o, "--help-text") == 0)
			option_states[i].help = text;
		else if (strcmp(o, "--default-text") == 0)
			option_states[i].default_text = text;
		else if (strcmp(o, "--refuse") == 0)
			option_states[i].refusal = text;
		else
			option_states[i].quick_value = text;
	}
	if (a >= argc)
		return controller_fail("the scenario's arguments follow", "--");
	if (uses_list) {
		const char *bad = mark_names(uses_list, false);
		if (bad)
			return controller_fail("--uses: not an option of the table:", bad);
	} else { /* every option of a run: a plan's are no run's */
		for (size_t i = 0; i < scenario_option_count; i++)
			option_states[i].used =
			    scenario_option_table[i].group != SCENARIO_GROUP_PLAN;
	}
	bool run = parse_args(argc - a - 1, argv + a + 1);
	if (!run) {
		print_values();
		printf("help\n");
		scenario_options_print_help();
		return CLI_EXIT_OK;
	}
	scenario_options_validate();
	print_values();
	if (!print_json()) {
		fprintf(stderr, "allocspike-run options: cannot write the options as JSON\n");
		return CLI_EXIT_FAILED;
	}
	free(option_states);
	option_states = NULL;
	for (int k = 0; k < rest_count; k++)
		free(rest_words[k]);
	free(rest_words);
	return CLI_EXIT_OK;
}
