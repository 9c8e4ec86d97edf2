/* controller/settings_check.c - allocspike-run settings expected|check: the scenarios' gate on a
 * row's allocator settings (a setting that did not take would measure the allocator's defaults
 * under the row's name), over common/env_settings.c. */
#include "settings_check.h"

#include <string.h>

#include "cli_parse.h"
#include "env_settings.h"

void settings_usage(FILE *out)
{
	fprintf(out, "usage: allocspike-run settings expected ENV_CELL\n"
	             "       allocspike-run settings check ENV_CELL VERSION_JSON\n");
}

static void print_setting(const struct env_setting *s, void *arg)
{
	fprintf((FILE *)arg, "%s %s\n", s->name, s->value);
}

int settings_main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "expected") == 0) {
		env_settings_each(argv[2], print_setting, stdout);
		return CLI_EXIT_OK;
	}
	if (argc == 4 && strcmp(argv[1], "check") == 0)
		return env_settings_check(argv[2], argv[3], stdout) == 0 ? CLI_EXIT_OK : 1;
	fprintf(stderr, "allocspike-run settings: %s\n",
	        argc < 2 ? "expected or check is required" : "wrong arguments");
	settings_usage(stderr);
	return CLI_EXIT_USAGE;
}
