/* common/daemon_row.h - the one command that starts a preload or external row of variants.tsv (a
 * daemon: kresd, unbound, ...), for allocspike-agent on its own host and for the served controller
 * of a scenario: its daemon definition's launcher (scenarios/daemons/lib/row.sh, from the
 * definitions folder given; nothing else is run), which prepares it, preloads its allocator and the
 * live sampler, waits until it answers, checks the allocator and writes the ready file with the
 * daemon's PID (docs/agent.md, "Starting a row"; docs/controller.md, "A run's rows"). */
#ifndef ALLOCSPIKE_COMMON_DAEMON_ROW_H
#define ALLOCSPIKE_COMMON_DAEMON_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "variants_table.h"

/* A row to start, of any kind. NULL: left out (the resolver's or the launcher's default). */
struct row_plan {
	const char *row;             /* its name in the table */
	const char *table;           /* variants.tsv */
	const char *root_hints;      /* the hierarchy's root hints (--root-hints) */
	const char *upstream_port;   /* NULL: the resolver's default */
	const char *upstream_source; /* NULL: none */
	const char *listen;          /* where it serves DNS (default 127.0.0.1:0) */
	const char *control;         /* its control socket (a daemon's sampler socket) */
	const char *daemons_dir; /* the daemon definitions (scenarios/daemons); NULL: none run */
	const char *workdir;     /* a daemon's working folder; NULL: CONTROL.daemon */
	const char *tls_cert;    /* a daemon's DNS over TLS: the certificate and key; NULL: none */
	const char *tls_key;
	char *const *options; /* the run's resolver options, passed on */
	size_t n_options;
};

/* Whether the table's row is a daemon (preload, external), which its definition starts. */
bool daemon_row_is_daemon(const struct variants_table *table, const char *name);

/* argv (NULL-terminated, each word malloc'ed; free with daemon_row_free) for plan's daemon row,
 * its ready file ready, the bin folder bin_dir (the build's is its parent). A daemon cannot take
 * port 0 nor send upstream to another port than 53: a listen address without a port gets a free
 * one picked here (and so does its DNS over TLS, given a certificate), an upstream port other than
 * 53 is refused (false, the reason in err; *refused set when the plan asked what a daemon cannot
 * do). */
bool daemon_row_command(const struct row_plan *plan, const char *ready, const char *bin_dir,
                        char ***argv, bool *refused, char *err, size_t err_size);
void daemon_row_free(char **argv);

#endif
