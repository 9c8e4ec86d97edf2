/* controller/scenario_options_state.c - one scenario's options as this run has them
 * (scenario_options_state.h). */
#include "scenario_options_state.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"

const char *scenario_name = "scenario";
struct option_state *option_states;
int one_of_rows[2] = {-1, -1};

int option_index(const char *name)
{
	for (size_t i = 0; i < scenario_option_count; i++)
		if (strcmp(scenario_option_table[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* --name-with-dashes of option i. */
const char *option_flag(int i)
{
	static char flag[64];
	snprintf(flag, sizeof(flag), "--%s", scenario_option_table[i].name);
	for (char *p = flag; *p; p++)
		if (*p == '_')
			*p = '-';
	return flag;
}

const char *option_value(const char *name)
{
	int i = option_index(name);
	return i < 0 ? "" : option_states[i].value;
}

/* A bad command line of the scenario: the reason, its usage line, status 2. */
_Noreturn void scenario_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", scenario_name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: scenarios/%s.sh [options]   (--help lists them)\n",
	        scenario_name);
	exit(CLI_EXIT_USAGE);
}

void option_set_rewritten(int i, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(option_states[i].rewritten, sizeof(option_states[i].rewritten), fmt, ap);
	va_end(ap);
	option_states[i].value = option_states[i].rewritten;
}

void option_default_unset(const char *name, const char *value)
{
	int i = option_index(name);
	if (i >= 0 && !option_states[i].set)
		option_states[i].value = value;
}

/* docs/cli.md's duration in whole milliseconds (rounded), from min_ms up to a week. */
bool option_duration_ms(const char *text, double bare_unit, double min_ms, long long *ms)
{
	char err[256];
	double s = 0;
	if (!cli_parse_duration("", text, bare_unit, min_ms / 1000, 604800, &s, err, sizeof(err)))
		return false;
	*ms = (long long)floor(s * 1000 + 0.5);
	return true;
}
