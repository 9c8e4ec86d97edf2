/* controller/scenario_options_help.c - a scenario's option list for --help: grouped, each with
 * the default it runs with, wrapped at 100 columns (scenario_options_state.h). */
#include "scenario_options_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	const char *help =
	    option_states[i].help && option_states[i].help[0] ? option_states[i].help : o->help;
	const char *dflt = option_states[i].default_text && option_states[i].default_text[0]
	                       ? option_states[i].default_text
	                   : o->default_text && o->default_text[0] ? o->default_text
	                                                           : option_states[i].value;
	if (o->kind == OPTION_FLAG || !dflt[0])
		dflt = "-";
	char head[96], *line = NULL;
	if (option_states[i].list)
		snprintf(head, sizeof(head), "  %s %s[,%s...]", option_flag(i), o->arg, o->arg);
	else
		snprintf(head, sizeof(head), "  %s%s%s", option_flag(i), o->arg[0] ? " " : "",
		         o->arg);
	bool ok = strcmp(dflt, "-") == 0
	              ? asprintf(&line, "%-24s %s", head, help) >= 0
	              : asprintf(&line, "%-24s %s (default: %s)", head, help, dflt) >= 0;
	if (ok)
		print_wrapped(out, line);
	free(line);
}

/* The option list of this scenario, grouped, with its defaults (the scenario prints its own
 * first lines before it). */
void scenario_options_print_help(void)
{
	for (int g = 0; g < SCENARIO_OPTION_GROUPS; g++) {
		char *text = NULL;
		size_t size = 0;
		FILE *group = open_memstream(&text, &size);
		if (!group)
			continue;
		for (size_t i = 0; i < scenario_option_count; i++)
			if (option_states[i].used && (int)scenario_option_table[i].group == g)
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
