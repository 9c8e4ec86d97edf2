/* controller/cpu_placement.c - allocspike-run placement (cpu_placement.h). */
#include "cpu_placement.h"

#include <sched.h>
#include <string.h>

#include "cli_parse.h"
#include "run_context.h"
#include "supervise_plan.h"

void cpu_placement_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run placement MODE\n"
	        "  --cpu-placement MODE (auto, none or HARNESS/RESOLVERS) decided: the harness's\n"
	        "  and the resolvers' CPU lists, tab-separated (empty: not pinned); exit 2 with\n"
	        "  the option's error when a given list is not usable here\n");
}

/* As taskset -c LIST would take it: a CPU list sharing a CPU with those this process may use. */
static bool cpu_list_usable(const char *list)
{
	cpu_set_t given, allowed;
	if (!supervise_plan_cpus(list, &given) || CPU_COUNT(&given) == 0 ||
	    sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return false;
	CPU_AND(&given, &given, &allowed);
	return CPU_COUNT(&given) > 0;
}

/* One side of HARNESS/RESOLVERS (len bytes of text) into out, checked usable. */
static bool cpu_placement_side(const char *text, size_t len, char *out, size_t size, char *err,
                               size_t err_size)
{
	snprintf(out, size, "%.*s", (int)len, text);
	if (len < size && cpu_list_usable(out))
		return true;
	snprintf(err, err_size, "--cpu-placement: CPUs '%.*s' are not usable here", (int)len, text);
	return false;
}

bool cpu_placement_choose(const char *mode, struct cpu_placement *p, char *err, size_t err_size)
{
	p->harness[0] = p->resolvers[0] = '\0';
	if (strcmp(mode, "none") == 0)
		return true;
	if (strcmp(mode, "auto") == 0) {
		/* on fewer than 4 cores, pinning would starve one side */
		long cores = run_context_cores();
		if (cores >= 4) {
			snprintf(p->harness, sizeof(p->harness), "0");
			snprintf(p->resolvers, sizeof(p->resolvers), "1-%ld", cores - 1);
		}
		return true;
	}
	const char *slash = strchr(mode, '/');
	size_t harness_len = slash ? (size_t)(slash - mode) : strlen(mode);
	const char *resolvers = slash ? slash + 1 : mode;
	return cpu_placement_side(mode, harness_len, p->harness, sizeof(p->harness), err,
	                          err_size) &&
	       cpu_placement_side(resolvers, strlen(resolvers), p->resolvers, sizeof(p->resolvers),
	                          err, err_size);
}

json_t *cpu_placement_json(const char *mode, const char *harness, const char *resolvers)
{
	return json_pack("{s:s, s:s, s:s}", "mode", mode, "harness", harness, "resolvers",
	                 resolvers);
}

int placement_main(int argc, char **argv)
{
	if (argc != 2) {
		cpu_placement_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct cpu_placement p;
	char err[512];
	if (!cpu_placement_choose(argv[1], &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return CLI_EXIT_USAGE;
	}
	printf("%s\t%s\n", p.harness, p.resolvers);
	return CLI_EXIT_OK;
}
