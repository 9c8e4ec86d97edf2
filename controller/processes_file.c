/* controller/processes_file.c - a run's processes.tsv read back (processes_file.h). */
#include "processes_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc_stat.h"
#include "run_registry.h"

long processes_file_read(const char *run_dir, struct proc_target *targets, size_t max,
                         bool *owner_alive)
{
	char path[4200], line[512];
	snprintf(path, sizeof(path), "%s/processes.tsv", run_dir);
	*owner_alive = false;
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t count = 0;
	while (fgets(line, sizeof(line), f) && count < max) {
		struct proc_target t = {.pidfd = -1};
		char *end;
		char *tab = strchr(line, '\t');
		if (!tab || (size_t)(tab - line) >= sizeof(t.name))
			continue;
		snprintf(t.name, sizeof(t.name), "%.*s", (int)(tab - line), line);
		long pid = strtol(tab + 1, &end, 10);
		if (*end != '\t' || pid <= 1)
			continue; /* the header, or a row cut off */
		t.pid = (pid_t)pid;
		t.start_ticks = strtoull(end + 1, NULL, 10);
		if (strcmp(t.name, RUN_OWNER_SCENARIO) == 0 ||
		    strcmp(t.name, RUN_OWNER_CONTROLLER) == 0) {
			*owner_alive = *owner_alive || proc_stat_same(t.pid, t.start_ticks);
			continue;
		}
		targets[count++] = t;
	}
	fclose(f);
	return (long)count;
}
