/* controller/loadgen_command.h - the generator's command (allocspike-loadgen) for one schedule of a
 * run, made from the run's options (docs/controller.md, "The generator"): one builder for the
 * served run's `generate` request and for `allocspike-run loadgen-argv`, the plan --dry-run
 * prints. */
#ifndef ALLOCSPIKE_CONTROLLER_LOADGEN_COMMAND_H
#define ALLOCSPIKE_CONTROLLER_LOADGEN_COMMAND_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The options the generator's command is made of, from run.json's parameters.options (every
 * option by name as a string, as the option parser checked and rewrote them). */
struct loadgen_options {
	const char *interval_ms, *timeout_ms; /* timeout_ms "": the generator's own */
	bool clients;                         /* --clients: a connection spike's client options */
	const char *client_count, *tcp_share, *dot_share, *tcp_idle;
};

/* options (an object of strings) into o, which points into options; false with why in err. */
bool loadgen_options_read(struct loadgen_options *o, const json_t *options, char *err,
                          size_t err_size);

/* What one generator run is given besides the options. */
struct loadgen_run {
	const char *program, *queries, *schedule, *dir; /* dir: its --out, the run's folder */
	const char *const *targets; /* the rows' --target words (row-targets') */
	size_t target_count;
	const char *upstream_pid; /* the hierarchy's, for --watch name=_upstream; NULL: none runs */
};

/* The command, NULL-terminated, its words allocated (variant_words_free); NULL when out of
 * memory. */
char **loadgen_command_make(const struct loadgen_options *o, const struct loadgen_run *run);

/* A row's --target word into out: name=NAME,addr=ADDR,pid=PID,control=CONTROL and, in a --clients
 * run (dot not NULL), ,dot=DOT (its DNS over TLS address, or tcp); false when it does not fit. */
bool loadgen_target_word(char *out, size_t size, const char *name, const char *addr,
                         const char *pid, const char *control, const char *dot);

/* allocspike-run loadgen-argv ...: argv[0] is "loadgen-argv"; the exit status. */
int loadgen_argv_main(int argc, char **argv);
void loadgen_argv_usage(FILE *out);

#endif
