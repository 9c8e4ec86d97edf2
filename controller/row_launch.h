/* controller/row_launch.h - the command a scenario's row runs, of any kind, made in one place for
 * the served controller (row-start, serve_rows.h) and for the plan a dry run prints
 * (`allocspike-run row-command`): a build or env row through the variants' builder
 * (common/variant_command.h) with the run's resolver settings, the root hints, the upstream port,
 * its own upstream source 127.0.1.N (N: its place in the run's rows, so the hierarchy counts the
 * rows apart), its control socket and ready file in the control folder, and a wrapper's words
 * before it; a daemon row through its definition's launcher (common/daemon_row.h).
 * docs/controller.md, "A run's rows". */
#ifndef ALLOCSPIKE_CONTROLLER_ROW_LAUNCH_H
#define ALLOCSPIKE_CONTROLLER_ROW_LAUNCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "variants_table.h"

/* The run's settings of every row: SETTINGS words, `TABLE BIN_DIR DAEMONS_DIR ROWS HINTS
 * UPSTREAM_PORT TLS_DIR [-- RESOLVER-OPTION...]`, ROWS the run's rows in order (a,b,c), TLS_DIR
 * empty outside a --clients run (else its server.pem and server.key). Pointers into the words. */
#define ROW_SETTINGS_WORDS 7
#define ROW_SETTINGS_USAGE                                                                         \
	"TABLE BIN_DIR DAEMONS_DIR ROWS HINTS UPSTREAM_PORT TLS_DIR [-- RESOLVER-OPTION...]"
struct row_settings {
	const char *bin_dir, *daemons_dir, *rows, *root_hints, *upstream_port, *tls_dir;
	char *const *options;
	size_t n_options;
	struct variants_table table; /* read from TABLE */
};
bool row_settings_parse(char *const *w, int n, struct row_settings *out, char *err, size_t size);
void row_settings_free(struct row_settings *s);

/* One row's launch: what is started (env(1), the row's environment, the wrapper, the resolver; or
 * the daemon's launcher), run.json's `command` (the resolver and its options; the launcher's
 * words), and its paths. */
struct row_launch {
	char **argv; /* NULL-terminated */
	size_t argc;
	char *command;
	bool daemon;
	char control[PATH_MAX]; /* CTL/NAME.sock */
	char ready[PATH_MAX];   /* CTL/NAME.ready */
	char workdir[PATH_MAX]; /* a daemon's: DIR/daemons/NAME */
	char log[PATH_MAX];     /* DIR/logs/NAME.log */
};

/* Row name's launch into out: DIR the folder its log (and a daemon's workdir) go in, CTL the
 * control folder, tls its DNS over TLS (a build row whose binary serves it, a daemon row whose
 * definition may), wrap the wrapper's words (build and env rows only). False with why in err. */
bool row_launch_build(const struct row_settings *s, const char *name, const char *dir,
                      const char *ctl, bool tls, char *const *wrap, size_t n_wrap,
                      struct row_launch *out, char *err, size_t size);
void row_launch_free(struct row_launch *l);

/* allocspike-run row-command NAME DIR CTL SETTINGS...: the launch's words, one a line. */
void row_command_usage(FILE *out);
int row_command_main(int argc, char **argv);

#endif
