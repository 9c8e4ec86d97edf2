/* common/ready_file.h - a started row's ready file: "ready ADDR:PORT" (where it serves DNS) first,
 * then "ready-tls ADDR:PORT" where it serves DNS over TLS, and "pid N" where a launcher names the
 * daemon it started (scenarios/daemons/lib/row.sh). Read by allocspike-agent and the served
 * controller alike. */
#ifndef ALLOCSPIKE_COMMON_READY_FILE_H
#define ALLOCSPIKE_COMMON_READY_FILE_H

#include <stdbool.h>
#include <sys/types.h>

struct ready_file {
	char addr[128];     /* "ready" */
	char tls_addr[128]; /* "ready-tls", "" without one */
	pid_t pid;          /* "pid", 0 without one */
};

/* Whether path's first line is "ready ADDR"; the lines into out. */
bool ready_file_read(const char *path, struct ready_file *out);

#endif
