/* controller/launch.c - allocspike-run launch (launch.h). */
#include "launch.h"

#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "parent_death.h"
#include "supervise_plan.h"

void launch_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run launch --parent PID [--cpus LIST] -- COMMAND...\n"
	        "  becomes COMMAND in a new process group, killed when PID (its parent) dies\n");
}

int launch_main(int argc, char **argv)
{
	long parent = 0;
	const char *cpus_text = NULL;
	int i = 1;
	for (; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		char *end;
		if (strcmp(argv[i], "--parent") == 0) {
			parent = strtol(argv[i + 1], &end, 10);
			if (*end || parent <= 1)
				parent = 0;
		} else if (strcmp(argv[i], "--cpus") == 0) {
			cpus_text = argv[i + 1];
		} else {
			break;
		}
	}
	cpu_set_t cpus;
	bool cpus_ok = !cpus_text || !*cpus_text || supervise_plan_cpus(cpus_text, &cpus);
	if (!parent || i >= argc - 1 || strcmp(argv[i], "--") != 0 || !cpus_ok) {
		fprintf(stderr, "allocspike-run launch: %s\n",
		        !cpus_ok ? "--cpus: not a CPU list (e.g. 0-1,3)"
		                 : "--parent PID, then -- and the command, are expected");
		launch_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* our programs under a wrapper (perf stat) arm the same signal themselves */
	char text[32];
	snprintf(text, sizeof(text), "%ld", parent);
	setenv(PARENT_DEATH_ENV, text, 1);
	launch_exec((pid_t)parent, argv[i + 1], cpus_text && *cpus_text ? &cpus : NULL, cpus_text,
	            argv + i + 1);
}
