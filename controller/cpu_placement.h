/* controller/cpu_placement.h - allocspike-run placement: which CPUs a run's harness (generator,
 * hierarchy) and its resolvers are pinned to (docs/controller.md, "The CPU placement"). */
#ifndef ALLOCSPIKE_CONTROLLER_CPU_PLACEMENT_H
#define ALLOCSPIKE_CONTROLLER_CPU_PLACEMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct cpu_placement {
	char harness[128];   /* a taskset CPU list, "" when not pinned */
	char resolvers[128]; /* likewise */
};

void cpu_placement_usage(FILE *out);

/* mode is --cpu-placement's value: auto (harness on CPU 0, resolvers on the others, only with 4
 * cores or more), none, or HARNESS/RESOLVERS (each a CPU list this process may run on). False
 * with the option's error in err when a given list is not usable here. */
bool cpu_placement_choose(const char *mode, struct cpu_placement *p, char *err, size_t err_size);

/* run.json's parameters.cpu_placement: {mode, harness, resolvers}; NULL when out of memory. */
json_t *cpu_placement_json(const char *mode, const char *harness, const char *resolvers);

int placement_main(int argc, char **argv);

#endif
