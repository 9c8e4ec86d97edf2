/* controller/daemon_stats.c - allocspike-run daemon-stats (daemon_stats.h). */
#include "daemon_stats.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "json_file.h"

void daemon_stats_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run daemon-stats OUTPUT... FIGURE=EXPR...\n"
	        "  a daemon definition's stats line from what the daemon's tools printed\n"
	        "  OUTPUT: --text LABEL=FILE (NAME=VALUE lines), --values LABEL=FILE NAME,...\n"
	        "  (one value a line, in that order), --json LABEL=FILE (a JSON object,\n"
	        "  counters by dotted path); FILE - is stdin\n"
	        "  EXPR: null, or COUNTER[+COUNTER]...: COUNTER is required, COUNTER//0 is 0\n"
	        "  and COUNTER//null makes the figure null when absent\n");
}

/* One term of EXPR: its counter name (cut at "//") and what its absence gives. */
enum daemon_stats_absent { ABSENT_ERROR, ABSENT_ZERO, ABSENT_NULL };

static bool daemon_stats_term(char *term, enum daemon_stats_absent *absent)
{
	char *dflt = strstr(term, "//");
	*absent = ABSENT_ERROR;
	if (dflt) {
		if (strcmp(dflt, "//0") == 0)
			*absent = ABSENT_ZERO;
		else if (strcmp(dflt, "//null") == 0)
			*absent = ABSENT_NULL;
		else
			return false;
		*dflt = '\0';
	}
	return term[0] != '\0';
}

int daemon_stats_figure(const struct daemon_counters *c, const char *word, json_t *line, char *err,
                        size_t err_size)
{
	const char *eq = strchr(word, '=');
	if (!eq || eq == word || eq[1] == '\0') {
		snprintf(err, err_size, "'%s' is not FIGURE=EXPR", word);
		return CLI_EXIT_USAGE;
	}
	char *figure = strndup(word, (size_t)(eq - word)), *expr = strdup(eq + 1), *rest = expr;
	json_t *value = NULL;
	int status = CLI_EXIT_OK;
	if (strcmp(expr, "null") == 0)
		value = json_null();
	unsigned long long sum = 0;
	/* strsep, not strtok: "a++b" has an empty term, which is refused */
	for (char *term = value ? NULL : strsep(&rest, "+");
	     status == CLI_EXIT_OK && term && !value; term = strsep(&rest, "+")) {
		enum daemon_stats_absent absent;
		unsigned long long v = 0;
		if (!daemon_stats_term(term, &absent)) {
			snprintf(err, err_size, "%s: '%s' is not COUNTER[//0|//null]", figure,
			         term);
			status = CLI_EXIT_USAGE;
			break;
		}
		switch (daemon_counters_get(c, term, &v, err, err_size)) {
		case DAEMON_COUNTER_BAD:
			status = CLI_EXIT_FAILED;
			break;
		case DAEMON_COUNTER_ABSENT:
			if (absent == ABSENT_NULL)
				value = json_null();
			else if (absent == ABSENT_ERROR) {
				char labels[256];
				daemon_counters_labels(c, labels, sizeof(labels));
				snprintf(err, err_size, "%s printed no %s", labels, term);
				status = CLI_EXIT_FAILED;
			}
			break;
		case DAEMON_COUNTER_FOUND:
			if (v > (unsigned long long)LLONG_MAX - sum) {
				snprintf(err, err_size, "%s: the sum outgrows a JSON integer",
				         figure);
				status = CLI_EXIT_FAILED;
			}
			sum += v;
			break;
		}
	}
	if (status == CLI_EXIT_OK)
		json_object_set_new(line, figure, value ? value : json_integer((json_int_t)sum));
	else
		json_decref(value);
	free(figure);
	free(expr);
	return status;
}

/* --text/--values/--json at argv[*i] read into c; *i moved past its words. The exit status. */
static int daemon_stats_output(struct daemon_counters *c, int argc, char **argv, int *i, char *err,
                               size_t err_size)
{
	const char *option = argv[*i];
	enum daemon_output kind;
	if (strcmp(option, "--text") == 0)
		kind = DAEMON_OUTPUT_TEXT;
	else if (strcmp(option, "--values") == 0)
		kind = DAEMON_OUTPUT_VALUES;
	else if (strcmp(option, "--json") == 0)
		kind = DAEMON_OUTPUT_JSON;
	else {
		snprintf(err, err_size, "unknown option %s", option);
		return CLI_EXIT_USAGE;
	}
	int words = kind == DAEMON_OUTPUT_VALUES ? 2 : 1;
	char *source = *i + 1 < argc ? argv[*i + 1] : NULL;
	char *eq = source ? strchr(source, '=') : NULL;
	if (*i + words >= argc || !eq || eq == source || eq[1] == '\0') {
		snprintf(err, err_size, "%s needs LABEL=FILE%s", option,
		         kind == DAEMON_OUTPUT_VALUES ? " NAME,NAME..." : "");
		return CLI_EXIT_USAGE;
	}
	*eq = '\0';
	const char *names = kind == DAEMON_OUTPUT_VALUES ? argv[*i + 2] : NULL;
	*i += words;
	return daemon_counters_read(c, kind, source, eq + 1, names, err, err_size)
	           ? CLI_EXIT_OK
	           : CLI_EXIT_FAILED;
}

int daemon_stats_main(int argc, char **argv)
{
	struct daemon_counters c = {.n = 0};
	json_t *line = json_object();
	char err[512];
	int status = CLI_EXIT_OK, n_figures = 0;
	char **figures = calloc((size_t)argc, sizeof(*figures));
	/* every output is read before any figure: a figure may sum counters of two */
	for (int i = 1; i < argc && status == CLI_EXIT_OK; i++) {
		if (strncmp(argv[i], "--", 2) == 0)
			status = daemon_stats_output(&c, argc, argv, &i, err, sizeof(err));
		else
			figures[n_figures++] = argv[i];
	}
	if (status == CLI_EXIT_OK && (c.n == 0 || n_figures == 0)) {
		snprintf(err, sizeof(err), "at least one OUTPUT and one FIGURE");
		status = CLI_EXIT_USAGE;
	}
	for (int i = 0; i < n_figures && status == CLI_EXIT_OK; i++)
		status = daemon_stats_figure(&c, figures[i], line, err, sizeof(err));
	if (status == CLI_EXIT_OK && !json_print_line(stdout, "", line)) {
		snprintf(err, sizeof(err), "out of memory");
		status = CLI_EXIT_FAILED;
	}
	if (status != CLI_EXIT_OK)
		fprintf(stderr, "allocspike-run daemon-stats: %s\n", err);
	if (status == CLI_EXIT_USAGE)
		daemon_stats_usage(stderr);
	daemon_counters_free(&c);
	json_decref(line);
	free(figures);
	return status;
}
