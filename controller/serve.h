/* controller/serve.h - allocspike-run supervise --serve: a controller alive for a scenario's whole
 * run, starting, watching and stopping its processes as the scenario asks over a control socket
 * (docs/controller.md, "A served run"). */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_H
#define ALLOCSPIKE_CONTROLLER_SERVE_H

/* The longest request or answer line: a generator's command with a target per variant. */
#define SERVE_LINE_MAX 65536

struct serve_conduct;

/* Serves on socket_path for the run folder out_dir (its processes.tsv made by `register`), or,
 * out_dir NULL (--begin), for the folder the request `begin` makes; returns the exit status once
 * asked to `shutdown`. With conduct (serve_conduct.h), out_dir NULL: begins the run itself, runs
 * its steps and returns once they ended and the run is finished (conduct->end). */
int serve_main(const char *socket_path, const char *out_dir, struct serve_conduct *conduct);

#endif
