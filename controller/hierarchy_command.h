/* controller/hierarchy_command.h - the simulated hierarchy's command (allocspike-upstream) and the
 * parameters run.json records of it, made from a run's options (docs/controller.md, "The
 * hierarchy"): one builder for the served run's `hierarchy` request and for `allocspike-run
 * hierarchy-argv`, the plan --dry-run prints. */
#ifndef ALLOCSPIKE_CONTROLLER_HIERARCHY_COMMAND_H
#define ALLOCSPIKE_CONTROLLER_HIERARCHY_COMMAND_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define HIERARCHY_MAX_ARGS 40
#define HIERARCHY_FIELDS 6 /* seed, latency_ms_median, latency_ms_p99, loss, block, world */

/* The options the hierarchy's command is made of, read and checked from run.json's
 * parameters.options (every option by name as a string). */
struct hierarchy_options {
	const char *world, *flat_tlds, *latency_ms, *loss, *seed, *block; /* the object's texts */
	bool applied_log;
	/* the run passes latency and loss to the hierarchy: in the lan and flat worlds always, the
	 * values being theirs; in the others, which set their own, only when the user gave them */
	bool sets_latency, sets_loss;
	double latency_median, loss_value;
	/* spike.sh --hosts: the rows on other hosts reach it by a route to its block (the agents
	 * told its port on their command line): port 53 and a UDP socket per server address, as a
	 * shared socket bound to lo sees nothing from another host (docs/upstream.md, "Sockets") */
	bool across_hosts;
};

/* options (an object of strings) and given (the options the user gave, "NAME,NAME", may be "")
 * into o, which points into options; false with the refused value in err. */
bool hierarchy_options_read(struct hierarchy_options *o, const json_t *options, const char *given,
                            char *err, size_t err_size);

/* The hierarchy's command for a run in dir with its control folder ctl_dir, on port ("0": any;
 * 53 across hosts);
 * argv[argc] is NULL. Its root hints go to dir/root.hints, its ready line to
 * ctl_dir/upstream.ready. */
struct hierarchy_command {
	char *argv[HIERARCHY_MAX_ARGS + 1];
	int argc;
};
bool hierarchy_command_make(struct hierarchy_command *c, const struct hierarchy_options *o,
                            const char *program, const char *dir, const char *ctl_dir,
                            const char *port);
void hierarchy_command_free(struct hierarchy_command *c);

/* parameters.hierarchy's seed, latency_ms_median, latency_ms_p99, loss (null where the world sets
 * them), block and world, as runjson-fields' KEY:=JSON and KEY=TEXT words. */
struct hierarchy_fields {
	char text[HIERARCHY_FIELDS][96];
	char *words[HIERARCHY_FIELDS]; /* pointing into text */
};
void hierarchy_parameter_fields(const struct hierarchy_options *o, struct hierarchy_fields *f);

/* allocspike-run hierarchy-argv ...: argv[0] is "hierarchy-argv"; the exit status. */
int hierarchy_argv_main(int argc, char **argv);
void hierarchy_argv_usage(FILE *out);

#endif
