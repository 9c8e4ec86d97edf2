/* loadgen/targets.h - what --target and --watch name: a server to load and/or a process to watch.
 */
#ifndef ALLOCSPIKE_LOADGEN_TARGETS_H
#define ALLOCSPIKE_LOADGEN_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#define TARGET_NAME_MAX 64

struct target_spec {
	char name[TARGET_NAME_MAX];
	bool has_addr; /* false for --watch rows: process columns only */
	struct sockaddr_storage addr;
	socklen_t addr_len;
	pid_t pid;         /* 0: none */
	char control[108]; /* Unix socket path of the resolver's control socket, or "" */
	/* dot=IP:PORT: where the DoT clients connect (a resolver serves DNS over TLS on a port of
	 * its own); dot=tcp: the target has no DNS over TLS, its DoT clients speak plain TCP to
	 * addr. Neither: DoT to addr. */
	bool has_dot_addr, dot_as_tcp;
	struct sockaddr_storage dot_addr;
	socklen_t dot_addr_len;
};

/* Parses "name=NAME,addr=IP:PORT[,dot=IP:PORT|tcp][,pid=N][,control=PATH]" (watch:
 * "name=NAME,pid=N"). */
bool target_parse(const char *text, bool watch, struct target_spec *out, char *err,
                  size_t err_size);

#endif
