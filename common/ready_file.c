/* common/ready_file.c - a row's ready file (ready_file.h). */
#include "ready_file.h"

#include <stdio.h>
#include <string.h>

/* The rest of line after prefix, its newline dropped, into out; false when it does not start so. */
static bool line_value(const char *line, const char *prefix, char *out, size_t size)
{
	size_t n = strlen(prefix);
	if (strncmp(line, prefix, n) != 0)
		return false;
	snprintf(out, size, "%.*s", (int)strcspn(line + n, "\n"), line + n);
	return true;
}

bool ready_file_read(const char *path, struct ready_file *out)
{
	*out = (struct ready_file){0};
	char line[256];
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(line, sizeof(line), f) &&
	          line_value(line, "ready ", out->addr, sizeof(out->addr));
	long n;
	char end;
	while (ok && fgets(line, sizeof(line), f))
		if (!line_value(line, "ready-tls ", out->tls_addr, sizeof(out->tls_addr)) &&
		    sscanf(line, "pid %ld%c", &n, &end) == 2 && end == '\n' && n > 0)
			out->pid = (pid_t)n;
	fclose(f);
	return ok;
}
